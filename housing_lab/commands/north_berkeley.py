"""`housing-lab nb ...`: score scenarios and play automatic games of North Berkeley."""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO

from housing_lab.commands import arguments, nb_arguments
from housing_lab.commands.nb_coach import register_coach
from housing_lab.commands.north_berkeley_analysis import register_analysis
from housing_lab.commands.score_stream import score_batched, score_scalar
from housing_lab.errors import quote_path
from housing_lab.jsonio import JsonInputError, documents, open_bytes, stdin_bytes
from housing_lab.north_berkeley.errors import ScenarioFormatError
from housing_lab.north_berkeley.layout import Layout, load_layout
from housing_lab.north_berkeley.play.autoplay import default_names, play_random_game
from housing_lab.north_berkeley.policies import RuleOptions
from housing_lab.outputs import CountedLines, report_stop

MIN_PLAYERS, MAX_PLAYERS = 2, 6


def register(groups: argparse._SubParsersAction) -> None:
    commands = arguments.command_group(groups, "nb", help="the North Berkeley game")

    score = commands.add_parser(
        "score", help="score a scenario (JSON) or many (JSON Lines) and print the results"
    )
    nb_arguments.add_scenario_file(score)
    score.add_argument(
        "--events",
        action="store_true",
        help="also print the move-in events (who went where, in order)",
    )
    nb_arguments.add_rule_options(score)
    score.set_defaults(func=run_score)

    play = commands.add_parser("play", help="play a whole game with random automatic players")
    play.add_argument(
        "--players",
        type=arguments.count(MIN_PLAYERS, MAX_PLAYERS, "the number of players"),
        help="2 to 6 players or teams (default 3, or as many as --names)",
    )
    play.add_argument("--seed", type=arguments.seed, default=0)
    play.add_argument(
        "--names", type=arguments.text, help="comma-separated player names (default Player 1, ...)"
    )
    play.add_argument(
        "--current-score",
        choices=["as_is", "projected"],
        default="as_is",
        help="rule option: how the draft order's current score is computed",
    )
    play.set_defaults(func=run_play)
    register_analysis(commands)  # sample, solve
    register_coach(commands)


def run_score(args: argparse.Namespace) -> int:
    """Stream the results: one line per document, written as soon as its chunk is scored; a
    bad document stops the run (naming its line) after the results before it."""
    layout = load_layout(args.layout)
    options = nb_arguments.rule_options(args)
    if args.file == "-":
        _score(stdin_bytes(), layout, options, args.events, "stdin")
        return 0
    with open_bytes(args.file, ScenarioFormatError) as handle:
        _score(handle, layout, options, args.events, quote_path(args.file))
    return 0


def _score(
    stream: IO[bytes], layout: Layout, options: RuleOptions, events: bool, source: str
) -> None:
    printed = CountedLines(sys.stdout)
    out: IO[str] = printed  # type: ignore[assignment]
    try:
        with report_stop(lambda: printed.report("result", "results")):
            scenarios = documents(_Reading(stream, source))
            if events:
                score_scalar(scenarios, layout, options, out, events=True)
            else:
                score_batched(scenarios, layout, options, out)
    except JsonInputError as error:  # a scenario file's JSON problem is a scenario error
        raise ScenarioFormatError(f"{source}: {error}") from None
    # An OSError left here is the output's (a closed pipe, a full disk): `cli.main` words it.


class _Reading:
    """The input stream with its read errors worded as reading errors (the output's errors,
    raised while the same loop writes, must not be called "cannot read")."""

    def __init__(self, stream: IO[bytes], source: str) -> None:
        self.stream, self.source = stream, source

    def read(self, size: int = -1) -> bytes:
        try:
            return self.stream.read(size)
        except OSError as error:
            raise ScenarioFormatError(f"cannot read {self.source}: {error.strerror}") from None

    def readline(self, size: int = -1) -> bytes:
        try:
            return self.stream.readline(size)
        except OSError as error:
            raise ScenarioFormatError(f"cannot read {self.source}: {error.strerror}") from None


def play_names(players: int | None, names_text: str | None) -> list[str]:
    """The player names: --names and --players must agree when both are given."""
    if names_text is None:
        return default_names(3 if players is None else players)
    names = [name.strip() for name in names_text.split(",")]
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise ScenarioFormatError(
            f"--names gives {len(names)} names; a game has {MIN_PLAYERS} to {MAX_PLAYERS} players"
        )
    if players is not None and players != len(names):
        raise ScenarioFormatError(f"--names gives {len(names)} names but --players is {players}")
    return names


def run_play(args: argparse.Namespace) -> int:
    names = play_names(args.players, args.names)
    options = RuleOptions(current_score=args.current_score)
    game = play_random_game(names, seed=args.seed, options=options)
    print(json.dumps(game.game_log()))
    return 0

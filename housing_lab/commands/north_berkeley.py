"""`housing-lab nb ...`: score scenarios and play automatic games of North Berkeley."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from housing_lab.commands.north_berkeley_analysis import register_analysis
from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley.autoplay import default_names, play_random_game
from housing_lab.north_berkeley.errors import ScenarioFormatError
from housing_lab.north_berkeley.layout import load_layout
from housing_lab.north_berkeley.policies import RuleOptions
from housing_lab.north_berkeley.scenario import scenario_from_dict
from housing_lab.north_berkeley.scoring import score_scenario


def register(groups: argparse._SubParsersAction) -> None:
    parser = groups.add_parser("nb", help="the North Berkeley game")
    commands = parser.add_subparsers(dest="command", required=True)

    score = commands.add_parser(
        "score", help="score a scenario (JSON) or many (JSON Lines) and print the results"
    )
    score.add_argument("file", help="scenario file in the RULES.md JSON format, or - for stdin")
    score.add_argument("--layout", help="a custom layout TOML file (default: the printed board)")
    score.add_argument(
        "--events",
        action="store_true",
        help="also print the move-in events (who went where, in order)",
    )
    score.add_argument(
        "--low-income-in-adus",
        action="store_true",
        help="rule option: low income residents may take vacant ADU slots",
    )
    score.add_argument(
        "--newcomers-first",
        action="store_true",
        help="rule option: newcomers look for homes before displaced residents",
    )
    score.set_defaults(func=run_score)

    play = commands.add_parser("play", help="play a whole game with random automatic players")
    play.add_argument("--players", type=int, default=3, help="2 to 6 players or teams")
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--names", help="comma-separated player names (default Player 1, ...)")
    play.add_argument(
        "--current-score",
        choices=["as_is", "projected"],
        default="as_is",
        help="rule option: how the draft order's current score is computed",
    )
    play.set_defaults(func=run_play)
    register_analysis(commands)  # sample, solve


def read_input(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError as error:
        raise ScenarioFormatError(f"cannot read {path!r}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise ScenarioFormatError(f"{path!r} is not a UTF-8 text file") from None


def parse_documents(text: str) -> tuple[list[Any], bool]:
    """One JSON document, or JSON Lines (one per non-blank line). Returns (documents, is_lines)."""
    try:
        return [json.loads(text)], False
    except json.JSONDecodeError as whole_error:
        lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
        if len(lines) < 2:
            raise ScenarioFormatError(f"malformed JSON: {whole_error}") from None
    documents = []
    for number, line in lines:
        try:
            documents.append(json.loads(line))
        except json.JSONDecodeError as error:
            raise ScenarioFormatError(f"line {number}: malformed JSON: {error}") from None
    return documents, True


def run_score(args: argparse.Namespace) -> int:
    layout = load_layout(args.layout)
    options = RuleOptions(
        low_income_in_adus=args.low_income_in_adus, displaced_first=not args.newcomers_first
    )
    documents, is_lines = parse_documents(read_input(args.file))
    outputs = []
    for number, document in enumerate(documents, start=1):
        try:
            scenario = scenario_from_dict(document, layout)
        except HousingLabError as error:
            if is_lines:  # say which line, keep the error's type
                raise type(error)(f"line {number}: {error}") from None
            raise
        result = score_scenario(scenario, options)
        output = result.to_dict()
        if args.events:
            output["events"] = [event.to_dict() for event in result.move_in.events]
        outputs.append(output)
    for output in outputs:  # print only once every scenario is known to be good
        print(json.dumps(output))
    return 0


def run_play(args: argparse.Namespace) -> int:
    names = default_names(args.players)
    if args.names:
        names = [name.strip() for name in args.names.split(",")]
    options = RuleOptions(current_score=args.current_score)
    game = play_random_game(names, seed=args.seed, options=options)
    print(json.dumps(game.game_log()))
    return 0

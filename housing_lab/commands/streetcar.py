"""`housing-lab streetcar ...`: simulate bot games, replay a record, print perft counts.

User mistakes raise `HousingLabError` subclasses; `housing_lab.cli.main` turns them (and a
missing file) into one line on stderr and exit status 2 with nothing on stdout.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from housing_lab.commands import arguments
from housing_lab.errors import WriteError, quote_path
from housing_lab.jsonio import JsonInputError, load_path
from housing_lab.outputs import not_a_file, report_stop, write_text
from housing_lab.streetcar import BOTS, Board, Game, Rules
from housing_lab.streetcar.errors import RecordError
from housing_lab.streetcar.play.match import MatchSummary, check_series, play_match
from housing_lab.streetcar.record import final_block, replay, to_record

MAX_GAMES = 100_000
MAX_PENALTY = 1000
MAX_ITERATIONS = 1_000_000
MAX_SECONDS = 3600.0


def register(groups: argparse._SubParsersAction) -> None:
    """Add the `streetcar` group and its `simulate`, `replay` and `perft` commands."""
    commands = arguments.command_group(
        groups, "streetcar", help="the Streetcar game", description="Streetcar engine tools."
    )

    simulate = commands.add_parser(
        "simulate",
        help="play seeded bot games and write one record per game",
        description="Play N seeded games between bots A and B (seats alternate), write one "
        "record per game to DIR and print a one-line JSON summary.",
    )
    simulate.add_argument(
        "--games",
        type=arguments.count(1, MAX_GAMES, "the number of games"),
        default=1,
        help="number of games (default 1)",
    )
    simulate.add_argument("--seed", type=arguments.seed, default=0, help="series seed (default 0)")
    simulate.add_argument(
        "--bots",
        type=arguments.text,
        default="greedy,random",
        help=f"two of {', '.join(BOTS)} (default greedy,random)",
    )
    simulate.add_argument(
        "--out", type=arguments.text, required=True, help="directory for the game records"
    )
    simulate.add_argument(
        "--force", action="store_true", help="write into --out even if it holds files already"
    )
    simulate.add_argument(
        "--penalty",
        type=arguments.count(-MAX_PENALTY, MAX_PENALTY, "the penalty"),
        default=None,
        help="separate-line penalty",
    )
    simulate.add_argument(
        "--goals", type=arguments.text, default="", help="development goals, comma separated"
    )
    budget = simulate.add_mutually_exclusive_group()
    budget.add_argument(
        "--iterations",
        type=arguments.count(1, MAX_ITERATIONS, "the number of iterations"),
        default=None,
        help="search iterations per move for the mcts bot (reproducible)",
    )
    budget.add_argument(
        "--seconds",
        type=seconds,
        default=None,
        help="thinking time per move for the mcts bot (not reproducible: depends on the load)",
    )
    simulate.set_defaults(func=_simulate)

    replay = commands.add_parser(
        "replay",
        help="check a game record and print its final block",
        description="Replay a game record, checking every move, and print the final block.",
    )
    replay.add_argument("file", type=arguments.text, help="a game record (JSON)")
    replay.set_defaults(func=_replay)

    perft = commands.add_parser(
        "perft",
        help="geometry and first-turn move counts of the standard board",
        description="Print hexes, edges, intersections and first-turn line moves as JSON.",
    )
    perft.set_defaults(func=_perft)


def _simulate(args: argparse.Namespace) -> int:
    bots = [name.strip() for name in args.bots.split(",")]
    goals = frozenset(name.strip() for name in args.goals.split(",") if name.strip())
    rules = Rules(goals=goals) if args.penalty is None else Rules(args.penalty, goals)
    budget = {"iterations": args.iterations, "seconds": args.seconds}
    check_series(bots, args.games, **budget)
    out = output_folder(args.out, force=args.force)
    summary = MatchSummary((bots[0], bots[1]))
    written = 0
    with report_stop(lambda: _records_report(written, args.games, out)):
        for played in play_match(bots, args.games, seed=args.seed, rules=rules, **budget):
            record = json.dumps(to_record(played.game)) + "\n"
            write_text(out / f"game-{played.index + 1:04d}.json", record)
            written += 1
            summary.add(played)
    print(json.dumps({**summary.to_dict(), "out": str(out)}))  # last: every record is written
    return 0


def _records_report(written: int, games: int, out: Path) -> str:
    """What a stopped `simulate` leaves: the whole records of the games played so far."""
    if written == 0:
        return f"nothing written to {quote_path(out)}"
    return f"{written} of {games} game records written whole to {quote_path(out)}, no summary"


def seconds(text: str) -> float:
    """A time budget: a number of seconds above 0 and at most an hour."""
    try:
        value = float(text) if len(text) <= 30 else None
    except ValueError:
        value = None
    if value is None or not 0 < value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(
            f"seconds must be a number above 0 and at most {MAX_SECONDS:g}, got {text!r}"
        )
    return value


def output_folder(path: str, force: bool = False) -> Path:
    """The records' folder, created if missing; one holding files already is refused (older
    records would be overwritten or mixed in) unless `force`."""
    out = Path(path)
    if out.exists() and not out.is_dir():  # mkdir would say only "File exists"
        kind = not_a_file(out) or "a file"
        raise WriteError(f"cannot write {quote_path(path)}: it is {kind}, not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
        if not force and any(out.iterdir()):
            raise WriteError(
                f"folder {quote_path(path)} is not empty (use --force to write into it)"
            )
    except OSError as error:
        raise WriteError(f"cannot write {quote_path(path)}: {error.strerror}") from None
    return out


def _replay(args: argparse.Namespace) -> int:
    try:
        record = load_path(args.file)
    except JsonInputError as error:
        raise RecordError(str(error)) from None
    print(json.dumps(final_block(replay(record))))
    return 0


def _perft(args: argparse.Namespace) -> int:
    board = Board.standard()
    counts = board.counts()
    counts["first_turn_line_moves"] = Game(board).count_legal_moves()
    print(json.dumps(counts))
    return 0

"""`housing-lab nb sample` and `nb solve`: design-space analysis from the command line.

`sample` writes random boards with their results (computed by the batch evaluator) as JSON
Lines; `solve` prints the exact best board for a coalition of cards. Every mistake is a
`HousingLabError` (one line on stderr, exit 2, nothing on stdout).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley.batch import ALL_POLICY_SETS, GAME_POLICY_SETS, default_evaluator
from housing_lab.north_berkeley.errors import ScenarioFormatError
from housing_lab.north_berkeley.policies import RuleOptions
from housing_lab.north_berkeley.solver import every_card_nonnegative, pareto_frontier, solve
from housing_lab.north_berkeley.sweep import random_boards

SAMPLE_CHUNK = 1 << 14


def register_analysis(commands: argparse._SubParsersAction) -> None:
    """Add `sample` and `solve` to the `nb` sub-commands."""
    sample = commands.add_parser(
        "sample", help="random boards and their results as JSON Lines (batch evaluator)"
    )
    sample.add_argument("--boards", type=_count, required=True, help="how many boards")
    sample.add_argument("--seed", type=int, default=0)
    sample.add_argument("--out", help="output file (default: stdout)")
    sample.add_argument(
        "--all-policy-sets",
        action="store_true",
        help="draw from all 16 policy sets, not only the game's 10 (1 or 2)",
    )
    _rule_options(sample)
    sample.set_defaults(func=run_sample)

    solve_parser = commands.add_parser(
        "solve", help="the exact best board for a coalition of constituent cards"
    )
    solve_parser.add_argument("--cards", required=True, help="comma-separated card ids")
    solve_parser.add_argument("--weights", help="comma-separated weights, one per card")
    solve_parser.add_argument(
        "--fix",
        action="append",
        default=[],
        metavar="SQUARE=TILE",
        help="fix a square's tile (repeat, or separate with commas)",
    )
    solve_parser.add_argument(
        "--policies",
        help="search only this policy set (comma-separated; 'none': no "
        "policy); default: every set of one or two policies",
    )
    solve_parser.add_argument(
        "--existing",
        help="existing residents: a JSON object "
        "home -> income, or a JSON file (a scenario's 'existing' works)",
    )
    solve_parser.add_argument(
        "--seed", type=int, default=0, help="seed of the default existing placement (default 0)"
    )
    solve_parser.add_argument(
        "--nonnegative",
        action="store_true",
        help="find a board where no card of the coalition scores -1",
    )
    solve_parser.add_argument(
        "--pareto",
        action="store_true",
        help="add the Pareto frontier of spending against low income residents housed",
    )
    _rule_options(solve_parser)
    solve_parser.set_defaults(func=run_solve)


def _rule_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--low-income-in-adus",
        action="store_true",
        help="rule option: low income residents may take vacant ADU slots",
    )
    parser.add_argument(
        "--newcomers-first",
        action="store_true",
        help="rule option: newcomers look for homes before displaced residents",
    )


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {text!r}")
    return value


# --- sample ----------------------------------------------------------------------------------
def sample_lines(
    n: int, seed: int, options: RuleOptions, all_policy_sets: bool = False
) -> Iterator[str]:
    """The JSON Lines of `nb sample`: {"scenario": ..., "result": ...} per random board."""
    evaluator = default_evaluator()
    boards = random_boards(
        n,
        seed,
        policy_sets=ALL_POLICY_SETS if all_policy_sets else GAME_POLICY_SETS,
        evaluator=evaluator,
    )
    for start in range(0, n, SAMPLE_CHUNK):
        part = boards.take(slice(start, start + SAMPLE_CHUNK))
        results = evaluator.evaluate(part, options).to_dicts()
        for i, result in enumerate(results):
            scenario = evaluator.scenario_dict(part, i, seed)
            yield json.dumps({"scenario": scenario, "result": result})


def run_sample(args: argparse.Namespace) -> int:
    options = RuleOptions(
        low_income_in_adus=args.low_income_in_adus, displaced_first=not args.newcomers_first
    )
    lines = sample_lines(args.boards, args.seed, options, args.all_policy_sets)
    if args.out is None:
        _write(lines, sys.stdout)
        return 0
    try:
        with open(args.out, "w", encoding="utf-8") as handle:
            _write(lines, handle)
    except OSError as error:
        raise HousingLabError(f"cannot write {args.out!r}: {error.strerror}") from None
    return 0


def _write(lines: Iterator[str], handle: TextIO) -> None:
    for line in lines:
        handle.write(line)
        handle.write("\n")


# --- solve -----------------------------------------------------------------------------------
def _items(text: str | None) -> list[str]:
    return [] if text is None else [item.strip() for item in text.split(",") if item.strip()]


def parse_weights(text: str | None) -> list[int | float] | None:
    if text is None:
        return None
    weights: list[int | float] = []
    for item in _items(text):
        try:
            weights.append(int(item))
        except ValueError:
            try:
                weights.append(float(item))
            except ValueError:
                raise ScenarioFormatError(f"a weight must be a number, got {item!r}") from None
    return weights


def parse_fixes(values: list[str]) -> dict[str, str]:
    fixed: dict[str, str] = {}
    for item in (i for value in values for i in _items(value)):
        square, equals, tile = item.partition("=")
        if not equals or not square.strip() or not tile.strip():
            raise ScenarioFormatError(f"--fix expects SQUARE=TILE, got {item!r}")
        square = square.strip()
        if square in fixed:
            raise ScenarioFormatError(f"square {square!r} is fixed twice")
        fixed[square] = tile.strip()
    return fixed


def parse_policies(text: str | None) -> list[str] | None:
    if text is None:
        return None
    items = _items(text)
    return [] if items in ([], ["none"]) else items


def parse_existing(text: str | None) -> dict[str, Any] | None:
    """A JSON object (home -> income), or a file holding one or a whole scenario."""
    if text is None:
        return None
    source = text
    if not text.lstrip().startswith("{"):
        try:
            source = Path(text).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or "not a UTF-8 text file"
            raise ScenarioFormatError(f"cannot read --existing {text!r}: {reason}") from None
    try:
        data = json.loads(source)
    except json.JSONDecodeError as error:
        raise ScenarioFormatError(f"--existing is not valid JSON: {error}") from None
    if isinstance(data, dict) and isinstance(data.get("existing"), dict):
        data = data["existing"]
    if not isinstance(data, dict):
        raise ScenarioFormatError(f"--existing must be a JSON object, got {data!r}"[:200])
    return data


def run_solve(args: argparse.Namespace) -> int:
    question: dict[str, Any] = {
        "fixed": parse_fixes(args.fix),
        "policies": parse_policies(args.policies),
        "existing": parse_existing(args.existing),
        "seed": args.seed,
        "options": RuleOptions(
            low_income_in_adus=args.low_income_in_adus, displaced_first=not args.newcomers_first
        ),
    }
    cards, weights = _items(args.cards), parse_weights(args.weights)
    if args.nonnegative:
        started = time.perf_counter()
        found = every_card_nonnegative(cards, weights, **question)
        output = (
            found.to_dict()
            if found is not None
            else {
                "scenario": None,
                "result": None,
                "score": None,
                "seconds": round(time.perf_counter() - started, 4),
                "cards": None,
                "every_card_nonnegative": False,
            }
        )
    else:
        output = solve(cards, weights, **question).to_dict()
    if args.pareto:  # with --nonnegative: only boards where no card of the coalition is -1
        frontier = pareto_frontier(cards if args.nonnegative else None, **question)
        output["pareto"] = [point.to_dict() for point in frontier]
    print(json.dumps(output))
    return 0

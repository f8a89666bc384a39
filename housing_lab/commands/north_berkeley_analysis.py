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
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from housing_lab.commands import arguments, nb_arguments
from housing_lab.errors import HousingLabError, shown
from housing_lab.jsonio import JsonInputError, load_path, loads
from housing_lab.north_berkeley.batch.evaluator import (
    ALL_POLICY_SETS,
    GAME_POLICY_SETS,
    default_evaluator,
)
from housing_lab.north_berkeley.batch.lines import ResultLines
from housing_lab.north_berkeley.batch.stream import chunk_sizes
from housing_lab.north_berkeley.errors import ScenarioFormatError
from housing_lab.north_berkeley.model import RULEBOOK, SWITCH_KEYS, Model
from housing_lab.north_berkeley.policies import RuleOptions
from housing_lab.north_berkeley.scenario import SCENARIO_KEYS
from housing_lab.outputs import CountedLines, check_new, check_stop, report_stop, write_atomic

SAMPLE_CHUNK = 1 << 12  # boards evaluated and written at a time (keeps peak memory well < 300 MB)
DRAW_CHUNK = 1 << 16  # boards drawn at a time: memory stays flat for any --boards
MAX_BOARDS = 10**9


def register_analysis(commands: argparse._SubParsersAction) -> None:
    """Add `sample` and `solve` to the `nb` sub-commands."""
    sample = commands.add_parser(
        "sample", help="random boards and their results as JSON Lines (batch evaluator)"
    )
    sample.add_argument(
        "--boards",
        type=arguments.count(0, MAX_BOARDS, "the number of boards"),
        required=True,
        help=f"how many boards (0 to {MAX_BOARDS})",
    )
    sample.add_argument("--seed", type=arguments.seed, default=0)
    sample.add_argument("--out", type=arguments.text, help="output file (default: stdout)")
    sample.add_argument("--force", action="store_true", help="replace an existing --out file")
    sample.add_argument(
        "--all-policy-sets",
        action="store_true",
        help="draw from all 16 policy sets, not only the game's 10 (1 or 2)",
    )
    _assumptions(sample, run_sample)

    solve_parser = commands.add_parser(
        "solve", help="the exact best board for a coalition of constituent cards"
    )
    solve_parser.add_argument(
        "--cards", type=arguments.text, required=True, help="comma-separated card ids"
    )
    solve_parser.add_argument(
        "--weights",
        type=arguments.text,
        help=f"comma-separated weights, one per card (each at most {arguments.MAX_WEIGHT} in "
        f"size, {arguments.WEIGHT_DECIMALS} decimal places)",
    )
    solve_parser.add_argument(
        "--fix",
        action="append",
        default=[],
        type=arguments.text,
        metavar="SQUARE=TILE",
        help="fix a square's tile (repeat, or separate with commas)",
    )
    solve_parser.add_argument(
        "--policies",
        type=arguments.text,
        help="search only this policy set (comma-separated; 'none': no "
        "policy); default: every set of one or two policies",
    )
    solve_parser.add_argument(
        "--existing",
        type=arguments.text,
        help="existing residents: a JSON object "
        "home -> income, or a JSON file (a scenario's 'existing' works)",
    )
    solve_parser.add_argument(
        "--seed",
        type=arguments.seed,
        default=0,
        help="seed of the default existing placement (default 0)",
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
    _assumptions(solve_parser, run_solve)


def _assumptions(parser: argparse.ArgumentParser, run: Callable[[argparse.Namespace], int]) -> None:
    """The model's switches and the rule options (sample and solve), then the command."""
    _model_option(parser)
    nb_arguments.add_rule_options(parser)
    parser.set_defaults(func=run)


def _model_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--model",
        type=arguments.text,
        metavar="JSON",
        help="the model's assumptions: a JSON object of switches (RULES.md, 'Model "
        "assumptions'), or a file holding one or a scenario with a 'model'",
    )


def parse_model(text: str | None) -> Model | None:
    """`--model`: a JSON object of switches, or a file holding one (or a scenario, whose
    `model` is used); None when not given. `null` (as JSON, in a file, or a scenario's
    `"model": null`) is the rulebook, as in a scenario. Bad JSON or a bad switch: one line
    naming it."""
    if text is None:
        return None
    try:
        json_text = text.strip() == "null" or text.lstrip().startswith(("{", "["))
        data = loads(text, source="--model") if json_text else load_path(text)
    except JsonInputError as error:
        said = str(error)  # a JSON error names --model already; a file error does not
        said = said if said.startswith("--model") else f"--model: {said}"
        raise ScenarioFormatError(said) from None
    if isinstance(data, dict) and set(data) & (set(SCENARIO_KEYS) - set(SWITCH_KEYS)):
        data = data.get("model")  # a scenario: its own model (null or absent: the rulebook)
    if data is None:
        return RULEBOOK
    if not isinstance(data, dict):
        raise ScenarioFormatError(f"--model must be a JSON object of switches, got {shown(data)}")
    try:
        return Model.from_dict(data)
    except HousingLabError as error:
        raise type(error)(f"--model: {error}") from None


# --- sample ----------------------------------------------------------------------------------
def sample_lines(
    n: int,
    seed: int,
    options: RuleOptions,
    all_policy_sets: bool = False,
    model: Model | None = None,
) -> Iterator[str]:
    """The JSON Lines of `nb sample`: {"scenario": ..., "result": ...} per random board.

    Boards are drawn DRAW_CHUNK at a time: the first chunk from `seed` itself (so a sample of
    up to DRAW_CHUNK boards is what `random_boards(n, seed)` gives), chunk k from a seed
    derived from (seed, k). With `model`, the boards are scored under it, scenario and result
    carry it, and with a city budget only boards within it are drawn."""
    from housing_lab.north_berkeley.batch.sweep import random_boards  # pandas: only when sampling

    evaluator = default_evaluator()
    policy_sets = ALL_POLICY_SETS if all_policy_sets else GAME_POLICY_SETS
    result_lines = ResultLines(evaluator)
    for start in range(0, n, DRAW_CHUNK):
        size = min(DRAW_CHUNK, n - start)
        boards = random_boards(
            size,
            chunk_seed(seed, start // DRAW_CHUNK),
            policy_sets=policy_sets,
            evaluator=evaluator,
            model=model,
        )
        part_start, part_sizes = 0, chunk_sizes(SAMPLE_CHUNK)
        while part_start < size:
            part = boards.take(slice(part_start, part_start + next(part_sizes)))
            results = result_lines.lines(evaluator.evaluate(part, options))
            for i, result in enumerate(results):
                scenario = json.dumps(evaluator.scenario_dict(part, i, seed))
                yield f'{{"scenario": {scenario}, "result": {result}}}'
            part_start += len(part)


def chunk_seed(seed: int, chunk: int) -> int:
    """The seed of draw chunk `chunk`: `seed` for the first, then 128 bits of a numpy
    SeedSequence spawned from `seed` (independent streams, no overlap with small seeds)."""
    if chunk == 0:
        return seed
    words = np.random.SeedSequence(seed, spawn_key=(chunk,)).generate_state(4, np.uint32)
    return sum(int(word) << (32 * i) for i, word in enumerate(words))


def run_sample(args: argparse.Namespace) -> int:
    options = nb_arguments.rule_options(args)
    model = parse_model(args.model)  # before any board is drawn or any file is touched
    lines = sample_lines(args.boards, args.seed, options, args.all_policy_sets, model)
    if args.out is None:
        printed = CountedLines(sys.stdout)
        with report_stop(lambda: printed.report("board", "boards")):
            _write(lines, printed)  # type: ignore[arg-type]
        return 0
    out = Path(args.out)
    check_new(out, args.force)  # a file already there is refused before any board is drawn
    write_atomic(out, lambda handle: _write(lines, handle))
    return 0


def _write(lines: Iterator[str], handle: TextIO) -> None:
    for number, line in enumerate(lines, start=1):
        check_stop()  # a Ctrl-C lost in a library (pandas' import) stops the run here
        handle.write(line + "\n")  # one write: a stop leaves whole lines
        if number & (number - 1) == 0 or number % SAMPLE_CHUNK == 0:  # first lines at once
            handle.flush()


# --- solve -----------------------------------------------------------------------------------
_items = arguments.items


def parse_weights(text: str | None) -> list[int | float] | None:
    """Weights bounded so that the solver and the scalar engine agree (`arguments.weight`)."""
    if text is None:
        return None
    try:
        return [arguments.weight(item) for item in _items(text)]
    except argparse.ArgumentTypeError as error:
        raise ScenarioFormatError(f"--weights: {error}") from None


def parse_fixes(values: list[str]) -> dict[str, str]:
    fixed: dict[str, str] = {}
    for item in (i for value in values for i in _items(value)):
        square, equals, tile = item.partition("=")
        if not equals or not square.strip() or not tile.strip():
            raise ScenarioFormatError(f"--fix expects SQUARE=TILE, got {shown(item)}")
        square = square.strip()
        if square in fixed:
            raise ScenarioFormatError(f"square {shown(square)} is fixed twice")
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
    try:
        if text.lstrip().startswith("{"):
            data = loads(text, source="--existing")
        else:
            data = load_path(text)
    except JsonInputError as error:
        raise ScenarioFormatError(f"--existing: {error}") from None
    if isinstance(data, dict) and isinstance(data.get("existing"), dict):
        data = data["existing"]
    if not isinstance(data, dict):
        raise ScenarioFormatError(f"--existing must be a JSON object, got {shown(data)}")
    return data


def run_solve(args: argparse.Namespace) -> int:
    # imported here, not at the top: the solver and pandas would add 0.3 s to every command's start
    from housing_lab.north_berkeley.solver.exact import (
        every_card_nonnegative,
        pareto_frontier,
        solve,
    )

    question: dict[str, Any] = {
        "fixed": parse_fixes(args.fix),
        "policies": parse_policies(args.policies),
        "existing": parse_existing(args.existing),
        "seed": args.seed,
        "model": parse_model(args.model),  # scored under its switches; its budget a constraint
        "options": nb_arguments.rule_options(args),
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

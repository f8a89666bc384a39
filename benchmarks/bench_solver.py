"""How long the exact solver takes, from scratch (caches cleared), per coalition.

    python benchmarks/bench_solver.py [--repeats 5] [--only N] [--baseline ../main]

Prints the median CPU seconds of `solve` (the whole search over 15^9 boards x the 10 policy
sets the game allows, with the default placement), and of `every_card_nonnegative` and
`pareto_frontier` for the same coalition, up to all 22 cards (the standing goal: `solve` of
all 22 under 0.5 s). `--only N`: the first N rows. With `--baseline TREE` (a checkout without
this change, e.g. main), every question is also asked there, in a second process run in
lockstep with this tree's (one question here, the same there, so the machine's load hits both
alike), and each time is printed with its ratio this / baseline (below 1: faster); the two
trees' answers (total, spending, board) must be equal, or the benchmark stops.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

from housing_lab.north_berkeley.constituents import CARD_IDS

HERE = Path(__file__).resolve().parents[1]
QUESTIONS = {"solve": "solve", "every_card_nonnegative": ">= 0", "pareto_frontier": "pareto"}
COALITIONS = [
    ["developer"],
    ["fiscal_conservatives", "save_our_views"],
    ["developer", "urbanists"],
    ["affordable_housing_orgs", "landlords", "property_values"],
    {"labor_unions": 2, "save_our_parking": 1, "bike_lobby": 1},
    ["stop_the_shadows", "neighborhood_character", "bike_lobby"],
    [
        "stop_the_shadows",
        "neighborhood_character",
        "bike_lobby",
        "urbanists",
        "inclusionary_for_all",
    ],
    list(CARD_IDS[:8]),
    list(CARD_IDS[8:16]),
    list(CARD_IDS[:12]),
    list(CARD_IDS[:16]),
    list(CARD_IDS[6:22]),
    list(CARD_IDS),
]

# Runs in a child process per tree (only APIs every tree has): one question per line on stdin,
# answered with its CPU seconds (caches cleared first) and what it found.
MEASURE = r"""
import json, sys, time
import housing_lab
assert housing_lab.__file__.startswith(sys.argv[1]), housing_lab.__file__
from housing_lab.north_berkeley.batch.evaluator import default_evaluator
from housing_lab.north_berkeley.solver import exact
default_evaluator()
exact.solve(["developer"])  # warm up: imports, the evaluator's tables
for line in sys.stdin:
    name, cards = json.loads(line)
    exact.clear_cache()
    started = time.process_time()
    found = getattr(exact, name)(cards)
    seconds = time.process_time() - started
    if found is None:
        answer = None
    elif isinstance(found, list):
        answer = [[p.low_housed, str(p.spending), p.scenario.to_dict()] for p in found]
    else:
        answer = [found.score, str(found.spending), found.scenario.to_dict()]
    print(json.dumps([seconds, answer]), flush=True)
"""


class Tree:
    """A child process asking one source tree's solver."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.child = subprocess.Popen(
            [sys.executable, "-c", MEASURE, root],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": root},
            cwd=root,
        )

    def ask(self, name: str, cards: list[str] | dict[str, int]) -> tuple[float, object]:
        assert self.child.stdin is not None and self.child.stdout is not None
        self.child.stdin.write(json.dumps([name, cards]) + "\n")
        self.child.stdin.flush()
        line = self.child.stdout.readline()
        if not line:
            raise SystemExit(f"{self.root}: the solver process stopped")
        seconds, answer = json.loads(line)
        return seconds, answer

    def close(self) -> None:
        assert self.child.stdin is not None
        self.child.stdin.close()
        self.child.wait()


def label(cards: list[str] | dict[str, int]) -> str:
    name = ",".join(cards if isinstance(cards, list) else [f"{c}x{w}" for c, w in cards.items()])
    if isinstance(cards, list) and len(cards) > 5:
        first = CARD_IDS.index(cards[0])
        name = f"{len(cards)} cards (CARD_IDS[{first}:{first + len(cards)}])"
    return name if len(name) <= 52 else name[:49] + "..."


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--only", type=int, default=len(COALITIONS))
    parser.add_argument("--baseline", help="a tree to compare with (e.g. a worktree of main)")
    args = parser.parse_args()
    trees = {"this": Tree(str(HERE))}
    if args.baseline:
        trees["base"] = Tree(str(Path(args.baseline).resolve()))
    coalitions = COALITIONS[: args.only]
    times = {(t, c, q): [] for t in trees for c in range(len(coalitions)) for q in QUESTIONS}
    found: dict[int, object] = {}
    for _ in range(args.repeats):  # round robin, so that drifting load hits every row alike
        for c, cards in enumerate(coalitions):
            for question in QUESTIONS:
                answers = {}
                for tree_name, tree in trees.items():
                    seconds, answers[tree_name] = tree.ask(question, cards)
                    times[tree_name, c, question].append(seconds)
                if len(set(map(json.dumps, answers.values()))) > 1:
                    raise SystemExit(f"{label(cards)}: {question} answers differ: {answers}")
                if question == "solve":
                    found[c] = answers["this"]
    for tree in trees.values():
        tree.close()

    median = {key: statistics.median(value) for key, value in times.items()}
    heads = "".join(f" {short:>7}" for short in QUESTIONS.values())
    if args.baseline:
        heads = "".join(f" {short:>7} {'base':>6} {'ratio':>5}" for short in QUESTIONS.values())
    against = f"; base: {args.baseline}" if args.baseline else ""
    print(f"CPU seconds, median of {args.repeats}{against}")
    print(f"{'coalition':<52}{heads}  best")
    for c, cards in enumerate(coalitions):
        row = ""
        for question in QUESTIONS:
            this = median["this", c, question]
            row += f" {this:>6.3f}s"
            if args.baseline:
                base = median["base", c, question]
                row += f" {base:>5.3f}s {this / base:>5.2f}"
        score, spending, _ = found[c]
        print(f"{label(cards):<52}{row}  {score} at ${float(Fraction(spending)):g}")


if __name__ == "__main__":
    main()

"""Batch boards/s under the model's switches against the rulebook's path, in one run.

    python benchmarks/bench_switches.py [--boards 200000] [--repeats 5] [--baseline ../main]

Prints medians over the repeats (one thread, so that runs on a shared machine compare): boards
per second of `BatchEvaluator.evaluate` under the rulebook (no model), under each switch and
under all of them at once, each as a ratio to the rulebook's rate (issue 22's target: within
25%, ratio >= 0.75). With `--baseline TREE` (a checkout without this change, e.g. main), the
same boards are timed there in a subprocess, interleaved with this tree's rulebook runs, and the
ratio this/baseline is printed (target: within 10%, ratio >= 0.90). Results are checked first:
the switched batch agrees with the scalar engine on the first boards.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from housing_lab.north_berkeley.batch.evaluator import ALL_POLICY_SETS, BatchEvaluator
from housing_lab.north_berkeley.batch.sweep import random_boards
from housing_lab.north_berkeley.engine.scoring import score_scenario
from housing_lab.north_berkeley.scenario import scenario_from_dict

SWITCHED = {
    "newcomers 16/8/4": {"newcomers": {"high": 16, "low": 4}},
    "market homes only high": {"market_homes_for": ["high"]},
    "vacancy control: apartments": {"vacancy_control_protects": ["apartments"]},
    "budget $12": {"budget": 12},
    "all four": {
        "newcomers": {"high": 16, "low": 4},
        "market_homes_for": ["high"],
        "vacancy_control_protects": ["apartments"],
        "budget": 12,
    },
}

# timed in the baseline tree: the rulebook path only (it knows no model)
BASELINE = """
import json, statistics, sys, time
from housing_lab.north_berkeley.batch.evaluator import ALL_POLICY_SETS, BatchEvaluator
from housing_lab.north_berkeley.batch.sweep import random_boards
n, seed = int(sys.argv[1]), int(sys.argv[2])
evaluator = BatchEvaluator(workers=1)
boards = random_boards(n, seed, policy_sets=ALL_POLICY_SETS, evaluator=evaluator)
evaluator.evaluate(boards.take(slice(0, 1000)))
for line in sys.stdin:
    started = time.perf_counter()
    evaluator.evaluate(boards)
    print(json.dumps(time.perf_counter() - started), flush=True)
"""


def check(evaluator: BatchEvaluator, boards, model: dict, count: int = 300) -> None:
    part = boards.take(slice(0, count))
    result = evaluator.evaluate(part, model=model)
    for i in range(count):
        document = evaluator.scenario_dict(part, i)
        if not result.within_budget[i]:
            continue  # the scalar engine refuses a board over budget
        scenario = scenario_from_dict({**document, "model": model})
        if score_scenario(scenario).to_dict() != result.to_dict(i):
            raise SystemExit(f"batch and scalar differ under {model}: not benchmarking it")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--baseline", help="a tree to compare with (e.g. a worktree of main)")
    args = parser.parse_args()

    evaluator = BatchEvaluator(workers=1)
    boards = random_boards(args.boards, args.seed, policy_sets=ALL_POLICY_SETS, evaluator=evaluator)
    for model in SWITCHED.values():
        check(evaluator, boards, model)
    evaluator.evaluate(boards.take(slice(0, 1000)))  # warm up

    # round robin: each repeat times every setting once, so drifting load hits all alike
    settings: dict[str, dict | None] = {"rulebook (no model)": None, **SWITCHED}
    times: dict[str, list[float]] = {name: [] for name in settings}
    for _ in range(args.repeats):
        for name, model in settings.items():
            started = time.perf_counter()
            evaluator.evaluate(boards, model=model)
            times[name].append(time.perf_counter() - started)
    rates = {name: args.boards / statistics.median(t) for name, t in times.items()}
    rulebook = rates["rulebook (no model)"]
    for name, rate in rates.items():
        print(f"{name + ':':<29} {rate:>12,.0f} boards/s  ratio {rate / rulebook:.2f}")

    if args.baseline:
        env = {**os.environ, "PYTHONPATH": args.baseline}
        child = subprocess.Popen(
            [sys.executable, "-c", BASELINE, str(args.boards), str(args.seed)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=args.baseline,
        )
        ours, theirs = [], []
        assert child.stdin is not None and child.stdout is not None
        for _ in range(args.repeats):  # interleaved: the machine's load hits both alike
            started = time.perf_counter()
            evaluator.evaluate(boards)
            ours.append(time.perf_counter() - started)
            child.stdin.write("go\n")
            child.stdin.flush()
            theirs.append(json.loads(child.stdout.readline()))
        child.stdin.close()
        child.wait()
        ratio = statistics.median(theirs) / statistics.median(ours)
        print(
            f"rulebook path vs baseline {args.baseline}: ratio {ratio:.2f} "
            f"(this {args.boards / statistics.median(ours):,.0f} boards/s, baseline "
            f"{args.boards / statistics.median(theirs):,.0f})"
        )


if __name__ == "__main__":
    main()

"""`robustness` over policy sets against the batch work it stands on, in one run.

    python benchmarks/bench_robustness.py [--boards 20000] [--repeats 3]

Prints medians over the repeats: seconds for `robustness` (4 policy sets x `--boards` random
boards x the 5 default settings), and for the baseline it cannot beat, measured here in the same
run: drawing the same boards and `evaluate`-ing them under every setting with nothing else.
The ratio robustness/baseline is the table's overhead (the averages, the cards that change, the
names); a ratio near 1 means the table costs little beyond the scoring itself.
"""

from __future__ import annotations

import argparse
import statistics
import time

from housing_lab.north_berkeley.batch.evaluator import default_evaluator
from housing_lab.north_berkeley.batch.robust import DEFAULT_ASSUMPTIONS, robustness
from housing_lab.north_berkeley.batch.sweep import random_boards

POLICY_SETS = [[], ["vacancy_control"], ["adu"], ["vacancy_control", "adu"]]


def baseline(n: int, seed: int) -> None:
    evaluator = default_evaluator()
    for k, policies in enumerate(POLICY_SETS):
        boards = random_boards(n, seed + k, policy_sets=[policies])
        for model in DEFAULT_ASSUMPTIONS.values():
            evaluator.evaluate(boards, None, model)


def timed(work, *args) -> float:
    started = time.perf_counter()
    work(*args)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    robustness(POLICY_SETS, n=100, seed=1)  # warm up (imports, tables)
    ours, base = [], []
    for repeat in range(args.repeats):  # interleaved, so load on a shared machine hits both
        base.append(timed(baseline, args.boards, repeat))
        ours.append(timed(lambda n, s: robustness(POLICY_SETS, n=n, seed=s), args.boards, repeat))
    o, b = statistics.median(ours), statistics.median(base)
    boards = len(POLICY_SETS) * args.boards
    print(f"{boards} boards x {len(DEFAULT_ASSUMPTIONS)} settings, median of {args.repeats}")
    print(f"baseline (draw + evaluate only): {b:.2f} s")
    print(f"robustness:                      {o:.2f} s")
    print(f"ratio robustness/baseline:       {o / b:.2f}")


if __name__ == "__main__":
    main()

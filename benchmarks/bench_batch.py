"""Batch evaluator against the scalar engine, on the same boards, in one run.

    python benchmarks/bench_batch.py [--boards 1000000] [--scalar-boards 3000] [--repeats 5]

Prints medians over the repeats: boards per second of the batch evaluator (arrays in, arrays
out: every measure and all 22 cards), of the scalar engine (`score_scenario` on ready-made
Scenario objects, the scalar engine's best case) and their ratio. Both score boards of the same
random batch (every policy set, shuffled placements); the first boards are checked to agree.
"""

from __future__ import annotations

import argparse
import statistics
import time

from housing_lab.north_berkeley.batch.evaluator import ALL_POLICY_SETS, BatchEvaluator
from housing_lab.north_berkeley.batch.sweep import random_boards
from housing_lab.north_berkeley.engine.scoring import score_scenario
from housing_lab.north_berkeley.policies import RuleOptions
from housing_lab.north_berkeley.scenario import make_scenario


def median_seconds(run, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=1_000_000)
    parser.add_argument("--scalar-boards", type=int, default=3_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    evaluator = BatchEvaluator()
    boards = random_boards(args.boards, args.seed, policy_sets=ALL_POLICY_SETS, evaluator=evaluator)
    scenarios = [
        make_scenario(
            **{k: v for k, v in evaluator.scenario_dict(boards, i).items() if k != "seed"}
        )
        for i in range(min(args.scalar_boards, len(boards)))
    ]
    options = RuleOptions()
    check = evaluator.evaluate(boards.take(slice(0, len(scenarios))), options).to_dicts()
    if check != [score_scenario(s, options).to_dict() for s in scenarios]:
        raise SystemExit("batch and scalar results differ: not benchmarking a wrong answer")

    rates = {}
    for workers in sorted({1, evaluator.workers}):
        timed = BatchEvaluator(workers=workers)
        timed.evaluate(boards.take(slice(0, 1000)))  # warm up
        seconds = median_seconds(lambda t=timed: t.evaluate(boards, options), args.repeats)
        rates[workers] = len(boards) / seconds
        print(
            f"batch, {workers} thread(s): {rates[workers]:>14,.0f} boards/s "
            f"({len(boards):,} boards, median of {args.repeats})"
        )
    dict_boards = boards.take(slice(0, 100_000))
    seconds = median_seconds(
        lambda: evaluator.evaluate(dict_boards, options).to_dicts(), max(1, args.repeats // 2)
    )
    print(
        f"batch + RULES.md dicts:   {len(dict_boards) / seconds:>14,.0f} boards/s "
        f"(`to_dicts`; `nb score` and `nb sample` write text lines: bench_batch_writers.py)"
    )
    scalar_seconds = median_seconds(
        lambda: [score_scenario(s, options) for s in scenarios], max(1, args.repeats // 2)
    )
    scalar_rate = len(scenarios) / scalar_seconds
    print(
        f"scalar engine:            {scalar_rate:>14,.0f} boards/s ({len(scenarios):,} of the "
        f"same boards)"
    )
    best = max(rates.values())
    print(f"ratio batch / scalar:     {best / scalar_rate:>14,.0f} x")


if __name__ == "__main__":
    main()

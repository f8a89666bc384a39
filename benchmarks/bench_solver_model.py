"""The exact solver under the model's switches vs the rulebook, in the same run.

    python benchmarks/bench_solver_model.py [--repeats 3] [--cli]

For coalitions of 1 to 4 cards and each switch setting, prints the median seconds of `solve`
from scratch (caches cleared) under the switches, the rulebook's in the same run, and their
ratio; the target (issue 22) is under 2 s for `nb solve --model` with up to 4 cards. `--cli`
also times the whole command (`housing-lab nb solve --model JSON` in a fresh process, start-up
included) against the same command without `--model`, interleaved.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

from housing_lab.north_berkeley.batch.evaluator import default_evaluator
from housing_lab.north_berkeley.model import Model
from housing_lab.north_berkeley.solver.exact import clear_cache, solve

COALITIONS = [
    ["developer"],
    ["developer", "affordable_housing_orgs"],
    ["affordable_housing_orgs", "landlords", "property_values"],
    ["middle_class_millennials", "anti_gentrification_activists", "urbanists", "developer"],
]
SETTINGS = {
    "no filtering": {"market_homes_for": ["high"]},
    "more jobs": {"newcomers": {"high": 16}},
    "Costa-Hawkins": {"vacancy_control_protects": ["apartments"]},
    "budget $10": {"budget": 10},
    "all four": {
        "market_homes_for": ["high", "middle"],
        "newcomers": {"high": 14, "low": 4},
        "vacancy_control_protects": ["apartments"],
        "budget": 12,
    },
}
TARGET = 2.0


def timed(run, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        clear_cache()
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def cli_seconds(cards: list[str], model: dict | None) -> float:
    command = [sys.executable, "-m", "housing_lab.cli", "nb", "solve", "--cards", ",".join(cards)]
    if model is not None:
        command += ["--model", json.dumps(model)]
    started = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cli", action="store_true")
    args = parser.parse_args()
    default_evaluator()
    worst = 0.0
    print(f"{'coalition':<66} {'setting':<14} {'model':>7} {'rulebook':>8} {'ratio':>6}")
    for cards in COALITIONS:
        rulebook = timed(lambda c=cards: solve(c), args.repeats)
        for name, switches in SETTINGS.items():
            model = Model.from_dict(switches)
            seconds = timed(lambda c=cards, m=model: solve(c, model=m), args.repeats)
            worst = max(worst, seconds)
            label = ",".join(cards)[:66]
            print(
                f"{label:<66} {name:<14} {seconds:>6.3f}s {rulebook:>7.3f}s "
                f"{seconds / rulebook:>6.2f}"
            )
    print(f"slowest solve under switches: {worst:.3f}s (target < {TARGET:.0f} s)")
    if args.cli:
        cards, switches = COALITIONS[-1], SETTINGS["all four"]
        with_model, without = [], []
        for _ in range(args.repeats):  # interleaved: both see the same machine load
            with_model.append(cli_seconds(cards, switches))
            without.append(cli_seconds(cards, None))
        a, b = statistics.median(with_model), statistics.median(without)
        print(
            f"housing-lab nb solve (4 cards, all four switches): {a:.3f}s vs {b:.3f}s without "
            f"--model, ratio {a / b:.2f} (whole process, start-up included)"
        )


if __name__ == "__main__":
    main()

"""How long the exact solver takes, from scratch (caches cleared), per coalition.

    python benchmarks/bench_solver.py [--repeats 5] [--only N]

Prints the median `seconds` of `solve` (the whole search over 15^9 boards x the 10 policy sets
the game allows, with the default placement), and of `every_card_nonnegative` and
`pareto_frontier` for the same coalition, up to all 22 cards. `--only N`: the first N rows.
"""

from __future__ import annotations

import argparse
import statistics
import time

from housing_lab.north_berkeley.batch.evaluator import default_evaluator
from housing_lab.north_berkeley.constituents import CARD_IDS
from housing_lab.north_berkeley.solver.exact import (
    clear_cache,
    every_card_nonnegative,
    pareto_frontier,
    solve,
)

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


def timed(run, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        clear_cache()
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--only", type=int, default=len(COALITIONS))
    args = parser.parse_args()
    default_evaluator()
    coalitions = COALITIONS[: args.only]
    print(f"{'coalition':<64} {'solve':>7} {'>= 0':>7} {'pareto':>7}  best")
    for cards in coalitions:
        found = solve(cards)
        seconds = [
            timed(lambda c=cards, f=f: f(c), args.repeats)
            for f in (solve, every_card_nonnegative, pareto_frontier)
        ]
        name = ",".join(
            cards if isinstance(cards, list) else [f"{c}x{w}" for c, w in cards.items()]
        )
        if isinstance(cards, list) and len(cards) > 5:
            first = CARD_IDS.index(cards[0])
            name = f"{len(cards)} cards (CARD_IDS[{first}:{first + len(cards)}])"
        name = name if len(name) <= 64 else name[:61] + "..."
        print(
            f"{name:<64} {seconds[0]:>6.3f}s {seconds[1]:>6.3f}s {seconds[2]:>6.3f}s  "
            f"{found.score} at ${float(found.spending):g}"
        )


if __name__ == "__main__":
    main()

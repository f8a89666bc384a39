"""How long the coach takes: all 22 cards x both goals on seeded random boards.

    python benchmarks/bench_coach.py [--boards 5] [--seed 1]

For each board (a random policy set of the 16, a random tile or an empty square on each square,
a shuffled placement) and each card and goal, `coach(...)` is timed three ways:

- cold: every cache cleared first (the board space of the card is built, the change sets of the
  board are scored): what the first question about a card on a new placement costs;
- warm: the same question asked again with the card's board space and the board's scored
  change sets still cached, the answer itself not (a repeated question is answered from a
  cache at once);
- search only: the board-space search alone, caches cleared, even when 2 changes or fewer
  would do (the enumeration of small change sets skipped): the worst path.

Baseline, same run: one scalar `score_scenario` of the same boards (median), so the figures can
be read as "so many scalar scores" on whatever machine runs this.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections import Counter

from housing_lab.north_berkeley.batch.evaluator import ALL_POLICY_SETS, default_evaluator
from housing_lab.north_berkeley.batch.sweep import random_boards
from housing_lab.north_berkeley.coaching.exact import coach
from housing_lab.north_berkeley.coaching.search import Question, clear_cache, search, searched
from housing_lab.north_berkeley.constituents import CARD_IDS
from housing_lab.north_berkeley.engine.scoring import score_scenario
from housing_lab.north_berkeley.policies import INCOMES
from housing_lab.north_berkeley.scenario import make_scenario

GOALS = ("win", "no-loss")


def scenarios(n: int, seed: int) -> list:
    evaluator = default_evaluator()
    boards = random_boards(n, seed=seed, policy_sets=ALL_POLICY_SETS, empty=0.2)
    return [make_scenario(**evaluator.scenario_dict(boards, i)) for i in range(n)]


def question(scenario, card: str, goal: str) -> Question:
    evaluator = default_evaluator()
    code = {tile: t for t, tile in enumerate(evaluator.tile_ids)}
    return Question(
        card,
        goal,
        tuple(code.get(scenario.tiles.get(q), evaluator.empty) for q in evaluator.squares),
        frozenset(scenario.policies),
        tuple(INCOMES.index(scenario.existing[h]) for h in evaluator.homes),
    )


def timed(run) -> float:
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def summary(name: str, seconds: list[float], baseline: float) -> str:
    median, most = statistics.median(seconds), max(seconds)
    p95 = statistics.quantiles(seconds, n=20)[-1]
    return (
        f"{name:<12} median {median:.3f} s  95% {p95:.3f} s  max {most:.3f} s  "
        f"(= {median / baseline:,.0f} / {p95 / baseline:,.0f} / {most / baseline:,.0f} scalar "
        "scores)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    boards = scenarios(args.boards, args.seed)
    coach(boards[0], "developer")  # imports and the default evaluator, outside the timings
    scalar = [timed(lambda s=s: score_scenario(s)) for s in boards for _ in range(20)]
    baseline = statistics.median(scalar)
    cold, warm, search_only, sizes = [], [], [], Counter()
    worst = (0.0, "")
    for i, scenario in enumerate(boards):
        for card in CARD_IDS:
            for goal in GOALS:
                clear_cache()
                seconds = timed(lambda: coach(scenario, card, goal))  # noqa: B023
                cold.append(seconds)
                worst = max(worst, (seconds, f"board {i}, {card}, {goal}"))
                answer = coach(scenario, card, goal)
                search.cache_clear()
                warm.append(timed(lambda: coach(scenario, card, goal)))  # noqa: B023
                sizes[None if answer.changes is None else len(answer.changes)] += 1
                clear_cache()
                q = question(scenario, card, goal)
                search_only.append(timed(lambda: searched(default_evaluator(), q)))  # noqa: B023
    print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{len(cold)} questions ({args.boards} boards x 22 cards x 2 goals, seed {args.seed})")
    print(f"baseline     one scalar score_scenario: median {baseline * 1000:.2f} ms")
    print(summary("cold", cold, baseline))
    print(summary("warm", warm, baseline))
    print(summary("search only", search_only, baseline))
    print(f"slowest cold question: {worst[1]} ({worst[0]:.3f} s)")
    shown = ", ".join(
        f"{k}: {v}" for k, v in sorted(sizes.items(), key=lambda kv: (kv[0] is None, kv[0] or 0))
    )
    print(f"changes in the answers (count: questions): {shown}")


if __name__ == "__main__":
    main()

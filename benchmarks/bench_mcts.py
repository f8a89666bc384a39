"""The search bot against greedy: win rate with a 95% confidence interval, seconds per move.

    python benchmarks/bench_mcts.py [--games 200] [--seed 2024] [--iterations N | --seconds S]

Plays seeded games `mcts` vs `greedy`, seats alternating (mcts is purple in even games), on
the standard board and rules. Prints one JSON object: mcts's wins (a shared win counts as not
won), its win rate with the 95% Wilson score interval, and seconds per move for both bots,
measured in this same run: wall-clock (what a player waits; it grows with the machine's load)
and CPU time of this process (what the move costs). Greedy's time is the same-run baseline, so
the ratio mcts / greedy holds from machine to machine. A line per game goes to stderr, and
the figures so far every `--every` games (a long run stopped early still says something).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time

from housing_lab.streetcar import Game, make_bot

Z95 = 1.959964


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (sound near 0 and 1, unlike +-2 SE)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def spread(times: list[float]) -> dict[str, float]:
    """Mean, 95th percentile and worst of a list of seconds, rounded to the millisecond."""
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
    return {
        "mean": round(statistics.fmean(ordered), 3),
        "p95": round(p95, 3),
        "max": round(ordered[-1], 3),
    }


def figures(
    args: argparse.Namespace,
    wins: int,
    shared: int,
    margins: list[int],
    wall: dict[str, list[float]],
    cpu: dict[str, list[float]],
    start: float,
) -> dict[str, object]:
    """The figures of the games played so far."""
    games = len(margins)
    low, high = wilson(wins, games)
    return {
        "games": games,
        "seed": args.seed,
        "budget": {"iterations": args.iterations, "seconds": args.seconds},
        "mcts_wins": wins,
        "shared": shared,
        "win_rate": round(wins / games, 4),
        "win_rate_95ci_wilson": [round(low, 4), round(high, 4)],
        "mean_margin": round(statistics.fmean(margins), 2),
        "seconds_per_move_wall": {name: spread(times) for name, times in wall.items()},
        "seconds_per_move_cpu": {name: spread(times) for name, times in cpu.items()},
        "mcts_over_greedy_cpu": round(
            statistics.fmean(cpu["mcts"]) / max(statistics.fmean(cpu["greedy"]), 1e-9), 1
        ),
        "run_seconds": round(time.perf_counter() - start, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--every", type=int, default=20, help="figures so far every N games")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--iterations", type=int, default=None)
    budget.add_argument("--seconds", type=float, default=None)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    wins = shared = 0
    margins: list[int] = []
    wall: dict[str, list[float]] = {"mcts": [], "greedy": []}
    cpu: dict[str, list[float]] = {"mcts": [], "greedy": []}
    start = time.perf_counter()
    for index in range(args.games):
        deal, seed_a, seed_b = rng.getrandbits(32), rng.getrandbits(32), rng.getrandbits(32)
        mcts = make_bot("mcts", seed_a, iterations=args.iterations, seconds=args.seconds)
        greedy = make_bot("greedy", seed_b)
        players = (mcts, greedy) if index % 2 == 0 else (greedy, mcts)
        game = Game(seed=deal)
        while not game.is_over():
            bot = players[(game.turn - 1) % 2]
            t0, c0 = time.perf_counter(), time.process_time()
            move = bot.choose(game)
            wall[bot.name].append(time.perf_counter() - t0)
            cpu[bot.name].append(time.process_time() - c0)
            game.push(move)
        outcome = game.outcome()
        assert outcome is not None
        me, them = ("purple", "red") if index % 2 == 0 else ("red", "purple")
        margins.append(outcome.scores[me] - outcome.scores[them])
        wins += outcome.winner == me
        shared += outcome.winner is None
        print(
            f"game {index + 1}: mcts as {me} {outcome.scores[me]}-{outcome.scores[them]}, "
            f"{wins}/{index + 1} won",
            file=sys.stderr,
            flush=True,
        )
        if args.every and (index + 1) % args.every == 0 and index + 1 < args.games:
            so_far = figures(args, wins, shared, margins, wall, cpu, start)
            print(json.dumps(so_far), file=sys.stderr, flush=True)
    print(json.dumps(figures(args, wins, shared, margins, wall, cpu, start), indent=2))


if __name__ == "__main__":
    main()

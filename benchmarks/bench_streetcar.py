"""Streetcar speed and strength figures (a benchmark, not a test).

    python benchmarks/bench_streetcar.py [--quick]

Prints medians over repeats, each measured in this same run next to a baseline, so the ratios
hold from machine to machine even when the absolute times do not:
- random full games per second (random vs random, standard board), and the cost of one game in
  units of the baseline "list the legal line choices of the opening position once";
- push + pop of one move, and the widget's per-click queries;
- the greedy bot's move time (median and worst) and its win rate over 200 seeded games against
  random (seats alternate; shared wins count as not won).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

from housing_lab.streetcar import Game, GreedyBot, RandomBot, play_game
from housing_lab.streetcar.play.match import play_match, summarise


def per_call(action: Callable[[], object], calls: int, repeats: int) -> float:
    """Median seconds per call over `repeats` batches of `calls` calls."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            action()
        times.append((time.perf_counter() - start) / calls)
    return statistics.median(times)


def random_game_seconds(games: int, repeats: int) -> float:
    seeds = iter(range(10**6))

    def one() -> None:
        seed = next(seeds)
        play_game([RandomBot(seed), RandomBot(seed + 1)], seed=seed)

    return per_call(one, games, repeats)


def greedy_move_times(games: int) -> list[float]:
    times = []
    for seed in range(games):
        game = Game(seed=seed)
        bots = [GreedyBot(seed), RandomBot(seed)]
        while not game.is_over():
            bot = bots[(game.turn - 1) % 2]
            start = time.perf_counter()
            move = bot.choose(game)
            if bot.name == "greedy":
                times.append(time.perf_counter() - start)
            game.push(move)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats (a smoke run)")
    args = parser.parse_args()
    repeats, games = (3, 10) if args.quick else (7, 40)

    opening = Game(seed=0)
    baseline = per_call(opening.line_choice_ids, 200, repeats)
    legal_moves = per_call(lambda: opening.count_legal_moves(), 200, repeats)
    game_time = random_game_seconds(games, repeats)

    mid = Game(seed=1)
    bot = RandomBot(1)
    for _ in range(10):
        mid.push(bot.choose(mid))
    move = bot.choose(mid)

    def push_pop() -> None:
        mid.push(move)
        mid.pop()

    push_pop_time = per_call(push_pop, 2000, repeats)
    first = mid.legal_edges()[0]
    widget_time = per_call(
        lambda: (
            mid.legal_second_edges(first),
            [mid.explain_illegal_line(e) for e in mid.board.edges[:20]],
            mid.score_breakdown(),
        ),
        200,
        repeats,
    )

    greedy_times = greedy_move_times(5 if args.quick else 20)
    start = time.perf_counter()
    summary = summarise(["greedy", "random"], play_match(["greedy", "random"], 200, seed=2024))
    match_seconds = time.perf_counter() - start

    figures = {
        "baseline_line_choices_us": round(baseline * 1e6, 1),
        "count_legal_moves_us": round(legal_moves * 1e6, 1),
        "random_game_ms": round(game_time * 1e3, 2),
        "random_games_per_second": round(1 / game_time, 1),
        "game_over_baseline_ratio": round(game_time / baseline, 1),
        "push_pop_us": round(push_pop_time * 1e6, 1),
        "widget_click_ms": round(widget_time * 1e3, 3),
        "greedy_move_median_ms": round(statistics.median(greedy_times) * 1e3, 2),
        "greedy_move_max_ms": round(max(greedy_times) * 1e3, 2),
        "greedy_vs_random_200": summary.to_dict(),
        "greedy_vs_random_200_seconds": round(match_seconds, 1),
    }
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()

"""Streetcar bots against a baseline commit in the same run: greedy moves/s, MCTS s/move.

    python benchmarks/bench_streetcar_bots.py [--baseline 0d96ba1] [--repeats 3] [--quick]

The baseline is checked out with `git worktree add --detach` into a temporary folder (removed at
the end) and each measurement runs in a fresh subprocess with that tree (or this one) first on
`sys.path`, alternating baseline and current so a change in the machine's load hits both. Times
are CPU seconds of the measuring process. Each side also prints a digest of the moves it played:
equal digests mean the same games move for move. Prints one JSON object with medians and the
ratios current / baseline (moves/s above 1 is faster; s/move below 1 is faster).
"""

from __future__ import annotations

import argparse
import json
import pathlib
import statistics
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent

MEASURE = r"""
import hashlib, json, sys, time
tree, games, mcts_games, mcts_turns = sys.argv[1], *map(int, sys.argv[2:5])
sys.path.insert(0, tree)
import housing_lab
assert housing_lab.__file__.startswith(tree), housing_lab.__file__
from housing_lab.streetcar import Game, GreedyBot, RandomBot
from housing_lab.streetcar.play.mcts import MctsBot

digest = hashlib.sha256()


def timed(deal, bots, turns=None):
    # Play game `deal` (at most `turns` turns): CPU seconds and moves of bots[0].
    game, cpu, moves = Game(seed=deal), 0.0, 0
    while not game.is_over() and (turns is None or game.turn <= turns):
        bot = bots[(game.turn - 1) % 2]
        start = time.process_time()
        move = bot.choose(game)
        if bot is bots[0]:
            cpu += time.process_time() - start
            moves += 1
        game.push(move)
    digest.update(repr(game.move_stack).encode())
    return cpu, moves


greedy = [timed(seed, [GreedyBot(seed), RandomBot(seed)]) for seed in range(games)]
mcts = [
    timed(100 + seed, [MctsBot(seed, iterations=24), GreedyBot(seed)], mcts_turns)
    for seed in range(mcts_games)
]
greedy_cpu, greedy_moves = map(sum, zip(*greedy))
mcts_cpu, mcts_moves = map(sum, zip(*mcts))
print(json.dumps({
    "greedy_moves_per_s": greedy_moves / greedy_cpu,
    "mcts_s_per_move": mcts_cpu / mcts_moves,
    "moves_digest": digest.hexdigest()[:16],
}))
"""


def measure(tree: pathlib.Path, games: int, mcts_games: int, mcts_turns: int) -> dict:
    """One measurement of `tree`'s bots in a fresh interpreter."""
    args = [str(tree), str(games), str(mcts_games), str(mcts_turns)]
    out = subprocess.run(
        [sys.executable, "-c", MEASURE, *args], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="0d96ba1", help="commit to compare with")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="fewer games (a smoke run)")
    args = parser.parse_args()
    games, mcts_games, mcts_turns = (3, 1, 4) if args.quick else (20, 3, 8)
    with tempfile.TemporaryDirectory() as tmp:
        base = pathlib.Path(tmp) / "baseline"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base), args.baseline],
            check=True,
            capture_output=True,
        )
        try:
            runs: dict[str, list[dict]] = {"baseline": [], "current": []}
            for _ in range(args.repeats):
                for name, tree in (("baseline", base), ("current", ROOT)):
                    runs[name].append(measure(tree, games, mcts_games, mcts_turns))
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)],
                check=True,
                capture_output=True,
            )
    medians = {
        name: {
            key: round(statistics.median(run[key] for run in result), 4)
            for key in ("greedy_moves_per_s", "mcts_s_per_move")
        }
        for name, result in runs.items()
    }
    digests = {
        name: sorted({run["moves_digest"] for run in result}) for name, result in runs.items()
    }
    b, c = medians["baseline"], medians["current"]
    print(
        json.dumps(
            {
                "baseline": args.baseline,
                "games": {"greedy": games, "mcts": mcts_games, "mcts_turns": mcts_turns},
                "repeats": args.repeats,
                "median": medians,
                "ratio_current_over_baseline": {
                    "greedy_moves_per_s": round(
                        c["greedy_moves_per_s"] / b["greedy_moves_per_s"], 2
                    ),
                    "mcts_s_per_move": round(c["mcts_s_per_move"] / b["mcts_s_per_move"], 2),
                },
                "same_moves": digests["baseline"] == digests["current"],
                "moves_digest": digests,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()

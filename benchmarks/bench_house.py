"""Issue 21's footing against its baseline: batch boards/s, solver seconds and a lab update.

    python benchmarks/bench_house.py --base ../main-checkout [--runs 3]

`--base` is a checkout of the baseline commit (default 0d96ba1: `git worktree add --detach DIR
0d96ba1`). Each measurement runs in a fresh subprocess, alternately importing this checkout and
the baseline (PYTHONPATH), in the same run; printed: medians and ratios (this / baseline; the
target is within 10%, i.e. a time ratio <= 1.1 and a rate ratio >= 0.9).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
COALITIONS = (
    ("developer", "labor_unions"),
    ("affordable_housing_orgs", "urbanists", "bike_lobby"),
    ("fiscal_conservatives", "more_parks"),
)
BOARD = {
    "B1": "tower_inclusionary_50",
    "C1": "tower_social",
    "B2": "tower_market",
    "C2": "midrise_inclusionary_50",
    "A1": "townhouse_middle",
    "A2": "midrise_workforce",
    "A3": "tower_workforce",
    "B3": "midrise_public",
}

# Runs in the subprocess: only APIs both checkouts have.
MEASURE = r"""
import json, statistics, sys, time
from unittest import mock
coalitions, board = json.loads(sys.argv[1]), json.loads(sys.argv[2])
from housing_lab.north_berkeley.batch.evaluator import default_evaluator
from housing_lab.north_berkeley.batch.sweep import random_boards
from housing_lab.north_berkeley.solver.exact import solve
evaluator = default_evaluator()
boards = random_boards(200_000, seed=1)
evaluator.evaluate(boards.take(slice(0, 1000)))
start = time.perf_counter()
evaluator.evaluate(boards)
rate = len(boards) / (time.perf_counter() - start)
start = time.perf_counter()
for cards in coalitions:
    solve(list(cards))
solver = time.perf_counter() - start
import ipywidgets.widgets.widget as widget_module
class Comm:
    comm_id, kernel = "bench", "Truthy"
    def send(self, *a, **k): ...
    def on_msg(self, *a, **k): ...
    def close(self, *a, **k): ...
with mock.patch.object(widget_module.comm, "create_comm", lambda **_: Comm()):
    from housing_lab.widgets import NorthBerkeleyLab
    lab = NorthBerkeleyLab(seed=3)
    lab.load_scenario({"tiles": board, "seed": 3})
    tiles = ["garage", "park", "tower_public", "midrise_market"]
    times = []
    for i in range(120):
        start = time.perf_counter()
        lab.place("C3", tiles[i % 4])  # a place and a policy toggle: one click each
        lab.set_policy("matching_funds", bool(i % 2))
        times.append(time.perf_counter() - start)
print(json.dumps({"boards_per_s": rate, "solver_s": solver,
                  "lab_update_ms": statistics.median(times[20:]) * 1000}))
"""


def measure(root: Path) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    args = [json.dumps(COALITIONS), json.dumps(BOARD)]
    out = subprocess.run(
        [sys.executable, "-c", MEASURE, *args], env=env, cwd=root, capture_output=True, text=True
    )
    if out.returncode:
        raise SystemExit(f"{root}: {out.stderr.strip().splitlines()[-1]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--base", type=Path, required=True, help="a checkout to compare with (e.g. main's)"
    )
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    runs: dict[str, list[dict[str, float]]] = {"this": [], "base": []}
    for _ in range(args.runs):  # alternate, so that load on the machine hits both alike
        runs["base"].append(measure(args.base))
        runs["this"].append(measure(HERE))
    medians = {
        name: {key: statistics.median(r[key] for r in rows) for key in rows[0]}
        for name, rows in runs.items()
    }
    this, base = medians["this"], medians["base"]
    ratios = {key: round(this[key] / base[key], 3) for key in this}
    within = (
        ratios["boards_per_s"] >= 0.9
        and ratios["solver_s"] <= 1.1
        and ratios["lab_update_ms"] <= 1.1
    )
    print(
        json.dumps(
            {
                "runs": args.runs,
                "this": this,
                "base": base,
                "ratio": ratios,
                "within_10_percent": within,
            }
        )
    )


if __name__ == "__main__":
    main()

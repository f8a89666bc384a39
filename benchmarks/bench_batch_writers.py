"""The batch evaluator and its two result writers, this checkout against a baseline in one run.

    python benchmarks/bench_batch_writers.py --base ../main-checkout [--runs 5] [--boards 1000000]

Each run starts two fresh subprocesses, one importing this checkout and one the baseline
(`--base`, a checkout to compare with, e.g. `git worktree add ../main-checkout main`;
PYTHONPATH), alternately, so that load on the machine hits both
alike. Each measures, on the same random boards (every policy set, seed 0):

- `evaluate`: boards per second with 1 and with 2 threads (arrays in, arrays out), by wall
  clock and by the process's CPU time (the machine is shared: CPU time is the steadier);
- `to_dicts`: the result as RULES.md dicts (`BatchResult.to_dicts`), boards per CPU second;
- `lines`: the result as JSON text lines (`batch.lines.ResultLines`, what `nb score` and
  `nb sample` write), lines per CPU second, under the rulebook and under a model;
- `sample`: `nb sample`'s lines (draw, score, scenario and result JSON), lines per CPU second.

Printed: the median of the runs for each checkout and the ratio this / base (above 1: faster).
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

# Runs in the subprocess: only APIs both checkouts have.
MEASURE = r"""
import json, sys, time
from housing_lab.north_berkeley.batch.evaluator import ALL_POLICY_SETS, BatchEvaluator
from housing_lab.north_berkeley.batch.lines import ResultLines
from housing_lab.north_berkeley.batch.sweep import random_boards
from housing_lab.north_berkeley.policies import RuleOptions
from housing_lab.commands.north_berkeley_analysis import sample_lines

n = int(sys.argv[1])
boards = random_boards(n, 0, policy_sets=ALL_POLICY_SETS)
options = RuleOptions()
out = {}

def timed(run, repeats=3):
    # the least wall and the least CPU time of `repeats`: the least disturbed by other work
    walls, cpus = [], []
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        run()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus)

for workers in (1, 2):
    evaluator = BatchEvaluator(workers=workers)
    evaluator.evaluate(boards.take(slice(0, 1000)))
    wall, cpu = timed(lambda: evaluator.evaluate(boards, options), 5)
    out[f"evaluate_{workers}t_wall"] = n / wall
    out[f"evaluate_{workers}t_cpu"] = n / cpu
evaluator = BatchEvaluator()
small = boards.take(slice(0, 20_000))
result = evaluator.evaluate(small, options)
_, cpu = timed(result.to_dicts)
out["to_dicts_cpu"] = len(small) / cpu
model_result = evaluator.evaluate(small, options, {"newcomers": {"low": 16}, "budget": 12})
for name, scored in (("lines", result), ("lines_model", model_result)):
    lines = ResultLines(evaluator)
    _, cpu = timed(lambda: sum(1 for _ in lines.lines(scored)))
    out[f"{name}_cpu"] = len(small) / cpu
_, cpu = timed(lambda: sum(1 for _ in sample_lines(20_000, 1, options)))
out["sample_cpu"] = 20_000 / cpu
print(json.dumps(out))
"""


def measure(root: Path, boards: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, str(boards)],
        env=env,
        cwd=root,
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise SystemExit(f"{root}: {done.stderr.strip().splitlines()[-1]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--base", type=Path, required=True, help="a checkout to compare with (e.g. main's)"
    )
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--boards", type=int, default=1_000_000)
    args = parser.parse_args()
    runs: dict[str, list[dict[str, float]]] = {"this": [], "base": []}
    for _ in range(args.runs):  # alternate, so that load on the machine hits both alike
        runs["base"].append(measure(args.base, args.boards))
        runs["this"].append(measure(HERE, args.boards))
    medians = {
        name: {key: statistics.median(r[key] for r in rows) for key in rows[0]}
        for name, rows in runs.items()
    }
    this, base = medians["this"], medians["base"]
    print(f"{'per second (median of ' + str(args.runs) + ')':28} {'this':>14} {'base':>14}  ratio")
    for key in this:
        print(f"{key:28} {this[key]:>14,.0f} {base[key]:>14,.0f}  {this[key] / base[key]:.2f}")


if __name__ == "__main__":
    main()

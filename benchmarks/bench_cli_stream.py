"""`housing-lab nb score` on JSON Lines, end to end, against a baseline in the same run.

    python benchmarks/bench_cli_stream.py [--lines 100000] [--seed 0]

Writes `--lines` random scenarios (every policy set, empty squares, with and without an
explicit placement) to a temporary file, then runs two subprocesses on it, stdin to stdout:
the baseline (`json.loads` + `json.dumps` of every line, the least any JSON Lines tool does)
and `python -m housing_lab.cli nb score -`. For each it prints lines per second, peak RSS and the
time to the first output byte (both include the interpreter's start).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from housing_lab.north_berkeley.batch.evaluator import ALL_POLICY_SETS, default_evaluator
from housing_lab.north_berkeley.batch.sweep import random_boards

MEASURED = (
    "import runpy, sys\n"
    "sys.argv = sys.argv[1:]\n"
    "try:\n"
    "    runpy.run_module(sys.argv[0], run_name='__main__', alter_sys=True)\n"
    "finally:\n"
    "    status = open('/proc/self/status').read()\n"  # VmHWM: not ru_maxrss, kept across exec
    "    print(status.split('VmHWM:')[1].split()[0], file=sys.stderr)\n"
)
BASELINE = (
    "import json, sys\n"
    "for line in sys.stdin:\n"
    "    if line.strip():\n"
    "        sys.stdout.write(json.dumps(json.loads(line)) + '\\n')\n"
)


def write_input(path: Path, lines: int, seed: int) -> None:
    evaluator = default_evaluator()
    boards = random_boards(lines, seed, policy_sets=ALL_POLICY_SETS, empty=0.2)
    with path.open("w", encoding="utf-8") as handle:
        for i in range(lines):
            doc = evaluator.scenario_dict(boards, i, seed=i)
            if i % 2:
                del doc["existing"]
            handle.write(json.dumps(doc) + "\n")


def measure(command: list[str], stdin: Path) -> dict[str, float]:
    """Seconds in all, seconds to the first output byte, peak RSS (MB), output lines."""
    started = time.perf_counter()
    with stdin.open("rb") as source:
        process = subprocess.Popen(
            command, stdin=source, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        assert process.stdout is not None
        first_byte = process.stdout.read(1)
        first = time.perf_counter() - started
        lines = first_byte.count(b"\n")
        while chunk := process.stdout.read(1 << 20):
            lines += chunk.count(b"\n")
        _, err = process.communicate()
    total = time.perf_counter() - started
    if process.returncode != 0:
        raise SystemExit(f"{command} failed: {err.decode()[-500:]}")
    rss = int(err.split()[-1]) / 1024 if err.split() else float("nan")
    return {"seconds": total, "first": first, "rss": rss, "lines": lines}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "scenarios.jsonl"
        write_input(path, args.lines, args.seed)
        size_mb = path.stat().st_size / 1e6
        baseline_script = Path(folder) / "baseline.py"
        baseline_script.write_text(BASELINE)
        runs = {
            "baseline json.loads+dumps": [
                sys.executable,
                "-c",
                MEASURED.replace("run_module", "run_path").replace(", alter_sys=True", ""),
                str(baseline_script),
            ],
            "housing-lab nb score -": [
                sys.executable,
                "-c",
                MEASURED,
                "housing_lab.cli",
                "nb",
                "score",
                "-",
            ],
        }
        print(f"input: {args.lines} lines, {size_mb:.1f} MB")
        results = {name: measure(command, path) for name, command in runs.items()}
    for name, r in results.items():
        print(
            f"{name:28} {r['lines'] / r['seconds']:>10,.0f} lines/s  peak RSS {r['rss']:6.0f} MB"
            f"  first output {r['first']:5.2f} s  total {r['seconds']:6.2f} s"
        )
    base, ours = results.values()
    print(f"ratio nb score / baseline: {(ours['seconds'] / base['seconds']):.2f}x the time")


if __name__ == "__main__":
    main()

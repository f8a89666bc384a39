"""Run the costliest test files first, so the processes of `pytest -n 3 --dist loadfile`
finish together.

pytest-xdist hands each process a whole file at a time, by default the files with the most
tests first. Tests are not equally dear: one browser file takes 100 s and a unit-test file of
600 tests 50, so the last file a process got decided when the run ended (one process finished
47 s before the other). Handing out the dearest files first, by the seconds each took in a
recorded run, leaves only small files for the end. A file missing from the record (a new one)
counts as its number of tests times UNKNOWN_TEST_SECONDS.

Refresh the record after adding or changing costly tests:
    python -m pytest -n 3 --dist loadfile --nbval-lax tests lessons --record-file-costs
"""

from __future__ import annotations

import json
import pathlib
from collections import Counter
from collections.abc import Sequence
from typing import Any

RECORD = pathlib.Path(__file__).with_name("file_costs.json")
UNKNOWN_TEST_SECONDS = 0.05


def file_of(nodeid: str) -> str:
    """'tests/x.py::test_y[1]' -> 'tests/x.py' (a lesson's cells: 'lessons/01.ipynb')."""
    return nodeid.split("::", 1)[0]


def load_costs(path: pathlib.Path = RECORD) -> dict[str, float]:
    """The recorded seconds per file; none if the record is missing or unreadable (the order
    then only changes the run's speed, never its result)."""
    try:
        costs = json.loads(path.read_text())
        return {str(file): float(seconds) for file, seconds in costs.items()}
    except (OSError, ValueError, TypeError, AttributeError):  # unreadable, not JSON, not a map
        return {}


def costliest_files_first(items: Sequence[Any], costs: dict[str, float]) -> list[Any]:
    """`items` regrouped by file, dearest file first; each file's tests keep their order."""
    by_file: dict[str, list[Any]] = {}
    for item in items:
        by_file.setdefault(file_of(item.nodeid), []).append(item)

    def cost(file: str) -> float:
        return costs.get(file, len(by_file[file]) * UNKNOWN_TEST_SECONDS)

    ordered = sorted(by_file, key=cost, reverse=True)  # stable: ties keep collection order
    return [item for file in ordered for item in by_file[file]]


class CostRecorder:
    """Adds up every test's setup, call and teardown seconds by file (in the controlling
    process, which sees every process's reports) and writes them to the record."""

    def __init__(self) -> None:
        self.seconds: Counter[str] = Counter()

    def add(self, nodeid: str, seconds: float) -> None:
        self.seconds[file_of(nodeid)] += seconds

    def save(self, path: pathlib.Path = RECORD) -> None:
        record = {f: round(s, 1) for f, s in sorted(self.seconds.items())}
        path.write_text(json.dumps(record, indent=1) + "\n")

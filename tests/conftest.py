"""Fixtures every test folder shares: running the command line in-process."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Iterator

import pytest
from hypothesis import settings

from .file_costs import CostRecorder, costliest_files_first, load_costs
from .support import Cli, close_widgets_made_since, open_widgets, run_cli

# pytest rewrites each test module's asserts before importing it (~10 s of CPU for the whole
# tree) and caches the result in __pycache__, unless bytecode writing is off: these machines set
# PYTHONDONTWRITEBYTECODE, which would make every run rewrite every module again. The tests
# turn it back on for themselves (the caches are git-ignored).
sys.dont_write_bytecode = False

# Everything random takes a seed, Hypothesis too: the suite draws the same examples every run
# (a CI run fails for a change, never for a new draw). To hunt further, draw afresh:
# HYPOTHESIS_PROFILE=hunt HUNT_EXAMPLES=2000 pytest tests/reliability/test_hunts.py
settings.register_profile("suite", derandomize=True, database=None)
settings.register_profile("hunt", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "suite"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--record-file-costs",
        action="store_true",
        help="write each test file's seconds to tests/file_costs.json (the run order)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Files run dearest first (tests/file_costs.py), in place of pytest-xdist's default
    order, most tests first."""
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False
    if config.getoption("record_file_costs") and not hasattr(config, "workerinput"):
        config.pluginmanager.register(_FileCostPlugin(), "housing-lab-file-costs")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items[:] = costliest_files_first(items, load_costs())


class _FileCostPlugin:
    def __init__(self) -> None:
        self.recorder = CostRecorder()

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.recorder.add(report.nodeid, report.duration)

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        self.recorder.save()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """Before the last test's teardown, which ends every session fixture: the browser tests'
    servers then stop together (tests/browser/harness.py)."""
    if nextitem is None and "tests.browser.harness" in sys.modules:
        sys.modules["tests.browser.harness"].session_ending()


def pytest_collection_finish(session: pytest.Session) -> None:
    """Garbage collection took a seventh of the inner loop (3.4 s of about 25): each full
    collection walked the 300,000 objects of the libraries that collecting the tests imported,
    which are never garbage, and the young generation was collected 3,000 times. Those objects
    are frozen out of collection, and young objects are collected every 10,000 allocations
    instead of 700 (1.75 s in all, measured with `gc.callbacks`)."""
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)


@pytest.fixture(scope="session")
def cli() -> Cli:
    """`cli("nb", "score", path, stdin=..., cwd=...)` runs `housing-lab ARGS` in this process
    and returns (exit code, stdout, stderr). Session-scoped and stateless, so hypothesis tests
    may use it too."""
    return run_cli


@pytest.fixture(autouse=True)
def _close_the_tests_widgets() -> Iterator[None]:
    """Close every widget a test made once it ends. ipywidgets keeps each open widget in a
    registry for the life of the process; a run of the suite makes tens of thousands, and
    keeping them alive made every garbage collection, and the interpreter's exit, seconds
    slower. Widgets made by a wider fixture (made before this one) stay open."""
    before = set(open_widgets())
    yield
    close_widgets_made_since(before)

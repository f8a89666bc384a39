"""Fixtures every test folder shares: running the command line in-process."""

from __future__ import annotations

import pytest

from .support import Cli, run_cli


@pytest.fixture(scope="session")
def cli() -> Cli:
    """`cli("nb", "score", path, stdin=..., cwd=...)` runs `housing-lab ARGS` in this process
    and returns (exit code, stdout, stderr). Session-scoped and stateless, so hypothesis tests
    may use it too."""
    return run_cli

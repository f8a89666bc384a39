"""Shared fixtures for the Streetcar tests: running the CLI in-process."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from housing_lab.cli import main


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:
    """Run `housing-lab ARGS...` and return (exit code, stdout, stderr)."""

    def run(*args: str) -> tuple[int, str, str]:
        try:
            code = main(list(args))
        except SystemExit as stop:
            code = int(stop.code or 0)
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run

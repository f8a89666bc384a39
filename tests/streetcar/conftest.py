"""Shared fixtures for the Streetcar tests: running the CLI in-process."""

from __future__ import annotations

import importlib.util
import sys
import types
from collections.abc import Callable

import pytest


def _main() -> Callable[[list[str]], int]:
    # The CLI imports every game's command group; while another game's group is still being
    # written it may be absent, and that must not hide Streetcar's own CLI behaviour.
    name = "housing_lab.commands.north_berkeley"
    if importlib.util.find_spec(name) is None and name not in sys.modules:
        stub = types.ModuleType(name)
        stub.register = lambda groups: None  # type: ignore[attr-defined]
        sys.modules[name] = stub
    from housing_lab.cli import main

    return main


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:
    """Run `housing-lab ARGS...` and return (exit code, stdout, stderr)."""
    main = _main()

    def run(*args: str) -> tuple[int, str, str]:
        try:
            code = main(list(args))
        except SystemExit as stop:
            code = int(stop.code or 0)
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run

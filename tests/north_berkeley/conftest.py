"""Fixtures the North Berkeley tests share."""

from __future__ import annotations

import pytest

from housing_lab.north_berkeley.solver import search as solver_search
from housing_lab.north_berkeley.solver.exact import clear_cache


@pytest.fixture
def prune_everywhere(monkeypatch):
    """Bound and prune every layer of every search, from a weak lower bound: the tests' reduced
    spaces are too small for the default pruning (the last layers of large searches) to start."""
    monkeypatch.setattr(solver_search, "CHECKED_FROM", 0)
    monkeypatch.setattr(solver_search, "LOOKAHEAD", 9)
    monkeypatch.setattr(solver_search, "SAMPLE", 3)
    clear_cache()
    yield
    clear_cache()

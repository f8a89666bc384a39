"""Every room test runs on both backends: a SQLite file and a real PostgreSQL server that this
session starts (initdb + pg_ctl in a temporary folder) and stops at the end."""

from __future__ import annotations

import os

import pytest

from housing_lab.rooms import open_store
from housing_lab.rooms.stores.pg_server import find_bin_dir, temporary_server

BACKENDS = ("sqlite", "postgresql")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests that ask for the PostgreSQL server itself are slow too (before `-m` deselects)."""
    for item in items:
        if "postgres_url" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def postgres_url():
    """One server for the session; rooms never share codes, so tests share its database."""
    if find_bin_dir() is None:
        if os.environ.get("CI"):
            pytest.fail("CI must test the PostgreSQL backend: apt-get install postgresql")
        pytest.skip("PostgreSQL is not installed here")
    with temporary_server() as url:
        yield url


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def store_url(request, tmp_path):
    """A store URL of each backend. PostgreSQL's are slow: the session's server takes seconds
    to start and each test's connections more, so the inner loop runs SQLite's only."""
    if request.param == "sqlite":
        return "sqlite:///" + str(tmp_path / "rooms.sqlite")
    return request.getfixturevalue("postgres_url")


@pytest.fixture
def store(store_url):
    with open_store(store_url) as opened:
        yield opened

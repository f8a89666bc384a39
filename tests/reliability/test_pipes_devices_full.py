"""FIFOs, devices and full disks (issue 43 items 2 and 3): a path that is a named pipe or a
device, as an input, an output or a room store, is one line naming it and what it is, at once
(never a hang); a full disk is named as such, not as a read-only or damaged store."""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from housing_lab import jsonio
from housing_lab.cli import main
from housing_lab.errors import HousingLabError
from housing_lab.rooms import RoomError, open_store
from housing_lab.rooms.stores import postgres, sqlite
from tests.rooms.stores.test_faults import made_room

WAIT_S = 20.0  # a call that has not returned by then hangs


def returns(call: Callable[[], object]) -> object:
    """`call()` run in a daemon thread: its result, or a failure if it hangs."""
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            outcome["value"] = call()
        except BaseException as error:  # handed to the test
            outcome["error"] = error

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(WAIT_S)
    assert not thread.is_alive(), "the call hangs"
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["value"]


@pytest.fixture
def fifo(tmp_path) -> Path:
    path = tmp_path / "scenario.json"
    os.mkfifo(path)
    return path


def one_line(capsys, argv: list[str]) -> str:
    assert returns(lambda: main(argv)) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1, captured
    return captured.err


# --- inputs ---------------------------------------------------------------------------------


def test_a_fifo_nothing_writes_to_is_one_line_not_a_hang(fifo, capsys) -> None:
    err = one_line(capsys, ["nb", "score", str(fifo)])
    assert f"'{fifo}'" in err and "named pipe (FIFO) that nothing writes to" in err
    with pytest.raises(jsonio.JsonInputError, match="nothing writes to"):
        returns(lambda: jsonio.load_path(fifo))


def test_a_fifo_being_written_is_read(fifo, capsys) -> None:
    """`<(command)` and a FIFO with its writer waiting are ordinary inputs."""
    scenario = json.dumps({"tiles": {}, "policies": [], "seed": 4})

    def writer() -> None:
        with open(fifo, "w", encoding="utf-8") as handle:  # waits for the reader
            handle.write(scenario)

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    assert returns(lambda: main(["nb", "score", str(fifo)])) == 0
    thread.join(WAIT_S)
    assert "housed" in json.loads(capsys.readouterr().out)


def test_a_fifo_whose_writer_comes_a_moment_later_is_read(fifo, capsys) -> None:
    """A writer that opens the FIFO just after the reader looked (a whole run under load once
    found none at the first look and refused it) is still a writer."""
    scenario = json.dumps({"tiles": {}, "policies": [], "seed": 4})

    def writer() -> None:
        time.sleep(0.1)
        with open(fifo, "w", encoding="utf-8") as handle:
            handle.write(scenario)

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    assert returns(lambda: main(["nb", "score", str(fifo)])) == 0
    thread.join(WAIT_S)
    assert "housed" in json.loads(capsys.readouterr().out)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_a_device_as_input_is_one_line(capsys) -> None:
    err = one_line(capsys, ["nb", "score", "/dev/zero"])
    assert "'/dev/zero': it is a device, not a file" in err


def test_a_fifo_as_a_lab_source_is_one_line(fifo) -> None:
    from housing_lab.widgets.common import read_json_object

    with pytest.raises(HousingLabError, match="nothing writes to"):
        returns(lambda: read_json_object(str(fifo), "a scenario"))


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="needs /dev/null")
def test_a_device_or_fifo_as_an_output_folder_is_named(fifo, capsys) -> None:
    args = ["streetcar", "simulate", "--games", "1", "--out"]
    err = one_line(capsys, [*args, "/dev/null"])
    assert "'/dev/null': it is a device, not a folder" in err  # mkdir said "File exists"
    assert "named pipe (FIFO), not a folder" in one_line(capsys, [*args, str(fifo)])


# --- stores ---------------------------------------------------------------------------------


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="needs /dev/null")
@pytest.mark.parametrize("device", ["/dev/null", "/dev/full"])
def test_a_device_as_a_store_is_named_not_restored_from_a_copy(device) -> None:
    with pytest.raises(RoomError) as caught:
        open_store(f"sqlite:///{device}")
    message = str(caught.value)
    assert message == f"store '{device}' is a device, not a room store file"


def test_a_fifo_as_a_store_is_one_line_not_a_hang(fifo) -> None:
    with pytest.raises(RoomError, match=r"is a named pipe \(FIFO\), not a room store file"):
        returns(lambda: open_store(f"sqlite:///{fifo}"))


def test_sqlites_disk_full_is_a_full_disk() -> None:
    error = sqlite3.OperationalError("database or disk is full")
    message = sqlite._explain("'rooms.sqlite'", error)
    assert "is full (free some space)" in message
    assert "read-only" not in message and "restore" not in message


def test_a_full_disk_is_not_called_a_read_only_store(tmp_path, monkeypatch) -> None:
    """SQLite opening a store on a full disk says "disk I/O error" (found on a full tmpfs):
    the store is still read, but an act is refused for the full disk, not as read-only."""
    code, teacher, url = made_room(tmp_path / "rooms.sqlite")
    real = sqlite.SQLiteStore._connect

    def full(self) -> sqlite3.Connection:
        if not self._modes[0]:  # read-write: what SQLite says when it cannot grow its files
            raise sqlite3.OperationalError("disk I/O error")
        return real(self)

    monkeypatch.setattr(sqlite.SQLiteStore, "_connect", full)
    monkeypatch.setattr(sqlite, "disk_full", lambda path: True)
    with open_store(url) as store:
        assert store.view(code, teacher)["seq"] == 2
        with pytest.raises(RoomError) as caught:
            store.act(code, teacher, {"action": "call_state"})
    assert "is full: free some space" in str(caught.value)
    assert "read-only" not in str(caught.value)


def test_disk_full_reads_the_free_space(tmp_path, monkeypatch) -> None:
    class Disk:
        f_frsize = 4096
        f_bavail = 0
        f_flag = 0
        f_blocks = 10**6

    monkeypatch.setattr(sqlite.os, "statvfs", lambda path: Disk)
    assert sqlite.disk_full(tmp_path / "rooms.sqlite")
    Disk.f_flag = os.ST_RDONLY  # a read-only mount often reports no free space: not full
    assert not sqlite.disk_full(tmp_path / "rooms.sqlite")
    Disk.f_flag, Disk.f_bavail = 0, 10**6
    assert not sqlite.disk_full(tmp_path / "rooms.sqlite")
    Disk.f_blocks = Disk.f_bavail = 0  # /proc, /sys: no blocks at all, so no full disk
    assert not sqlite.disk_full(tmp_path / "rooms.sqlite")


def test_postgres_disk_full_is_not_unreachable() -> None:
    psycopg = pytest.importorskip("psycopg")
    store = postgres.PostgresStore.__new__(postgres.PostgresStore)
    store.name, store._psycopg = "'postgresql://db/rooms'", psycopg
    message = store._explain(psycopg.errors.DiskFull("could not extend file"), "could not")
    assert "is full" in message and "unreachable" not in message

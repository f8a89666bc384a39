"""Store paths that are not a plain file in a folder (issue 43, the third hunt's stores): each is
one line naming the real cause, never a traceback, "File exists" or a full disk that is not
full; and a path that is a real file name (bytes that are not UTF-8) is a store like any."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from housing_lab.rooms import RoomError, open_store
from tests.reliability.test_pipes_devices_full import returns

from .test_faults import made_room


def refused(path: str | Path) -> str:
    with pytest.raises(RoomError) as caught:
        open_store(f"sqlite:///{path}")
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_a_loop_of_symbolic_links_is_one_line(tmp_path) -> None:
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    assert refused(tmp_path / "a") == f"store '{tmp_path}/a' is a loop of symbolic links"
    assert refused(tmp_path / "a" / "rooms.sqlite") == (
        f"cannot make store '{tmp_path}/a/rooms.sqlite': '{tmp_path}/a' is a loop of "
        "symbolic links, not a folder"
    )


def test_a_link_to_a_missing_file_is_refused_not_made(tmp_path) -> None:
    """A store linked to an unmounted USB stick must not become a new, empty store there."""
    (tmp_path / "rooms.sqlite").symlink_to("/media/usb-stick/rooms.sqlite")
    assert refused(tmp_path / "rooms.sqlite") == (
        f"store '{tmp_path}/rooms.sqlite' is a symbolic link to "
        "'/media/usb-stick/rooms.sqlite', which does not exist"
    )


@pytest.mark.parametrize(("make", "kind"), [("file", "a file"), ("fifo", "a named pipe (FIFO)")])
def test_a_folder_that_is_a_file_or_fifo_is_named(tmp_path, make, kind) -> None:
    parent = tmp_path / "notafolder"
    if make == "file":
        parent.write_text("notes\n", encoding="utf-8")
    else:
        os.mkfifo(parent)
    assert refused(parent / "deeper" / "rooms.sqlite") == (
        f"cannot make store '{parent}/deeper/rooms.sqlite': '{parent}' is {kind}, not a folder"
    )


def test_a_folder_that_cannot_hold_files_is_not_a_full_disk() -> None:
    """/proc reports 0 blocks free (it has no blocks at all): that is no full disk."""
    message = refused("/proc/rooms.sqlite")
    assert "full" not in message
    assert message == "cannot make store '/proc/rooms.sqlite': No such file or directory"
    assert refused("/proc/self/rooms/r.sqlite") == (
        "cannot make the folder of store '/proc/self/rooms/r.sqlite': No such file or directory"
    )


def test_a_nul_character_is_one_line() -> None:
    assert refused("rooms\x00.sqlite") == (
        "store 'rooms\\x00.sqlite' has a NUL character in its name, which no file name holds"
    )


@pytest.mark.skipif(sys.platform != "linux", reason="Linux file names are bytes")
def test_a_file_name_that_is_not_utf8_is_a_store(tmp_path) -> None:
    path = os.fsdecode(os.fsencode(tmp_path) + b"/r\xe9sum\xe9.sqlite")  # Latin-1 bytes
    with open_store(f"sqlite:///{path}") as store:
        room = store.create_room(["Red", "Blue"], seed=3)
    with open_store(f"sqlite:///{path}") as store:
        assert store.view(room["room"], room["teacher"]["token"])["seq"] == 0
    assert os.listdir(os.fsencode(tmp_path)) == [b"r\xe9sum\xe9.sqlite"]


@pytest.mark.parametrize(
    "url", ["sqlite:///rooms.sqlite?mode=ro", "sqlite:///rooms.sqlite?check_same_thread=false"]
)
def test_options_after_a_question_mark_are_refused_not_made_into_a_file_name(
    tmp_path, monkeypatch, url
) -> None:
    """SQLAlchemy and SQLite read `?mode=ro` as an option: a store named 'rooms.sqlite?mode=ro'
    would be a new, empty store where the teacher meant to read the class's."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RoomError) as caught:
        open_store(url)
    assert str(caught.value) == (
        f"store URL '{url}' has options after '?', which a room store takes none of "
        "(name the file alone: sqlite:///rooms.sqlite)"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("path", ["rooms.sqlite ", " rooms.sqlite", "rooms.sqlite\n", "  "])
def test_spaces_around_a_store_path_are_refused(tmp_path, monkeypatch, path) -> None:
    """A space copied at the end of a path would make a second store beside the class's."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RoomError, match=r"has spaces around its file name") as caught:
        open_store("sqlite:///" + path)
    assert "\n" not in str(caught.value)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("side", ["-journal", "-wal", "-shm"])
@pytest.mark.parametrize("kind", ["a named pipe (FIFO)", "a folder"])
def test_sqlites_own_files_beside_the_store_that_are_not_files_are_named(
    tmp_path, side, kind
) -> None:
    """SQLite opens rooms.sqlite-journal, -wal and -shm itself: a FIFO there hung every view
    (SQLite retries the open, so not even SIGTERM ended it), a FIFO as -wal took an act that
    was then lost, a folder was called a read-only store."""
    path = tmp_path / "rooms.sqlite"
    code, teacher, url = made_room(path)
    for leftover in ("-wal", "-shm"):
        Path(f"{path}{leftover}").unlink(missing_ok=True)
    other = Path(f"{path}{side}")
    os.mkfifo(other) if kind.endswith("(FIFO)") else other.mkdir()
    with pytest.raises(RoomError) as caught:
        returns(lambda: open_store(url).view(code, teacher))
    assert str(caught.value) == (
        f"cannot open store '{path}': '{other}' beside it is {kind}, not SQLite's own file "
        "(move it away)"
    )

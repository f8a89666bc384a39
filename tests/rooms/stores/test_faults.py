"""Store faults are one line naming the store, exit 2 from the CLI (issue 25 item 2): files
that are not SQLite, foreign tables, tampered rows, a held lock, PostgreSQL URLs."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from housing_lab.cli import main
from housing_lab.rooms import RoomError, open_store
from housing_lab.rooms.stores import sqlite
from housing_lab.rooms.urls import without_password


def made_room(path) -> tuple[str, str, str]:
    """A store file with one room and two logged actions; (code, teacher token, url)."""
    url = f"sqlite:///{path}"
    with open_store(url) as store:
        room = store.create_room(["Red", "Blue"], seed=3)
        red = room["teams"]["Red"]["token"]
        for square in ("B1", "B2"):
            store.act(room["room"], red, {"action": "place", "square": square, "tile": "park"})
    return room["room"], room["teacher"]["token"], url


def one_line_exit_2(capsys, argv) -> str:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    return captured.err


@pytest.mark.parametrize(
    "content, words",
    [
        (b"just some notes\n", "is not a SQLite database"),
        (b"\0" * 8192, "is not a SQLite database"),
    ],
)
def test_files_that_are_not_sqlite_are_one_line(tmp_path, capsys, content, words) -> None:
    path = tmp_path / "rooms.sqlite"
    path.write_bytes(content)
    err = one_line_exit_2(
        capsys, ["room", "view", "ABCDEF", "--token", "x", "--store", f"sqlite:///{path}"]
    )
    assert words in err and "rooms.sqlite" in err
    assert path.read_bytes() == content  # nothing written into it


def test_truncated_and_scrambled_files_are_damaged_not_tracebacks(tmp_path, capsys) -> None:
    path = tmp_path / "rooms.sqlite"
    code, teacher, url = made_room(path)
    data = path.read_bytes()
    for damaged in (data[: 4096 + 100], data[:100] + bytes(range(256)) * 40 + data[100 + 10240 :]):
        (tmp_path / "rooms.sqlite-wal").unlink(missing_ok=True)
        (tmp_path / "rooms.sqlite-shm").unlink(missing_ok=True)
        path.write_bytes(damaged)
        err = one_line_exit_2(capsys, ["room", "view", code, "--token", teacher, "--store", url])
        assert "rooms.sqlite" in err or code in err


def test_another_programs_rooms_table_is_refused_and_left_alone(tmp_path) -> None:
    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE rooms (id INTEGER, building TEXT)")
    with pytest.raises(RoomError, match="'rooms' table that is not a room store's"):
        open_store(f"sqlite:///{path}")
    with sqlite3.connect(path) as db:
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
    assert names == {"rooms"}


@pytest.mark.parametrize(
    "statement, words",
    [
        ("UPDATE room_actions SET action = 'not json' WHERE seq = 2", "log is damaged at action 2"),
        (
            "UPDATE room_actions SET action = ? WHERE seq = 2",
            "log is damaged at action 2",
        ),
        ("UPDATE room_actions SET at = 'noon' WHERE seq = 1", "log is damaged at action 1"),
        ("UPDATE room_actions SET seq = 'two' WHERE seq = 2", "log is damaged at action 2"),
        ("UPDATE rooms SET seed = 'abc'", "record is damaged"),
        ("UPDATE rooms SET teams = 'Red, Blue'", "record is damaged"),
        ('UPDATE rooms SET teams = \'["Red", "Bleu"]\'', "record is damaged"),
        ("UPDATE rooms SET options = 'null'", "record is damaged"),
        ("UPDATE rooms SET created_at = 'yesterday'", "record is damaged"),
    ],
)
def test_tampered_rows_name_the_room_and_action(tmp_path, capsys, statement, words) -> None:
    path = tmp_path / "rooms.sqlite"
    code, teacher, url = made_room(path)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA foreign_keys=OFF")
        if "?" in statement:
            db.execute(statement, ("[" * 100_000 + "]" * 100_000,))
        else:
            db.execute(statement)
    err = one_line_exit_2(capsys, ["room", "view", code, "--token", teacher, "--store", url])
    assert f"room {code}'s {words}" in err


def test_a_held_lock_is_the_store_is_busy_and_a_view_still_reads(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(sqlite, "BUSY_TIMEOUT_S", 0.2)
    path = tmp_path / "rooms.sqlite"
    code, teacher, url = made_room(path)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with open_store(url) as store:
            assert store.view(code, teacher)["seq"] == 2  # WAL: readers are not blocked
            with pytest.raises(RoomError, match="the store is busy"):
                store.act(code, teacher, {"action": "advance"})
            assert store.seq(code, teacher) == 2
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_an_existing_store_is_opened_without_any_write(tmp_path) -> None:
    path = tmp_path / "rooms.sqlite"
    code, teacher, url = made_room(path)
    seen: list[str] = []
    real_connect = sqlite3.connect

    def traced(*args, **kwargs):
        connection = real_connect(*args, **kwargs)
        connection.set_trace_callback(seen.append)
        return connection

    sqlite3.connect = traced  # type: ignore[assignment]
    try:
        with open_store(url) as store:
            store.view(code, teacher)
    finally:
        sqlite3.connect = real_connect  # type: ignore[assignment]
    writes = [s for s in seen if s.split()[0].upper() in {"CREATE", "INSERT", "BEGIN"}]
    assert seen and writes == []


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://ana:s3cret@127.0.0.1:notaport/db",
        "postgresql://ana:s3cret@[::1:5432/db",
        "postgresql://ana:s3cret@127.0.0.1:1/db?nonsense_option=1",
        "postgresql://ana@127.0.0.1:1/db?password=s3cret",
        "postgresq://ana:s3cret@host/db",
    ],
)
def test_postgres_urls_are_one_line_without_the_password(capsys, url) -> None:
    pytest.importorskip("psycopg")
    err = one_line_exit_2(capsys, ["room", "view", "ABCDEF", "--token", "x", "--store", url])
    assert "s3cret" not in err and "***" in err


def test_without_password_never_raises() -> None:
    assert without_password("postgresql://u:p@[::1]:x/db") == "postgresql://u:***@[::1]:x/db"
    assert without_password("postgresql://host/db") == "postgresql://host/db"


def test_postgres_lock_timeout_makes_a_held_room_busy(postgres_url, monkeypatch) -> None:
    from housing_lab.rooms.stores import postgres

    monkeypatch.setattr(postgres, "LOCK_TIMEOUT_MS", 300)
    import psycopg

    with open_store(postgres_url) as store:
        room = store.create_room(["Red", "Blue"], seed=1)
        code, teacher = room["room"], room["teacher"]["token"]
        with psycopg.connect(postgres_url) as other:
            other.execute("SELECT code FROM rooms WHERE code = %s FOR UPDATE", (code,))
            done: list[BaseException] = []

            def act() -> None:
                try:
                    store.act(code, teacher, {"action": "advance"})
                except BaseException as error:
                    done.append(error)
                finally:
                    store.close()

            thread = threading.Thread(target=act)
            thread.start()
            thread.join(10)
            assert not thread.is_alive()
            other.rollback()
        assert done and "the store is busy" in str(done[0])
        assert store.seq(code, teacher) == 0


def test_postgres_foreign_rooms_table_is_refused(postgres_url) -> None:
    import psycopg

    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute("CREATE SCHEMA IF NOT EXISTS other_app")
        db.execute("CREATE TABLE IF NOT EXISTS other_app.rooms (id INTEGER, building TEXT)")
    with pytest.raises(RoomError, match="not a room store's"):
        open_store(postgres_url + "?options=-csearch_path%3Dother_app")


def test_a_read_only_store_views_and_refuses_acts_in_one_line(tmp_path, monkeypatch) -> None:
    """As root a chmod cannot make a file read-only, so the store is told it cannot write."""
    path = tmp_path / "rooms.sqlite"
    code, teacher, url = made_room(path)
    before = path.read_bytes()
    monkeypatch.setattr(sqlite.os, "access", lambda *_args, **_kw: False)
    with open_store(url) as store:
        assert store.read_only and store.view(code, teacher)["seq"] == 2
        with pytest.raises(RoomError, match="is read-only"):
            store.act(code, teacher, {"action": "call_state"})
        with pytest.raises(RoomError, match="is read-only"):
            store.create_room(["Red", "Blue"])
    assert path.read_bytes() == before
    (tmp_path / "empty.sqlite").write_bytes(b"")
    with pytest.raises(RoomError, match="read-only and holds no rooms"):
        open_store(f"sqlite:///{tmp_path / 'empty.sqlite'}")


def test_a_damaged_schema_with_line_breaks_in_sqlites_words_is_one_line(tmp_path) -> None:
    """Found by the byte-damage hunt: a stray quote in a stored CREATE statement makes SQLite's
    own message quote the rest of the statement, line breaks and all."""
    path = tmp_path / "rooms.sqlite"
    code, teacher, url = made_room(path)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = path.read_bytes()
    at = data.index(b"room_tokens (") + len(b"room_tokens ")
    path.write_bytes(data[:at] + b"'" + data[at + 1 :])
    with pytest.raises(RoomError, match="is damaged") as caught, open_store(url) as store:
        store.view(code, teacher)
    assert "\n" not in str(caught.value) and "room TEXT" in str(caught.value)

"""The SQLite backend: one file, WAL mode, standard library only (the laptop / one-server case).

Each thread gets its own connection (sqlite3 connections are not shared between threads); a
write takes the database's write lock up front (BEGIN IMMEDIATE), so concurrent acts are
served one at a time while readers carry on (WAL). Every statement is a fixed string with `?`
parameters.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from housing_lab.errors import quote_path
from housing_lab.rooms.errors import RoomError
from housing_lab.rooms.games import RoomInfo
from housing_lab.rooms.store import (
    CodeTaken,
    LoggedAction,
    RoomStore,
    SeqTaken,
    Transaction,
    info_from_row,
    iter_rows,
)

BUSY_TIMEOUT_S = 30.0

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS rooms (
        code TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        seed TEXT NOT NULL,
        options TEXT NOT NULL,
        teams TEXT NOT NULL,
        created_at REAL NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS room_tokens (
        room TEXT NOT NULL REFERENCES rooms(code),
        holder TEXT NOT NULL,
        token_hash TEXT NOT NULL,
        PRIMARY KEY (room, holder)
    )""",
    """CREATE TABLE IF NOT EXISTS room_actions (
        room TEXT NOT NULL REFERENCES rooms(code),
        seq INTEGER NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (room, seq)
    )""",
)
INSERT_ROOM = (
    "INSERT INTO rooms (code, game, seed, options, teams, created_at) VALUES (?, ?, ?, ?, ?, ?)"
)
INSERT_TOKEN = "INSERT INTO room_tokens (room, holder, token_hash) VALUES (?, ?, ?)"
SELECT_ROOM = "SELECT code, game, seed, options, teams, created_at FROM rooms WHERE code = ?"
SELECT_TOKENS = "SELECT holder, token_hash FROM room_tokens WHERE room = ?"
SELECT_ACTIONS = (
    "SELECT seq, actor, action, at FROM room_actions WHERE room = ? AND seq > ? ORDER BY seq"
)
INSERT_ACTION = "INSERT INTO room_actions (room, seq, actor, action, at) VALUES (?, ?, ?, ?, ?)"


class SQLiteStore(RoomStore):
    backend = "sqlite"

    def __init__(self, url: str, path: str, **kwargs: object) -> None:
        super().__init__(url, **kwargs)  # type: ignore[arg-type]
        self.path = Path(path).expanduser()
        self._local = threading.local()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise RoomError(
                f"cannot create the folder of store {quote_path(self.path)}: {error}"
            ) from None
        connection = self._connection()
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            with self._write(connection):
                for statement in SCHEMA:
                    connection.execute(statement)
        except sqlite3.DatabaseError as error:
            raise RoomError(f"store {quote_path(self.path)} is not a room store: {error}") from None

    def _connection(self) -> sqlite3.Connection:
        connection = getattr(self._local, "connection", None)
        if connection is None:
            try:
                connection = sqlite3.connect(
                    self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None
                )
            except sqlite3.Error as error:
                raise RoomError(f"cannot open store {quote_path(self.path)}: {error}") from None
            connection.execute("PRAGMA synchronous=NORMAL")  # WAL: durable at checkpoints
            connection.execute("PRAGMA foreign_keys=ON")
            self._local.connection = connection
        return connection

    @contextmanager
    def _write(self, connection: sqlite3.Connection) -> Iterator[None]:
        connection.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")

    def _insert_room(self, info: RoomInfo, hashes: Mapping[str, str]) -> None:
        connection = self._connection()
        try:
            with self._write(connection):
                connection.execute(
                    INSERT_ROOM,
                    (
                        info.code,
                        info.game,
                        str(info.seed),
                        json.dumps(dict(info.options)),
                        json.dumps(list(info.teams)),
                        info.created_at,
                    ),
                )
                connection.executemany(
                    INSERT_TOKEN, [(info.code, holder, digest) for holder, digest in hashes.items()]
                )
        except sqlite3.IntegrityError:
            raise CodeTaken from None

    def _load_room(self, code: str) -> tuple[RoomInfo, dict[str, str]] | None:
        connection = self._connection()
        row = connection.execute(SELECT_ROOM, (code,)).fetchone()
        if row is None:
            return None
        hashes = dict(connection.execute(SELECT_TOKENS, (code,)).fetchall())
        return info_from_row(row), hashes

    def _actions_after(self, code: str, seq: int) -> list[LoggedAction]:
        return iter_rows(self._connection().execute(SELECT_ACTIONS, (code, seq)))

    @contextmanager
    def _transaction(self, code: str) -> Iterator[Transaction]:
        connection = self._connection()
        with self._write(connection):
            yield _SQLiteTransaction(connection, code)

    def close(self) -> None:
        connection = getattr(self._local, "connection", None)
        if connection is not None:
            connection.close()
            self._local.connection = None


class _SQLiteTransaction(Transaction):
    def __init__(self, connection: sqlite3.Connection, code: str) -> None:
        self.connection = connection
        self.code = code

    def actions_after(self, seq: int) -> list[LoggedAction]:
        return iter_rows(self.connection.execute(SELECT_ACTIONS, (self.code, seq)))

    def insert(self, action: LoggedAction) -> None:
        try:
            self.connection.execute(
                INSERT_ACTION,
                (self.code, action.seq, action.actor, json.dumps(action.action), action.at),
            )
        except sqlite3.IntegrityError:
            raise SeqTaken from None

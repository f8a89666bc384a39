"""The PostgreSQL backend (psycopg 3): one database shared by pages on several servers.

Each thread gets its own connection. An act locks its room's row (SELECT ... FOR UPDATE) for the
length of its transaction, so acts on one room are served one at a time and acts on different
rooms do not wait for each other. Every statement is a fixed string with `%s` parameters.
psycopg is imported only when a PostgreSQL store is opened.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from housing_lab.errors import shown
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

SCHEMA_LOCK = 7_427_001  # advisory lock id: two servers creating the tables at once wait
CONNECT_TIMEOUT_S = 10

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS rooms (
        code TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        seed TEXT NOT NULL,
        options TEXT NOT NULL,
        teams TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS room_tokens (
        room TEXT NOT NULL REFERENCES rooms(code),
        holder TEXT NOT NULL,
        token_hash TEXT NOT NULL,
        PRIMARY KEY (room, holder)
    )""",
    """CREATE TABLE IF NOT EXISTS room_actions (
        room TEXT NOT NULL REFERENCES rooms(code),
        seq BIGINT NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (room, seq)
    )""",
)
INSERT_ROOM = (
    "INSERT INTO rooms (code, game, seed, options, teams, created_at) "
    "VALUES (%s, %s, %s, %s, %s, %s)"
)
INSERT_TOKEN = "INSERT INTO room_tokens (room, holder, token_hash) VALUES (%s, %s, %s)"
SELECT_ROOM = "SELECT code, game, seed, options, teams, created_at FROM rooms WHERE code = %s"
SELECT_TOKENS = "SELECT holder, token_hash FROM room_tokens WHERE room = %s"
SELECT_ACTIONS = (
    "SELECT seq, actor, action, at FROM room_actions WHERE room = %s AND seq > %s ORDER BY seq"
)
LOCK_ROOM = "SELECT code FROM rooms WHERE code = %s FOR UPDATE"
INSERT_ACTION = (
    "INSERT INTO room_actions (room, seq, actor, action, at) VALUES (%s, %s, %s, %s, %s)"
)


def without_password(url: str) -> str:
    """The URL as a message may show it (a password never reaches a terminal or a log)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


class PostgresStore(RoomStore):
    backend = "postgresql"

    def __init__(self, url: str, **kwargs: Any) -> None:
        super().__init__(url, **kwargs)
        try:
            import psycopg
        except ImportError:
            raise RoomError(
                "a PostgreSQL store needs psycopg 3: pip install 'psycopg[binary]'"
            ) from None
        self._psycopg = psycopg
        self._local = threading.local()
        connection = self._connection()
        with self._errors(), connection.transaction():
            connection.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            for statement in SCHEMA:
                connection.execute(statement)

    @contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except self._psycopg.OperationalError as error:
            detail = " ".join(str(error).split())
            raise RoomError(
                f"store {shown(without_password(self.url))} is unreachable: {detail}"
            ) from None

    def _connection(self) -> Any:
        connection = getattr(self._local, "connection", None)
        if connection is None or connection.closed:
            with self._errors():
                connection = self._psycopg.connect(
                    self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S
                )
            self._local.connection = connection
        return connection

    def _insert_room(self, info: RoomInfo, hashes: Mapping[str, str]) -> None:
        connection = self._connection()
        try:
            with self._errors(), connection.transaction():
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
                with connection.cursor() as cursor:
                    cursor.executemany(
                        INSERT_TOKEN, [(info.code, holder, h) for holder, h in hashes.items()]
                    )
        except self._psycopg.errors.UniqueViolation:
            raise CodeTaken from None

    def _load_room(self, code: str) -> tuple[RoomInfo, dict[str, str]] | None:
        connection = self._connection()
        with self._errors():
            row = connection.execute(SELECT_ROOM, (code,)).fetchone()
            if row is None:
                return None
            hashes = dict(connection.execute(SELECT_TOKENS, (code,)).fetchall())
        return info_from_row(row), hashes

    def _actions_after(self, code: str, seq: int) -> list[LoggedAction]:
        with self._errors():
            return iter_rows(self._connection().execute(SELECT_ACTIONS, (code, seq)).fetchall())

    @contextmanager
    def _transaction(self, code: str) -> Iterator[Transaction]:
        connection = self._connection()
        with self._errors(), connection.transaction():
            connection.execute(LOCK_ROOM, (code,))
            yield _PostgresTransaction(connection, code, self._psycopg)

    def close(self) -> None:
        connection = getattr(self._local, "connection", None)
        if connection is not None:
            connection.close()
            self._local.connection = None


class _PostgresTransaction(Transaction):
    def __init__(self, connection: Any, code: str, psycopg: Any) -> None:
        self.connection = connection
        self.code = code
        self.psycopg = psycopg

    def actions_after(self, seq: int) -> list[LoggedAction]:
        return iter_rows(self.connection.execute(SELECT_ACTIONS, (self.code, seq)).fetchall())

    def insert(self, action: LoggedAction) -> None:
        try:
            with self.connection.transaction():  # a savepoint: a clash leaves the outer one usable
                self.connection.execute(
                    INSERT_ACTION,
                    (self.code, action.seq, action.actor, json.dumps(action.action), action.at),
                )
        except self.psycopg.errors.UniqueViolation:
            raise SeqTaken from None

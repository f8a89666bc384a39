"""What the SQLite and PostgreSQL stores do alike, written once (issue 21: the two room stores
share the SQL where the dialects agree).

`SQLRoomStore` reads and writes rooms, tokens and actions with `stores.sql`'s statements through
a DB-API connection (sqlite3's or psycopg's); a backend supplies only what differs: its
connection, how its faults become one line (`_errors`), its write transaction (`_write`), its
unique-violation exception type, the room lock (`_lock_room`), the savepoint around an action's
insert (`_savepoint`), and the statements' parameter spelling (`statements`).
"""

from __future__ import annotations

import json
import threading
import time
from abc import abstractmethod
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, closing, contextmanager, nullcontext
from typing import Any, ClassVar

from housing_lab.rooms.games import RoomGame, RoomInfo
from housing_lab.rooms.stores import sql
from housing_lab.rooms.stores.base import CodeTaken, RoomStore, SeqTaken, Transaction
from housing_lab.rooms.stores.rows import LoggedAction, actions_from_rows, room_from_rows


class SQLRoomStore(RoomStore):
    """A `RoomStore` on a SQL database: each thread has its own connection in `_local`."""

    statements: ClassVar[sql.Statements]
    # The driver's exception for a duplicate primary key (a room code or action number taken).
    _unique_violation: type[Exception]

    def __init__(
        self,
        url: str,
        *,
        room_game: Callable[[str], RoomGame],
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(url, room_game=room_game, clock=clock)
        self._local = threading.local()

    # --- what each backend supplies --------------------------------------------------------
    @abstractmethod
    def _connection(self) -> Any:
        """This thread's connection, opened on first use (autocommit: `_write` begins)."""

    @abstractmethod
    def _errors(self) -> AbstractContextManager[None]:
        """The driver's faults as one `RoomError` line; `_unique_violation` passes through."""

    @abstractmethod
    def _write(self, connection: Any) -> AbstractContextManager[None]:
        """A write transaction on `connection`: committed on a clean exit, else rolled back."""

    def _lock_room(self, connection: Any, code: str) -> None:
        """Lock one room's row inside `_write`; nothing by default (the write lock is enough)."""

    def _savepoint(self, connection: Any) -> AbstractContextManager[object]:
        """What an action's insert runs in; nothing by default (a refused insert leaves the
        transaction usable)."""
        return nullcontext()

    # --- other tables in the same database (class polls: rooms/class_poll.py) --------------
    @contextmanager
    def reading(self) -> Iterator[Any]:
        """This thread's connection, the driver's faults as one line (a read outside any
        transaction)."""
        connection = self._connection()
        with self._errors():
            yield connection

    @contextmanager
    def writing(self) -> Iterator[Any]:
        """A write transaction on this thread's connection (SQLite: the database's write lock
        up front), committed on a clean exit, else rolled back."""
        connection = self._connection()
        with self._errors(), self._write(connection):
            yield connection

    def spell(self, statement: str) -> str:
        """A `?` statement in this driver's parameter spelling."""
        return sql.for_psycopg(statement) if self.backend == "postgresql" else statement

    # --- RoomStore's primitives ------------------------------------------------------------
    def _insert_room(self, info: RoomInfo, hashes: Mapping[str, str]) -> None:
        connection = self._connection()
        try:
            with self._errors(), self._write(connection):
                connection.execute(
                    self.statements.insert_room,
                    (
                        info.code,
                        info.game,
                        str(info.seed),
                        json.dumps(dict(info.options), allow_nan=False),
                        json.dumps(list(info.teams)),
                        info.created_at,
                    ),
                )
                with closing(connection.cursor()) as cursor:
                    cursor.executemany(
                        self.statements.insert_token,
                        [(info.code, holder, digest) for holder, digest in hashes.items()],
                    )
        except self._unique_violation:
            raise CodeTaken from None

    def _load_room(self, code: str) -> tuple[RoomInfo, dict[str, str]] | None:
        connection = self._connection()
        with self._errors():
            row = connection.execute(self.statements.select_room, (code,)).fetchone()
            if row is None:
                return None
            token_rows = connection.execute(self.statements.select_tokens, (code,)).fetchall()
        return room_from_rows(code, row, token_rows, self._room_game)

    def _actions_after(self, code: str, seq: int) -> list[LoggedAction]:
        with self._errors():
            return self._read_actions(self._connection(), code, seq)

    @contextmanager
    def _transaction(self, code: str) -> Iterator[Transaction]:
        connection = self._connection()
        with self._errors(), self._write(connection):
            self._lock_room(connection, code)
            yield SQLTransaction(self, connection, code)

    def close(self) -> None:
        connection = getattr(self._local, "connection", None)
        if connection is not None:
            connection.close()
            self._local.connection = None

    def _read_actions(self, connection: Any, code: str, seq: int) -> list[LoggedAction]:
        """A room's actions above `seq`, checked (the read both `_actions_after` and a
        transaction's `actions_after` make)."""
        rows = connection.execute(self.statements.select_actions, (code, seq)).fetchall()
        return actions_from_rows(code, rows, seq)


class SQLTransaction(Transaction):
    """One room's reads and inserts on a store's connection (inside its `_write`, for `act`)."""

    def __init__(self, store: SQLRoomStore, connection: Any, code: str) -> None:
        self.store = store
        self.connection = connection
        self.code = code

    def actions_after(self, seq: int) -> list[LoggedAction]:
        return self.store._read_actions(self.connection, self.code, seq)

    def insert(self, action: LoggedAction) -> None:
        try:
            with self.store._savepoint(self.connection):
                self.connection.execute(
                    self.store.statements.insert_action,
                    (self.code, action.seq, action.actor, json.dumps(action.action), action.at),
                )
        except self.store._unique_violation:
            raise SeqTaken from None

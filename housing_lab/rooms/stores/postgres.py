"""The PostgreSQL backend (psycopg 3): one database shared by pages on several servers.

Each thread gets its own connection. An act locks its room's row (SELECT ... FOR UPDATE) for the
length of its transaction, so acts on one room are served one at a time and acts on different
rooms do not wait for each other; a lock held by another session past `LOCK_TIMEOUT_MS` is "the
store is busy", never an endless wait. The statements are `stores.sql`'s in psycopg's `%s`
spelling, run by `stores.dbapi` (what both backends do alike). The tables are created only when
missing (a role with table grants but no CREATE works). psycopg is imported only when a
PostgreSQL store is opened.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from housing_lab.errors import shown
from housing_lab.rooms.errors import RoomError
from housing_lab.rooms.stores import sql
from housing_lab.rooms.stores.dbapi import SQLRoomStore
from housing_lab.rooms.urls import password_of, without_password

__all__ = ["PostgresStore", "without_password"]

SCHEMA_LOCK = 7_427_001  # advisory lock id: two servers creating the tables at once wait
CONNECT_TIMEOUT_S = 10
LOCK_TIMEOUT_MS = 5000  # another session holding a room (or the schema) this long: busy
SCHEMA = sql.schema(real="DOUBLE PRECISION", integer="BIGINT")
TABLE_COLUMNS = (
    "SELECT table_name, column_name FROM information_schema.columns "
    "WHERE table_schema = current_schema() AND table_name = ANY(%s)"
)
STATEMENTS = sql.Statements().spelled(sql.for_psycopg)
LOCK_ROOM = sql.for_psycopg(sql.LOCK_ROOM)


class PostgresStore(SQLRoomStore):
    backend = "postgresql"
    statements = STATEMENTS

    def __init__(self, url: str, **kwargs: Any) -> None:
        super().__init__(url, **kwargs)
        self.name = shown(without_password(url))
        try:
            import psycopg
        except ImportError:
            raise RoomError(
                "a PostgreSQL store needs psycopg 3: pip install 'psycopg[binary]'"
            ) from None
        self._psycopg = psycopg
        self._unique_violation = psycopg.errors.UniqueViolation
        connection = self._connection()
        with self._errors():
            if self._has_tables(connection):
                return  # nothing to create: a role without CREATE on the schema works
            with connection.transaction():
                connection.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
                if not self._has_tables(connection):  # another server may have just made them
                    for statement in SCHEMA:
                        connection.execute(statement)

    def _has_tables(self, connection: Any) -> bool:
        found: dict[str, set[str]] = {}
        for table, column in connection.execute(TABLE_COLUMNS, (list(sql.TABLES),)).fetchall():
            found.setdefault(table, set()).add(column)
        return sql.check_tables(found, self.name)

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """psycopg's exceptions as one line naming the store (its password never shown)."""
        psycopg = self._psycopg
        try:
            yield
        except psycopg.Error as error:
            if isinstance(error, psycopg.errors.UniqueViolation):
                raise  # the caller's: a room code or action number already taken
            detail = " ".join(str(error).split())
            for secret in password_of(self.url):
                detail = detail.replace(secret, "***")
            raise RoomError(self._explain(error, detail)) from None

    def _explain(self, error: Exception, detail: str) -> str:
        errors = self._psycopg.errors
        if isinstance(error, (errors.LockNotAvailable, errors.QueryCanceled)):
            return (
                f"the store is busy: another session has held {self.name} for over "
                f"{LOCK_TIMEOUT_MS / 1000:g} s; try again"
            )
        if isinstance(error, errors.InsufficientPrivilege):
            return f"store {self.name}: the database user may not do this: {detail}"
        if isinstance(error, errors.ReadOnlySqlTransaction):
            return f"store {self.name} is read-only: rooms can be viewed, not created or played"
        if isinstance(error, errors.DiskFull):  # an OperationalError, but not "unreachable"
            return f"the disk of store {self.name} is full: free some space on its server"
        if isinstance(error, self._psycopg.OperationalError):
            return f"store {self.name} is unreachable: {detail}"
        if isinstance(error, self._psycopg.ProgrammingError) and "connection" in detail.lower():
            return f"store URL {self.name} is not usable: {detail}"
        return f"store {self.name} failed: {detail}"

    def _connection(self) -> Any:
        connection = getattr(self._local, "connection", None)
        if connection is None or connection.closed:
            with self._errors():
                connection = self._psycopg.connect(
                    self.url,
                    autocommit=True,
                    connect_timeout=CONNECT_TIMEOUT_S,
                )
                connection.execute(
                    "SELECT set_config('lock_timeout', %s, false)", (f"{LOCK_TIMEOUT_MS}ms",)
                )
            self._local.connection = connection
        return connection

    def _write(self, connection: Any) -> AbstractContextManager[None]:
        """psycopg's transaction block (the connection is in autocommit outside it)."""
        return connection.transaction()

    def _lock_room(self, connection: Any, code: str) -> None:
        """The room's row FOR UPDATE: acts on one room wait their turn, other rooms' do not."""
        connection.execute(LOCK_ROOM, (code,))

    def _savepoint(self, connection: Any) -> AbstractContextManager[object]:
        """A savepoint: a clashing insert leaves the outer transaction usable (PostgreSQL
        aborts a whole transaction on any error inside it)."""
        return connection.transaction()

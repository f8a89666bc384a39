"""The SQLite backend: one file, WAL mode, standard library only (the laptop / one-server case).

Each thread gets its own connection (sqlite3 connections are not shared between threads); a
write takes the database's write lock up front (BEGIN IMMEDIATE), so concurrent acts are
served one at a time while readers carry on (WAL). The statements are `stores.sql`'s, run by
`stores.dbapi` (what both backends do alike); this module holds only what is SQLite's own.

Faults are one line naming the file: a file that is not SQLite (checked by its header before
SQLite touches it), another program's tables, damage SQLite reports, a file that cannot be
written (opened read-only, so a view still works: tables are created only when missing), and
another writer holding the lock past `BUSY_TIMEOUT_S` ("the store is busy").
"""

from __future__ import annotations

import errno
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

from housing_lab.errors import quote_path
from housing_lab.outputs import not_a_file
from housing_lab.rooms.errors import RoomError
from housing_lab.rooms.stores import sql
from housing_lab.rooms.stores.dbapi import SQLRoomStore

BUSY_TIMEOUT_S = 5.0  # a writer holding the lock longer than this: "the store is busy"
HEADER = b"SQLite format 3\x00"
SCHEMA = sql.schema(real="REAL", integer="INTEGER")
# URI modes tried in order: read-write, then read-only (WAL needs its -shm file: a read-only
# folder without one is read as immutable, which is safe because nobody can write it either).
READ_WRITE = ("", "mode=ro", "mode=ro&immutable=1")
READ_ONLY = READ_WRITE[1:]
SIDE_FILES = ("-journal", "-wal", "-shm")  # what SQLite keeps beside a database file
FULL_BELOW = 256 * 1024  # bytes left on a disk too full for SQLite (its journal and pages)
LIST_TABLES = "SELECT name FROM sqlite_master WHERE type = 'table'"
TABLE_COLUMNS = "SELECT name FROM pragma_table_info(?)"


class SQLiteStore(SQLRoomStore):
    backend = "sqlite"
    statements = sql.Statements()
    _unique_violation = sqlite3.IntegrityError

    def __init__(self, url: str, path: str, **kwargs: object) -> None:
        super().__init__(url, **kwargs)  # type: ignore[arg-type]
        self.path = Path(path).expanduser()
        self.name = quote_path(self.path)
        self._modes = READ_WRITE
        self._full = False  # opened read-only because the disk is full, not the file read-only
        if _check_file(self.path, self.name):
            self._modes = READ_ONLY
        while True:
            try:
                has_tables = self._has_tables(self._connection(raw=True))
                break
            except sqlite3.OperationalError as error:
                self._full = self._full or disk_full(self.path)
                if not self.path.exists() and not self._full:  # the system's words, not SQLite's
                    why = _why_not_made(self.path, self.name) or self._explain(error)
                    raise RoomError(why) from None
                if not _cannot_write(error) or self._modes[1:] == () or not self.path.exists():
                    raise RoomError(self._explain(error)) from None
                self.close()  # a read-only file, folder or mount (or a full disk): read only
                self._modes = self._modes[1:]
            except sqlite3.DatabaseError as error:
                raise RoomError(self._explain(error)) from None
            except UnicodeDecodeError:
                raise RoomError(_not_utf8(self.name)) from None
        if has_tables:
            return  # a view needs no write: nothing is created or changed
        if self.read_only:
            if self._full:
                raise RoomError(self._cannot_write("it holds no rooms yet"))
            raise RoomError(f"store {self.name} is read-only and holds no rooms")
        with self._errors():
            connection = self._connection()
            connection.execute("PRAGMA journal_mode=WAL")
            with self._write(connection):
                for statement in SCHEMA:
                    connection.execute(statement)

    def _cannot_write(self, then: str) -> str:
        """Why this store cannot be written (a full disk, or a read-only file or folder), and
        `then` what that means."""
        if self._full:
            return f"the disk of store {self.name} is full: free some space ({then})"
        return f"store {self.name} is read-only: {then}"

    def _explain(self, error: sqlite3.DatabaseError) -> str:
        """`_explain`, with a full disk found when SQLite only says "I/O error"."""
        if self._full or disk_full(self.path):
            return f"the disk of store {self.name} is full (free some space): {error}"
        return _explain(self.name, error)

    @property
    def read_only(self) -> bool:
        """Whether this store was opened for reading only (a view works, an act is refused)."""
        return self._modes[0] != ""

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """SQLite's exceptions as one line naming the store (and what to do about a lock)."""
        try:
            yield
        except sqlite3.IntegrityError:
            raise  # the caller's: a room code or action number already taken
        except sqlite3.DatabaseError as error:
            raise RoomError(self._explain(error)) from None
        except UnicodeDecodeError:
            raise RoomError(_not_utf8(self.name)) from None

    def _has_tables(self, connection: sqlite3.Connection) -> bool:
        names = {row[0] for row in connection.execute(LIST_TABLES)} & set(sql.TABLES)
        found = {
            name: {row[0] for row in connection.execute(TABLE_COLUMNS, (name,))} for name in names
        }
        return sql.check_tables(found, self.name)

    def _connection(self, raw: bool = False) -> sqlite3.Connection:
        """This thread's connection (`raw`: SQLite's own exceptions, for `__init__`'s retry)."""
        connection = getattr(self._local, "connection", None)
        if connection is None:
            if raw:
                connection = self._connect()
            else:
                with self._errors():
                    connection = self._connect()
            self._local.connection = connection
        return connection

    def _connect(self) -> sqlite3.Connection:
        target = f"file:{quote(os.fsencode(self.path.resolve()))}"  # any bytes Linux allows
        if self._modes[0]:
            target += "?" + self._modes[0]
        connection = sqlite3.connect(target, timeout=BUSY_TIMEOUT_S, isolation_level=None, uri=True)
        connection.execute("PRAGMA foreign_keys=ON")
        if not self.read_only:
            connection.execute("PRAGMA synchronous=NORMAL")  # WAL: durable at checkpoints
        return connection

    @contextmanager
    def _write(self, connection: sqlite3.Connection) -> Iterator[None]:
        """BEGIN IMMEDIATE: the database's write lock up front, so acts wait their turn."""
        if self.read_only:
            raise RoomError(self._cannot_write("rooms can be viewed, not played"))
        connection.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")


def _check_file(path: Path, name: str) -> bool:
    """Refuse what is not a SQLite file before SQLite opens it; True if it can only be read.

    A missing file is made (with its folder); an empty one is a new store.
    """
    if "\x00" in str(path):
        raise RoomError(f"store {name} has a NUL character in its name, which no file name holds")
    kind = not_a_file(path)  # looked up without opening: a FIFO would hang, a device never end
    if kind is not None:
        raise RoomError(f"store {name} is {kind}, not a room store file")
    link = _broken_link(path)
    if link is not None:  # never made at the link's end: a USB stick not mounted, say
        raise RoomError(f"store {name} is {link}")
    for side in SIDE_FILES:  # SQLite opens these itself, and retries a FIFO's open for ever
        other = Path(f"{path}{side}")
        kind = not_a_file(other) or ("a folder" if other.is_dir() else None)
        if kind is not None:
            raise RoomError(
                f"cannot open store {name}: {quote_path(other)} beside it is {kind}, not "
                "SQLite's own file (move it away)"
            )
    try:
        if not path.exists():
            _make_folder(path.parent, name)
            return False
        if path.is_dir():
            raise RoomError(f"store {name} is a folder, not a room store file")
        with path.open("rb") as file:
            header = file.read(len(HEADER))
    except OSError as error:
        raise RoomError(f"cannot open store {name}: {error.strerror or error}") from None
    if header and header != HEADER:
        raise RoomError(f"store {name} is not a SQLite database (a room store is one)")
    writable = os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)
    return not writable


def _broken_link(path: Path) -> str | None:
    """What a symbolic link that leads to no file is, in words; None for anything else."""
    try:
        os.stat(path)
        return None
    except OSError as error:
        if not os.path.islink(path):
            return None  # missing (it is made), or a folder above it says why
        if error.errno == errno.ELOOP:
            return "a loop of symbolic links"
    return f"a symbolic link to {quote_path(os.readlink(path))}, which does not exist"


def _make_folder(folder: Path, name: str) -> None:
    """Make the store's folder (and those above it), or say which of them is no folder."""
    existing = next(p for p in (folder, *folder.parents) if os.path.lexists(p))
    if not existing.is_dir():
        what = _broken_link(existing) or not_a_file(existing) or "a file"
        raise RoomError(f"cannot make store {name}: {quote_path(existing)} is {what}, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise RoomError(f"cannot make the folder of store {name}: {error.strerror}") from None


def _why_not_made(path: Path, name: str) -> str | None:
    """Why a store file that does not exist cannot be made (the system's words, which SQLite's
    "unable to open database file" hides), or None if it can be."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
    except OSError as error:
        return f"cannot make store {name}: {error.strerror or error}"
    path.unlink()
    return None


def disk_full(path: Path, room: int = FULL_BELOW) -> bool:
    """Whether the disk holding `path` has less than `room` bytes left for this user (a
    read-only mount, which often reports 0 bytes free, is not full)."""
    try:
        disk = os.statvfs(path if path.is_dir() else path.parent)
    except OSError:
        return False
    if disk.f_blocks == 0:  # /proc, /sys: no disk at all, so none that is full
        return False
    return not disk.f_flag & os.ST_RDONLY and disk.f_bavail * disk.f_frsize < room


def _cannot_write(error: sqlite3.OperationalError) -> bool:
    text = str(error).lower()
    return "readonly" in text or "unable to open" in text or "i/o error" in text


def _not_utf8(name: str) -> str:
    """A damaged schema or row whose text is not UTF-8 (Python cannot even word SQLite's
    message about it)."""
    return f"store {name} is damaged (text that is not UTF-8): restore it from a copy"


def _explain(name: str, error: sqlite3.DatabaseError) -> str:
    """One line for a SQLite fault: busy, read-only, damaged, or SQLite's own words."""
    text = str(error).lower()
    if "locked" in text or "busy" in text:
        return (
            f"the store is busy: another program has held {name} for over "
            f"{BUSY_TIMEOUT_S:g} s; try again"
        )
    if "readonly" in text or "read-only" in text:
        return f"store {name} is read-only: rooms can be viewed, not created or played"
    if isinstance(error, sqlite3.OperationalError) and "unable to open" in text:
        return f"cannot open store {name}: {error}"
    if "full" in text:  # SQLITE_FULL: "database or disk is full"
        return f"the disk of store {name} is full (free some space): {error}"
    if "malformed" in text or "not a database" in text or "i/o error" in text:
        return f"store {name} is damaged ({error}): restore it from a copy"
    return f"store {name} failed: {error}"

"""Which teams have joined a room: a team counts as joined once its page has opened with its
valid key (the page's kernel says so with `record_join`); the projector lists them
(`joined_teams`), so a teacher sees at a glance who still needs the join code.

Kept in the rooms' database (a table of its own, room_joins, beside the rooms' tables, made
the first time a store is asked), so every server of a hub, and a page opened on any of them,
agrees. A join is not an action: it is not in the game's log, and a page's poll of the log is
unchanged by it.

>>> import tempfile, os
>>> from housing_lab.rooms import open_store
>>> with tempfile.TemporaryDirectory() as folder:
...     with open_store("sqlite:///" + os.path.join(folder, "rooms.sqlite")) as store:
...         room = store.create_room(["Red", "Blue"], seed=3)
...         _ = record_join(store, room["room"], room["teams"]["Blue"]["token"])
...         joined = joined_teams(store, room["room"], room["teacher"]["token"])
>>> list(joined)
['Blue']
"""

from __future__ import annotations

import time
import weakref

from housing_lab.rooms.errors import AccessDenied, RoomError
from housing_lab.rooms.stores.base import RoomStore
from housing_lab.rooms.stores.dbapi import SQLRoomStore

SCHEMA_LOCK = 7_427_044  # PostgreSQL advisory lock: two servers creating the table wait
COLUMNS = ("room", "team", "joined_at", "seen_at")
LIST_TABLES_SQLITE = "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'room_joins'"
TABLE_POSTGRES = (
    "SELECT 1 FROM information_schema.tables "
    "WHERE table_schema = current_schema() AND table_name = 'room_joins'"
)
UPSERT = (
    "INSERT INTO room_joins (room, team, joined_at, seen_at) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (room, team) DO UPDATE SET seen_at = excluded.seen_at"
)
SELECT = "SELECT team, joined_at FROM room_joins WHERE room = ? ORDER BY joined_at"

_ready: weakref.WeakSet[RoomStore] = weakref.WeakSet()  # stores whose table is known to exist


def schema(real: str) -> str:
    """The table, with the dialect's float type name."""
    return f"""CREATE TABLE IF NOT EXISTS room_joins (
        room TEXT NOT NULL REFERENCES rooms(code),
        team TEXT NOT NULL,
        joined_at {real} NOT NULL,
        seen_at {real} NOT NULL,
        PRIMARY KEY (room, team)
    )"""


def record_join(store: RoomStore, room: object, token: object) -> bool:
    """The page of the holder of `token` has opened: a team's join is recorded (first time
    kept, last time updated); the teacher's page is no join. Returns whether it was a team's.
    A wrong token is the store's one line (`AccessDenied`)."""
    role = store.role(room, token)
    if role.is_teacher:
        return False
    code = store.info(room, token).code
    database = _database(store)
    now = time.time()
    with database.writing() as connection:
        connection.execute(database.spell(UPSERT), (code, role.team, now, now))
    return True


def joined_teams(store: RoomStore, room: object, token: object) -> dict[str, float]:
    """The teacher's list: each joined team and when it first joined (seconds since the
    epoch), in that order. Only the teacher may ask (a team's page has no use for it)."""
    role = store.role(room, token)
    if not role.is_teacher:
        raise AccessDenied(f"only the teacher may see who joined; this is {role.team}'s link")
    code = store.info(room, token).code
    database = _database(store)
    with database.reading() as connection:
        rows = connection.execute(database.spell(SELECT), (code,)).fetchall()
    return {str(team): float(at) for team, at in rows}


def _database(store: RoomStore) -> SQLRoomStore:
    """The store, its room_joins table made if this database has none yet."""
    if not isinstance(store, SQLRoomStore):  # every backend is one; a guard for others
        raise RoomError(f"store {store.url} cannot record who joined")
    if store in _ready:
        return store
    postgres = store.backend == "postgresql"
    with store.reading() as connection:
        found = connection.execute(TABLE_POSTGRES if postgres else LIST_TABLES_SQLITE).fetchone()
    if found is None:
        with store.writing() as connection:
            if postgres:  # two servers opening the first pages at once: one makes the table
                connection.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            connection.execute(schema("DOUBLE PRECISION" if postgres else "REAL"))
    _ready.add(store)
    return store

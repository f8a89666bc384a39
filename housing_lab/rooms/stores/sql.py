"""The SQL both stores run, written once: the tables, the statements, and the check that a
database's tables are ours (issue 21: the two backends differ only where the dialects do).

Statements use `?` parameters (SQLite's spelling); `for_psycopg` turns them into `%s` once, at
import. Nothing here is ever formatted with a value: every value travels as a parameter.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import dataclass, fields

from housing_lab.errors import shown
from housing_lab.rooms.errors import RoomError

# Each table and its columns, in order (what `check_tables` compares a database against).
TABLES: dict[str, tuple[str, ...]] = {
    "rooms": ("code", "game", "seed", "options", "teams", "created_at"),
    "room_tokens": ("room", "holder", "token_hash"),
    "room_actions": ("room", "seq", "actor", "action", "at"),
}


def schema(real: str, integer: str) -> tuple[str, ...]:
    """CREATE TABLE statements with the dialect's float and 64-bit integer type names."""
    return (
        f"""CREATE TABLE IF NOT EXISTS rooms (
        code TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        seed TEXT NOT NULL,
        options TEXT NOT NULL,
        teams TEXT NOT NULL,
        created_at {real} NOT NULL
    )""",
        """CREATE TABLE IF NOT EXISTS room_tokens (
        room TEXT NOT NULL REFERENCES rooms(code),
        holder TEXT NOT NULL,
        token_hash TEXT NOT NULL,
        PRIMARY KEY (room, holder)
    )""",
        f"""CREATE TABLE IF NOT EXISTS room_actions (
        room TEXT NOT NULL REFERENCES rooms(code),
        seq {integer} NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        at {real} NOT NULL,
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
LOCK_ROOM = "SELECT code FROM rooms WHERE code = ? FOR UPDATE"  # PostgreSQL only


def for_psycopg(statement: str) -> str:
    """A `?` statement in psycopg's `%s` spelling (no statement here contains a literal `?`)."""
    return statement.replace("?", "%s")


@dataclass(frozen=True)
class Statements:
    """The row statements both stores run, in one driver's parameter spelling (`?` unless
    `spelled` otherwise), so that `stores.dbapi` can run them without knowing the driver."""

    insert_room: str = INSERT_ROOM
    insert_token: str = INSERT_TOKEN
    select_room: str = SELECT_ROOM
    select_tokens: str = SELECT_TOKENS
    select_actions: str = SELECT_ACTIONS
    insert_action: str = INSERT_ACTION

    def spelled(self, spell: Callable[[str], str]) -> Statements:
        """Every statement through `spell` (e.g. `for_psycopg`), done once, at import."""
        return Statements(
            **{field.name: spell(getattr(self, field.name)) for field in fields(self)}
        )


def check_tables(
    found: Mapping[str, Set[str]],
    store: str,
    tables: Mapping[str, Sequence[str]] = TABLES,
    whose: str = "a room store's",
) -> bool:
    """Whether the store's tables are all there (True) or none is (False: create them).
    `tables` and `whose`: another set of tables kept in the same database (the class poll's).

    `found` maps each of our table names present in the database to its column names. A
    table with other columns, or only some of the tables, is another program's (or a damaged)
    database: refused in one line rather than written into.
    """
    for table, columns in found.items():
        if set(columns) != set(tables[table]):
            raise RoomError(
                f"store {store} has a {table!r} table that is not {whose} "
                f"(columns {shown(sorted(columns))})"
            )
    if found and set(found) != set(tables):
        missing = ", ".join(sorted(set(tables) - set(found)))
        raise RoomError(f"store {store} is damaged: its table {missing} is missing")
    return bool(found)

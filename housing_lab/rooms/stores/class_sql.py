"""The SQL of class polls, written once for both stores (`?` parameters; `SQLRoomStore.spell`
turns them into psycopg's `%s`). The tables sit beside the rooms' in the same database and are
created when a class store first opens it (`class_poll.ClassStore`).

A device appears only as the SHA-256 hash of its random key: no name, no address. Answers are
keyed by (poll, question, round, device), so a device's second answer in a round replaces its
first (an upsert) and a second round is kept beside the first.
"""

from __future__ import annotations

from collections.abc import Mapping, Set

from housing_lab.rooms.stores import sql

TABLES: dict[str, tuple[str, ...]] = {
    "class_polls": ("code", "lesson", "token_hash", "join_url", "created_at", "closed_at"),
    "class_questions": ("poll", "question", "position", "round", "shown", "revealed"),
    "class_devices": ("poll", "device_hash", "joined_at"),
    "class_answers": ("poll", "question", "round", "device_hash", "choice", "at"),
}


def schema(real: str) -> tuple[str, ...]:
    """CREATE TABLE statements with the dialect's float type name."""
    return (
        f"""CREATE TABLE IF NOT EXISTS class_polls (
        code TEXT PRIMARY KEY,
        lesson INTEGER NOT NULL,
        token_hash TEXT NOT NULL,
        join_url TEXT NOT NULL,
        created_at {real} NOT NULL,
        closed_at {real}
    )""",
        """CREATE TABLE IF NOT EXISTS class_questions (
        poll TEXT NOT NULL REFERENCES class_polls(code),
        question TEXT NOT NULL,
        position INTEGER NOT NULL,
        round INTEGER NOT NULL,
        shown INTEGER NOT NULL,
        revealed INTEGER NOT NULL,
        PRIMARY KEY (poll, question)
    )""",
        f"""CREATE TABLE IF NOT EXISTS class_devices (
        poll TEXT NOT NULL REFERENCES class_polls(code),
        device_hash TEXT NOT NULL,
        joined_at {real} NOT NULL,
        PRIMARY KEY (poll, device_hash)
    )""",
        f"""CREATE TABLE IF NOT EXISTS class_answers (
        poll TEXT NOT NULL REFERENCES class_polls(code),
        question TEXT NOT NULL,
        round INTEGER NOT NULL,
        device_hash TEXT NOT NULL,
        choice TEXT NOT NULL,
        at {real} NOT NULL,
        PRIMARY KEY (poll, question, round, device_hash)
    )""",
    )


INSERT_POLL = (
    "INSERT INTO class_polls (code, lesson, token_hash, join_url, created_at, closed_at) "
    "VALUES (?, ?, ?, ?, ?, NULL) ON CONFLICT (code) DO NOTHING"
)
INSERT_QUESTION = (
    "INSERT INTO class_questions (poll, question, position, round, shown, revealed) "
    "VALUES (?, ?, ?, 1, 0, 0)"
)
SELECT_POLL = "SELECT lesson, token_hash, join_url, closed_at FROM class_polls WHERE code = ?"
LOCK_POLL = SELECT_POLL + " FOR UPDATE"  # PostgreSQL: writes to one poll wait their turn
SELECT_QUESTIONS = (
    "SELECT question, round, shown, revealed FROM class_questions WHERE poll = ? ORDER BY position"
)
SELECT_QUESTION = (
    "SELECT round, shown, revealed FROM class_questions WHERE poll = ? AND question = ?"
)
UPDATE_QUESTION = (
    "UPDATE class_questions SET round = ?, shown = ?, revealed = ? WHERE poll = ? AND question = ?"
)
CLOSE_POLL = "UPDATE class_polls SET closed_at = ? WHERE code = ?"
JOIN = (
    "INSERT INTO class_devices (poll, device_hash, joined_at) VALUES (?, ?, ?) "
    "ON CONFLICT (poll, device_hash) DO NOTHING"
)
ANSWER = (
    "INSERT INTO class_answers (poll, question, round, device_hash, choice, at) "
    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (poll, question, round, device_hash) "
    "DO UPDATE SET choice = excluded.choice, at = excluded.at"
)
COUNT_DEVICES = "SELECT COUNT(*) FROM class_devices WHERE poll = ?"
COUNT_ANSWERS = (
    "SELECT question, round, choice, COUNT(*) FROM class_answers WHERE poll = ? "
    "GROUP BY question, round, choice"
)
DEVICE_ANSWERS = (
    "SELECT question, round, choice FROM class_answers WHERE poll = ? AND device_hash = ?"
)
LIST_TABLES_SQLITE = "SELECT name FROM sqlite_master WHERE type = 'table'"
TABLE_COLUMNS_SQLITE = "SELECT name FROM pragma_table_info(?)"
TABLE_COLUMNS_POSTGRES = (
    "SELECT table_name, column_name FROM information_schema.columns "
    "WHERE table_schema = current_schema() AND table_name = ANY(%s)"
)


def check_tables(found: Mapping[str, Set[str]], store: str) -> bool:
    """Whether the class tables are all there (True) or none is (False: create them); a table
    with other columns, or only some of them, is one line (the rooms' check, `sql.check_tables`)."""
    return sql.check_tables(found, store, TABLES, "a class poll's")

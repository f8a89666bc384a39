"""`ClassStore`: a lesson's predictions pooled for the projector, in the rooms' database.

A class poll is one lesson's questions (the predict and choice questions of its data file,
housing_lab/questions) asked of a whole class. The teacher holds one token (stored as its hash,
like a room's); each student's device is anonymous, a random key that only its browser keeps,
stored as its hash. A device answers a question in the current round and may change that answer
until the teacher reveals it; "vote again" opens a second round (Peer Instruction), and both
rounds are kept. Every write checks the poll, the question and the choice first and changes
nothing when it refuses (one `RoomError` line).

It runs on the rooms' stores (`open_store`: SQLite by default, PostgreSQL for a hub), so the
same URL, the same one-line faults and the same tokens serve rooms and class polls.

>>> import tempfile, os
>>> with tempfile.TemporaryDirectory() as folder:
...     with ClassStore("sqlite:///" + os.path.join(folder, "rooms.sqlite")) as polls:
...         made = polls.create_class(3)
...         first = made["questions"][0]
...         _ = polls.answer(made["class"], "a-device-key-0001", first["id"], first["choices"][0])
...         tally = polls.tally(made["class"], made["teacher"]["token"])
>>> tally["joined"], tally["questions"][0]["rounds"][0]["answered"]
(1, 1)
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from housing_lab.errors import HousingLabError, shown
from housing_lab.questions.bank import Question, lesson_questions
from housing_lab.rooms import open_store, tokens
from housing_lab.rooms.errors import AccessDenied, RoomError
from housing_lab.rooms.stores import class_sql
from housing_lab.rooms.stores.base import ROOM_CODE
from housing_lab.rooms.stores.dbapi import SQLRoomStore
from housing_lab.rooms.urls import check_page_url

POLLED_KINDS = ("predict", "choice")  # an open question has no choices to count
MAX_ROUNDS = 2  # Peer Instruction: vote, discuss, vote again
DEVICE_KEY = re.compile(r"[A-Za-z0-9_-]{16,100}")
DEFAULT_CLASS_PAGE = "http://127.0.0.1:8871/housing-lab/class"
CODE_TRIES = 20
SCHEMA_LOCK = 7_427_002  # PostgreSQL advisory lock: two servers creating the tables wait


@dataclass(frozen=True)
class Poll:
    """A poll's row: its lesson, the teacher token's hash, the join link, whether closed."""

    code: str
    lesson: int
    token_hash: str
    join: str
    closed: bool


def polled_questions(lesson: int) -> tuple[Question, ...]:
    """The lesson's questions a class can answer (predict and choice), in the lesson's order."""
    try:
        questions = lesson_questions(lesson)
    except HousingLabError as error:
        raise RoomError(str(error)) from None
    return tuple(q for q in questions if q.kind in POLLED_KINDS)


def teacher_url(page: str, code: str, token: str) -> str:
    """The projector's link: the code in the query, the token after "#" (no server sees it)."""
    return f"{page}?{urlencode({'class': code})}#{urlencode({'key': token})}"


def join_url(page: str, code: str) -> str:
    """The class's one join link (and QR code): every device opens the same address."""
    return f"{page.rstrip('/')}/join?{urlencode({'class': code})}"


class ClassStore:
    """Class polls in a rooms store (`url` as `open_store` takes it). Safe to share between
    threads: each thread has its own connection."""

    def __init__(self, url: str | None = None, *, clock: Callable[[], float] = time.time) -> None:
        store = open_store(url)
        if not isinstance(store, SQLRoomStore):  # every backend is one; a guard for others
            store.close()
            raise RoomError(f"store {shown(url)} cannot hold class polls")
        self.store = store
        self.url = store.url
        self._clock = clock
        try:
            self._create_tables()
        except BaseException:
            store.close()
            raise

    @property
    def _postgres(self) -> bool:
        return self.store.backend == "postgresql"

    def _sql(self, statement: str) -> str:
        return self.store.spell(statement)

    def _create_tables(self) -> None:
        with self.store.reading() as connection:
            if self._has_tables(connection):
                return
        with self.store.writing() as connection:
            if self._postgres:
                connection.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            if self._has_tables(connection):  # another server made them meanwhile
                return
            for statement in class_sql.schema("DOUBLE PRECISION" if self._postgres else "REAL"):
                connection.execute(statement)

    def _has_tables(self, connection: Any) -> bool:
        found: dict[str, set[str]] = {}
        if self._postgres:
            rows = connection.execute(
                class_sql.TABLE_COLUMNS_POSTGRES, (list(class_sql.TABLES),)
            ).fetchall()
            for table, column in rows:
                found.setdefault(table, set()).add(column)
        else:
            names = {row[0] for row in connection.execute(class_sql.LIST_TABLES_SQLITE)}
            for name in names & set(class_sql.TABLES):
                columns = connection.execute(class_sql.TABLE_COLUMNS_SQLITE, (name,))
                found[name] = {row[0] for row in columns}
        return class_sql.check_tables(found, getattr(self.store, "name", shown(self.url)))

    # --- the teacher ---------------------------------------------------------------------------
    def create_class(self, lesson: object, *, page: str = DEFAULT_CLASS_PAGE) -> dict[str, Any]:
        """A new poll of lesson `lesson`'s questions. The teacher's token is shown only here:
        ``{"class", "lesson", "teacher": {"token", "url"}, "join", "questions": [{"id",
        "choices": [ids]}]}``."""
        check_page_url(page, "the class page's address")
        if type(lesson) is not int:
            raise RoomError(f"a lesson is a number from 1 to 8, got {shown(lesson)}")
        questions = polled_questions(lesson)
        if not questions:
            raise RoomError(f"lesson {lesson} has no predict or choice question to poll")
        token = tokens.new_token()
        for _ in range(CODE_TRIES):
            code = tokens.new_room_code()
            with self.store.writing() as connection:
                inserted = connection.execute(
                    self._sql(class_sql.INSERT_POLL),
                    (code, lesson, tokens.hash_token(token), join_url(page, code), self._clock()),
                )
                if inserted.rowcount != 1:
                    continue  # the code is taken (another server may have just made it)
                for position, asked in enumerate(questions):
                    connection.execute(
                        self._sql(class_sql.INSERT_QUESTION), (code, asked.id, position)
                    )
            break
        else:
            raise RoomError(f"no free class code after {CODE_TRIES} tries")
        return {
            "class": code,
            "lesson": lesson,
            "teacher": {"token": token, "url": teacher_url(page, code, token)},
            "join": join_url(page, code),
            "questions": [
                {"id": asked.id, "choices": [choice.id for choice in asked.choices]}
                for asked in questions
            ],
        }

    def tally(self, code: object, token: object) -> dict[str, Any]:
        """The projector's view: per question its round, whether the distribution is shown
        and the answer revealed, and every round's count of answers per choice; how many
        devices joined. The right answer only once revealed (the projector is public)."""
        with self.store.reading() as connection:
            poll = self._teacher(connection, code, token)
            return self._summary(connection, poll, teacher=True)

    def reveal(self, code: object, token: object, question: object) -> dict[str, Any]:
        """Close the question's answers and unlock its answer on every device."""

        def change(poll: Poll, asked: Question, state: tuple[int, bool, bool]) -> tuple:
            return state[0], state[1], True

        return self._change(code, token, question, "reveal", change)

    def show(
        self, code: object, token: object, question: object, shown_: bool = True
    ) -> dict[str, Any]:
        """Show (or hide) the question's distribution on the projector and the devices."""
        if not isinstance(shown_, bool):
            raise RoomError(f"show takes True or False, got {shown(shown_)}")
        return self._change(
            code, token, question, "show", lambda _p, _q, state: (state[0], shown_, state[2])
        )

    def vote_again(self, code: object, token: object, question: object) -> dict[str, Any]:
        """Open a second round of the question (its first round is kept); the distribution
        is hidden again until shown."""

        def change(poll: Poll, asked: Question, state: tuple[int, bool, bool]) -> tuple:
            if state[0] >= MAX_ROUNDS:
                raise RoomError(
                    f"question {asked.id} has had its {MAX_ROUNDS} rounds: reveal it instead"
                )
            return state[0] + 1, False, False

        return self._change(code, token, question, "vote again on", change)

    def close_class(self, code: object, token: object) -> dict[str, Any]:
        """Close the poll: no answer, reveal or round after this (the tally stays readable)."""
        with self.store.writing() as connection:
            poll = self._teacher(connection, code, token, lock=True)
            self._open_poll(poll)
            connection.execute(self._sql(class_sql.CLOSE_POLL), (self._clock(), poll.code))
        return {"class": poll.code, "closed": True}

    def export_rows(self, code: object, token: object) -> list[dict[str, Any]]:
        """Counts per question, round and choice (every choice of every round held, zeros
        too): what `class export` writes. No device appears in them."""
        tally = self.tally(code, token)
        return [
            {
                "class": tally["class"],
                "lesson": tally["lesson"],
                "question": asked["id"],
                "round": held["round"],
                "choice": choice["id"],
                "count": held["counts"][choice["id"]],
            }
            for asked in tally["questions"]
            for held in asked["rounds"]
            for choice in asked["choices"]
        ]

    # --- a device ------------------------------------------------------------------------------
    def join(self, code: object, device: object) -> dict[str, Any]:
        """Count the device as joined (once) and return what it may see."""
        hashed = _device_hash(device)
        with self.store.writing() as connection:
            poll = self._poll(connection, code, lock=True)
            self._open_poll(poll)
            connection.execute(self._sql(class_sql.JOIN), (poll.code, hashed, self._clock()))
        return self.device_view(code, device)

    def answer(self, code: object, device: object, question: object, choice: object) -> dict:
        """Record the device's choice for the question's current round (replacing its earlier
        choice in that round); refused once the question is revealed or the poll closed."""
        hashed = _device_hash(device)
        now = self._clock()
        with self.store.writing() as connection:
            poll = self._poll(connection, code, lock=True)
            self._open_poll(poll)
            asked = _question(poll, question)
            ids = [c.id for c in asked.choices]
            if not isinstance(choice, str) or choice not in ids:
                raise RoomError(
                    f"question {asked.id} has no choice {shown(choice)}; its choices are {ids}"
                )
            round_, _, revealed = self._state(connection, poll, asked)
            if revealed:
                raise RoomError(f"question {asked.id} is revealed: answers are closed")
            connection.execute(self._sql(class_sql.JOIN), (poll.code, hashed, now))
            connection.execute(
                self._sql(class_sql.ANSWER), (poll.code, asked.id, round_, hashed, choice, now)
            )
        return {"class": poll.code, "question": asked.id, "round": round_, "choice": choice}

    def device_view(self, code: object, device: object) -> dict[str, Any]:
        """What a device sees: the questions and choices, its own answer in each current
        round, each revealed question's answer and explanation, and only the distributions
        the teacher has shown. No other device's answer otherwise."""
        hashed = _device_hash(device)
        with self.store.reading() as connection:
            poll = self._poll(connection, code)
            view = self._summary(connection, poll, teacher=False)
            mine = connection.execute(
                self._sql(class_sql.DEVICE_ANSWERS), (poll.code, hashed)
            ).fetchall()
        chosen = {(str(q), int(r)): str(c) for q, r, c in mine}
        for asked in view["questions"]:
            asked["mine"] = chosen.get((asked["id"], asked["round"]))
        return view

    # --- internals -----------------------------------------------------------------------------
    def _poll(self, connection: Any, code: object, *, lock: bool = False) -> Poll:
        if not isinstance(code, str) or not ROOM_CODE.fullmatch(code.strip().upper()):
            raise AccessDenied(f"{shown(code)} is not a class code (like K7M2QX)")
        code = code.strip().upper()
        statement = class_sql.LOCK_POLL if lock and self._postgres else class_sql.SELECT_POLL
        row = connection.execute(self._sql(statement), (code,)).fetchone()
        if row is None:
            raise AccessDenied(f"no class {code} here (check the code on the projector)")
        lesson, digest, join, closed_at = row
        if type(lesson) is not int or not isinstance(digest, str) or not isinstance(join, str):
            raise RoomError(f"class {code}'s record is damaged: it is not what the store wrote")
        return Poll(code, lesson, digest, join, closed_at is not None)

    def _teacher(self, connection: Any, code: object, token: object, *, lock: bool = False) -> Poll:
        try:
            poll = self._poll(connection, code, lock=lock)
        except AccessDenied:
            poll = None
        if poll is None or not tokens.matches(token, poll.token_hash):
            shown_code = code.strip().upper() if isinstance(code, str) else shown(code)
            raise AccessDenied(
                f"class {shown_code}: that teacher's token opens nothing here (use the "
                "teacher's link that `housing-lab class` printed)"
            )
        return poll

    @staticmethod
    def _open_poll(poll: Poll) -> None:
        if poll.closed:
            raise RoomError(f"class {poll.code} is closed: it takes no more answers or changes")

    def _state(self, connection: Any, poll: Poll, asked: Question) -> tuple[int, bool, bool]:
        row = connection.execute(
            self._sql(class_sql.SELECT_QUESTION), (poll.code, asked.id)
        ).fetchone()
        if row is None:
            raise RoomError(f"class {poll.code}'s record is damaged: question {asked.id} missing")
        return int(row[0]), bool(row[1]), bool(row[2])

    def _change(
        self,
        code: object,
        token: object,
        question: object,
        what: str,
        change: Callable[[Poll, Question, tuple[int, bool, bool]], tuple],
    ) -> dict[str, Any]:
        """A teacher's change to one question's state, refused after its reveal (but showing
        or hiding the distribution) and once the poll is closed."""
        with self.store.writing() as connection:
            poll = self._teacher(connection, code, token, lock=True)
            self._open_poll(poll)
            asked = _question(poll, question)
            state = self._state(connection, poll, asked)
            if state[2] and what != "show":
                raise RoomError(f"question {asked.id} is already revealed: cannot {what} it")
            round_, shown_, revealed = change(poll, asked, state)
            connection.execute(
                self._sql(class_sql.UPDATE_QUESTION),
                (round_, int(shown_), int(revealed), poll.code, asked.id),
            )
        return {
            "class": poll.code,
            "question": asked.id,
            "round": round_,
            "shown": shown_,
            "revealed": revealed,
        }

    def _summary(self, connection: Any, poll: Poll, *, teacher: bool) -> dict[str, Any]:
        states = {
            str(q): (int(r), bool(s), bool(v))
            for q, r, s, v in connection.execute(
                self._sql(class_sql.SELECT_QUESTIONS), (poll.code,)
            ).fetchall()
        }
        counts: dict[tuple[str, int], dict[str, int]] = {}
        for question, round_, choice, number in connection.execute(
            self._sql(class_sql.COUNT_ANSWERS), (poll.code,)
        ).fetchall():
            counts.setdefault((str(question), int(round_)), {})[str(choice)] = int(number)
        (joined,) = connection.execute(self._sql(class_sql.COUNT_DEVICES), (poll.code,)).fetchone()
        questions = []
        for asked in polled_questions(poll.lesson):
            if asked.id not in states:
                raise RoomError(f"class {poll.code}'s record is damaged: {asked.id} missing")
            round_, shown_, revealed = states[asked.id]
            entry: dict[str, Any] = {
                "id": asked.id,
                "kind": asked.kind,
                "prompt": asked.prompt,
                "choices": [{"id": c.id, "text": c.text} for c in asked.choices],
                "round": round_,
                "shown": shown_,
                "revealed": revealed,
                "answer": asked.answer if revealed else None,
            }
            if revealed and not teacher:
                entry["explanation"] = asked.explanation
            if teacher or shown_:
                entry["rounds"] = [
                    _round(number, counts.get((asked.id, number), {}), asked)
                    for number in range(1, round_ + 1)
                ]
            questions.append(entry)
        summary: dict[str, Any] = {
            "class": poll.code,
            "lesson": poll.lesson,
            "closed": poll.closed,
            "questions": questions,
        }
        if teacher:
            summary["joined"] = int(joined)
            summary["join"] = poll.join
        return summary

    def close(self) -> None:
        """Close this thread's connection."""
        self.store.close()

    def __enter__(self) -> ClassStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _round(number: int, counts: dict[str, int], asked: Question) -> dict[str, Any]:
    per_choice = {choice.id: counts.get(choice.id, 0) for choice in asked.choices}
    return {"round": number, "answered": sum(per_choice.values()), "counts": per_choice}


def _question(poll: Poll, question: object) -> Question:
    for asked in polled_questions(poll.lesson):
        if asked.id == question:
            return asked
    ids = [q.id for q in polled_questions(poll.lesson)]
    raise RoomError(
        f"class {poll.code} (lesson {poll.lesson}) has no question {shown(question)}; "
        f"its questions are {ids}"
    )


def _device_hash(device: object) -> str:
    """The stored form of a device key: its SHA-256 (the key itself is never stored)."""
    if not isinstance(device, str) or not DEVICE_KEY.fullmatch(device):
        raise RoomError(
            f"{shown(device, 60)} is not a device key (16 to 100 letters, digits, '-' or '_')"
        )
    return tokens.hash_token(device)

"""`RoomStore`: rooms kept in a database, every view the engine's replay of the action log.

A room is a row (code, game, seed, options, teams), one hashed token per holder (the teacher
and each team) and an append-only log of actions numbered 1, 2, 3, ... The backends
(`stores.sqlite`, `stores.postgres`) only store rows; everything else is here, once. The games
come in through `room_game` (a name -> `RoomGame`; `rooms.open_store` passes the registry's),
so the stores know the games' interface and never which games exist:

- `act` takes the room's write lock in a transaction (SQLite: BEGIN IMMEDIATE; PostgreSQL: the
  room row FOR UPDATE), catches up with actions others logged meanwhile, checks the action
  against that newest state (who may play it: `RoomGame.prepare`; the rules: the engine's
  `apply`) and inserts it with the next number. Two teams acting at once are thus served one
  after the other; the second is judged on the state the first left, and a refusal carries the
  engine's message. The primary key (room, seq) makes a lost or doubled number impossible even
  for a writer that skipped the lock.
- A replayed game is kept in memory per room with its sequence number: a view reads only the
  actions logged since (one small query) and plays them on the kept game.
- Tokens are compared with `hmac.compare_digest` against their stored SHA-256 hashes; a wrong
  or missing token gets the same one line as a room that does not exist, and sees nothing.
"""

from __future__ import annotations

import json
import re
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from typing import Any, ClassVar

from housing_lab.errors import HousingLabError, shown
from housing_lab.numbers import MAX_SEED, check_number
from housing_lab.rooms.errors import AccessDenied, ActionRefused, RoomError
from housing_lab.rooms.games import TEACHER, Clock, Replay, Role, RoomGame, RoomInfo
from housing_lab.rooms.stores.rows import LoggedAction
from housing_lab.rooms.tokens import hash_token, matches, new_room_code, new_token
from housing_lab.rooms.urls import DEFAULT_JOIN_BASE, check_page_url, join_url

MAX_ACTION_JSON = 100_000  # characters of one action: real ones are under 200
ROOM_CODE = re.compile(r"[A-Z0-9]{4,12}")
CODE_TRIES = 20
MAX_WAIT_S = 3600.0  # the longest `wait` (a finite number: NaN or infinity never times out)
POLL_SECONDS = 0.1  # `wait` checks the log this often (a page's refresh)


class Transaction(ABC):
    """A backend's write transaction on one room, holding that room's write lock."""

    @abstractmethod
    def actions_after(self, seq: int) -> list[LoggedAction]:
        """The room's actions numbered above `seq`, in order."""

    @abstractmethod
    def insert(self, action: LoggedAction) -> None:
        """Add one action; raises `SeqTaken` if its number is already used."""


class SeqTaken(Exception):
    """Another writer logged this number first (only when someone skipped the lock)."""


class CodeTaken(Exception):
    """A new room's code is already in use."""


class RoomStore(ABC):
    """Rooms in one database. Use `open_store(url)`; safe to share between threads.

    Methods take the room code and the caller's token; each raises `AccessDenied` for a wrong
    token, `ActionRefused` for an action that token may not play now, `RoomError` otherwise.
    """

    backend: ClassVar[str]

    def __init__(
        self,
        url: str,
        *,
        room_game: Callable[[str], RoomGame],
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.url = url
        self._room_game = room_game
        self._clock = clock
        self._lock = threading.RLock()
        self._rooms: dict[str, tuple[RoomInfo, dict[str, str]]] = {}  # fixed at creation
        self._replays: dict[str, Replay] = {}

    # --- backend primitives ----------------------------------------------------------------
    @abstractmethod
    def _insert_room(self, info: RoomInfo, hashes: Mapping[str, str]) -> None:
        """Store a new room and its token hashes (holder key -> hash); CodeTaken if taken."""

    @abstractmethod
    def _load_room(self, code: str) -> tuple[RoomInfo, dict[str, str]] | None:
        """A room and its token hashes, or None."""

    @abstractmethod
    def _actions_after(self, code: str, seq: int) -> list[LoggedAction]:
        """Actions numbered above `seq`, outside any transaction (a read)."""

    @abstractmethod
    def _transaction(self, code: str) -> AbstractContextManager[Transaction]:
        """A transaction holding the room's write lock; commits on a clean exit."""

    @abstractmethod
    def close(self) -> None:
        """Close this thread's connection (other threads' close when they end)."""

    # --- rooms -----------------------------------------------------------------------------
    def create_room(
        self,
        teams: Sequence[str],
        *,
        seed: int = 0,
        game: str = "north-berkeley",
        options: Mapping[str, Any] | None = None,
        join_base: str = DEFAULT_JOIN_BASE,
    ) -> dict[str, Any]:
        """A new room; returns its code and each holder's token and join link.

        The tokens are shown only here (the store keeps their hashes):
        ``{"room": CODE, "teacher": {"token", "url"}, "teams": {name: {"token", "url"}}}``.
        """
        check_page_url(join_base, "join_base")  # before the room exists: no orphan room
        rules = self._room_game(game)
        names = rules.check_teams(teams)
        checked = rules.check_options(options)
        seed = int(
            check_number(
                seed,
                "a room's seed",
                whole=True,
                low=0,
                high=MAX_SEED,
                limit=MAX_SEED,
                error=RoomError,
            )
        )  # the one number check
        secrets = {TEACHER.actor: new_token()}
        secrets.update({Role(team).actor: new_token() for team in names})
        hashes = {holder: hash_token(token) for holder, token in secrets.items()}
        for _ in range(CODE_TRIES):
            info = RoomInfo(new_room_code(), game, seed, checked, names, self._clock())
            rules.new_game(info)  # the engine accepts the set-up before anything is stored
            try:
                self._insert_room(info, hashes)
                break
            except CodeTaken:
                continue
        else:
            raise RoomError(f"no free room code after {CODE_TRIES} tries")

        def ticket(holder: str) -> dict[str, str]:
            return {
                "token": secrets[holder],
                "url": join_url(join_base, info.code, secrets[holder]),
            }

        return {
            "room": info.code,
            "game": game,
            "teacher": ticket(TEACHER.actor),
            "teams": {team: ticket(Role(team).actor) for team in names},
        }

    def role(self, room: object, token: object) -> Role:
        """Who holds `token` in `room` (AccessDenied when nobody does)."""
        return self._open(room, token)[1]

    def view(self, room: object, token: object) -> dict[str, Any]:
        """What the holder of `token` may see now, with the actions open to them."""
        with self._lock:
            info, role = self._open(room, token)
            return self._view(info, role, self._catch_up(info, self._actions_after))

    def act(self, room: object, token: object, action: object) -> dict[str, Any]:
        """Log `action` for the holder of `token` if they may play it now; returns
        ``{"seq": N, "view": ...}``. Refused (nothing logged): `ActionRefused`."""
        text = _action_text(action)
        with self._lock:
            info, role = self._open(room, token)
            rules = self._room_game(info.game)
            while True:
                with self._transaction(info.code) as tx:
                    replay = self._catch_up(info, lambda _code, seq: tx.actions_after(seq))
                    now = self._clock()
                    clock = Clock(now, replay.phase_started_at)
                    trial = rules.copy(replay.game)
                    try:
                        logged = rules.prepare(trial, info, role, json.loads(text), clock)
                        rules.apply(trial, logged)
                    except ActionRefused:
                        raise
                    except HousingLabError as error:
                        raise ActionRefused(str(error)) from None
                    entry = LoggedAction(replay.seq + 1, role.actor, logged, now)
                    try:
                        tx.insert(entry)
                    except SeqTaken:
                        continue  # someone wrote without the lock: judge again on the new state
                break
            phase = rules.phase(trial)
            started = now if phase != replay.phase else replay.phase_started_at
            self._replays[info.code] = Replay(entry.seq, trial, phase, started)
            return {"seq": entry.seq, "view": self._view(info, role, self._replays[info.code])}

    def export(self, room: object, token: object) -> dict[str, Any]:
        """The teacher's saved game: North Berkeley's `Game.to_dict()` (loadable by
        `Game.from_json`), Streetcar's game record (loadable by `record.replay`)."""
        with self._lock:
            info, role = self._open(room, token)
            self._require_teacher(role, "export the game")
            replay = self._catch_up(info, self._actions_after)
            return self._room_game(info.game).export(replay.game)

    def log(self, room: object, token: object) -> list[LoggedAction]:
        """The teacher's full action log (it names drafted and redrawn cards: teacher only)."""
        info, role = self._open(room, token)
        self._require_teacher(role, "read the action log")
        return self._actions_after(info.code, 0)

    def seq(self, room: object, token: object) -> int:
        """The number of the room's last action (0 before any): what a page polls."""
        with self._lock:
            info, _ = self._open(room, token)
            return self._catch_up(info, self._actions_after).seq

    def wait(self, room: object, token: object, after: int, timeout: float = 10.0) -> int:
        """Block until the room's log passes `after` (or `timeout` seconds); returns seq."""
        check_number(after, "after", low=0, whole=True, error=RoomError)
        check_number(timeout, "timeout", low=0, high=MAX_WAIT_S, error=RoomError)
        deadline = time.monotonic() + timeout
        while True:
            seq = self.seq(room, token)
            if seq > after or time.monotonic() >= deadline:
                return seq
            time.sleep(POLL_SECONDS)

    def info(self, room: object, token: object) -> RoomInfo:
        """The room's fixed facts (game, seed, options, teams). A team's copy has no seed
        (`seed=None`): the seed rebuilds the deck, and with it every team's hidden hand."""
        info, role = self._open(room, token)
        return info if role.is_teacher else replace(info, seed=None)

    def __enter__(self) -> RoomStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- internals -------------------------------------------------------------------------
    def _open(self, room: object, token: object) -> tuple[RoomInfo, Role]:
        if not isinstance(room, str) or not ROOM_CODE.fullmatch(room.strip().upper()):
            raise AccessDenied(f"{shown(room)} is not a room code (like K7M2QX)")
        code = room.strip().upper()
        denied = AccessDenied(
            f"room {code}: that link's token opens nothing here (ask the teacher for the link)"
        )
        if token is None or token == "":
            raise AccessDenied(f"room {code}: the link has no token (ask the teacher for it)")
        with self._lock:
            known = self._rooms.get(code)
            if known is None:
                known = self._load_room(code)
                if known is None:
                    raise denied
                self._rooms[code] = known
        info, hashes = known
        holder = None
        for key, stored in hashes.items():  # every hash is compared: no early exit
            if matches(token, stored):
                holder = key
        if holder is None:
            raise denied
        return info, TEACHER if holder == TEACHER.actor else Role(holder.split(":", 1)[1])

    def _catch_up(self, info: RoomInfo, read: Callable[[str, int], list[LoggedAction]]) -> Replay:
        """The room's game replayed to its newest action, reading only what is new."""
        rules = self._room_game(info.game)
        replay = self._replays.get(info.code)
        if replay is None:
            game = rules.new_game(info)
            replay = Replay(0, game, rules.phase(game), info.created_at)
        new = read(info.code, replay.seq)
        if not new:
            self._replays[info.code] = replay
            return replay
        game, phase, started = rules.copy(replay.game), replay.phase, replay.phase_started_at
        for number, entry in enumerate(new, start=replay.seq + 1):
            if entry.seq != number:
                raise RoomError(f"room {info.code}: the log skips to action {entry.seq}")
            try:
                rules.apply(game, entry.action)
            except HousingLabError as error:
                raise RoomError(
                    f"room {info.code}: logged action {entry.seq} no longer replays: {error}"
                ) from None
            except (TypeError, KeyError, AttributeError):  # a hand-edited row the engine chokes on
                raise RoomError(
                    f"room {info.code}'s log is damaged at action {entry.seq}"
                ) from None
            if rules.phase(game) != phase:
                phase, started = rules.phase(game), entry.at
        replay = Replay(new[-1].seq, game, phase, started)
        self._replays[info.code] = replay
        return replay

    def _view(self, info: RoomInfo, role: Role, replay: Replay) -> dict[str, Any]:
        clock = Clock(self._clock(), replay.phase_started_at)
        return {
            "room": info.code,
            "seq": replay.seq,
            "game": info.game,
            "you": role.to_dict(),
            "teams": list(info.teams),
            **self._room_game(info.game).view(replay.game, info, role, clock),
        }

    @staticmethod
    def _require_teacher(role: Role, what: str) -> None:
        if not role.is_teacher:
            raise AccessDenied(f"only the teacher may {what}; this is {role.team}'s link")


def _action_text(action: object) -> str:
    """The action as JSON text (it is stored so, and parsed back so every replay sees the same
    value); a value JSON cannot hold is refused here."""
    try:
        text = json.dumps(action, allow_nan=False, sort_keys=False)
    except RecursionError:
        raise ActionRefused(f"an action is nested too deep to be one: {shown(action)}") from None
    except (TypeError, ValueError) as error:
        if "integer string conversion" in str(error):  # Python's words name its own setting
            error = ValueError("a number in it has too many digits")
        raise ActionRefused(f"an action must be JSON data, got {shown(action)}: {error}") from None
    if len(text) > MAX_ACTION_JSON:
        raise ActionRefused(f"an action is at most {MAX_ACTION_JSON} characters of JSON")
    return text

"""Stored rows back into rooms and actions, checked: a damaged or hand-edited row is one line
("room K7M2QX's log is damaged at action 12"), never a traceback nor a game built on it.

A database file can be edited by anyone with a SQLite shell, so nothing read back is trusted:
seeds are whole numbers in range, JSON is finite and not nested deeper than real data, teams
and options pass the game's own checks, and every token belongs to the teacher or a team.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from housing_lab.errors import HousingLabError
from housing_lab.numbers import MAX_SEED
from housing_lab.rooms.errors import RoomError
from housing_lab.rooms.games import TEACHER, Role, RoomGame, RoomInfo

MAX_ROW_JSON = 100_000  # characters of one stored JSON value: real ones are under 1,000
HASH_LENGTH = 64  # hex SHA-256


@dataclass(frozen=True)
class LoggedAction:
    """One row of a room's log: its number, who played it, the action as applied, and when."""

    seq: int
    actor: str
    action: dict[str, Any]
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "actor": self.actor, "action": self.action, "at": self.at}


class DamagedRow(Exception):
    """A stored value that is not what the store wrote (the caller names the row)."""


def _refuse_constant(name: str) -> float:
    raise DamagedRow(name)


def stored_json(text: object) -> Any:
    """A stored JSON text parsed, refusing what the store never writes: non-text, NaN or
    infinity, over `MAX_ROW_JSON` characters, nesting too deep to parse."""
    if not isinstance(text, str) or len(text) > MAX_ROW_JSON:
        raise DamagedRow("not JSON text")
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        raise DamagedRow("not JSON") from None


def _number(value: object) -> float:
    """A stored time: a finite number (a text or a blob is damage)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise DamagedRow("not a number")
    return float(value)


def _seed(value: object) -> int:
    if not isinstance(value, str) or not value.isascii() or not value.isdigit() or len(value) > 20:
        raise DamagedRow("not a seed")
    seed = int(value)
    if seed > MAX_SEED:
        raise DamagedRow("not a seed")
    return seed


def room_from_rows(
    code: str,
    row: Sequence[Any],
    token_rows: Iterable[Sequence[Any]],
    room_game: Callable[[str], RoomGame],
) -> tuple[RoomInfo, dict[str, str]]:
    """A rooms row (code, game, seed, options JSON, teams JSON, created_at) and its token rows
    (holder, hash) as a RoomInfo and holder -> hash, the teams and options checked by the game
    `room_game` names; `RoomError` naming the room if damaged."""
    try:
        stored_code, game, seed, options, teams, created = row
        if stored_code != code or not isinstance(game, str):
            raise DamagedRow("code or game")
        try:
            rules = room_game(game)
            names = rules.check_teams(stored_json(teams))
            stored_options = stored_json(options)
            if not isinstance(stored_options, dict):  # the store always writes an object
                raise DamagedRow("options")
            checked = rules.check_options(stored_options)
        except HousingLabError:
            raise DamagedRow("teams or options") from None
        info = RoomInfo(code, game, _seed(seed), checked, names, _number(created))
        hashes = {}
        for holder, digest in token_rows:
            if not isinstance(holder, str) or not isinstance(digest, str):
                raise DamagedRow("token")
            hashes[holder] = digest
        holders = {TEACHER.actor} | {Role(team).actor for team in names}
        if set(hashes) != holders or any(len(h) != HASH_LENGTH for h in hashes.values()):
            raise DamagedRow("its teams and tokens disagree")
    except (DamagedRow, ValueError, TypeError):
        raise RoomError(
            f"room {code}'s record is damaged: its game, seed, teams, options or tokens are "
            "not what the store wrote"
        ) from None
    return info, hashes


def actions_from_rows(code: str, rows: Iterable[Sequence[Any]], after: int) -> list[LoggedAction]:
    """Log rows (seq, actor, action JSON, at) numbered after `after`, checked to run on from
    it without a gap; `RoomError` naming the room and the action if one is damaged."""
    actions = []
    expected = after + 1
    for row in rows:
        try:
            seq, actor, action, at = row
            if isinstance(seq, bool) or not isinstance(seq, int) or seq != expected:
                raise DamagedRow("seq")
            parsed = stored_json(action)
            if not isinstance(actor, str) or not isinstance(parsed, dict):
                raise DamagedRow("actor or action")
            actions.append(LoggedAction(seq, actor, parsed, _number(at)))
        except (DamagedRow, ValueError, TypeError):
            raise RoomError(f"room {code}'s log is damaged at action {expected}") from None
        expected += 1
    return actions

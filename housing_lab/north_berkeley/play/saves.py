"""Saved North Berkeley games: who plays, the seed, the house rules and the action log.

A saved game (version 2) holds only what the table decided; everything else is replayed::

    {"version": 2, "game": "north-berkeley",
     "players": ["Red", "Blue"],            # seating order
     "seed": 3,
     "options": {"negotiation_minutes": 10.0, "current_score": "as_is", ...},
     "log": [{"action": "place", "square": "B1", "tile": "park"}, {"action": "call_state"}, ...],
     "table": {"hidden_hands": true}}       # optional: how the game table shows it

Loading sets the game up from the seed and plays the log through `Game.apply`, so a file
cannot hold a state the rules would never reach: an edited file fails at its first illegal
action, with the engine's reason (`action 4 {...} refused: ...`). Version 1 files (the whole
state, `"format": "housing_lab.north_berkeley.play.game/1"`, what `Game.to_dict` still returns) are
read too: their log is replayed the same way and every other field must equal the replayed
state, so a phase, hand or deck edited by hand is refused by name.

Saving writes the engine's state in a fixed order (seating order, log order), so a save
loaded and saved again is the same text whatever the key order of the file read.

>>> from housing_lab.north_berkeley.play.game import Game
>>> game = Game(["Red", "Blue"], seed=3)
>>> game.apply({"action": "place", "square": "B1", "tile": "park"})
>>> saved = save_dict(game)
>>> saved["log"]
[{'action': 'place', 'square': 'B1', 'tile': 'park'}]
>>> Game.from_dict(saved).to_dict() == game.to_dict()
True

`Game.from_dict` / `Game.from_json` are the way in: `read_save` checks the file's shape and
`replay` plays it on the game set up from it (this module never builds a `Game` itself).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from housing_lab import jsonio
from housing_lab.errors import HousingLabError, shown
from housing_lab.north_berkeley.errors import NorthBerkeleyError, ScenarioFormatError
from housing_lab.north_berkeley.play.actions import (
    ACTION_KINDS,
    Action,
    action_of_record,
    action_words,
)
from housing_lab.north_berkeley.play.state import STATE_FORMAT, check_players, check_seed
from housing_lab.north_berkeley.policies import RuleOptions


class Game(Protocol):
    """What this module needs of `game.Game` (which calls it, so it is not imported here)."""

    state: Any

    @property
    def players(self) -> list[str]: ...

    def history(self) -> list[Action]: ...

    def apply(self, action: Mapping[str, Any]) -> None: ...

    def to_dict(self) -> dict[str, Any]: ...


VERSION = 2
GAME = "north-berkeley"
KEYS = ("version", "game", "players", "seed", "options", "log")
OPTIONAL_KEYS = ("table",)
TABLE_SETTINGS = {"hidden_hands": bool}  # the game table's presentation, kept across a save
MAX_ACTIONS = 2000  # a long class game has ~200; replaying costs grow with the log
V1_KEYS = (
    "format",
    "players",
    "seed",
    "options",
    "existing",
    "deck",
    "policy_deck",
    "phase",
    "tiles",
    "policies",
    "hands",
    "discard",
    "extra",
    "draft_pool",
    "draft_order",
    "draft_picks",
    "policies_drawn",
    "state_calls",
    "log",
)
V1_RECORDS = (*ACTION_KINDS, "setup", "draft_order")  # log records no action made
_MISSING: Any = object()  # a key one side lacks


# --- saving ---------------------------------------------------------------------------------
def save_dict(game: Game, table: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The version-2 saved game; `table` adds the game table's settings (`TABLE_SETTINGS`)."""
    saved: dict[str, Any] = {
        "version": VERSION,
        "game": GAME,
        "players": game.players,
        "seed": game.state.seed,
        "options": game.state.options.to_dict(),
        "log": game.history(),
    }
    if table:
        saved["table"] = check_table(table)
    return saved


def save_json(game: Game, table: Mapping[str, Any] | None = None) -> str:
    return json.dumps(save_dict(game, table))


# --- loading --------------------------------------------------------------------------------
@dataclass(frozen=True)
class SavedGame:
    """A saved game read and shape-checked, ready to replay: how to set the game up, the
    actions to play, and (version 1) the state the replay must reach."""

    players: list[str]
    seed: int
    options: RuleOptions
    actions: list[Any]
    expected: Mapping[str, Any] | None = None


def parse_json(text: object) -> Any:
    """The JSON value of saved-game text, within `jsonio`'s limits (no NaN, no duplicate
    keys, no deep nesting); one `ScenarioFormatError` line otherwise."""
    if not isinstance(text, (str, bytes)):
        raise ScenarioFormatError(f"a saved game is JSON text, not {type(text).__name__}")
    try:
        return jsonio.loads(text, source="")
    except HousingLabError as error:
        raise ScenarioFormatError(f"saved game is not valid JSON: {error}") from None


def read_save(data: object) -> SavedGame:
    """Check a saved-game object (version 2, or 1) and say how to set it up and replay it."""
    if not isinstance(data, Mapping):
        raise ScenarioFormatError(
            f"a saved game is a JSON object, not {type(data).__name__} {shown(data, 60)}"
        )
    if "version" in data:
        return _read_v2(data)
    if data.get("format") == STATE_FORMAT:
        return _read_v1(data)
    raise ScenarioFormatError(
        f"not a saved North Berkeley game: no 'version' (expected {VERSION}) and format "
        f"{shown(data.get('format'), 80)}, not {STATE_FORMAT!r}"
    )


def replay(game: Game, saved: SavedGame) -> None:
    """Play the saved actions on `game` (just set up from `saved`); the first refused one
    stops the load, named by its number; a version-1 state must equal the replayed one."""
    for number, action in enumerate(saved.actions, start=1):
        _check_finite(action, number)
        try:
            game.apply(action)
        except NorthBerkeleyError as error:
            said = f"saved game: action {number} ({action_words(action)}) refused: {error}"
            raise type(error)(said, ids=error.ids) from None
    if saved.expected is not None:
        _compare_v1(saved.expected, json.loads(json.dumps(game.to_dict())))


def table_settings(data: Mapping[str, Any]) -> dict[str, Any]:
    """The game table's settings kept in a saved game (empty when it has none)."""
    table = data.get("table") if isinstance(data, Mapping) else None
    return {} if table is None else check_table(table)


def check_table(table: object) -> dict[str, Any]:
    if not isinstance(table, Mapping):
        raise ScenarioFormatError(f"saved game: 'table' must be an object, got {shown(table)}")
    for key, value in table.items():
        kind = TABLE_SETTINGS.get(key) if isinstance(key, str) else None
        if kind is None:
            raise ScenarioFormatError(
                f"saved game: unknown table setting {shown(key)} "
                f"(known: {', '.join(TABLE_SETTINGS)})"
            )
        if not isinstance(value, kind):
            raise ScenarioFormatError(
                f"saved game: table setting {key} must be true or false, got {shown(value)}"
            )
    return {key: table[key] for key in TABLE_SETTINGS if key in table}


def _read_v2(data: Mapping[str, Any]) -> SavedGame:
    version = data["version"]
    if type(version) is not int or version != VERSION:
        raise ScenarioFormatError(
            f"saved game version {shown(version, 60)} is not supported "
            f"(this version reads {VERSION} and files without a version from version 1)"
        )
    _check_keys(data, KEYS, OPTIONAL_KEYS, "saved game")
    if data["game"] != GAME:
        raise ScenarioFormatError(
            f"saved game is for the game {shown(data['game'], 60)}, not {GAME!r}"
        )
    table_settings(data)
    return _setup(data, _check_log(data["log"], "log"))


def _read_v1(data: Mapping[str, Any]) -> SavedGame:
    _check_keys(data, V1_KEYS, (), "saved game (version 1)")
    records = _check_log(data["log"], "log", V1_RECORDS)
    actions = [action for action in map(action_of_record, records) if action is not None]
    return _setup(data, actions, expected=data)


def _compare_v1(saved: Mapping[str, Any], replayed: Mapping[str, Any]) -> None:
    for key in V1_KEYS:
        difference = _first_difference(saved[key], replayed[key], key)
        if difference is not None:
            where, mine, theirs = difference
            raise ScenarioFormatError(
                f"saved game (version 1) does not match its own log: {where} is {mine} in "
                f"the file, but replaying the log gives {theirs}"
            )


def _setup(
    data: Mapping[str, Any], actions: list[Any], expected: Mapping[str, Any] | None = None
) -> SavedGame:
    """Players, seed and options checked as the engine takes them."""
    players = data["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ScenarioFormatError(
            f"saved game: 'players' must be a list of names, got {shown(players)}"
        )
    seed = check_seed(data["seed"], "saved game: seed")
    options = data["options"]
    if not isinstance(options, Mapping):
        raise ScenarioFormatError(f"saved game: 'options' must be an object, got {shown(options)}")
    minutes = options.get("negotiation_minutes")
    if isinstance(minutes, float) and not math.isfinite(minutes):
        raise ScenarioFormatError(f"saved game: negotiation_minutes {minutes!r} is not a number")
    try:
        rules = RuleOptions.from_dict(dict(options))
    except TypeError as error:  # a key that is not text
        raise ScenarioFormatError(f"saved game: bad options {shown(options)}: {error}") from None
    return SavedGame(check_players(players), seed, rules, actions, expected)


def _check_keys(
    data: Mapping[str, Any], required: tuple[str, ...], optional: tuple[str, ...], what: str
) -> None:
    missing = [key for key in required if key not in data]
    if missing:
        raise ScenarioFormatError(f"{what} is missing {', '.join(map(repr, missing))}")
    for key in data:
        if key not in required and key not in optional:
            raise ScenarioFormatError(
                f"{what} has an unknown field {shown(key, 60)} "
                f"(fields: {', '.join((*required, *optional))})"
            )


def _check_log(log: object, name: str, kinds: tuple[str, ...] = ACTION_KINDS) -> list[Action]:
    """The log as a list of action objects (their fields are checked when each is played)."""
    if not isinstance(log, list):
        raise ScenarioFormatError(
            f"saved game: {name!r} must be a list of actions, got {type(log).__name__} "
            f"{shown(log, 60)}"
        )
    if len(log) > MAX_ACTIONS:
        raise ScenarioFormatError(
            f"saved game: {name!r} holds {len(log)} entries (at most {MAX_ACTIONS})"
        )
    for number, record in enumerate(log, start=1):
        if not isinstance(record, Mapping) or record.get("action") not in kinds:
            raise ScenarioFormatError(
                f"saved game: {name} entry {number} {shown(record, 120)} is not one of the "
                f"actions {', '.join(kinds)}"
            )
    return list(log)


def _check_finite(action: Mapping[str, Any], number: int) -> None:
    minutes = action.get("minutes_elapsed")
    if isinstance(minutes, float) and not math.isfinite(minutes):
        raise ScenarioFormatError(
            f"saved game: action {number}: minutes_elapsed {minutes!r} is not a number"
        )


def _canonical(value: object) -> str | None:
    """JSON text with sorted keys (so `true` differs from `1`), None for non-JSON values."""
    try:
        return json.dumps(value, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return None


def _first_difference(saved: object, replayed: object, where: str) -> tuple[str, str, str] | None:
    """Where a saved value first differs from the replayed one: (place, saved, replayed)."""
    if _canonical(saved) is not None and _canonical(saved) == _canonical(replayed):
        return None
    if isinstance(saved, Mapping) and isinstance(replayed, Mapping):
        keys = [*replayed, *(k for k in saved if k not in replayed)]
        for key in keys:
            difference = _first_difference(
                saved.get(key, _MISSING), replayed.get(key, _MISSING), f"{where}[{shown(key, 60)}]"
            )
            if difference is not None:
                return difference
    if isinstance(saved, list) and isinstance(replayed, list):
        for index in range(max(len(saved), len(replayed))):
            mine = saved[index] if index < len(saved) else _MISSING
            theirs = replayed[index] if index < len(replayed) else _MISSING
            difference = _first_difference(mine, theirs, f"{where}[{index}]")
            if difference is not None:
                return difference
    return where, _shown_value(saved), _shown_value(replayed)


def _shown_value(value: object) -> str:
    return "nothing" if value is _MISSING else shown(value, 120)

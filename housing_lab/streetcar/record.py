"""Game records (RULES.md part 2, Game record JSON): write them, read them, replay them.

A record holds the board, the houses as dealt, the options and every turn; replaying it checks
each move with the engine and recomputes the `final` block, which must match when present.
Extra keys written: `version` (1; a record without it is read as version 1), `final.winners`
always, and `goals` when development goals are in play. The houses must be the rulebook's kit
(RULES.md: as even a split of the four colours as the board allows, 13 each on the standard
board), so a tampered deal such as 52 blue houses is refused before any turn is replayed.
"""

from __future__ import annotations

import json
from os import PathLike
from pathlib import Path
from typing import Any

from housing_lab.errors import shown, unknown_key
from housing_lab.jsonio import JsonInputError, load_path, loads
from housing_lab.outputs import write_text
from housing_lab.streetcar.board import Board, hex_json, parse_hex
from housing_lab.streetcar.errors import IllegalMoveError, RecordError, StreetcarError
from housing_lab.streetcar.game import Game
from housing_lab.streetcar.moves import Move
from housing_lab.streetcar.rules import COLOURS, DEFAULT_PENALTY, PLAYERS, Rules
from housing_lab.streetcar.scoring import breakdowns, outcome

RECORD_VERSION = 1
# Every key a record may have (a misspelt one, "penatly", is refused, never silently ignored)
RECORD_KEYS = ("version", "board", "houses", "players", "penalty", "goals", "turns", "final")
FINAL_KEYS = ("scores", "removed", "buildings", "lines", "winners")


def final_block(game: Game) -> dict[str, Any]:
    """The record's `final` block for the position as it stands (normally at game end)."""
    items = breakdowns(game)
    return {
        "scores": {name: item.total for name, item in items.items()},
        "removed": {
            name: {colour: n for colour, n in item.removed.items() if n}
            for name, item in items.items()
        },
        "buildings": [building.to_json() for building in game.buildings],
        "lines": {name: item.lines for name, item in items.items()},
        "winners": list(outcome(game).winners),
    }


def to_record(game: Game) -> dict[str, Any]:
    """The game record of a game played from its first turn."""
    start = game.initial_houses
    if start is None:
        raise StreetcarError("a record needs a game played from its first turn")
    record: dict[str, Any] = {
        "version": RECORD_VERSION,
        "board": [hex_json(h) for h in game.board.hexes],
        "houses": [[h[0], h[1], colour] for h, colour in start.items()],
        "players": list(PLAYERS),
        "penalty": game.rules.penalty,
    }
    if game.rules.goals:
        record["goals"] = game.rules.sorted_goals()
    record["turns"] = [move.to_json(PLAYERS[i % 2]) for i, move in enumerate(game.move_stack)]
    record["final"] = final_block(game)
    return record


def replay(record: object, *, require_complete: bool = True) -> Game:
    """Rebuild a game from a record, checking every move; RecordError names the bad turn."""
    if not isinstance(record, dict):
        raise RecordError(f"a game record is a JSON object, not {type(record).__name__}")
    _check_keys(record, RECORD_KEYS, "record key")
    _check_version(record.get("version", RECORD_VERSION))
    try:
        game = _setup(record)
    except StreetcarError as error:
        raise RecordError(f"bad record setup: {error}") from None
    turns = record.get("turns")
    if not isinstance(turns, list):
        raise RecordError(f"record turns must be a list, not {shown(turns)}")
    for number, turn in enumerate(turns, start=1):
        if game.is_over():
            raise RecordError(f"turn {number}: the game is already over", turn=number)
        try:
            move = Move.from_json(turn)
        except StreetcarError as error:
            raise RecordError(f"turn {number}: {error}", turn=number) from None
        player = turn.get("player")
        if player != game.current_player:
            raise RecordError(
                f"turn {number}: it is {game.current_player}'s turn, not {shown(player)}",
                turn=number,
            )
        try:
            game.push(move)
        except IllegalMoveError as error:
            raise RecordError(
                f"turn {number} ({player}): {move}: {error.reason}", turn=number
            ) from None
    if require_complete and not game.is_over():
        left = len(game.removable_houses())
        raise RecordError(
            f"record ends after turn {len(turns)} but the game is not over "
            f"({left} removable houses left)",
            turn=len(turns),
        )
    _check_final(record.get("final"), game)
    return game


def _setup(record: dict[str, Any]) -> Game:
    board_list = record.get("board")
    if not isinstance(board_list, list):
        raise StreetcarError(f"board must be a list of hexes, not {shown(board_list)}")
    board = Board.from_hexes(board_list)
    players = record.get("players", list(PLAYERS))
    if players != list(PLAYERS):
        raise StreetcarError(f"players must be {list(PLAYERS)}, not {shown(players)}")
    penalty = record.get("penalty", DEFAULT_PENALTY)
    goals = record.get("goals", [])
    if not isinstance(goals, list):
        raise StreetcarError(f"goals must be a list of names, not {shown(goals)}")
    for goal in goals:
        if not isinstance(goal, str):
            raise StreetcarError(f"a goal is a name (a string), not {shown(goal)}")
    rules = Rules(penalty=penalty, goals=frozenset(goals))
    houses = record.get("houses")
    if not isinstance(houses, list):
        raise StreetcarError(f"houses must be a list of [q, r, colour], not {shown(houses)}")
    given: dict[tuple[int, int], str] = {}
    for item in houses:
        if not isinstance(item, list) or len(item) != 3:
            raise StreetcarError(f"a house is [q, r, colour], not {shown(item)}")
        h = parse_hex(item[:2])
        if h in given:
            raise StreetcarError(f"hex {hex_json(h)} has two houses")
        if item[2] not in COLOURS:
            raise StreetcarError(f"unknown colour {shown(item[2])} (known: {', '.join(COLOURS)})")
        given[h] = item[2]
    game = Game(board, houses=given, rules=rules)  # checks that every hex has a house
    _check_kit(given)
    return game


def _check_keys(record: dict[Any, Any], known: tuple[str, ...], what: str) -> None:
    unknown = [key for key in record if key not in known]
    if unknown:
        raise RecordError(unknown_key(unknown[0], known, what))


def _check_version(version: object) -> None:
    if isinstance(version, bool) or version != RECORD_VERSION or not isinstance(version, int):
        raise RecordError(
            f"unsupported record version {shown(version)} (this program reads version "
            f"{RECORD_VERSION})"
        )


def _check_kit(houses: dict[tuple[int, int], str]) -> None:
    """The deal must be the rulebook's: every colour within one house of the others."""
    counts = {colour: 0 for colour in COLOURS}
    for colour in houses.values():
        counts[colour] += 1
    if max(counts.values()) - min(counts.values()) > 1:
        low, high = len(houses) // len(COLOURS), -(-len(houses) // len(COLOURS))
        each = f"{low}" if low == high else f"{low} or {high}"
        dealt = ", ".join(f"{n} {colour}" for colour, n in counts.items())
        raise StreetcarError(
            f"the houses are not the game's kit: {len(houses)} hexes take {each} houses of "
            f"each colour, not {dealt}"
        )


def _check_final(recorded: object, game: Game) -> None:
    """A recorded final block must agree with the replay on every key it has."""
    if recorded is None:
        return
    if not isinstance(recorded, dict):
        raise RecordError(f"final must be an object, not {shown(recorded)}")
    _check_keys(recorded, FINAL_KEYS, "key of final")
    replayed = json.loads(json.dumps(final_block(game)))
    for key, value in recorded.items():
        if key in replayed and replayed[key] != value:
            raise RecordError(
                f"final {key} does not match the replay: recorded {json.dumps(value)}, "
                f"replayed {json.dumps(replayed[key])}"
            )


def write_record(path: str | Path, game: Game) -> None:
    """Write a game's record as JSON (one file per game), atomically: an interrupted write
    leaves the old file, never half a record."""
    write_text(path, json.dumps(to_record(game)) + "\n")


def parse_record_text(text: str) -> dict[str, Any]:
    """A record from JSON text (an upload, a pasted record), read like every user document."""
    try:
        data = loads(text, "the game record")
    except JsonInputError as error:
        raise RecordError(str(error)) from None
    if not isinstance(data, dict):
        raise RecordError(f"a game record is a JSON object, not {type(data).__name__}")
    return data


def read_record_source(source: object) -> dict[str, Any]:
    """A record as a dict from a dict, JSON text (starting with "{") or a file path, read like
    every user document (`jsonio`); anything else is a RecordError naming it."""
    if isinstance(source, dict):
        return source
    if isinstance(source, str) and source.lstrip().startswith("{"):
        return parse_record_text(source)
    try:
        if isinstance(source, (str, PathLike)) and str(source) != "-":
            data = load_path(source)
        else:
            raise RecordError(
                f"a game record is a dict, JSON text or a file path, not {shown(source)}"
            )
    except JsonInputError as error:
        raise RecordError(str(error)) from None
    if not isinstance(data, dict):
        raise RecordError(f"a game record is a JSON object, not {type(data).__name__}")
    return data


def read_record(path: str | Path, *, require_complete: bool = True) -> Game:
    """Read and replay a record file. It is read like every user document (`jsonio`: UTF-8,
    nesting depth, no duplicate keys); an unreadable file or bad JSON is a RecordError."""
    try:
        record = load_path(path)
    except JsonInputError as error:
        raise RecordError(str(error)) from None
    return replay(record, require_complete=require_complete)

"""The game table's files: saved games and the hidden hands' printable handouts.

A saved game is the engine's (`north_berkeley.saves`, version 2: players, seed, rules and the
action log) plus the table's one setting worth keeping, whether hands are hidden; the table's
other presentation (move-in wave, reveal) is deliberately left out.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from housing_lab import jsonio
from housing_lab.errors import shown
from housing_lab.north_berkeley.errors import IllegalActionError, ScenarioFormatError
from housing_lab.north_berkeley.play import handouts, saves
from housing_lab.north_berkeley.play.game import Game
from housing_lab.widgets.table.checks import check_path

SAVED_GAME = "a saved game"


def read_document(source: object) -> Any:
    """The JSON value of a saved game given as a dict, JSON text or a file path."""
    if isinstance(source, Mapping):
        return source
    if isinstance(source, bytes):
        return jsonio.loads(source, source=SAVED_GAME)
    if isinstance(source, str) and source.lstrip().startswith(("{", "[")):
        return jsonio.loads(source, source=SAVED_GAME)
    if not isinstance(source, (str, os.PathLike)):
        raise ScenarioFormatError(
            f"{SAVED_GAME} is a dict, JSON text or a file path, not "
            f"{type(source).__name__} {shown(source, 60)}"
        )
    return jsonio.load_path(check_path(source, SAVED_GAME))


def read_game(source: object) -> tuple[Game, dict[str, Any]]:
    """The game a saved game replays to (the engine checks every action), and the table's
    settings kept in it (`saves.TABLE_SETTINGS`; empty for a file the engine wrote)."""
    data = read_document(source)
    game = Game.from_dict(data)
    return game, saves.table_settings(data)


def save_name(game: Game) -> str:
    return f"north-berkeley-game-seed{game.state.seed}.json"


def handout_file(game: Game, team: str | None, hidden_hands: bool) -> tuple[str, str]:
    """(file name, printable HTML) for one team's handout; None: all teams in one file."""
    if team is None:
        return handouts.ALL_TEAMS, handouts.all_handouts_page(game, hidden_hands)
    if team not in game.players:
        raise IllegalActionError(f"unknown team {shown(team)}")
    name = handouts.handout_filename(team, game.players.index(team) + 1)
    return name, handouts.game_handouts(game, hidden_hands)[name]

"""The game table's files: saved games and the hidden hands' printable handouts.

The saved game is exactly the engine's state, so a file from the table resumes anywhere the
engine does; the table's own presentation (move-in wave, reveal) is deliberately left out.
"""

from __future__ import annotations

from housing_lab.north_berkeley import handouts
from housing_lab.north_berkeley.errors import IllegalActionError, ScenarioFormatError
from housing_lab.north_berkeley.game import Game
from housing_lab.widgets.common import JsonSource, read_json_object

SAVED_GAME = "a saved game"


def read_game(source: JsonSource) -> Game:
    """A saved game from a dict, a JSON string or a file path (the engine checks it)."""
    return Game.from_dict(read_json_object(source, SAVED_GAME, ScenarioFormatError))


def save_name(game: Game) -> str:
    return f"north-berkeley-game-seed{game.state.seed}.json"


def handout_file(game: Game, team: str | None, hidden_hands: bool) -> tuple[str, str]:
    """(file name, printable HTML) for one team's handout; None: all teams in one file."""
    if team is None:
        return "north-berkeley-all-teams.html", handouts.all_handouts_page(game, hidden_hands)
    if team not in game.players:
        raise IllegalActionError(f"unknown team {team!r}")
    name = handouts.handout_filename(team, game.players.index(team) + 1)
    return name, handouts.game_handouts(game, hidden_hands)[name]

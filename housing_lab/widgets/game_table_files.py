"""Saving, loading, and the hidden hands' handouts and reveal (a mixin of `GameTable`).

The saved game is exactly the engine's state, so a file from the table resumes anywhere the
engine does; the table's own presentation (move-in wave, reveal) is deliberately left out.
"""

from __future__ import annotations

import json
import pathlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from housing_lab.north_berkeley import handouts
from housing_lab.north_berkeley.errors import IllegalActionError, ScenarioFormatError
from housing_lab.north_berkeley.game import Game
from housing_lab.widgets import game_table_views as views

if TYPE_CHECKING:
    from housing_lab.widgets.game_table import GameTable

Source = Mapping[str, Any] | str | pathlib.Path


def read_game(source: Source) -> Game:
    """A saved game from a dict, a JSON string or a file path (the engine checks it)."""
    if isinstance(source, Mapping):
        return Game.from_dict(dict(source))
    if isinstance(source, str) and source.lstrip().startswith("{"):
        return Game.from_json(source)
    try:
        text = pathlib.Path(source).read_text(encoding="utf-8")
    except OSError as error:
        raise ScenarioFormatError(f"cannot read {str(source)!r}: {error.strerror}") from None
    return Game.from_json(text)


class FilesMixin:
    """`reveal`, `handouts`, `write_handouts`, `offer_handout`, `save`, `offer_save`, `load`
    and `from_json`."""

    # --- hidden hands ---------------------------------------------------------------------
    def reveal(self: GameTable, team: str | None) -> None:
        """Show one team's starting cards on the screen (None: hide them again)."""
        game = self._need_game()
        if team is not None and team not in game.players:
            raise self._refused(
                IllegalActionError(f"unknown team {team!r} (teams: {', '.join(game.players)})")
            )
        self._revealed = team
        self._refresh()

    def handouts(self: GameTable) -> dict[str, str]:
        """File name -> printable HTML page, one per team (current hands)."""
        return handouts.game_handouts(self._need_game(), self.hidden_hands)

    def write_handouts(self: GameTable, folder: str | pathlib.Path) -> list[pathlib.Path]:
        return handouts.write_handouts(self._need_game(), folder, self.hidden_hands)

    def offer_handout(self: GameTable, team: str | None = None) -> None:
        """Send one team's handout (None: all teams in one printable file) to the browser."""
        game = self._need_game()
        if team is None:
            name = "north-berkeley-all-teams.html"
            self.panel.offer_download(name, handouts.all_handouts_page(game, self.hidden_hands))
            return
        if team not in game.players:
            raise self._refused(IllegalActionError(f"unknown team {team!r}"))
        number = game.players.index(team) + 1
        name = handouts.handout_filename(team, number)
        self.panel.offer_download(name, self.handouts()[name])

    # --- save and resume ------------------------------------------------------------------
    def save(self: GameTable, path: str | pathlib.Path | None = None) -> dict[str, Any]:
        """The saved game (the engine's dict); also written as JSON to `path` when given."""
        data = self.state
        if path is not None:
            pathlib.Path(path).write_text(json.dumps(data, indent=2), encoding="utf-8")
        return data

    def offer_save(self: GameTable) -> None:
        """The saved game as a JSON download in the browser."""
        game = self._need_game()
        name = f"north-berkeley-game-seed{game.state.seed}.json"
        self.panel.offer_download(name, json.dumps(self.state, indent=2))

    def load(self: GameTable, source: Source) -> None:
        """Resume a saved game: a dict, a JSON string or a file path."""
        with self._reported():
            game = read_game(source)
        self.game = game
        self._new_game_view()
        self._say(
            f"Game loaded: {', '.join(game.players)}, seed {game.state.seed}, at "
            f"{views.STAGE_LABELS[self.stage]}."
        )

    @classmethod
    def from_json(cls: type[GameTable], source: Source, hidden_hands: bool = False) -> GameTable:
        """A new table resuming a saved game (see `load`)."""
        table = cls(hidden_hands=hidden_hands)
        table.load(source)
        return table

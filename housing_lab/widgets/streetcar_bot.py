"""The bot opponent of the Streetcar lab (a mixin of `StreetcarLab`).

The bot replies inside the same Python call, so the engine's state is always complete; the
browser shows its move only after `bot_delay` seconds and then says so (`bot_shown`), and the
score panel waits for that message so the chart never runs ahead of the board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from housing_lab.streetcar import PLAYERS
from housing_lab.widgets.streetcar_board import edge_keys, hex_key, position_view
from housing_lab.widgets.streetcar_view import describe_move

if TYPE_CHECKING:
    from housing_lab.widgets.streetcar_lab import StreetcarLab


class BotMixin:
    """The bot's reply, its delayed display and whose turns are the bot's; the lab provides the
    game, the bot (`_bot`, None for two students) and the board."""

    def _bot_reply(self: StreetcarLab, delay: float | None = None, before_message: str = "") -> str:
        """The bot moves when it is its turn; the browser shows it after `delay` seconds,
        with `before_message` on the message line meanwhile."""
        game, bot = self._game, self._bot
        if bot is None or game.is_over() or game.current_player == self.human:
            return ""
        before_game = game.copy()
        before = position_view(game)
        player = game.current_player
        move = bot.choose(game)
        colour = None if move.remove is None else game.houses.get(move.remove)
        game.push(move)
        self._bot_moves += 1
        delay = self.bot_delay if delay is None else delay
        self._position_id = self.board.position_id + 1
        self.board.bot_move = {
            "n": self._bot_moves,
            "player": player,
            "label": self._label(player),
            "lines": edge_keys(move.lines),
            "remove": None if move.remove is None else hex_key(move.remove),
            "before": before,
            "before_message": before_message,
            "delay": delay,
            "shows": self._position_id,
        }
        self._score_wait = (self._bot_moves, before_game) if delay > 0 else None
        return describe_move(self._label(player), move, colour, game)

    def _is_bot_turn(self: StreetcarLab, index: int) -> bool:
        """Whether move `index` of the stack was the bot's (undo takes those back too)."""
        return self._bot is not None and PLAYERS[index % 2] != self.human

    def _bot_shown(self: StreetcarLab, n: object) -> None:
        """The browser has shown bot move `n`: the score panel may show it too."""
        if self._score_wait is not None and self._score_wait[0] == n:
            self._score_wait = None
            self._show_score(self._game)

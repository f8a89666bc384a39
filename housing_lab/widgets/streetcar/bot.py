"""The bot opponent of the Streetcar lab: who plays which colour, and the bot's replies.

The bot replies inside the same Python call, so the engine's state is always complete; the
browser shows its move only after a delay and then says so (`shown`), and until then the score
panel keeps showing the game before the bot's move, so the chart never runs ahead of the board.
"""

from __future__ import annotations

from typing import Any

from housing_lab.streetcar import PLAYERS, Bot, Game
from housing_lab.widgets.streetcar.board import edge_keys, hex_key, position_view
from housing_lab.widgets.streetcar.view import describe_move
from housing_lab.widgets.streetcar.words import bot_words


class BotOpponent:
    """The opponent (`name` None: two students on one screen) and its replies.

    `moves` numbers the bot's moves for the browser; it keeps counting across games so the
    browser never mistakes a new move for one it has shown.
    """

    def __init__(self, delay: float) -> None:
        self.delay = float(delay)
        self.moves = 0
        self.name: str | None = None
        self.human = PLAYERS[0]
        self.bot: Bot | None = None
        self._waiting: tuple[int, Game] | None = None  # (move n, the game shown until n is)

    def start(self, name: str | None, bot: Bot | None, human: str) -> None:
        """A new game against `bot` (None: a classmate), named `name`; `human` plays one colour."""
        self.name = name
        self.human = human
        self.bot = bot
        self._waiting = None

    def label(self, player: str) -> str:
        """How a player is named on screen: "Purple (you)", "Red (greedy bot)" or "Red"."""
        if self.bot is None:
            return player.title()
        if player == self.human:
            return f"{player.title()} (you)"
        return f"{player.title()} ({bot_words(self.name or '')} bot)"

    def kind(self, player: str) -> str:
        return "bot" if self.bot is not None and player != self.human else "human"

    def to_move(self, game: Game) -> bool:
        """Whether it is the bot's turn in `game`."""
        return self.bot is not None and not game.is_over() and game.current_player != self.human

    def reply(
        self, game: Game, shows: int, delay: float | None = None, before_message: str = ""
    ) -> tuple[dict[str, Any] | None, str]:
        """Push the bot's move when it is its turn: (the board's `bot_move`, a sentence).

        The browser shows the move after `delay` seconds (default: the lab's), with
        `before_message` on the message line meanwhile, then the position numbered `shows`.
        """
        if self.bot is None or not self.to_move(game):
            return None, ""
        before_game = game.copy()
        before = position_view(game)
        player = game.current_player
        move = self.bot.choose(game)
        colour = None if move.remove is None else game.houses.get(move.remove)
        game.push(move)
        self.moves += 1
        delay = self.delay if delay is None else delay
        bot_move = {
            "n": self.moves,
            "player": player,
            "label": self.label(player),
            "lines": edge_keys(move.lines),
            "remove": None if move.remove is None else hex_key(move.remove),
            "before": before,
            "before_message": before_message,
            "delay": delay,
            "shows": shows,
        }
        self._waiting = (self.moves, before_game) if delay > 0 else None
        return bot_move, describe_move(self.label(player), move, colour, game)

    def game_to_score(self, game: Game) -> Game:
        """The game the score panel shows: the one before a bot move the browser still holds."""
        return game if self._waiting is None else self._waiting[1]

    def shown(self, n: object) -> bool:
        """The browser has shown bot move `n`; True when the score panel may now catch up."""
        if self._waiting is not None and self._waiting[0] == n:
            self._waiting = None
            return True
        return False

    def forget_waiting(self) -> None:
        """After an undo the held move is gone: the score panel shows the game again."""
        self._waiting = None

    def moves_to_undo(self, game: Game) -> int:
        """Moves to pop for one undo: the bot's replies on top, then one move of a student."""
        total = len(game.move_stack)
        count = total
        while count and self.bot is not None and PLAYERS[(count - 1) % 2] != self.human:
            count -= 1
        if count == 0:
            return 0
        return total - count + 1

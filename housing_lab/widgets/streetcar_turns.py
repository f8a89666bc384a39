"""Turn staging for the Streetcar lab (a mixin of `StreetcarLab`): the only code that pushes a
student's move into the engine.

The engine takes a whole turn (`Move(lines, remove)`) at once, but a student does it in two
steps, so the lines are checked by the engine (a `push`/`pop` with any removable house standing
in for the removal) and held (`_staged`) until the house arrives. Staged lines are never in the
engine, so `lab.record` never holds half a turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from housing_lab.errors import HousingLabError
from housing_lab.streetcar import IllegalMoveError, Move
from housing_lab.widgets.streetcar_view import describe_move

if TYPE_CHECKING:
    from housing_lab.widgets.streetcar_lab import StreetcarLab


class TurnMixin:
    """`draw_lines`, `remove_house`, `play`, `pass_lines`, `cancel_lines` and `undo`; the lab
    provides the game, `_staged` / `_first`, the bot reply and the board refresh."""

    def draw_lines(self: StreetcarLab, lines: Sequence[object]) -> None:
        """Draw this turn's lines (2 edges sharing an intersection, 1, or none when the rules
        allow): checked by the engine, then staged; on turn 1 the turn is played at once."""
        with self._refused_on_board():
            self._check_can_play()
            if self._staged is not None:
                raise HousingLabError(
                    "lines are already drawn this turn: remove a house, or cancel the lines"
                )
            move = Move(lines)
            game = self._game
            if game.turn == 1 or game.is_over():
                self._play(move)
                return
            probe = Move(move.lines, game.removable_houses()[0])
            try:
                game.push(probe)
            except IllegalMoveError as error:
                raise IllegalMoveError(
                    f"illegal lines on turn {error.turn} ({game.current_player}): {move}: "
                    f"{error.reason}",
                    rule=error.rule,
                    turn=error.turn,
                    reason=error.reason,
                ) from None
            game.pop()
        self._first = None
        self._staged = move.lines
        self._show(f"{self._label(game.current_player)}: lines drawn. Now remove a house.")

    def remove_house(self: StreetcarLab, hex: object) -> None:
        """Remove a house: plays the staged lines and this house as one move."""
        with self._refused_on_board():
            self._check_can_play()
            if self._game.is_over():
                self._play(Move([], hex))  # the engine says why: the game is over
            if self._staged is None:
                raise HousingLabError("draw this turn's lines first, then remove a house")
            move = Move(self._staged, hex)
            self._play(move)

    def play(self: StreetcarLab, lines: Sequence[object], remove: object | None = None) -> None:
        """A whole turn at once (lines and the house), e.g. from a lesson's script."""
        with self._refused_on_board():
            self._check_can_play()
            if self._staged is not None:
                raise HousingLabError("lines are already drawn this turn: cancel them first")
            self._play(Move(lines, remove))

    def cancel_lines(self: StreetcarLab) -> None:
        """Drop the lines drawn this turn (and a chosen first line); nothing was pushed yet."""
        self._first = None
        self._staged = None
        self._show("Lines cancelled: choose again.")

    def undo(self: StreetcarLab) -> None:
        """Practice mode: take back your last whole turn, and the bot's reply after it."""
        with self._refused_on_board():
            if not self.practice:
                raise HousingLabError("undo is only allowed in practice mode")
            if self._replay is not None:
                raise HousingLabError("replaying a saved game: use the replay buttons")
            count = self._undo_count()
            if count == 0:
                raise HousingLabError("there is no move of yours to undo")
        for _ in range(count):
            self._game.pop()
        self._first = None
        self._staged = None
        self._score_wait = None
        self._show(f"Move undone. {self._whose_turn_sentence()}")

    def pass_lines(self: StreetcarLab) -> None:
        """Draw no line (the engine allows it only when no edge is legal anywhere)."""
        self.draw_lines([])

    def _check_can_play(self: StreetcarLab) -> None:
        if self._replay is not None:
            raise HousingLabError("replaying a saved game: press 'Play on from here' to play")
        if (
            self._bot is not None
            and not self._game.is_over()
            and self._game.current_player != self.human
        ):
            raise HousingLabError(f"it is the {self.opponent} bot's turn")

    def _play(self: StreetcarLab, move: Move) -> None:
        """Push a whole turn (the engine checks it), then let the bot reply."""
        game = self._game
        player = game.current_player
        colour = None if move.remove is None else game.houses.get(move.remove)
        game.push(move)  # raises IllegalMoveError and changes nothing when illegal
        self._first = None
        self._staged = None
        said = describe_move(self._label(player), move, colour, game)
        with self.board.hold_sync():  # the bot's move and the new position in one message
            reply = self._bot_reply(before_message=said)
            self._show(" ".join(filter(None, [said, reply, self._whose_turn_sentence()])))

    def _undo_count(self: StreetcarLab) -> int:
        """Moves to pop: the bot's replies on top, then one move of a student."""
        stack = self._game.move_stack
        count = len(stack)
        while count and self._is_bot_turn(count - 1):
            count -= 1
        if count == 0:
            return 0
        return len(stack) - count + 1

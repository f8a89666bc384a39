"""The turn a student is drawing in the Streetcar lab: a chosen first line and staged lines.

The engine takes a whole turn (`Move(lines, remove)`) at once, but a student does it in two
steps, so the lines are checked by the engine (a `push`/`pop` with any removable house standing
in for the removal) and held here until the house arrives. Staged lines are never in the
engine, so the lab's record never holds half a turn. Every method takes the game it works on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from housing_lab.errors import HousingLabError
from housing_lab.streetcar import Game, IllegalMoveError, Move
from housing_lab.streetcar.hexgrid import Edge, Hex, make_edge


@dataclass(frozen=True)
class EdgeChoice:
    """What a click on a grid line leads to: lines to draw now, or a sentence to show.

    `kind` "error" is a refusal (nothing changed); "info" means the choice changed.
    """

    lines: list[Edge] | None = None
    message: str = ""
    kind: str = "info"


class TurnStager:
    """Holds `first` (a chosen line waiting for its partner) and `staged` (lines waiting for a
    house); None when there is none."""

    def __init__(self) -> None:
        self.first: Edge | None = None
        self.staged: tuple[Edge, ...] | None = None

    def clear(self) -> None:
        """Forget the chosen and staged lines (nothing was pushed yet)."""
        self.first = None
        self.staged = None

    def choose_edge(self, game: Game, edge: tuple[Hex, Hex]) -> EdgeChoice:
        """A click on a grid line: first line, second line, deselect, or the engine's reason."""
        if self.staged is not None:
            raise HousingLabError(
                "your lines are drawn: now click a house to remove (or cancel the lines)"
            )
        first = self.first
        if first is None:
            reason = game.explain_illegal_line(edge)
            if reason is not None:
                return EdgeChoice(message=f"Not allowed: {reason}.", kind="error")
            if game.legal_second_edges(edge):
                self.first = make_edge(*edge)
                return EdgeChoice(
                    message="First line chosen. Click a second line that touches it "
                    "(dotted), or the first one again to choose another."
                )
            return EdgeChoice(lines=[edge])  # no partner fits: the line is drawn alone
        if make_edge(*edge) == first:
            self.first = None
            return EdgeChoice(message="First line dropped: choose again.")
        reason = game.explain_illegal_line(edge, first)
        if reason is not None:
            return EdgeChoice(
                message=f"Not allowed: {reason}. (Click the chosen line again to start over.)",
                kind="error",
            )
        return EdgeChoice(lines=[first, edge])

    def stage(self, game: Game, lines: Sequence[object]) -> Move | None:
        """Check this turn's lines with the engine and hold them; returns the move to play at
        once when no house is removed (turn 1, or a game already over), else None."""
        if self.staged is not None:
            raise HousingLabError(
                "lines are already drawn this turn: remove a house, or cancel the lines"
            )
        move = Move(lines)
        if game.turn == 1 or game.is_over():
            return move
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
        self.first = None
        self.staged = move.lines
        return None

    def finish(self, hex: object) -> Move:
        """The staged lines and the house to remove, as one move (the engine checks it)."""
        if self.staged is None:
            raise HousingLabError("draw this turn's lines first, then remove a house")
        return Move(self.staged, hex)

"""Replaying a game in the Streetcar lab: a cursor over a list of moves.

The engine replays a loaded record first (every move checked); the cursor then pushes and pops
the engine's own moves, so every position shown is the engine's.
"""

from __future__ import annotations

from housing_lab.errors import HousingLabError
from housing_lab.streetcar import PLAYERS, Game, Move


def rewound(game: Game) -> tuple[Game, list[Move]]:
    """A copy of `game` at its start, and the moves that were played in it."""
    moves = game.move_stack
    start = game.copy()
    while start.move_stack:
        start.pop()
    return start, moves


class ReplayCursor:
    """The moves of the game being replayed; the game passed in is moved along them."""

    def __init__(self, moves: list[Move]) -> None:
        self.moves = list(moves)

    @property
    def total(self) -> int:
        return len(self.moves)

    def go_to(self, game: Game, index: int) -> str:
        """Push or pop `game` to the position after `index` moves; returns what to say."""
        if not 0 <= index <= self.total:
            raise HousingLabError(f"move {index} is not in this game (0-{self.total})")
        while len(game.move_stack) > index:
            game.pop()
        while len(game.move_stack) < index:
            game.push(self.moves[len(game.move_stack)])
        last = game.peek()
        if last is None:
            return "The start of the game."
        return f"Move {index}: {PLAYERS[(index - 1) % 2]} played {last}."

"""Replaying a game in the Streetcar lab: a cursor over the whole game being replayed.

The engine replays a loaded record first (every move checked); the cursor keeps that whole game
(`full`) and pushes and pops the engine's own moves on the game shown, so every position shown
is the engine's. Moving the cursor never loses the later moves: the lab's record while replaying
is the whole game's, and only "play from here" cuts the future off.
"""

from __future__ import annotations

from collections.abc import Callable

from housing_lab.errors import HousingLabError, shown
from housing_lab.streetcar import Game, Move


def rewound(game: Game) -> tuple[Game, list[Move]]:
    """A copy of `game` at its start, and the moves that were played in it."""
    moves = game.move_stack
    start = game.copy()
    while start.move_stack:
        start.pop()
    return start, moves


def check_index(index: object, total: int) -> int:
    """A move number 0..total, or a HousingLabError naming the bad value."""
    if isinstance(index, bool) or not isinstance(index, int):
        raise HousingLabError(f"a move number is a whole number 0-{total}, not {shown(index)}")
    if not 0 <= index <= total:
        raise HousingLabError(f"move {index} is not in this game (0-{total})")
    return index


class ReplayCursor:
    """The whole game being replayed (`full`); the game passed to `go_to` is moved along it."""

    def __init__(self, full: Game) -> None:
        self.full = full.copy()

    @property
    def moves(self) -> list[Move]:
        return self.full.move_stack

    @property
    def total(self) -> int:
        return len(self.full.move_stack)

    def go_to(self, game: Game, index: object, describe: Callable[[Game], str]) -> str:
        """Push or pop `game` to the position after `index` moves; returns what to say.

        The index is checked before anything moves. `describe(game)` words the last move.
        """
        index = check_index(index, self.total)
        moves = self.moves
        while len(game.move_stack) > index:
            game.pop()
        while len(game.move_stack) < index:
            game.push(moves[len(game.move_stack)])
        if index == 0:
            return "The start of the game."
        return f"Move {index} of {self.total}: {describe(game)}"

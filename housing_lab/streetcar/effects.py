"""What a move would do, asked of the engine without playing it.

A hint or a coach explains a move by what it changes for the player making it: the score term
by term, the buildings its lines reach for the first time, the house it removes and the
buildings it makes appear. The engine works that out on its own copy of the game (the caller's
game is never touched), so no view has to play a move to find out.
"""

from __future__ import annotations

from dataclasses import dataclass

from housing_lab.streetcar.buildings import Building
from housing_lab.streetcar.game import Game
from housing_lab.streetcar.hexgrid import Hex
from housing_lab.streetcar.moves import Move
from housing_lab.streetcar.scoring import ScoreBreakdown, connected_hexes


@dataclass(frozen=True)
class MoveEffect:
    """`move` for `player`: the score before and after, the buildings its lines newly reach
    (in board order; `built` says which of them the move itself made appear) and the colour
    of the house it removes (None when it removes none)."""

    player: str
    move: Move
    before: ScoreBreakdown
    after: ScoreBreakdown
    newly_connected: tuple[Building, ...]
    built: frozenset[Hex]
    removed_colour: str | None

    @property
    def points(self) -> int:
        return self.after.total - self.before.total


def move_effect(game: Game, move: Move) -> MoveEffect:
    """What `move` would do for the player to move; refused as the engine refuses the move
    (`Game.push`'s one line), and `game` is unchanged either way."""
    player, p = game.current_player, game.player_index
    index = game.board.hex_index
    before = game.score_breakdown()[player]
    reached = connected_hexes(game, p)
    had = {b.hex for b in game.buildings if index[b.hex] in reached}
    colour = None if move.remove is None else game.houses.get(move.remove)
    trial = game.copy()
    trial.push(move)
    now = connected_hexes(trial, p)
    return MoveEffect(
        player=player,
        move=move,
        before=before,
        after=trial.score_breakdown()[player],
        newly_connected=tuple(
            b for b in trial.buildings if index[b.hex] in now and b.hex not in had
        ),
        built=frozenset(b.hex for b in trial.last_buildings()),
        removed_colour=colour,
    )

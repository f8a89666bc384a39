"""`move_effect`: what a move would do, answered by the engine without touching the game."""

from __future__ import annotations

import random

import pytest

from housing_lab.streetcar import Game, StreetcarError, to_record
from housing_lab.streetcar.effects import move_effect
from housing_lab.streetcar.scoring import connected_hexes


def positions() -> list[Game]:
    """Three seeded games a few random turns in, as a hint meets them."""
    games = []
    for seed in (1, 2, 3):
        game, chooser = Game(seed=seed), random.Random(seed)
        for _ in range(2 + seed):
            game.push(chooser.choice(list(game.legal_moves())))
        games.append(game)
    return games


@pytest.mark.parametrize("game", positions(), ids=["seed1", "seed2", "seed3"])
def test_the_effect_is_the_move_played_and_the_game_is_untouched(game: Game) -> None:
    player, p = game.current_player, game.player_index
    record = to_record(game)
    moves = list(game.legal_moves())
    for move in random.Random(7).sample(moves, min(12, len(moves))):
        effect = move_effect(game, move)
        assert to_record(game) == record  # nothing was played on the caller's game
        played = game.copy()
        reached_before = connected_hexes(played, p)
        played.push(move)
        assert effect.after == played.score_breakdown()[player]
        assert effect.before == game.score_breakdown()[player]
        assert effect.points == effect.after.total - effect.before.total
        index = game.board.hex_index
        reached = connected_hexes(played, p)
        had = {b.hex for b in game.buildings if index[b.hex] in reached_before}
        reached = connected_hexes(played, p)
        newly = [b for b in played.buildings if index[b.hex] in reached and b.hex not in had]
        assert list(effect.newly_connected) == newly
        assert effect.built == {b.hex for b in played.last_buildings()}
        colour = None if move.remove is None else game.houses[move.remove]
        assert effect.removed_colour == colour


def test_an_illegal_move_is_the_engine_s_refusal_and_changes_nothing() -> None:
    game = positions()[0]
    record = to_record(game)
    played = next(iter(game.legal_moves()))
    game.push(played)
    after = to_record(game)
    with pytest.raises(StreetcarError):
        move_effect(game, played)  # the same lines again: already drawn
    assert to_record(game) == after != record

"""Simple automatic players: random legal choices, seeded. Used by `housing-lab nb play`,
by tests that drive whole games, and as sparring partners in lessons."""

from __future__ import annotations

import random
from collections.abc import Sequence

from housing_lab.north_berkeley.game import Game
from housing_lab.north_berkeley.policies import AFFORDABLE_100, RuleOptions


def default_names(count: int) -> list[str]:
    return [f"Player {number}" for number in range(1, count + 1)]


def _build_randomly(game: Game, rng: random.Random) -> None:
    """Players agree on a random tile for some squares; the state fills the rest."""
    allowed = list(game.catalogue)
    if game.phase == "phase2" and AFFORDABLE_100 in game.state.policies:
        allowed = [t for t in allowed if game.catalogue[t].affordable_only]
    for square in game.phase_squares():
        if rng.random() < 0.5:
            game.place(square, rng.choice(allowed))
    if game.empty_squares():
        game.call_state(minutes_elapsed=game.state.options.negotiation_minutes)
    game.advance()


def play_random_game(
    players: Sequence[str] | int, seed: int = 0, options: RuleOptions | None = None
) -> Game:
    """Play a whole game to the end with random legal choices; the same seed, the same game."""
    names = default_names(players) if isinstance(players, int) else list(players)
    game = Game(names, seed=seed, options=options)
    rng = random.Random(f"{seed}:autoplay")
    _build_randomly(game, rng)
    if game.phase == "extra_draw":
        for player in game.players:
            while game.can_redraw(player):
                game.redraw(player)
        game.advance()
    while game.phase == "draft":
        player = game.draft_turn()
        assert player is not None
        game.pick(player, rng.choice(game.state.draft_pool))
    drawn = game.state.policies_drawn
    game.enact(rng.sample(drawn, rng.choice((1, 2))))
    _build_randomly(game, rng)
    return game

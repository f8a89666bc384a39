"""Simple automatic players: random legal choices, seeded. Used by `housing-lab nb play`,
by tests that drive whole games, and as sparring partners in lessons.

Every choice is drawn from `Game.legal_actions()`, so the players never know a rule themselves.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from housing_lab.north_berkeley.play.actions import Action
from housing_lab.north_berkeley.play.game import Game
from housing_lab.north_berkeley.policies import RuleOptions


def default_names(count: int) -> list[str]:
    return [f"Player {number}" for number in range(1, count + 1)]


def _legal(game: Game, kind: str, **fields: str) -> list[Action]:
    """The legal actions of one kind (and, when given, with these field values)."""
    return [
        action
        for action in game.legal_actions()
        if action["action"] == kind and all(action[k] == v for k, v in fields.items())
    ]


def _build_randomly(game: Game, rng: random.Random) -> None:
    """Players agree on a random tile for some squares; the state fills the rest."""
    for square in game.phase_squares():
        if rng.random() < 0.5:
            game.apply(rng.choice(_legal(game, "place", square=square)))
    if _legal(game, "call_state"):
        game.call_state(minutes_elapsed=game.state.options.negotiation_minutes)
    game.apply({"action": "advance"})


def play_random_game(
    players: Sequence[str] | int, seed: int = 0, options: RuleOptions | None = None
) -> Game:
    """Play a whole game to the end with random legal choices; the same seed, the same game."""
    names = default_names(players) if isinstance(players, int) else list(players)
    game = Game(names, seed=seed, options=options)
    rng = random.Random(f"{seed}:autoplay")
    _build_randomly(game, rng)
    while game.phase == "extra_draw":  # every -1 card is redrawn while the rules allow it
        game.apply(game.legal_actions()[0])  # redraws come first, advance last
    while game.phase == "draft":
        game.apply(rng.choice(game.legal_actions()))
    game.apply(rng.choice(game.legal_actions()))  # enact one or both policies
    _build_randomly(game, rng)
    return game

"""Bots and whole-game play: `random` (uniform, seeded), `greedy` (see greedy.py) and `mcts`
(tree search, see mcts.py).

A bot is anything with a `name` and `choose(game) -> Move`. Every bot takes a seed and owns a
`random.Random` (`seeded.SeededBot`), so the same seeds always give the same game (for `mcts`,
with an iteration budget: a time budget depends on the machine).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Protocol

from housing_lab.errors import shown
from housing_lab.streetcar.board import Board
from housing_lab.streetcar.errors import StreetcarError
from housing_lab.streetcar.game import Game
from housing_lab.streetcar.moves import Move
from housing_lab.streetcar.play.greedy import GreedyBot
from housing_lab.streetcar.play.mcts import MctsBot
from housing_lab.streetcar.play.seeded import SeededBot
from housing_lab.streetcar.rules import Rules


class Bot(Protocol):
    """What `play_game` needs from a player."""

    name: str

    def choose(self, game: Game) -> Move:
        """A legal move for the player to move in `game` (which must not be over)."""
        ...


class RandomBot(SeededBot):
    """Uniform over the legal moves: a uniform line choice and, independently, a uniform house.

    Every line choice combines with every removable house, so the two independent draws are
    exactly uniform over the moves `game.legal_moves()` lists, without building them all.
    """

    name = "random"

    def choose(self, game: Game) -> Move:
        choices = game.line_choice_ids()
        lines = choices[self.rng.randrange(len(choices))]
        remove = None
        if game.turn > 1:
            houses = game.removable_houses()
            remove = houses[self.rng.randrange(len(houses))]
        edges = game.board.edges
        return Move([edges[e] for e in lines], remove)


BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "mcts": MctsBot,
}
SEARCH_BOTS: dict[str, Callable[..., Bot]] = {"mcts": MctsBot}
"""The bots of `BOTS` that also take a search budget: `factory(seed, iterations=, seconds=)`."""


def make_bot(
    name: str,
    seed: int | None = 0,
    *,
    iterations: int | None = None,
    seconds: float | None = None,
) -> Bot:
    """A bot by name (`random`, `greedy`, `mcts`), or a StreetcarError naming the unknown one.

    `iterations` / `seconds` set a search bot's budget (its default when both are None); the
    other bots have nothing to budget and ignore them, so one series can pair `mcts` with them.
    """
    factory = BOTS.get(name) if isinstance(name, str) else None
    if factory is None:
        raise StreetcarError(f"unknown bot {shown(name, 60)} (known: {', '.join(BOTS)})")
    search = SEARCH_BOTS.get(name)
    if search is not None and (iterations is not None or seconds is not None):
        return search(seed, iterations=iterations, seconds=seconds)
    return factory(seed)


def play_game(
    bots: Sequence[Bot],
    *,
    seed: int | None = 0,
    board: Board | None = None,
    rules: Rules | None = None,
    seconds: Sequence[list[float]] | None = None,
) -> Game:
    """Play a whole game, bots[0] as purple and bots[1] as red, houses dealt with `seed`.

    With `seconds` (two lists), each bot's thinking time per move is appended to its list.
    """
    if len(bots) != 2:
        raise StreetcarError(f"a game needs 2 bots, not {len(bots)}")
    game = Game(board, seed=seed, rules=rules)
    while not game.is_over():
        seat = (game.turn - 1) % 2
        start = time.perf_counter()
        move = bots[seat].choose(game)
        if seconds is not None:
            seconds[seat].append(time.perf_counter() - start)
        game.push(move)
    return game

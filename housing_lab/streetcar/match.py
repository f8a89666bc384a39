"""A series of seeded games between two named bots, seats alternating (the CLI's `simulate`).

Game i (from 0) seats bot A as purple when i is even and as red when i is odd, so neither bot
keeps the first move. One `random.Random(seed)` draws, per game, the deal seed and both bots'
seeds, so a series is reproducible from its seed alone.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from housing_lab.streetcar.board import Board
from housing_lab.streetcar.bots import make_bot, play_game
from housing_lab.streetcar.errors import StreetcarError
from housing_lab.streetcar.game import Game
from housing_lab.streetcar.rules import PLAYERS, Rules


@dataclass(frozen=True)
class MatchGame:
    """One finished game of a series and which bot (0 = A, 1 = B) sat in each colour."""

    index: int
    game: Game
    seats: tuple[int, int]  # seats[p] = bot position playing colour PLAYERS[p]


@dataclass
class MatchSummary:
    """Wins per bot (shared wins apart) and mean scores, in the order the bots were named."""

    bots: tuple[str, str]
    games: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    shared: int = 0
    totals: list[int] = field(default_factory=lambda: [0, 0])

    def add(self, played: MatchGame) -> None:
        """Count one finished game."""
        outcome = played.game.outcome()
        if outcome is None:
            raise StreetcarError(f"game {played.index} is not over")
        self.games += 1
        for p, bot in enumerate(played.seats):
            self.totals[bot] += outcome.scores[PLAYERS[p]]
        if outcome.winner is None:
            self.shared += 1
        else:
            self.wins[played.seats[PLAYERS.index(outcome.winner)]] += 1

    def to_dict(self) -> dict[str, Any]:
        """The summary line's content."""
        n = max(self.games, 1)
        return {
            "games": self.games,
            "bots": list(self.bots),
            "wins": list(self.wins),
            "shared": self.shared,
            "win_rate": [round(w / n, 4) for w in self.wins],
            "mean_scores": [round(t / n, 2) for t in self.totals],
        }


def check_series(bots: Sequence[str], games: int) -> None:
    """Refuse a bad series before any game is played: 2 known bots, at least 1 game."""
    if len(bots) != 2:
        raise StreetcarError(f"a match needs 2 bots, not {len(bots)}: {','.join(bots)}")
    for name in bots:
        make_bot(name)
    if games < 1:
        raise StreetcarError(f"the number of games must be at least 1, not {games}")


def play_match(
    bots: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    board: Board | None = None,
    rules: Rules | None = None,
) -> Iterator[MatchGame]:
    """Play `games` seeded games between bots A and B (names), yielding each as it ends."""
    check_series(bots, games)
    rng = random.Random(seed)
    for index in range(games):
        deal, seed_a, seed_b = rng.getrandbits(32), rng.getrandbits(32), rng.getrandbits(32)
        a, b = make_bot(bots[0], seed_a), make_bot(bots[1], seed_b)
        seats = (0, 1) if index % 2 == 0 else (1, 0)
        players = (a, b) if index % 2 == 0 else (b, a)
        game = play_game(players, seed=deal, board=board, rules=rules)
        yield MatchGame(index, game, seats)


def summarise(bots: Sequence[str], played: Iterator[MatchGame]) -> MatchSummary:
    """Play out (or consume) a series and total it."""
    summary = MatchSummary((bots[0], bots[1]))
    for item in played:
        summary.add(item)
    return summary

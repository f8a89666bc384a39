"""A series of seeded games between two named bots, seats alternating (the CLI's `simulate`).

Game i (from 0) seats bot A as purple when i is even and as red when i is odd, so neither bot
keeps the first move. One `random.Random(seed)` draws, per game, the deal seed and both bots'
seeds, so a series is reproducible from its seed alone: its moves, that is (thinking times are
measured, and a search bot on a time budget plays differently on a busier machine).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from housing_lab.streetcar.board import Board
from housing_lab.streetcar.errors import StreetcarError
from housing_lab.streetcar.game import Game
from housing_lab.streetcar.play.bots import SEARCH_BOTS, make_bot, play_game
from housing_lab.streetcar.rules import PLAYERS, Rules


@dataclass(frozen=True)
class MatchGame:
    """One finished game of a series and which bot (0 = A, 1 = B) sat in each colour."""

    index: int
    game: Game
    seats: tuple[int, int]  # seats[p] = bot position playing colour PLAYERS[p]
    seconds: tuple[tuple[float, ...], tuple[float, ...]] = ((), ())
    """Thinking time of each move, per bot in the order named (A, B)."""


@dataclass
class MatchSummary:
    """Wins per bot (shared wins apart) and mean scores, in the order the bots were named."""

    bots: tuple[str, str]
    games: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    shared: int = 0
    totals: list[int] = field(default_factory=lambda: [0, 0])
    thinking: list[float] = field(default_factory=lambda: [0.0, 0.0])  # seconds, per bot
    moves: list[int] = field(default_factory=lambda: [0, 0])  # timed moves, per bot

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
        for bot, times in enumerate(played.seconds):
            self.thinking[bot] += sum(times)
            self.moves[bot] += len(times)

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
            "seconds_per_move": [
                round(t / m, 4) if m else None
                for t, m in zip(self.thinking, self.moves, strict=True)
            ],
        }


def check_series(
    bots: Sequence[str],
    games: int,
    *,
    iterations: int | None = None,
    seconds: float | None = None,
) -> None:
    """Refuse a bad series before any game is played: 2 known bots, at least 1 game, and a
    search budget only when a search bot plays (and only one kind of budget)."""
    if len(bots) != 2:
        raise StreetcarError(f"a match needs 2 bots, not {len(bots)}: {','.join(bots)}")
    if iterations is not None and seconds is not None:
        raise StreetcarError("give a search budget as --iterations or --seconds, not both")
    for name in bots:
        make_bot(name, iterations=iterations, seconds=seconds)
    budget = "--iterations" if iterations is not None else "--seconds"
    if (iterations is not None or seconds is not None) and not SEARCH_BOTS.keys() & set(bots):
        raise StreetcarError(
            f"{budget} is a search bot's budget ({', '.join(SEARCH_BOTS)}), "
            f"but the bots are {','.join(bots)}"
        )
    if games < 1:
        raise StreetcarError(f"the number of games must be at least 1, not {games}")


def play_match(
    bots: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    board: Board | None = None,
    rules: Rules | None = None,
    iterations: int | None = None,
    seconds: float | None = None,
) -> Iterator[MatchGame]:
    """Play `games` seeded games between bots A and B (names), yielding each as it ends.

    `iterations` / `seconds` budget the search bots among them (see `make_bot`).
    """
    check_series(bots, games, iterations=iterations, seconds=seconds)
    budget = {"iterations": iterations, "seconds": seconds}
    rng = random.Random(seed)
    for index in range(games):
        deal, seed_a, seed_b = rng.getrandbits(32), rng.getrandbits(32), rng.getrandbits(32)
        a, b = make_bot(bots[0], seed_a, **budget), make_bot(bots[1], seed_b, **budget)
        seats = (0, 1) if index % 2 == 0 else (1, 0)
        players = (a, b) if index % 2 == 0 else (b, a)
        times: list[list[float]] = [[], []]  # per colour
        game = play_game(players, seed=deal, board=board, rules=rules, seconds=times)
        by_bot = (times[0], times[1]) if index % 2 == 0 else (times[1], times[0])
        yield MatchGame(index, game, seats, (tuple(by_bot[0]), tuple(by_bot[1])))


def summarise(bots: Sequence[str], played: Iterator[MatchGame]) -> MatchSummary:
    """Play out (or consume) a series and total it."""
    summary = MatchSummary((bots[0], bots[1]))
    for item in played:
        summary.add(item)
    return summary

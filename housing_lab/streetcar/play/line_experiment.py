"""A controlled experiment: does it matter *where* a streetcar line goes?

Comparing the greedy bot with the random bot mixes two differences: the random bot scatters
many separate lines (10 points each) and also misses the buildings. Here two players differ in
one thing only. Both remove the same houses (a seeded draw that does not depend on lines, so
the same seed gives the same removals, the same buildings and the same opponent removals in
both arms) and both keep extending one line rather than starting new ones. The *connecting*
player steers that line to reach as many building cubes as it can; the *avoiding* player steers
it away from them. The score difference is then the value of connecting buildings.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from housing_lab.errors import shown
from housing_lab.streetcar.errors import StreetcarError
from housing_lab.streetcar.game import Game
from housing_lab.streetcar.moves import Move
from housing_lab.streetcar.scoring import connected_hexes, line_components

AIMS = ("connect", "avoid")
"""The two arms: steer the one line towards buildings, or away from them."""


class RemovalDrawer:
    """Removes a seeded random house; its draws never depend on the lines on the board."""

    def __init__(self, seed: int) -> None:
        self.houses = random.Random(seed)

    def remove(self, game: Game) -> int | None:
        if game.turn == 1:
            return None
        removable = sorted(game.tables().removable)
        return removable[self.houses.randrange(len(removable))]


class OneLinePlayer(RemovalDrawer):
    """Extends one line each turn (a new line only when it cannot), towards or away from
    the building cubes its new corners reach (`aim`: "connect" or "avoid")."""

    def __init__(self, aim: str, seed: int) -> None:
        if aim not in AIMS:
            raise StreetcarError(f"unknown aim {shown(aim)} (known: {', '.join(AIMS)})")
        super().__init__(seed)
        self.aim = aim
        self.ties = random.Random(seed + 1)

    def choose(self, game: Game) -> Move:
        x = self.remove(game)  # first: the house draw must not depend on the lines
        board, p, tables = game.board, game.player_index, game.tables()
        mine = connected_hexes(game, p)
        label = line_components(game, p)
        on_line = {
            v: label[e]
            for e, who in enumerate(tables.edge_owners)
            if who == p
            for v in board.edge_vertices[e]
        }
        sign = 1 if self.aim == "connect" else -1
        best_key, best = None, ()
        for choice in game.line_choice_ids():
            ends = {v for e in choice for v in board.edge_vertices[e]}
            joined = {on_line[v] for v in ends if v in on_line}
            new_lines = (1 if choice else 0) - len(joined)
            reached = {h for v in ends for h in board.vertex_hexes[v] if h not in mine}
            cubes = sum(
                tables.building_cubes[h] for h in reached if tables.building_colours[h] >= 0
            )
            key = (-max(new_lines, 0) if label else 0, sign * cubes, self.ties.random())
            if best_key is None or key > best_key:
                best_key, best = key, choice
        return Move([board.edges[e] for e in best], None if x is None else board.hexes[x])


class RandomLineOpponent(RemovalDrawer):
    """The other player: random lines from one RNG, random houses from another, so that its
    removals are the same in both arms even though its line choices are not."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.lines = random.Random(seed + 1)

    def choose(self, game: Game) -> Move:
        x = self.remove(game)
        choices = game.line_choice_ids()
        edges = choices[self.lines.randrange(len(choices))]
        board = game.board
        return Move([board.edges[e] for e in edges], None if x is None else board.hexes[x])


@dataclass(frozen=True)
class ArmResult:
    """One finished game of one arm, from the experimenting player's side (purple)."""

    aim: str
    seed: int
    score: int
    separate_lines: int
    connected_cubes: int
    houses_removed: int
    removed_order: tuple[int, ...]  # hex ids removed by both players, in turn order


def play_arm(aim: str, seed: int) -> ArmResult:
    """One game: the one-line player (purple, `aim`) against the random-line opponent."""
    game = Game(seed=seed)
    players = (OneLinePlayer(aim, 1000 + seed), RandomLineOpponent(2000 + seed))
    while not game.is_over():
        game.push(players[(game.turn - 1) % 2].choose(game))
    mine = game.score_breakdown()["purple"]
    hexes = {h: i for i, h in enumerate(game.board.hexes)}
    return ArmResult(
        aim=aim,
        seed=seed,
        score=mine.total,
        separate_lines=mine.lines,
        connected_cubes=sum(mine.connected_cubes.values()),
        houses_removed=sum(mine.removed.values()),
        removed_order=tuple(hexes[m.remove] for m in game.move_stack if m.remove is not None),
    )


def line_experiment(games: int, seed: int = 0) -> list[ArmResult]:
    """Both arms on the same `games` deals (seeds seed, seed+1, ...): 2 x games results."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise StreetcarError(
            f"the experiment needs a whole number of games >= 1, not {shown(games)}"
        )
    return [play_arm(aim, seed + i) for i in range(games) for aim in AIMS]


def summary(results: Sequence[ArmResult]) -> dict[str, dict[str, float]]:
    """Per aim, the average score, separate lines, cubes connected and houses removed, to one
    decimal (rounded here once, so every page that shows them shows the same figure)."""
    table: dict[str, dict[str, float]] = {}
    for aim in AIMS:
        rows = [r for r in results if r.aim == aim]
        if not rows:
            continue
        table[aim] = {
            name: round(sum(getattr(r, name) for r in rows) / len(rows), 1)
            for name in ("score", "separate_lines", "connected_cubes", "houses_removed")
        }
    return table

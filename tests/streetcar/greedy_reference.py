"""The reference greedy bot: GreedyBot as first written, plainly, before it was made fast.

`GreedyBot` (housing_lab/streetcar/play/greedy.py) computes the same thing with per-intersection
caches and set operations; the tests play many seeded games with both and require the same moves
(every tie-break draws the RNG in the same order). Only the two computing steps differ, so the
reference replaces those two and keeps GreedyBot's choice, goal re-scoring and ranking.
"""

from __future__ import annotations

from typing import NamedTuple

from housing_lab.streetcar import Game, GreedyBot
from housing_lab.streetcar.scoring import connected_hexes, line_components


class Line(NamedTuple):
    """One line choice as GreedyBot ranks it (the same fields as the bot's own)."""

    edges: tuple[int, ...]
    value: int  # score change from the lines alone (existing buildings reached, penalty)
    by_colour: tuple[int, ...]  # cubes per colour newly reached (for the removed colour's +1)
    reach: int  # intersections touched for the first time (tie-break)
    luck: float  # seeded tie-break
    hexes: frozenset[int]  # hexes newly connected by these lines


class ReferenceGreedyBot(GreedyBot):
    """GreedyBot with the straightforward per-line and per-house loops."""

    def _lines(self, game: Game) -> list[Line]:
        """Every legal line choice with its lines-only score change."""
        board, p, tables = game.board, game.player_index, game.tables()
        vowner, bcol, bcubes = tables.vertex_owners, tables.building_colours, tables.building_cubes
        removed, penalty = tables.removed[p], game.rules.penalty
        mine = connected_hexes(game, p)
        label = line_components(game, p)
        vertex_line = {
            v: label[e]
            for e, who in enumerate(tables.edge_owners)
            if who == p
            for v in board.edge_vertices[e]
        }
        result = []
        for choice in game.line_choice_ids():
            ends = {v for e in choice for v in board.edge_vertices[e]}
            fresh = [v for v in ends if vowner[v] != p]
            joined = {vertex_line[v] for v in ends if v in vertex_line}
            change = (1 if choice else 0) - len(joined)
            reached = frozenset(x for v in fresh for x in board.vertex_hexes[v] if x not in mine)
            by_colour = [0, 0, 0, 0]
            for x in reached:
                if bcol[x] >= 0:
                    by_colour[bcol[x]] += bcubes[x]
            value = sum(n * k for n, k in zip(removed, by_colour, strict=True)) - penalty * change
            result.append(
                Line(choice, value, tuple(by_colour), len(fresh), self.rng.random(), reached)
            )
        return result

    def _per_house(
        self, game: Game, lines: list[Line]
    ) -> list[tuple[tuple[float, ...], Line, int]]:
        """For each removable house, its best line choice and the (value, ties...) key."""
        p, tables = game.player_index, game.tables()
        bcol, bcubes = tables.building_colours, tables.building_cubes
        removed, theirs = tables.removed[p], tables.removed[1 - p]
        mine, their_hexes = connected_hexes(game, p), connected_hexes(game, 1 - p)
        cubes_now = [0, 0, 0, 0]
        for x in mine:
            if bcol[x] >= 0:
                cubes_now[bcol[x]] += bcubes[x]
        best_for_colour = [
            max(lines, key=lambda ln, c=c: (ln.value + ln.by_colour[c], ln.reach, ln.luck))
            for c in range(4)
        ]
        touching: dict[int, list[Line]] = {}
        for line in lines:
            for x in line.hexes:
                touching.setdefault(x, []).append(line)
        ranked = []
        for x in tables.removable:
            colour = tables.houses[x]
            after = list(removed)
            after[colour] += 1
            new = game.buildings_after_ids(x)
            base = cubes_now[colour]
            for y, c, k in new:
                if y in mine:
                    base += k * after[c]
                if y in their_hexes:
                    base -= k * theirs[c]
            line = best_for_colour[colour]
            key = (base + line.value + line.by_colour[colour], line.reach, line.luck)
            for y in {y for y, _, _ in new if y not in mine}:
                for other in touching.get(y, ()):
                    extra = sum(k * after[c] for z, c, k in new if z in other.hexes)
                    value = base + other.value + other.by_colour[colour] + extra
                    candidate = (value, other.reach, other.luck)
                    if candidate > key:
                        key, line = candidate, other
            ranked.append(((*key, self.rng.random()), line, x))
        return ranked

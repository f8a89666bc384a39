"""The greedy bot: the move that most improves (own score - opponent's score) after it.

Trying every (line choice, house) pair with push/score/pop would cost ~300 x 50 full scorings
per turn. Instead the score change is split exactly into a part that depends only on the lines
(penalty change, existing buildings the lines newly reach), a part that depends only on the
house (its colour, the buildings it places and who they touch already) and a cross term that is
non-zero only for lines reaching a building this very removal places. So per colour the best
line is found once, and only lines near the new buildings are re-scored per house.

Ties (common early, when nothing is connected yet) go to the move whose lines touch the most new
intersections (room to grow, less for the opponent), then to the bot's seeded RNG. With
development goals in play the goal bonuses are added by exactly re-scoring the best move of each
house (push / score / pop on a copy).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from housing_lab.streetcar.moves import Move
from housing_lab.streetcar.play.seeded import SeededBot
from housing_lab.streetcar.scoring import breakdowns, connected_hexes, line_components

if TYPE_CHECKING:
    from housing_lab.streetcar.game import Game


class _Line(NamedTuple):
    edges: tuple[int, ...]
    value: int  # score change from the lines alone (existing buildings reached, penalty)
    by_colour: tuple[int, ...]  # cubes per colour newly reached (for the removed colour's +1)
    reach: int  # intersections touched for the first time (tie-break)
    luck: float  # seeded tie-break
    hexes: frozenset[int]  # hexes newly connected by these lines


class GreedyBot(SeededBot):
    """One-turn lookahead on (own score - opponent's score), exact for the standard rules."""

    name = "greedy"

    def choose(self, game: Game) -> Move:
        lines = self._lines(game)
        edges, hexes = game.board.edges, game.board.hexes
        if game.turn == 1:
            best = max(lines, key=lambda ln: (ln.value, ln.reach, ln.luck))
            return Move([edges[e] for e in best.edges])
        ranked = self._per_house(game, lines)
        if game.rules.goals:
            ranked = self._rescore(game, ranked)
        _, line, x = max(ranked, key=lambda item: item[0])
        return Move([edges[e] for e in line.edges], hexes[x])

    def _lines(self, game: Game) -> list[_Line]:
        """Every legal line choice with its lines-only score change.

        The per-line work is done once per intersection (the hexes it newly reaches) and set
        unions in C replace per-line generator loops: the search bot plays thousands of greedy
        turns per move in its rollouts.
        """
        board, p, tables = game.board, game.player_index, game.tables()
        vowner, bcol, bcubes = tables.vertex_owners, tables.building_colours, tables.building_cubes
        removed, penalty = tables.removed[p], game.rules.penalty
        mine = connected_hexes(game, p)
        label = line_components(game, p)
        vertex_line: dict[int, int] = {}
        ends_of = board.edge_vertices
        for e, who in enumerate(tables.edge_owners):
            if who == p:
                for v in ends_of[e]:
                    vertex_line[v] = label[e]
        empty: frozenset[int] = frozenset()
        vertex_hexes = board.vertex_hexes
        reach_of: dict[int, frozenset[int]] = {}  # fresh intersection -> hexes it newly reaches
        built = frozenset(x for x, c in enumerate(bcol) if c >= 0)
        rand = self.rng.random
        result = []
        for choice in game.line_choice_ids():
            if len(choice) == 2:
                a, b = ends_of[choice[0]]
                c, d = ends_of[choice[1]]
                ends = {a, b, c, d}
            elif choice:
                ends = set(ends_of[choice[0]])
            else:
                ends = set()
            reached = empty
            fresh = 0
            joined = set()
            for v in ends:
                if vowner[v] != p:
                    fresh += 1
                    hexes = reach_of.get(v)
                    if hexes is None:
                        hexes = reach_of[v] = frozenset(x for x in vertex_hexes[v] if x not in mine)
                    reached = reached | hexes
                if v in vertex_line:
                    joined.add(vertex_line[v])
            change = (1 if choice else 0) - len(joined)
            by_colour = [0, 0, 0, 0]
            value = -penalty * change
            for x in reached & built:
                by_colour[bcol[x]] += bcubes[x]
                value += removed[bcol[x]] * bcubes[x]
            result.append(_Line(choice, value, tuple(by_colour), fresh, rand(), reached))
        return result

    def _per_house(
        self, game: Game, lines: list[_Line]
    ) -> list[tuple[tuple[float, ...], _Line, int]]:
        """For each removable house, its best line choice and the (value, ties...) key.

        The lines touching a hex are listed only for the hexes where a removal would build.
        """
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
        builds = {x: game.buildings_after_ids(x) for x in tables.removable}
        wanted = {y for new in builds.values() for y, _, _ in new if y not in mine}
        touching: dict[int, list[_Line]] = {y: [] for y in wanted}
        if wanted:
            for line in lines:
                for x in line.hexes & wanted:
                    touching[x].append(line)
        ranked = []
        for x in tables.removable:
            colour = tables.houses[x]
            after = list(removed)
            after[colour] += 1
            new = builds[x]
            base = cubes_now[colour]
            for y, c, k in new:
                if y in mine:
                    base += k * after[c]
                if y in their_hexes:
                    base -= k * theirs[c]
            line = best_for_colour[colour]
            key = (base + line.value + line.by_colour[colour], line.reach, line.luck)
            for y in {y for y, _, _ in new if y not in mine}:
                for other in touching[y]:
                    extra = sum(k * after[c] for z, c, k in new if z in other.hexes)
                    value = base + other.value + other.by_colour[colour] + extra
                    candidate = (value, other.reach, other.luck)
                    if candidate > key:
                        key, line = candidate, other
            ranked.append(((*key, self.rng.random()), line, x))
        return ranked

    def _rescore(
        self, game: Game, ranked: list[tuple[tuple[float, ...], _Line, int]]
    ) -> list[tuple[tuple[float, ...], _Line, int]]:
        """Exact (own - opponent) after each house's best move, goal bonuses included."""
        trial, p = game.copy(), game.player_index
        edges, hexes = game.board.edges, game.board.hexes
        me, them = ("purple", "red") if p == 0 else ("red", "purple")
        result = []
        for key, line, x in ranked:
            trial.push(Move([edges[e] for e in line.edges], hexes[x]))
            items = breakdowns(trial)
            trial.pop()
            result.append(((items[me].total - items[them].total, *key[1:]), line, x))
        return result

    def ranked_moves(self, game: Game, limit: int | None = None) -> list[tuple[float, Move]]:
        """Moves best first with greedy's value, one per house (its best lines); turn 1: lines.

        The search bot (mcts.py) takes its candidate moves from here: greedy's exact one-turn
        value orders them and `limit` keeps the best few, so the tree never sees the ~300 x 40
        raw moves. The first entry is the move `choose` would play from the same RNG state.
        """
        lines = self._lines(game)
        edges, hexes = game.board.edges, game.board.hexes
        if game.turn == 1:
            keyed = sorted(lines, key=lambda ln: (ln.value, ln.reach, ln.luck), reverse=True)
            return [(ln.value, Move([edges[e] for e in ln.edges])) for ln in keyed[:limit]]
        ranked = self._per_house(game, lines)
        if game.rules.goals:
            ranked = self._rescore(game, ranked)
        ranked.sort(key=lambda item: item[0], reverse=True)
        return [
            (key[0], Move([edges[e] for e in line.edges], hexes[x]))
            for key, line, x in ranked[:limit]
        ]

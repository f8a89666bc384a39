"""Scoring (RULES.md part 2, Scoring): products per colour, line penalty, goals, tie-breaks.

A building counts for a player when any of its hex's six intersections touches that player's
line, once per player however many corners touch. A player's score is, per colour, houses of
that colour removed x connected cubes of that colour, minus the penalty per separate line, plus
any development-goal bonuses. Highest wins; then the best single-colour product; then shared.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from housing_lab.streetcar import goals as goal_rules
from housing_lab.streetcar.rules import COLOURS, PLAYERS

if TYPE_CHECKING:
    from housing_lab.streetcar.game import Game


@dataclass(frozen=True)
class ScoreBreakdown:
    """One player's score, itemised the way the rulebook's example adds it up."""

    player: str
    removed: dict[str, int]
    connected_cubes: dict[str, int]
    products: dict[str, int]
    lines: int
    penalty: int
    goals: dict[str, int]
    total: int

    @property
    def best_product(self) -> int:
        """The highest single-colour product: the first tie-break."""
        return max(self.products.values())

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready form (the widget's score table)."""
        return {
            "player": self.player,
            "removed": dict(self.removed),
            "connected_cubes": dict(self.connected_cubes),
            "products": dict(self.products),
            "lines": self.lines,
            "penalty": self.penalty,
            "goals": dict(self.goals),
            "best_product": self.best_product,
            "total": self.total,
        }


@dataclass(frozen=True)
class Outcome:
    """Who won and why: `decided_by` is "score", "best_product" or "shared"."""

    winners: tuple[str, ...]
    scores: dict[str, int]
    best_products: dict[str, int]
    decided_by: str
    explanation: str

    @property
    def winner(self) -> str | None:
        """The single winner, or None for a shared win."""
        return self.winners[0] if len(self.winners) == 1 else None


def connected_hexes(game: Game, p: int) -> set[int]:
    """Hexes with a corner on player `p`'s lines (the buildings among them are connected)."""
    board, owner = game.board, game.tables().vertex_owners
    found: set[int] = set()
    for v, who in enumerate(owner):
        if who == p:
            found.update(board.vertex_hexes[v])
    return found


def line_components(game: Game, p: int) -> dict[int, int]:
    """Label of the separate line each of player `p`'s edges belongs to (edge id -> label)."""
    owner, nbrs = game.tables().edge_owners, game.board.edge_neighbours
    label: dict[int, int] = {}
    mark = -1
    for start, who in enumerate(owner):
        if who != p or start in label:
            continue
        mark += 1
        label[start] = mark
        stack = [start]
        while stack:
            e = stack.pop()
            for f in nbrs[e]:
                if owner[f] == p and f not in label:
                    label[f] = mark
                    stack.append(f)
    return label


def line_count(game: Game, p: int) -> int:
    """Number of separate lines (connected components of the player's edges)."""
    return len(set(line_components(game, p).values()))


def breakdown(game: Game, p: int) -> ScoreBreakdown:
    """Player `p`'s itemised score as the position stands."""
    tables = game.tables()
    reach = connected_hexes(game, p)
    cubes = [0] * len(COLOURS)
    for x in reach:
        colour = tables.building_colours[x]
        if colour >= 0:
            cubes[colour] += tables.building_cubes[x]
    removed = tables.removed[p]
    products = [removed[c] * cubes[c] for c in range(len(COLOURS))]
    lines = line_count(game, p)
    penalty = lines * game.rules.penalty
    bonuses = goal_rules.bonuses(game, reach)
    total = sum(products) - penalty + sum(bonuses.values())
    return ScoreBreakdown(
        player=PLAYERS[p],
        removed=dict(zip(COLOURS, removed, strict=True)),
        connected_cubes=dict(zip(COLOURS, cubes, strict=True)),
        products=dict(zip(COLOURS, products, strict=True)),
        lines=lines,
        penalty=penalty,
        goals=bonuses,
        total=total,
    )


def breakdowns(game: Game) -> dict[str, ScoreBreakdown]:
    """Both players' itemised scores."""
    return {PLAYERS[p]: breakdown(game, p) for p in range(len(PLAYERS))}


def outcome(game: Game) -> Outcome:
    """Winners by score, then best single-colour product, else a shared win, with the reason."""
    items = breakdowns(game)
    scores = {name: item.total for name, item in items.items()}
    best = {name: item.best_product for name, item in items.items()}
    top = max(scores.values())
    leaders = [name for name in PLAYERS if scores[name] == top]
    if len(leaders) == 1:
        (name,) = leaders
        others = ", ".join(f"{n} {scores[n]}" for n in PLAYERS if n != name)
        return Outcome((name,), scores, best, "score", f"{name} wins {top} to {others}")
    top_best = max(best[name] for name in leaders)
    finalists = tuple(name for name in leaders if best[name] == top_best)
    if len(finalists) == 1:
        (name,) = finalists
        rest = ", ".join(f"{n} {best[n]}" for n in leaders if n != name)
        text = f"tied at {top}; {name} wins on the best single-colour product, {top_best} to {rest}"
        return Outcome(finalists, scores, best, "best_product", text)
    text = f"tied at {top} and on the best single-colour product ({top_best}): shared win"
    return Outcome(finalists, scores, best, "shared", text)

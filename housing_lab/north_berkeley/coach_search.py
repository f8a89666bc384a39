"""The coach's search: the fewest changes to a board (and its policies) that reach a card's goal.

The solver's board space (`solver_space.BoardSpace`) steps through the squares keeping only what
a question can see of the partial sums. The coach asks it one more thing: how many squares
differ from the board as it stands. That count is one more feature (1 on every (square, tile)
that is not the square's current tile, the empty square included), kept exactly in the state, so
each state of the last layer is "boards with these sums and this many changed squares", with the
least spending of them. Policies are not searched square by square: each of the 16 policy sets
is scored on the final states, adding how many policies it enacts or repeals.

Why the least spending is enough: every card's score is non-increasing in spending when its other
facts are fixed (`solver_search._least_cost`), so among the boards of a state the cheapest reaches
a goal if any does, and it is also the answer the tie rule wants.

The tie order (docs/coach.md): among the answers with the fewest changes and then the lowest
spending, the one whose first change comes earliest: squares in layout order (A1, B1, C1, A2,
...), then policies in `POLICIES` order; at the same square the tile that comes first in the
catalogue, the empty square last. The space steps through the squares in reverse layout order,
so walking back from the final states decides A1 first: at each square the best tile that still
leads to an answer is taken, which gives exactly that order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from housing_lab.north_berkeley.batch import (
    ALL_POLICY_SETS,
    FEATURES,
    BatchEvaluator,
    policy_mask,
)
from housing_lab.north_berkeley.batch_boards import Boards
from housing_lab.north_berkeley.card_rules import CARD_IDS
from housing_lab.north_berkeley.policies import (
    INCOMES,
    MATCHING_FUNDS_LOW_HOMES,
    POLICIES,
    RuleOptions,
)
from housing_lab.north_berkeley.scenario import tile_allowed
from housing_lab.north_berkeley.solver_atoms import card_atoms, merge
from housing_lab.north_berkeley.solver_search import (
    resident_placement,
    search_groups,
    state_card_scores,
)
from housing_lab.north_berkeley.solver_space import BoardSpace, Group

Array = np.ndarray
CHANGES = "changes"  # the extra feature: squares that differ from the board as it stands
GOALS = ("win", "no-loss")
UNCHANGED_RANK = 1 << 8  # in the tie order, keeping a square comes after every change to it


class ReadingOrderSpace(BoardSpace):
    """A board space stepping through the squares in reverse layout order (C3 first, A1 last),
    so that walking back from the end decides A1 first (the tie order)."""

    def _order(self) -> list[int]:
        return list(range(len(self.parts)))[::-1]


@dataclass(frozen=True)
class Question:
    """One coach question, as the search needs it (hashable: spaces are cached per question).

    `current`: tile code per square (the evaluator's `empty` for an empty square);
    `existing`: income code (`INCOMES` order) of who lives in each existing home."""

    card: str
    goal: str
    current: tuple[int, ...]
    policies: frozenset[str]
    existing: tuple[int, ...]
    low_income_in_adus: bool

    def placement(self, evaluator: BatchEvaluator) -> tuple[int, int, int, int]:
        return resident_placement(
            evaluator, tuple(zip(evaluator.homes, (INCOMES[c] for c in self.existing), strict=True))
        )


@dataclass(frozen=True)
class Found:
    """The answer of the search: tile code per square, the policy set, the number of changes
    and the spending (1/scale dollars); None fields when no board reaches the goal."""

    tiles: tuple[int, ...] | None
    policies: frozenset[str] | None
    changes: int | None
    spending: int | None


def reaches(scores: Array, goal: str) -> Array:
    """Whether card scores (-1, 0, +1) meet `goal`: "win" is +1, "no-loss" is at least 0."""
    return scores == 1 if goal == "win" else scores >= 0


def policy_changes(policies: frozenset[str], current: frozenset[str]) -> int:
    """Policies enacted or repealed to go from `current` to `policies`."""
    return len(policies ^ current)


def _atoms(card: str) -> tuple:
    """What the states keep apart: the card's atoms, and whether matching funds would halve the
    housing (7 low income homes); not spending (each state keeps its least)."""
    merged = merge([card_atoms(card), {"new_low": (MATCHING_FUNDS_LOW_HOMES,)}])
    merged.pop("spending", None)
    return tuple(sorted(merged.items()))


def _allowed(evaluator: BatchEvaluator, policies: frozenset[str]) -> tuple[tuple[int, ...], ...]:
    """Tile codes allowed on each square under `policies` (the empty square always is)."""
    layout, catalogue = evaluator.layout, evaluator.catalogue
    return tuple(
        (
            *(
                t
                for t, tile in enumerate(evaluator.tile_ids)
                if tile_allowed(catalogue[tile], policies, layout.phase_of(square))
            ),
            evaluator.empty,
        )
        for square in evaluator.squares
    )


def _spaces(
    evaluator: BatchEvaluator,
) -> dict[tuple[tuple[int, ...], ...], tuple[frozenset[str], ...]]:
    """The 16 policy sets grouped by the tiles they allow (one board space per group)."""
    spaces: dict[tuple[tuple[int, ...], ...], tuple[frozenset[str], ...]] = {}
    for policies in ALL_POLICY_SETS:
        allowed = _allowed(evaluator, policies)
        spaces[allowed] = (*spaces.get(allowed, ()), policies)
    return spaces


def _tables(evaluator: BatchEvaluator, current: tuple[int, ...]) -> tuple[Array, Array]:
    """Each (square, tile)'s features with the `CHANGES` column, and its costs (whole, and
    with matching funds halving housing) in 1/scale dollars."""
    tiles = evaluator.features.shape[1]
    changed = (np.arange(tiles)[None, :] != np.array(current)[:, None]).astype(np.int64)
    contributions = np.concatenate([evaluator.features, changed[:, :, None]], axis=2)
    housing = evaluator.features[:, :, FEATURES.index("housing_cost")]
    other = evaluator.features[:, :, FEATURES.index("other_cost")]
    costs = np.stack([2 * (housing + other), housing + 2 * other], axis=2)
    return contributions, costs


@lru_cache(maxsize=64)
def _built(
    evaluator: BatchEvaluator,
    question: Question,
    allowed: tuple[tuple[int, ...], ...],
    sharing: tuple[frozenset[str], ...],
) -> BoardSpace:
    """Every board of `allowed` reduced to what the card sees and how many squares changed."""
    groups = search_groups(
        evaluator,
        dict(_atoms(question.card)),
        sharing,
        question.placement(evaluator),
        question.low_income_in_adus,
    )
    contributions, costs = _tables(evaluator, question.current)
    space = ReadingOrderSpace(
        contributions, (*FEATURES, CHANGES), costs, allowed, [*groups, Group((CHANGES,))]
    )
    return space.built()


@dataclass
class _Scored:
    """One policy set's final states: whether the goal is met, changes in all, spending and
    which cost column (housing halved or not) that spending is."""

    policies: frozenset[str]
    space: BoardSpace
    keys: Array
    ok: Array
    changes: Array
    spending: Array
    column: Array


def _scored(evaluator: BatchEvaluator, question: Question) -> list[_Scored]:
    out = []
    for allowed, sharing in _spaces(evaluator).items():
        space = _built(evaluator, question, allowed, sharing)
        keys, costs = space.final
        values = space.decode(keys)
        for policies in sharing:
            scores, spending, halved, _ = state_card_scores(
                evaluator,
                (question.card,),
                values,
                costs,
                policies,
                question.placement(evaluator),
                question.low_income_in_adus,
            )
            out.append(
                _Scored(
                    policies,
                    space,
                    keys,
                    reaches(scores[:, 0], question.goal),
                    values[CHANGES] + policy_changes(policies, question.policies),
                    spending,
                    halved.astype(np.int64),
                )
            )
    return out


def search(evaluator: BatchEvaluator, question: Question) -> Found:
    """The fewest changes (then the least spending, then the tie order) reaching the goal."""
    scored = _scored(evaluator, question)
    best: tuple[int, int] | None = None
    for part in scored:
        if part.ok.any():
            fewest = int(part.changes[part.ok].min())
            cheapest = int(part.spending[part.ok & (part.changes == fewest)].min())
            if best is None or (fewest, cheapest) < best:
                best = (fewest, cheapest)
    if best is None:
        return Found(None, None, None, None)
    # per board space, the final states of every answer; the first board in the tie order
    by_space: dict[int, tuple[BoardSpace, list[tuple[Array, Array]]]] = {}
    for part in scored:
        hit = part.ok & (part.changes == best[0]) & (part.spending == best[1])
        if hit.any():
            entry = by_space.setdefault(id(part.space), (part.space, []))
            entry[1].append((part.keys[hit], part.column[hit]))
    ranks = tie_ranks(evaluator, question.current)
    boards = [walk_back(space, targets, ranks) for space, targets in by_space.values()]
    board = min(boards, key=lambda b: [ranks[s][t] for s, t in enumerate(b)])
    return Found(tuple(board), _first_policy_set(evaluator, question, board, best), *best)


def _first_policy_set(
    evaluator: BatchEvaluator, question: Question, board: list[int], best: tuple[int, int]
) -> frozenset[str]:
    """The first policy set (tie order) under which `board` answers: the goal met with the
    fewest changes and the least spending (the batch evaluator scores the board under all)."""
    board_changes = sum(t != c for t, c in zip(board, question.current, strict=True))
    sets = [
        p
        for p in ALL_POLICY_SETS
        if board_changes + policy_changes(p, question.policies) == best[0]
        and all(t in a for t, a in zip(board, _allowed(evaluator, p), strict=True))
    ]
    n = len(sets)
    result = evaluator.evaluate(
        Boards(
            np.array([board] * n, dtype=np.uint8).reshape(n, len(board)),
            np.array([policy_mask(p) for p in sets], dtype=np.uint8),
            np.array([question.existing] * n, dtype=np.uint8).reshape(n, len(question.existing)),
        ),
        RuleOptions(low_income_in_adus=question.low_income_in_adus),
    )
    column = CARD_IDS.index(question.card)
    good = reaches(result.scores[:, column], question.goal) & (result.spending_units == best[1])
    answers = [p for p, ok in zip(sets, good.tolist(), strict=True) if ok]
    if not answers:  # pragma: no cover - the search and the batch evaluator disagree: a bug
        raise RuntimeError(f"no policy set answers with board {board}")
    return min(answers, key=lambda p: policy_key(p, question.policies))


def policy_key(policies: frozenset[str], current: frozenset[str]) -> list[int]:
    """A policy set's place in the tie order: per policy (POLICIES order), 0 when it changes
    (the earliest change comes first), 1 when it stays."""
    return [0 if (p in policies) != (p in current) else 1 for p in POLICIES]


def tie_ranks(evaluator: BatchEvaluator, current: tuple[int, ...]) -> list[Array]:
    """Per square, the rank of each tile code in the tie order: catalogue order, the empty
    square last, and keeping the square's current tile after every change."""
    ranks = []
    for code in current:
        rank = np.arange(evaluator.empty + 1, dtype=np.int64)
        rank[code] = UNCHANGED_RANK
        ranks.append(rank)
    return ranks


def walk_back(
    space: BoardSpace, targets: Sequence[tuple[Array, Array]], ranks: Sequence[Array]
) -> list[int]:
    """The first board in the tie order among those reaching any target (final state, cost
    column) at that state's least cost. Walking back from the last square (A1 in a
    `ReadingOrderSpace`), each square takes the best-ranked tile that some target still
    leads through; the states it leads from are the next frontier."""
    frontier = (
        np.concatenate([k for k, _ in targets]),
        np.concatenate([c for _, c in targets]),
    )
    tiles: dict[int, int] = {}
    for depth in range(len(space.order), 0, -1):
        square = space.order[depth - 1]
        before_keys, before_costs = space.layers[depth - 1]
        after_keys, after_costs = space.layers[depth]
        stepped = space.advance(depth - 1, before_keys)  # (states, tiles)
        where = np.searchsorted(after_keys, stepped)
        found_rows, found_tiles, found_columns = [], [], []
        for column in np.unique(frontier[1]).tolist():
            wanted = np.unique(frontier[0][frontier[1] == column])
            at = np.clip(np.searchsorted(wanted, stepped), 0, len(wanted) - 1)
            cost = before_costs[:, column][:, None] + space.costs[square][:, column][None, :]
            hit = (wanted[at] == stepped) & (cost == after_costs[where, column])
            rows, positions = np.nonzero(hit)
            found_rows.append(rows)
            found_tiles.append(positions)
            found_columns.append(np.full(len(rows), column))
        rows = np.concatenate(found_rows)
        positions = np.concatenate(found_tiles)
        columns = np.concatenate(found_columns)
        codes = space.allowed[square][positions]
        rank = ranks[square][codes]
        first = rank == rank.min()
        tiles[square] = int(codes[first][0])
        frontier = (before_keys[rows[first]], columns[first])
    return [tiles[s] for s in range(len(space.order))]

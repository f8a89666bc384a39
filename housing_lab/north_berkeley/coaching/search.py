"""The coach's search: the fewest changes to a board (and its policies) that reach a card's goal.

The solver's board space (`solver.space.BoardSpace`) steps through the squares keeping only what
a question can see of the partial sums, each state with the least cost of the boards reaching it.
The coach keeps in the state everything the card sees (spending through the card's thresholds
too) and makes the cost "changes, then spending": changes x `unit` + spending, where a change is
a square that differs from the board as it stands (the empty square is a value like any tile).
All boards of a state score the same for the card, so the state's least cost is the best answer
among them, and the best final state over all policy sets is the best answer of all. Policies
are not searched square by square: each of the 16 policy sets scores the final states, adding
the policies it enacts or repeals to the changes.

`affordable_100` is the engine's `tile_allowed`: a feature counts the tiles it refuses on the
squares it restricts (`violations`), its states are kept apart only as none / some, and a policy
set with `affordable_100` accepts only final states with none.

What the state sees does not depend on the board as it stands, only the costs do: the space is
built once per card and placement of residents (`_base`, cached) and each question only steps its
own costs through it (`BoardSpace.with_costs`, `built`).

Tie order (docs/coach.md): among the answers with the fewest changes and then the lowest
spending, the one whose first change comes earliest: squares in layout order (A1, B1, C1, A2,
...), then policies in `POLICIES` order; at one square the tile that comes first in the
catalogue, then the empty square. The space steps through the squares in reverse layout order,
so walking back from the final states decides A1 first: each square takes the best tile through
which some answer still leads (`walk_back`), which is exactly that order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from housing_lab.north_berkeley.batch import encoding
from housing_lab.north_berkeley.batch.arrays import ArrayFacts, card_scores
from housing_lab.north_berkeley.batch.boards import Boards
from housing_lab.north_berkeley.batch.evaluator import (
    ALL_POLICY_SETS,
    FEATURES,
    BatchEvaluator,
    policies_of,
    policy_mask,
)
from housing_lab.north_berkeley.coaching.candidates import (
    ChangeSets,
    change_sets,
    first_in_order,
)
from housing_lab.north_berkeley.engine.card_rules import CARD_IDS
from housing_lab.north_berkeley.model import RULEBOOK, Model
from housing_lab.north_berkeley.policies import (
    ADU,
    AFFORDABLE_100,
    INCOMES,
    MATCHING_FUNDS,
    POLICIES,
    VACANCY_CONTROL,
    RuleOptions,
)
from housing_lab.north_berkeley.solver.atoms import NEW_HOMES_GROUP_FACTS, card_atoms, merge
from housing_lab.north_berkeley.solver.search import (
    budget_limit,
    resident_placement,
    search_groups,
    state_card_scores,
)
from housing_lab.north_berkeley.solver.space import BoardSpace, Group

Array = np.ndarray
VIOLATIONS = "violations"  # tiles `affordable_100` would refuse where they stand
GOALS = ("win", "no-loss")
# The move-in reads two policies (`solver.search.move_in`: ADU slots, vacancy control), and
# spending one more (matching funds): one policy set of each kind tells the states apart as all
# 16 would (the brute-force tests check the answers), in a quarter of the time.
SIGNATURE_POLICY_SETS = tuple(
    frozenset({MATCHING_FUNDS, *p})
    for p in ((), (ADU,), (VACANCY_CONTROL,), (ADU, VACANCY_CONTROL))
)
UNCHANGED_RANK = 1 << 8  # in the tie order, keeping a square comes after every change to it
ENUMERATED = 2  # sets of at most this many changes are scored one by one before searching
FIRST_PASS = 3  # the search first keeps only boards at most this many squares away
SPLIT_COUNTS = ("new_market", "new_middle", "new_low", "new_total")


@dataclass(frozen=True)
class Question:
    """One coach question, as the search needs it (hashable, for the caches).

    `current`: tile code per square (the evaluator's `empty` for an empty square);
    `existing`: income code (`INCOMES` order) of who lives in each existing home."""

    card: str
    goal: str
    current: tuple[int, ...]
    policies: frozenset[str]
    existing: tuple[int, ...]
    low_income_in_adus: bool = False
    model: Model = RULEBOOK  # the scenario's switches: the move-in, and the budget as a limit

    def placement(self, evaluator: BatchEvaluator) -> tuple[int, int, int, int]:
        """Low and middle income residents in houses, then in apartments."""
        homes = zip(evaluator.homes, (INCOMES[c] for c in self.existing), strict=True)
        return resident_placement(evaluator, tuple(homes))


@dataclass(frozen=True)
class Found:
    """What the search found: tile code per square, the policy set, the number of changes and
    the spending after them (1/scale dollars). All None when no board reaches the goal."""

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


def policy_key(policies: frozenset[str], current: frozenset[str]) -> list[int]:
    """A policy set's place in the tie order: per policy (`POLICIES` order) 0 when it changes
    (the earliest change comes first), 1 when it stays."""
    return [0 if (p in policies) != (p in current) else 1 for p in POLICIES]


def tie_ranks(evaluator: BatchEvaluator, current: Sequence[int]) -> list[Array]:
    """Per square, each tile code's rank in the tie order: catalogue order, the empty square
    last, and keeping the square as it is after every change to it."""
    ranks = []
    for code in current:
        rank = np.arange(evaluator.empty + 1, dtype=np.int64)
        rank[code] = UNCHANGED_RANK
        ranks.append(rank)
    return ranks


def allowed_codes(
    evaluator: BatchEvaluator, policies: frozenset[str]
) -> tuple[tuple[int, ...], ...]:
    """Tile codes allowed on each square under `policies` (the empty square always is)."""
    return encoding.allowed_codes(evaluator.layout, evaluator.catalogue, policies, empty=True)


def _atoms(card: str, model: Model = RULEBOOK) -> tuple:
    """What the states keep apart: the card's atoms (spending through its thresholds), and
    whether matching funds would halve the housing (7 low income homes); under a city budget,
    spending over it too, so that every board of a state is within the budget or none is (a
    state's least cost is then the best answer among boards within it)."""
    specs = [card_atoms(card), encoding.HALVING_ATOMS]
    budget = model.city_budget()
    if budget is not None:
        specs.append({"spending": ((budget, True),)})  # "over the budget"
    merged = merge(specs)
    return tuple(sorted(merged.items()))


def _violations(evaluator: BatchEvaluator) -> Array:
    """(squares, tiles + 1): 1 where `affordable_100` refuses the tile on the square."""
    return encoding.refused_table(evaluator.layout, evaluator.catalogue).astype(np.int64)


def _some(values: Array) -> Array:
    return (values > 0).astype(np.int64)


def _spending(evaluator: BatchEvaluator) -> Array:
    """(squares, tiles + 1, 2) spending in 1/scale dollars: whole, and with matching funds
    halving the housing."""
    housing = evaluator.features[:, :, FEATURES.index("housing_cost")]
    other = evaluator.features[:, :, FEATURES.index("other_cost")]
    return np.stack([2 * (housing + other), housing + 2 * other], axis=2)


def cost_unit(evaluator: BatchEvaluator) -> int:
    """One change in the cost: more than any board's spending, so changes count first."""
    return int(_spending(evaluator)[:, :, 0].max(axis=1).sum()) + 1


def _costs(evaluator: BatchEvaluator, current: Sequence[int] | None) -> Array:
    """Changes x `cost_unit` + spending, per (square, tile) and cost column. `current` None:
    every tile counts as a change (the largest costs, which fix the width of a cost)."""
    tiles = evaluator.empty + 1
    if current is None:
        changed = np.ones((len(evaluator.squares), tiles), dtype=np.int64)
    else:
        changed = (np.arange(tiles)[None, :] != np.array(current)[:, None]).astype(np.int64)
    return changed[:, :, None] * cost_unit(evaluator) + _spending(evaluator)


def _split_counts(atoms: dict) -> tuple[str, ...]:
    """The new-home counts a card reads on their own (`SPLIT_COUNTS`) when it reads nothing
    else of them (no move-in, no relation): each can then be a group of its own, merged by its
    thresholds, instead of the three counts together (the solver's group, which the move-in
    needs); () otherwise."""
    reads = [f for f in atoms if f in NEW_HOMES_GROUP_FACTS]
    return tuple(reads) if set(reads) <= set(SPLIT_COUNTS) else ()


def _threshold_group(fact: str, spec: tuple | None) -> Group:
    if spec is None:
        return Group((fact,))
    cuts = np.array(spec)

    def signature(values: Array) -> Array:
        return np.searchsorted(cuts, values[:, :1], side="right")

    return Group((fact,), signature)


@lru_cache(maxsize=32)
def _base(
    evaluator: BatchEvaluator,
    card: str,
    placement: tuple[int, int, int, int],
    low_income_in_adus: bool,
    model: Model = RULEBOOK,
) -> BoardSpace:
    """Every board (any tile or none on every square) reduced to what `card` sees under every
    policy set (under `model`'s switches), and whether `affordable_100` refuses a tile; layers
    not built (cached: only the costs depend on the board as it stands)."""
    atoms = dict(_atoms(card, model))
    split = _split_counts(atoms)
    groups = [_threshold_group(f, atoms.pop(f)) for f in split]
    groups += search_groups(
        evaluator, atoms, SIGNATURE_POLICY_SETS, placement, low_income_in_adus, model
    )
    homes = evaluator.features[
        :, :, [FEATURES.index(f) for f in ("new_market", "new_middle", "new_low")]
    ]
    contributions = np.concatenate(
        [evaluator.features, homes.sum(axis=2, keepdims=True), _violations(evaluator)[:, :, None]],
        axis=2,
    )
    every = tuple(tuple(range(evaluator.empty + 1)) for _ in evaluator.squares)
    return BoardSpace(
        contributions,
        (*FEATURES, "new_total", VIOLATIONS),
        _costs(evaluator, None),
        every,
        [*groups, Group((VIOLATIONS,), _some)],
        order=range(len(evaluator.squares))[::-1],  # C3 first, A1 last: A1 decided first
    )


def clear_cache() -> None:
    """Forget the cached board spaces and scored change sets (benchmarks time from scratch;
    tests that change a card's declaration start afresh)."""
    _base.cache_clear()
    scored_change_sets.cache_clear()
    search.cache_clear()


@dataclass
class _Scored:
    """One policy set's final states: goal met (and allowed), cost (changes x unit +
    spending, policy changes included) and which cost column (housing halved or not)."""

    policies: frozenset[str]
    ok: Array
    cost: Array
    column: Array


def _scored(evaluator: BatchEvaluator, question: Question, space: BoardSpace) -> list[_Scored]:
    keys, costs = space.final
    unit = cost_unit(evaluator)
    values = space.decode(keys)
    allowed = values[VIOLATIONS] == 0
    placement = question.placement(evaluator)
    limit = budget_limit(evaluator, question.model)
    out = []
    split = "new_market" not in values or "new_middle" not in values
    for policies in ALL_POLICY_SETS:
        # spending: the card reads it through its thresholds, kept in the state
        if split:
            scores, halved = _split_scores(evaluator, question.card, values, costs % unit, policies)
        else:
            scores, _, halved, _ = state_card_scores(
                evaluator,
                (question.card,),
                values,
                costs % unit,
                policies,
                placement,
                question.low_income_in_adus,
                question.model,
            )
        ok = reaches(scores[:, 0], question.goal)
        if AFFORDABLE_100 in policies:
            ok &= allowed
        column = halved.astype(np.int64)
        cost = np.where(halved, costs[:, -1], costs[:, 0])
        if limit is not None:  # a change that breaks the budget is never an answer
            ok &= cost % unit <= limit
        extra = policy_changes(policies, question.policies) * unit
        out.append(_Scored(policies, ok, cost + extra, column))
    return out


def _split_scores(
    evaluator: BatchEvaluator,
    card: str,
    values: dict[str, Array],
    costs: Array,
    policies: frozenset[str],
) -> tuple[Array, Array]:
    """Card scores (n, 1) and whether housing was halved, for states whose new-home counts
    are split (`_split_counts`): no move-in is needed, the counts are facts as they stand."""
    n = len(costs)
    halve = encoding.halved(policies, values["new_low"])
    facts = ArrayFacts(
        scale=evaluator.scale,
        spending=np.where(halve, costs[:, -1], costs[:, 0]),
        vacancy_control=np.full(n, VACANCY_CONTROL in policies),
    )
    for name, value in values.items():
        if name in ArrayFacts.__dataclass_fields__ and name != "scale":
            setattr(facts, name, value)
    plus, minus = card_scores(facts, (card,))
    return plus.astype(np.int64) - minus, halve


@lru_cache(maxsize=256)
def search(evaluator: BatchEvaluator, question: Question, enumerated: int = ENUMERATED) -> Found:
    """The fewest changes (then the least spending, then the tie order) reaching the goal:
    every set of at most `enumerated` changes is scored first
    (`coaching.candidates.change_sets`), the board space is searched only when none of them
    answers. Answers are cached (a widget asking
    again after an undo gets its answer at once)."""
    if enumerated >= 0:
        found = _enumerated(evaluator, question, enumerated)
        if found is not None:
            return found
    return searched(evaluator, question)


@lru_cache(maxsize=16)
def scored_change_sets(
    evaluator: BatchEvaluator,
    current: tuple[int, ...],
    policies: frozenset[str],
    existing: tuple[int, ...],
    low_income_in_adus: bool,
    most: int,
    model: Model = RULEBOOK,
) -> tuple[ChangeSets, Array, Array]:
    """Every set of at most `most` changes, with every card's score (under `model`) and the
    spending (cached: the coach's questions on one board, every card and the hand's, share
    them). Sets that break the model's budget are left out: they are never suggested."""
    sets = change_sets(evaluator, current, policies, existing, most, UNCHANGED_RANK)
    options = RuleOptions(low_income_in_adus=low_income_in_adus)
    evaluated = evaluator.evaluate(sets.boards, options, model=model)
    scores, spending = evaluated.scores, evaluated.spending_units
    limit = budget_limit(evaluator, model)
    if limit is not None:
        within = spending <= limit
        sets = ChangeSets(sets.boards.take(within), sets.changes[within], sets.order[within])
        scores, spending = scores[within], spending[within]
    return sets, scores, spending


def _enumerated(evaluator: BatchEvaluator, question: Question, most: int) -> Found | None:
    sets, scores, spending = scored_change_sets(
        evaluator,
        question.current,
        question.policies,
        question.existing,
        question.low_income_in_adus,
        most,
        question.model,
    )
    ok = reaches(scores[:, CARD_IDS.index(question.card)], question.goal)
    first = first_in_order(ok, sets.changes, spending, sets.order)
    if first is None:
        return None
    return Found(
        tuple(sets.boards.tiles[first].tolist()),
        frozenset(policies_of(int(sets.boards.policies[first]))),
        int(sets.changes[first]),
        int(spending[first]),
    )


def searched(evaluator: BatchEvaluator, question: Question) -> Found:
    """The answer found by searching the board space (every number of changes).

    A first pass keeps only states at most `FIRST_PASS` squares away from the board (most
    answers beyond the enumeration need that few, and the pass is several times smaller); when
    it finds no answer of at most that many changes, a second pass keeps every state. Either
    pass is exact for what it keeps: a board's partial states are never further away than the
    board itself, so every board within reach passes through kept states only."""
    base = _base(
        evaluator,
        question.card,
        question.placement(evaluator),
        question.low_income_in_adus,
        question.model,
    )
    costed = base.with_costs(_costs(evaluator, question.current))
    unit = cost_unit(evaluator)
    for most in (FIRST_PASS, None):
        if most is None:
            space = costed.built()
        else:
            space = costed.built(lambda _s, _d, _k, costs, most=most: costs[:, 0] // unit <= most)
        scored = _scored(evaluator, question, space)
        least = min((int(p.cost[p.ok].min()) for p in scored if p.ok.any()), default=None)
        if least is not None and (most is None or least // unit <= most):
            break
    if least is None:
        return Found(None, None, None, None)
    keys = space.final[0]
    targets = [
        (keys[hit], p.column[hit]) for p in scored if (hit := p.ok & (p.cost == least)).any()
    ]
    ranks = tie_ranks(evaluator, question.current)
    board = walk_back(space, targets, ranks)
    changes, spending = divmod(least, unit)
    policies = _first_policy_set(evaluator, question, board, changes, spending)
    return Found(tuple(board), policies, changes, spending)


def _first_policy_set(
    evaluator: BatchEvaluator, question: Question, board: list[int], changes: int, spending: int
) -> frozenset[str]:
    """The first policy set (tie order) under which `board` answers: the goal met with
    `changes` changes in all at `spending` (the batch evaluator scores the board under each)."""
    board_changes = sum(t != c for t, c in zip(board, question.current, strict=True))
    sets = [
        p
        for p in ALL_POLICY_SETS
        if board_changes + policy_changes(p, question.policies) == changes
        and all(t in a for t, a in zip(board, allowed_codes(evaluator, p), strict=True))
    ]
    n = len(sets)
    result = evaluator.evaluate(
        Boards(
            np.array([board] * n, dtype=np.uint8).reshape(n, len(board)),
            np.array([policy_mask(p) for p in sets], dtype=np.uint8),
            np.array([question.existing] * n, dtype=np.uint8).reshape(n, -1),
        ),
        RuleOptions(low_income_in_adus=question.low_income_in_adus),
        model=question.model,
    )
    column = CARD_IDS.index(question.card)
    good = reaches(result.scores[:, column], question.goal) & (result.spending_units == spending)
    answers = [p for p, ok in zip(sets, good.tolist(), strict=True) if ok]
    if not answers:  # pragma: no cover - the search and the batch evaluator disagree: a bug
        raise RuntimeError(f"no policy set answers {question} with board {board}")
    return min(answers, key=lambda p: policy_key(p, question.policies))


def walk_back(
    space: BoardSpace, targets: Sequence[tuple[Array, Array]], ranks: Sequence[Array]
) -> list[int]:
    """The first board in the tie order among those reaching a target (final state, cost
    column) at its least cost. Walking back from the last square stepped (A1 in the
    coach's space), each square takes the best-ranked tile through which some target is still
    reached; the states it comes from are the next frontier. (A board reaching a state at its
    least cost reaches every earlier state on its way at that state's least cost too.)"""
    frontier_keys = np.concatenate([k for k, _ in targets])
    frontier_columns = np.concatenate([c for _, c in targets])
    tiles: dict[int, int] = {}
    for depth in range(len(space.order), 0, -1):
        square = space.order[depth - 1]
        before_keys, before_costs = space.layers[depth - 1]
        after_keys, after_costs = space.layers[depth]
        stepped = space.advance(depth - 1, before_keys)  # (states, tiles)
        where = np.minimum(np.searchsorted(after_keys, stepped), len(after_keys) - 1)
        kept = after_keys[where] == stepped  # (a pass may have dropped states)
        rows, positions, columns = [], [], []
        for column in np.unique(frontier_columns).tolist():
            wanted = np.unique(frontier_keys[frontier_columns == column])
            at = np.minimum(np.searchsorted(wanted, stepped), len(wanted) - 1)
            cost = before_costs[:, column][:, None] + space.costs[square][:, column][None, :]
            hit = kept & (wanted[at] == stepped) & (cost == after_costs[where, column])
            found = np.nonzero(hit)
            rows.append(found[0])
            positions.append(found[1])
            columns.append(np.full(len(found[0]), column))
        row, position = np.concatenate(rows), np.concatenate(positions)
        codes = space.allowed[square][position]
        rank = ranks[square][codes]
        first = rank == rank.min()
        tiles[square] = int(codes[first][0])
        frontier_keys = before_keys[row[first]]
        frontier_columns = np.concatenate(columns)[first]
    return [tiles[s] for s in range(len(space.order))]

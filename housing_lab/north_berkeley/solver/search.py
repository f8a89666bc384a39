"""The solver's search: reduce every board to what a coalition's cards can see, and score it.

No card needs the board itself: each reads a few sums (homes by type, spending, garages, homes on
Greenway squares, ...) through thresholds (`solver.atoms`), and the move-in depends only on the
numbers of new homes by type and on who lives where. The search builds one `BoardSpace` per set
of allowed tiles (`scenario.tile_allowed`: `affordable_100` limits phase-2 squares), whose groups'
signatures are those atoms under every candidate policy set, then scores its final states for
each policy set with the batch card check (`batch.arrays`), the same code the batch evaluator
uses.

Each question (`goal`) may search less: states score at their least cost when no card can
prefer a dearer board (`_least_cost`), and the last layers of large searches drop states whose
bounds (`solver.bound`) show no completion can matter (`_keep`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from housing_lab.north_berkeley.batch.arrays import (
    ArrayFacts,
    MoveInCounts,
    card_scores,
)
from housing_lab.north_berkeley.batch.arrays import move_in_counts as _move_in_counts
from housing_lab.north_berkeley.batch.encoding import (
    HALVING_ATOMS,
    allowed_codes,
    cost_columns,
    halved,
    may_halve,
    set_move_in_inputs,
)
from housing_lab.north_berkeley.batch.evaluator import FEATURES, BatchEvaluator
from housing_lab.north_berkeley.engine.card_rules import card_facts
from housing_lab.north_berkeley.model import RULEBOOK, Model
from housing_lab.north_berkeley.policies import VACANCY_CONTROL
from housing_lab.north_berkeley.solver.atoms import (
    NEW_HOMES_GROUP_FACTS,
    POLICY_DEPENDENT,
    Spec,
    card_atoms,
    merge,
    spending_thresholds,
)
from housing_lab.north_berkeley.solver.bound import Bounds
from housing_lab.north_berkeley.solver.facts import (
    NEW_HOMES,
    SPENDING,
    MoveIn,
    atom_classes,
    group_facts,
    group_of,
    single_groups,
)
from housing_lab.north_berkeley.solver.inputs import Problem
from housing_lab.north_berkeley.solver.space import BoardSpace, Group, Prune, across

Array = np.ndarray
Atoms = tuple[tuple[str, Spec], ...]


def _atoms(problem: Problem, pareto: bool, least_cost: bool = False) -> Atoms:
    """What the states keep apart. `least_cost`: not spending (see `_least_cost`)."""
    specs = [card_atoms(card) for card in problem.cards]
    if pareto:
        specs.append({"housed_low": None})
    if may_halve(problem.policy_sets):
        specs.append(HALVING_ATOMS)
    merged = merge(specs)
    if least_cost:
        merged.pop("spending", None)
    return tuple(sorted(merged.items()))


def _least_cost(problem: Problem, goal: str | None) -> bool:
    """Whether the states may forget spending and score each at its least cost.

    Every card's score is non-increasing in spending when its other facts are fixed (spending
    appears only as "below x" in a +1 and "over x" in a -1: `test_cards_never_prefer_spending`).
    So among the boards of a state, the cheapest gives every card its best score: it has the
    highest total when no weight is negative, it keeps every card >= 0 if any board does, and
    it is the cheapest for its low income housed. The state's least cost (kept per cost kind)
    is then the only spending that can matter."""
    if goal == "pareto":
        return True
    return goal in ("best", "nonnegative") and all(w >= 0 for w in problem.weights)


def resident_placement(
    evaluator: BatchEvaluator, existing: tuple[tuple[str, str], ...]
) -> tuple[int, int, int, int]:
    """Low and middle income residents in houses, then in apartments."""
    where = dict(existing)
    return tuple(
        sum(where[h] == income for h in homes)  # type: ignore[return-value]
        for homes in (evaluator.layout.houses, evaluator.layout.apartments)
        for income in ("low", "middle")
    )


def move_in(
    evaluator: BatchEvaluator,
    market: Array,
    middle: Array,
    low: Array,
    policies: frozenset[str],
    placement: tuple[int, int, int, int],
    low_income_in_adus: bool,
    model: Model = RULEBOOK,
) -> MoveInCounts:
    """The batch move-in of new-home counts under `policies` and the `model`'s switches
    (newcomers, who may take a new market home, which homes vacancy control covers): the same
    function the batch evaluator calls, so the solver scores what the batch scores."""
    return _move_in_counts(
        market,
        middle,
        low,
        *set_move_in_inputs(policies, len(market), len(evaluator.layout.houses), model),
        *placement,
        existing_per_income=evaluator.existing_per_income,
        low_income_in_adus=low_income_in_adus,
        model=model,
    )


def _mover(
    evaluator: BatchEvaluator,
    placement: tuple[int, int, int, int],
    low_income_in_adus: bool,
    model: Model = RULEBOOK,
) -> MoveIn:
    """The move-in facts of new-home counts under a policy set (`solver.facts.MoveIn`)."""

    def moved(market: Array, middle: Array, low: Array, policies: frozenset[str]) -> dict:
        counts = move_in(
            evaluator, market, middle, low, policies, placement, low_income_in_adus, model
        )
        house_low, house_middle, apartment_low = (np.int64(n) for n in placement[:3])
        return counts.facts(house_low, house_middle, apartment_low)

    return moved


def _signature(
    features: tuple[str, ...],
    atoms: dict[str, Spec],
    policy_sets: tuple[frozenset[str], ...],
    mover: MoveIn,
    singles: list[tuple[str, ...]],
) -> Callable[[Array], Array] | None:
    """What the question sees of a group's final sums: the classes of its atoms (None: the
    group's own sums are kept exactly)."""
    mine = [f for f in atoms if group_of(f, singles) == features]
    if all(atoms[f] is None and f in features for f in mine):
        return None
    moving = mover if any(f in POLICY_DEPENDENT for f in mine) else None

    def signature(values: Array) -> Array:
        facts = group_facts(features, values, policy_sets, moving)
        columns = [np.zeros(len(values), dtype=np.int64)]
        for fact in mine:
            if fact in POLICY_DEPENDENT:
                columns += [
                    atom_classes(facts[f"{fact}@{i}"], atoms[fact]) for i in range(len(policy_sets))
                ]
            else:
                columns.append(atom_classes(facts[fact], atoms[fact]))
        return np.stack(columns, axis=1)

    return signature


def search_groups(
    evaluator: BatchEvaluator,
    atoms: dict[str, Spec],
    policy_sets: tuple[frozenset[str], ...],
    placement: tuple[int, int, int, int],
    low_income_in_adus: bool,
    model: Model = RULEBOOK,
) -> list[Group]:
    mover = _mover(evaluator, placement, low_income_in_adus, model)
    singles = single_groups(list(atoms))
    groups = []
    if any(f in NEW_HOMES_GROUP_FACTS for f in atoms):
        groups.append(Group(NEW_HOMES, _signature(NEW_HOMES, atoms, policy_sets, mover, singles)))
    if "spending" in atoms:
        thresholds = spending_thresholds(atoms["spending"], evaluator.scale)
        halves = may_halve(policy_sets)

        def spending(values: Array) -> Array:
            housing, other = values.T
            columns = cost_columns(housing, other, halves)
            return np.stack([atom_classes(c, thresholds) for c in columns], axis=1)

        groups.append(Group(SPENDING, spending))
    groups += [
        Group(features, _signature(features, atoms, policy_sets, mover, singles))
        for features in singles
    ]
    return groups


def _allowed(
    evaluator: BatchEvaluator, problem: Problem, policies: frozenset[str]
) -> tuple[tuple[int, ...], ...]:
    """Tile codes allowed on each square under `policies` (a fixed square: its tile only)."""
    fixed = dict(problem.fixed)
    allowed = allowed_codes(evaluator.layout, evaluator.catalogue, policies)
    return tuple(
        (evaluator.tile_ids.index(fixed[square]),) if square in fixed else codes
        for square, codes in zip(evaluator.squares, allowed, strict=True)
    )


@lru_cache(maxsize=8)
def _base(
    evaluator: BatchEvaluator,
    allowed: tuple[tuple[int, ...], ...],
    atoms: Atoms,
    policy_sets: tuple[frozenset[str], ...],
    placement: tuple[int, int, int, int],
    low_income_in_adus: bool,
    model: Model = RULEBOOK,
) -> BoardSpace:
    """The reduced board space, its layers not yet built (cached: questions share it; the
    model's switches change the move-in the signatures read, so it is part of the key)."""
    groups = search_groups(
        evaluator, dict(atoms), policy_sets, placement, low_income_in_adus, model
    )
    housing = evaluator.features[:, :, FEATURES.index("housing_cost")]
    other = evaluator.features[:, :, FEATURES.index("other_cost")]
    costs = cost_columns(housing, other, may_halve(policy_sets))
    return BoardSpace(evaluator.features, FEATURES, np.stack(costs, axis=2), allowed, groups)


@lru_cache(maxsize=8)
def _complete(base: BoardSpace) -> BoardSpace:
    """Every state of a reduced board space from `_base` (cached: `_base` hands the same
    object to the questions on one coalition, so they share it)."""
    return base.built()


def clear_cache() -> None:
    """Forget the cached board spaces (benchmarks time searches from scratch)."""
    _base.cache_clear()
    _complete.cache_clear()
    _bounds.cache_clear()
    _pruned.cache_clear()


@dataclass
class Scored:
    """One policy set's final states, scored: the coalition's total, spending (1/scale
    dollars), whether no card scores -1, low income residents housed (when asked)."""

    policies: frozenset[str]
    space: BoardSpace
    keys: Array
    halved: Array  # matching funds halve the housing costs of this state
    score: Array
    spending: Array
    nonnegative: Array
    low_housed: Array | None

    def board(self, state: int) -> list[int]:
        column = int(self.halved[state])
        return self.space.board(int(self.keys[state]), column, int(self.spending[state]))


def state_card_scores(
    evaluator: BatchEvaluator,
    cards: tuple[str, ...],
    values: dict[str, Array],
    costs: Array,
    policies: frozenset[str],
    placement: tuple[int, int, int, int],
    low_income_in_adus: bool,
    model: Model = RULEBOOK,
) -> tuple[Array, Array, Array, Array | None]:
    """Card scores (n, cards) of decoded sums `values` with least costs `costs` (one column,
    or two when matching funds may halve housing) under `policies`; and spending, whether
    housing was halved, low income residents housed (None without the new-home counts)."""
    n = len(costs)
    halve = np.zeros(n, dtype=bool)
    if "new_low" in values:  # (a card reading no spending)
        halve = halved(policies, values["new_low"])
    spending = np.where(halve, costs[:, -1], costs[:, 0])
    facts = ArrayFacts(
        scale=evaluator.scale,
        spending=spending,
        vacancy_control=np.full(n, VACANCY_CONTROL in policies),
    )
    for name, value in values.items():
        if hasattr(facts, name):
            setattr(facts, name, value)
    low_housed = None
    if "new_market" in values:
        facts.new_total = values["new_market"] + values["new_middle"] + values["new_low"]
        counts = move_in(
            evaluator,
            values["new_market"],
            values["new_middle"],
            values["new_low"],
            policies,
            placement,
            low_income_in_adus,
            model,
        )
        house_low, house_middle, apartment_low = (np.int64(n) for n in placement[:3])
        for name, value in counts.facts(house_low, house_middle, apartment_low).items():
            setattr(facts, name, value)
        low_housed = facts.housed_low
    _check_facts(facts, cards)
    plus, minus = card_scores(facts, cards)
    return plus.astype(np.int64) - minus, spending, halve, low_housed


def _final_scores(
    evaluator: BatchEvaluator,
    problem: Problem,
    space: BoardSpace,
    keys: Array,
    costs: Array,
    policies: frozenset[str],
    placement: tuple[int, int, int, int],
) -> tuple[Array, Array, Array, Array | None]:
    """`_card_scores` of the problem's cards on final states `keys` (least costs `costs`) of
    `space`: what both the answer (`_score`) and the pruning (`_totals`) score."""
    values = space.decode(keys)
    adus = problem.options.low_income_in_adus
    return state_card_scores(
        evaluator, problem.cards, values, costs, policies, placement, adus, problem.assumptions
    )


def _score(
    evaluator: BatchEvaluator,
    problem: Problem,
    space: BoardSpace,
    policies: frozenset[str],
    placement: tuple[int, int, int, int],
) -> Scored:
    keys, costs = space.final
    scores, spending, halved, low_housed = _final_scores(
        evaluator, problem, space, keys, costs, policies, placement
    )
    limit = budget_units(evaluator, problem)
    if limit is not None:  # the budget is a constraint: boards spending more are no answers
        # A state's spending is the least of its boards' (all score alike), so a state over
        # the budget has no board within it.
        within = spending <= limit
        keys, halved, scores = keys[within], halved[within], scores[within]
        spending = spending[within]
        low_housed = None if low_housed is None else low_housed[within]
    if all(isinstance(w, int) for w in problem.weights):
        total = scores @ np.array(problem.weights, dtype=np.int64)
    else:  # rounded so that equal sums of decimal weights tie
        total = np.round(scores @ np.array(problem.weights, dtype=np.float64), 9)
    return Scored(
        policies, space, keys, halved, total, spending, (scores >= 0).all(axis=1), low_housed
    )


def budget_units(evaluator: BatchEvaluator, problem: Problem) -> int | None:
    """The problem's city budget in whole 1/scale dollars (spending is kept in them), or None."""
    return budget_limit(evaluator, problem.assumptions)


def budget_limit(evaluator: BatchEvaluator, model: Model) -> int | None:
    """The most a board may spend under `model`, in 1/scale dollars (None: no budget): a
    board is within the budget when its spending units are at most this."""
    budget = model.city_budget()
    return None if budget is None else math.floor(budget * evaluator.scale)


def least_left(space: BoardSpace) -> Array:
    """(squares + 1, cost kinds): the least the squares after each depth can add to each cost
    kind (row d: the squares `space.order[d:]`)."""
    least = np.stack([c.min(axis=0) for c in space.costs])[space.order]
    columns = least.shape[1]
    return np.concatenate(
        [np.cumsum(least[::-1], axis=0)[::-1], np.zeros((1, columns), dtype=np.int64)]
    )


def _check_facts(facts: ArrayFacts, cards: tuple[str, ...]) -> None:
    """Every fact the cards read must be in the state (a missing one would read as None)."""
    for card in cards:
        for name in card_facts(card):
            if getattr(facts, name) is None:  # pragma: no cover - a bug in solver.atoms
                raise RuntimeError(f"the search dropped {name!r}, which {card} reads")


def _facts_of(
    evaluator: BatchEvaluator,
    space: BoardSpace,
    policy_sets: tuple[frozenset[str], ...],
    placement: tuple[int, int, int, int],
    low_income_in_adus: bool,
    model: Model = RULEBOOK,
) -> dict[int, dict[str, Array]]:
    mover = _mover(evaluator, placement, low_income_in_adus, model)
    return {
        g: group_facts(tables.group.features, tables.values, policy_sets, mover)
        for g, tables in enumerate(space.groups)
    }


SAMPLE = 1000  # states completed (square by square) to find a total some board reaches
CHECKED_FROM = 4096  # layers smaller than this are not bounded (too cheap to matter)
LOOKAHEAD = 1  # bound only the layers with at most this many squares left (the bounds are
# loose with more: they bound each card, and each group, on its own)
SLACK = 1e-6  # decimal weights: keep states whose bound falls short by rounding only


@lru_cache(maxsize=8)
def _bounds(
    evaluator: BatchEvaluator,
    problem: Problem,
    space: BoardSpace,
    sharing: tuple[frozenset[str], ...],
    placement: tuple[int, int, int, int],
) -> Bounds:
    adus, model = problem.options.low_income_in_adus, problem.assumptions

    # The bounds stay valid under every switch: they score each card on representatives of
    # the views (atom classes) of its groups, and both the views (`_facts_of`) and the scores
    # (`scorer`) are computed by the same move-in under the model, so a card's score is still
    # a function of its views. The budget only removes boards, so an upper bound on the
    # total over all completions bounds the total over those within the budget too.
    def scorer(
        cards: tuple[str, ...], values: dict[str, Array], costs: Array, policies: frozenset[str]
    ) -> Array:
        return state_card_scores(evaluator, cards, values, costs, policies, placement, adus, model)[
            0
        ]

    return Bounds(
        evaluator,
        space,
        problem.cards,
        problem.weights,
        sharing,
        _facts_of(evaluator, space, sharing, placement, adus, model),
        scorer,
    )


def _totals(
    evaluator: BatchEvaluator,
    problem: Problem,
    space: BoardSpace,
    keys: Array,
    costs: Array,
    sharing: tuple[frozenset[str], ...],
    placement: tuple[int, int, int, int],
) -> tuple[Array, Array]:
    """Exact totals and "every card >= 0" (n, policy sets) of final states; a state over
    the model's budget totals -inf and is not "every card >= 0" (it is no answer)."""
    totals, nonnegative = [], []
    limit = budget_units(evaluator, problem)
    for policies in sharing:
        scores, spending, _, _ = _final_scores(
            evaluator, problem, space, keys, costs, policies, placement
        )
        total = scores @ np.array(problem.weights, dtype=np.float64)
        able = (scores >= 0).all(axis=1)
        if limit is not None:
            total = np.where(spending <= limit, total, -np.inf)
            able &= spending <= limit
        totals.append(total)
        nonnegative.append(able)
    return np.stack(totals, axis=1), np.stack(nonnegative, axis=1)


def _sample(
    evaluator: BatchEvaluator,
    problem: Problem,
    bounds: Bounds,
    goal: str,
    space: BoardSpace,
    depth: int,
    keys: Array,
    costs: Array,
    total: Array,
    nonnegative: Array,
    sharing: tuple[frozenset[str], ...],
    placement: tuple[int, int, int, int],
) -> float:
    """The best exact total (with every card >= 0 for "nonnegative") of boards completing the
    most promising states, square by square keeping the `SAMPLE` most promising: a total some
    real board reaches."""
    while True:
        promise = np.where(nonnegative if goal == "nonnegative" else True, total, -np.inf)
        top = _top(across(np.maximum, promise), SAMPLE)
        square = space.order[depth]
        keys = space.advance(depth, keys[top]).ravel()
        costs = (costs[top][:, None, :] + space.costs[square][None, :, :]).reshape(len(keys), -1)
        depth += 1
        if depth == len(space.order):
            break
        total, nonnegative = bounds.evaluate(depth, keys, costs, True, True)
        if total is None or nonnegative is None:  # pragma: no cover - small samples fit
            return -np.inf
    exact, able = _totals(evaluator, problem, space, keys, costs, sharing, placement)
    if goal == "nonnegative":
        exact = np.where(able, exact, -np.inf)
    return float(exact.max())


def _top(values: Array, count: int) -> Array:
    """Positions of the `count` largest values, in no particular order (a partition, not a
    sort: which of equal values at the cut come in does not matter to `_sample`)."""
    if len(values) <= count:
        return np.arange(len(values))
    return np.argpartition(values, len(values) - count)[-count:]


def _keep(
    evaluator: BatchEvaluator,
    problem: Problem,
    base: BoardSpace,
    goal: str,
    lower: list[float],
    sharing: tuple[frozenset[str], ...],
    placement: tuple[int, int, int, int],
) -> Prune:
    """Which states of a layer may still matter to `goal` ("best": the highest total, and
    whether every card can be >= 0; "nonnegative": the highest total with every card >= 0;
    "pareto": every card >= 0): those whose bound reaches `lower[0]`, a total some real board
    reaches (with every card >= 0 for "nonnegative"). One square before the end, the most
    promising states are completed exactly to raise `lower[0]`."""
    sampled: list[int] = []
    limit = budget_units(evaluator, problem)
    left = None if limit is None else least_left(base)

    def keep(space: BoardSpace, depth: int, keys: Array, costs: Array) -> Array | None:
        within = None
        if left is not None:  # no completion of these keeps within the budget (any cost kind)
            within = across(np.minimum, costs + left[depth][None, :]) <= limit
            if not within.all():
                keys, costs = keys[within], costs[within]
        kept = _keep_bounded(space, depth, keys, costs)
        if within is None:
            return kept
        if kept is not None:
            within[within] = kept
        return within

    def _keep_bounded(space: BoardSpace, depth: int, keys: Array, costs: Array) -> Array | None:
        if len(keys) < max(CHECKED_FROM, 1) or depth < len(space.order) - LOOKAHEAD:
            return None
        bounds = _bounds(evaluator, problem, base, sharing, placement)  # built when needed
        total, nonnegative = bounds.evaluate(depth, keys, costs, goal != "pareto", True)
        if total is None or nonnegative is None:
            return None if nonnegative is None else across(np.logical_or, nonnegative)
        if goal == "pareto":
            return across(np.logical_or, nonnegative)
        if not sampled:
            sampled.append(depth)
            lower[0] = max(
                lower[0],
                _sample(
                    evaluator,
                    problem,
                    bounds,
                    goal,
                    space,
                    depth,
                    keys,
                    costs,
                    total,
                    nonnegative,
                    sharing,
                    placement,
                ),
            )
        if goal == "best":
            alive = (total >= lower[0] - SLACK) | nonnegative
        else:
            alive = nonnegative & (total >= lower[0] - SLACK)
        return across(np.logical_or, alive)

    return keep


@lru_cache(maxsize=8)
def _pruned(
    evaluator: BatchEvaluator,
    problem: Problem,
    atoms: Atoms,
    spaces: tuple[tuple[tuple[tuple[int, ...], ...], tuple[frozenset[str], ...]], ...],
    placement: tuple[int, int, int, int],
    goal: str,
) -> tuple[BoardSpace, ...]:
    """The states of each space (allowed tiles, policy sets) that can matter to `goal`."""
    lower = [-np.inf]  # shared: what one space's boards reach prunes the next
    built = []
    for allowed, sharing in spaces:
        adus = problem.options.low_income_in_adus
        base = _base(evaluator, allowed, atoms, sharing, placement, adus, problem.assumptions)
        built.append(base.built(_keep(evaluator, problem, base, goal, lower, sharing, placement)))
    return tuple(built)


def search(
    evaluator: BatchEvaluator, problem: Problem, pareto: bool = False, goal: str | None = None
) -> list[Scored]:
    """Every candidate policy set's final states, scored (in `problem.policy_sets` order).

    With `goal` ("best", "nonnegative", "pareto": see `_keep`), only the final states that
    can matter to that question, found by pruning the layers with `solver.bound` bounds."""
    atoms = _atoms(problem, pareto, _least_cost(problem, goal))
    placement = resident_placement(evaluator, problem.existing)
    adus = problem.options.low_income_in_adus
    # policy sets allowing the same tiles share one board space
    allowed_by_set = {p: _allowed(evaluator, problem, p) for p in problem.policy_sets}
    spaces: dict[tuple[tuple[int, ...], ...], tuple[frozenset[str], ...]] = {}
    for policies, allowed in allowed_by_set.items():
        spaces[allowed] = (*spaces.get(allowed, ()), policies)
    if goal == "pareto" and not problem.cards:
        goal = None
    if goal is not None:
        pruned = dict(
            zip(
                spaces,
                _pruned(evaluator, problem, atoms, tuple(spaces.items()), placement, goal),
                strict=True,
            )
        )
    scored = []
    for policies in problem.policy_sets:
        allowed = allowed_by_set[policies]
        if goal is None:
            base = _base(
                evaluator, allowed, atoms, spaces[allowed], placement, adus, problem.assumptions
            )
            space = _complete(base)
        else:
            space = pruned[allowed]
        scored.append(_score(evaluator, problem, space, policies, placement))
    return scored

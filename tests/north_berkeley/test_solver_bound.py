"""The solver's pruning on random questions: its bounds (`solver.bound`) never fall below a
real board and are exact at the last square, whichever internal route computes them, and the
solver pruning every layer agrees with brute force on random coalitions under random switches.

The reduced space is test_solver_model.py's (3 free squares, every game policy set).
"""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from housing_lab.north_berkeley.constituents import CARD_IDS
from housing_lab.north_berkeley.policies import RuleOptions
from housing_lab.north_berkeley.solver import bound as solver_bound
from housing_lab.north_berkeley.solver import search as solver_search
from housing_lab.north_berkeley.solver import space as solver_space
from housing_lab.north_berkeley.solver.exact import clear_cache, every_card_nonnegative, solve
from housing_lab.north_berkeley.solver.inputs import make_problem
from tests.north_berkeley.test_solver_model import (
    EVALUATOR,
    FIXED,
    SEED,
    brute_force,
    random_model,
)

SPENDERS = (
    "developer",
    "fiscal_conservatives",
    "more_parks",
    "save_our_views",
    "tech_corporations",
)


def random_coalition(rng: random.Random, against: bool = True) -> dict[str, int | float]:
    """2 to 7 cards, weights mostly 1, now and then 2 or 0.5 (and -1 when `against`)."""
    cards = rng.sample(list(CARD_IDS), rng.randint(2, 7))
    return {c: rng.choice([1, 1, 1, 2, 0.5, *([-1] * against)]) for c in cards}


@pytest.mark.parametrize("seed", range(3))
def test_pruned_solver_on_random_coalitions_matches_brute_force(seed, prune_everywhere) -> None:
    rng = random.Random(seed)
    model = random_model(rng)
    result, existing = brute_force(model, RuleOptions())
    within = np.asarray(result.within_budget, dtype=bool)
    question = dict(fixed=FIXED, existing=existing, model=model)
    for _ in range(3):
        coalition = random_coalition(rng)
        weights = np.array(list(coalition.values()), dtype=float)
        scores = result.scores[:, [CARD_IDS.index(c) for c in coalition]].astype(float)
        total = scores @ weights
        nonnegative = (scores >= 0).all(axis=1) & within
        if not within.any():
            continue
        found = solve(coalition, **question)
        top = total[within].max()
        cheapest = result.spending[within & np.isclose(total, top)].min()
        assert (found.score, float(found.spending)) == pytest.approx((top, float(cheapest)))
        assert found.nonnegative_possible == bool(nonnegative.any())
        both = every_card_nonnegative(coalition, **question)
        assert (both is None) == (not nonnegative.any())
        if both is not None:
            top = total[nonnegative].max()
            assert both.score == pytest.approx(top)
            assert all(both.cards[c] >= 0 for c in coalition)


def _bounds_and_space(coalition: dict[str, int | float], model):
    """The first board space of the solver's search for `coalition`, all layers built, and
    its bounds, as `search` builds them."""
    problem = make_problem(EVALUATOR, coalition, fixed=FIXED, seed=SEED, model=model)
    atoms = solver_search._atoms(problem, False, solver_search._least_cost(problem, "best"))
    placement = solver_search.resident_placement(EVALUATOR, problem.existing)
    allowed = solver_search._allowed(EVALUATOR, problem, problem.policy_sets[0])
    sharing = tuple(
        p for p in problem.policy_sets if solver_search._allowed(EVALUATOR, problem, p) == allowed
    )
    adus = problem.options.low_income_in_adus
    base = solver_search._base(
        EVALUATOR, allowed, atoms, sharing, placement, adus, problem.assumptions
    )
    bounds = solver_search._bounds(EVALUATOR, problem, base, sharing, placement)
    return problem, base.built(), bounds, sharing, placement


@pytest.mark.parametrize("seed", range(4))
def test_bounds_never_below_a_real_board_and_exact_at_the_end(seed, monkeypatch) -> None:
    """Random boards of the space, square by square: each partial state's bound is at least
    the board's exact total, "every card >= 0" is never ruled out for a board that has it, and
    after the last square both are the board's own. The same bounds come out when every group
    is looked up through its value space and no two sets of groups are merged."""
    rng = random.Random(100 + seed)
    # with a card reading spending; without weights against, the states keep least costs
    # and the bound reads the least spending left (full and housing halved)
    coalition = {**random_coalition(rng, against=seed < 2), rng.choice(SPENDERS): 1}
    model = dataclasses.replace(random_model(rng), budget=None) if seed % 2 else None
    clear_cache()
    problem, space, bounds, sharing, placement = _bounds_and_space(coalition, model)
    boards = np.array([[rng.randrange(len(a)) for a in space.allowed] for _ in range(200)])
    keys = np.zeros(len(boards), dtype=np.int64)
    costs = np.zeros((len(boards), space.costs[0].shape[1]), dtype=np.int64)
    path = []
    for depth, square in enumerate(space.order):
        tiles = boards[:, square]
        keys = space.advance(depth, keys)[np.arange(len(keys)), tiles]
        costs = costs + space.costs[square][tiles]
        path.append((depth + 1, keys, costs))
    exact, able = solver_search._totals(EVALUATOR, problem, space, keys, costs, sharing, placement)
    for depth, keys, costs in path:
        total, nonnegative = bounds.evaluate(depth, keys, costs, True, True)
        assert (total >= exact - 1e-9).all()
        assert (nonnegative | ~able).all()
    np.testing.assert_allclose(total, exact)
    assert (nonnegative == able).all()
    # the other routes: value-space indices, and one look-up per card's set of groups
    depth, keys, costs = path[-2]
    layer_keys, layer_costs = space.layers[depth]
    expected = bounds.evaluate(depth, layer_keys, layer_costs, True, True)
    monkeypatch.setattr(solver_bound, "FIELD_BITS", 0)
    monkeypatch.setattr(solver_bound, "MERGED_CLASSES", 0)
    found = bounds.evaluate(depth, layer_keys, layer_costs, True, True)
    np.testing.assert_array_equal(found[0], expected[0])
    np.testing.assert_array_equal(found[1], expected[1])
    clear_cache()


@pytest.mark.parametrize("collide", [False, True])
def test_row_labels_tell_rows_apart_even_when_hashes_collide(collide, monkeypatch) -> None:
    """Equal rows share a label and only they; when every hash collides (all multipliers 0),
    the check of neighbouring rows notices and the exact fallback gives the same answer."""
    if collide:
        monkeypatch.setattr(solver_space, "_multipliers", lambda n: np.zeros(n, dtype=np.int64))
    rows = np.random.default_rng(3).integers(0, 3, size=(500, 4))
    labels = solver_space.row_labels(rows)
    exact = np.unique(rows, axis=0, return_inverse=True)[1].ravel()
    assert len(set(zip(labels.tolist(), exact.tolist(), strict=True))) == len(set(exact.tolist()))
    assert len(set(labels.tolist())) == len(set(exact.tolist()))

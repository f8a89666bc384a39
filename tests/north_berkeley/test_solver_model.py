"""The exact solver under the model's switches, against brute force on reduced spaces.

Brute force scores every board of a reduced space (3 free squares, every game policy set) with
the batch evaluator under the same model (test_batch_model.py checks the batch against the
scalar engine under random switches). The solver must find the same best total and lowest
spending among the boards within the budget, the same "can every card score >= 0?" and the same
Pareto frontier, with and without pruning; `nb solve --model` refuses bad switches in one line.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from housing_lab.north_berkeley.batch.evaluator import (
    GAME_POLICY_SETS,
    Boards,
    default_evaluator,
    policy_mask,
)
from housing_lab.north_berkeley.constituents import CARD_IDS
from housing_lab.north_berkeley.engine.scoring import score_scenario
from housing_lab.north_berkeley.errors import OverBudgetError
from housing_lab.north_berkeley.model import HOME_KINDS, Model
from housing_lab.north_berkeley.policies import INCOMES, RuleOptions
from housing_lab.north_berkeley.scenario import board_spending, shuffled_existing
from housing_lab.north_berkeley.solver.exact import (
    every_card_nonnegative,
    pareto_frontier,
    solve,
)
from tests.support import Cli

EVALUATOR = default_evaluator()
LAYOUT, CATALOGUE = EVALUATOR.layout, EVALUATOR.catalogue
TILES = EVALUATOR.tile_ids

# 3 free squares (15^3 boards per policy set), the others fixed; no affordable-only tile fixed
# on phase 2, so every game policy set stays in.
FIXED = {
    "A1": "townhouse_market",
    "C1": "tower_inclusionary_25",
    "B2": "midrise_workforce",
    "C2": "tower_market",
    "A3": "park",
    "C3": "townhouse_low",
}
FREE = ("B1", "A2", "B3")
SEED = 7
COALITIONS = [
    ["affordable_housing_orgs"],
    ["middle_class_millennials"],
    ["developer", "affordable_housing_orgs"],
    ["anti_gentrification_activists", "landlords"],
    ["fiscal_conservatives", "urbanists", "refuse_capitalism"],
    {"real_estate_speculators": 1, "labor_unions": 2, "developer": -1},
    ["tech_corporations", "property_values", "inclusionary_for_all", "save_our_parking"],
]


def random_model(rng: random.Random) -> Model:
    """Every switch drawn (each kept at the rulebook's now and then)."""
    newcomers = {i: rng.choice([0, 3, 8, 12, 16]) for i in INCOMES if rng.random() < 0.7}
    market = ["high", *(i for i in ("middle", "low") if rng.random() < 0.5)]
    kinds = [k for k in HOME_KINDS if rng.random() < 0.6] or [rng.choice(HOME_KINDS)]
    budget = rng.choice([None, None, 3, 4, 9, 15.5, 30])  # the cheapest board here spends $3
    return Model(
        newcomers=newcomers,
        market_homes_for=frozenset(market),
        vacancy_control_protects=frozenset(kinds),
        budget=budget,
    )


MODELS = [
    *(random_model(random.Random(seed)) for seed in range(6)),
    Model(market_homes_for=frozenset({"high"})),  # the questions, without a budget
    Model(newcomers={"high": 16, "low": 4}, vacancy_control_protects=frozenset({"apartments"})),
]


def brute_force(model: Model, options: RuleOptions):
    """Every (board, policy set) of the reduced space, scored by the batch under `model`."""
    existing = shuffled_existing(LAYOUT, SEED)
    parts = []
    for policies in GAME_POLICY_SETS:
        columns = [
            [TILES.index(FIXED[s])] if s in FIXED else list(range(len(TILES)))
            for s in EVALUATOR.squares
        ]
        if "affordable_100" in policies:
            columns = [
                [t for t in c if CATALOGUE[TILES[t]].affordable_only]
                if LAYOUT.phase_of_square[s] == 2 and s not in FIXED
                else c
                for s, c in zip(EVALUATOR.squares, columns, strict=True)
            ]
        grid = np.stack(np.meshgrid(*columns, indexing="ij"), axis=-1).reshape(-1, len(columns))
        parts.append((grid, np.full(len(grid), policy_mask(policies))))
    tiles = np.concatenate([g for g, _ in parts]).astype(np.uint8)
    masks = np.concatenate([m for _, m in parts]).astype(np.uint8)
    placement = np.array([INCOMES.index(existing[h]) for h in EVALUATOR.homes], dtype=np.uint8)
    boards = Boards(tiles, masks, np.broadcast_to(placement, (len(tiles), len(placement))))
    return EVALUATOR.evaluate(boards, options, model=model), existing


def _weights(coalition) -> tuple[list[str], np.ndarray]:
    if isinstance(coalition, dict):
        return list(coalition), np.array(list(coalition.values()), dtype=float)
    return list(coalition), np.ones(len(coalition))


def _best(total: np.ndarray, spending: np.ndarray, valid: np.ndarray) -> tuple[float, float]:
    top = total[valid].max()
    return float(top), float(spending[valid & np.isclose(total, top)].min())


def _check(model: Model, options: RuleOptions) -> None:
    result, existing = brute_force(model, options)
    within = np.asarray(result.within_budget, dtype=bool)
    spending = np.asarray(result.spending, dtype=float)
    if model.budget is not None:  # the batch's flag is the budget itself
        assert (within == (spending <= float(model.budget))).all()
    question = dict(fixed=FIXED, existing=existing, options=options, model=model)
    for coalition in COALITIONS:
        cards, weights = _weights(coalition)
        scores = result.scores[:, [CARD_IDS.index(c) for c in cards]].astype(float)
        total = scores @ weights
        if not within.any():
            with pytest.raises(OverBudgetError, match="budget"):
                solve(coalition, **question)
            assert every_card_nonnegative(coalition, **question) is None
            continue
        found = solve(coalition, **question)
        assert (found.score, float(found.spending)) == pytest.approx(
            _best(total, spending, within)
        ), (model.to_dict(), coalition)
        assert model.budget is None or found.spending <= model.budget
        # the board is real, scored under the model by the scalar engine, and echoes it
        assert found.scenario.model == model
        scalar = score_scenario(found.scenario, options).to_dict()
        assert scalar == found.result and scalar["model"] == model.to_dict()
        nonnegative = (scores >= 0).all(axis=1) & within
        assert found.nonnegative_possible == bool(nonnegative.any())
        both = every_card_nonnegative(coalition, **question)
        if not nonnegative.any():
            assert both is None
        else:
            assert both is not None
            assert (both.score, float(both.spending)) == pytest.approx(
                _best(total, spending, nonnegative)
            )
    # the frontier of spending against low income housed, among boards within the budget
    low = result.housed[:, 2]
    expected, cheapest = [], np.inf
    for housed in sorted(set(low[within].tolist()), reverse=True):
        cost = spending[within & (low == housed)].min()
        if cost < cheapest:
            expected.append((housed, float(cost)))
            cheapest = cost
    frontier = pareto_frontier(**question)
    assert [(p.low_housed, float(p.spending)) for p in frontier] == expected[::-1]


@pytest.mark.slow
@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.describe()[:70])
def test_solver_under_switches_matches_brute_force(model: Model) -> None:
    _check(model, RuleOptions())


@pytest.mark.slow
@pytest.mark.parametrize("model", MODELS[:4], ids=lambda m: m.describe()[:70])
def test_pruned_solver_under_switches_matches_brute_force(model: Model, prune_everywhere) -> None:
    _check(model, RuleOptions(low_income_in_adus=True))


@pytest.mark.slow
def test_switches_change_the_answer_and_the_budget_binds() -> None:
    """The issue's example: the rulebook's best board for the Developer and the Affordable
    Housing Orgs spends $0; without filtering and with a $10 budget the answer differs and keeps
    within it (so the switches reach the search, and the budget is a constraint)."""
    coalition = ["developer", "affordable_housing_orgs"]
    rulebook = solve(coalition)
    model = Model(market_homes_for=frozenset({"high"}), budget=10)
    switched = solve(coalition, model=model)
    assert switched.spending <= 10
    assert board_spending(switched.scenario) == switched.spending
    assert switched.result["model"] == model.to_dict()
    assert "model" not in rulebook.result
    before = (rulebook.score, rulebook.result["housed"])
    assert (switched.score, switched.result["housed"]) != before


def test_no_board_within_the_budget_is_one_line() -> None:
    with pytest.raises(OverBudgetError, match=r"budget of \$0") as caught:
        solve(["developer"], fixed={"A1": "tower_public"}, model={"budget": 0})
    assert "\n" not in str(caught.value)


@pytest.mark.slow
def test_nb_solve_with_a_model(cli: Cli) -> None:
    model = {"market_homes_for": ["high", "middle"], "newcomers": {"low": 12}, "budget": 6}
    code, out, err = cli(
        "nb", "solve", "--cards", "affordable_housing_orgs,urbanists", "--model", json.dumps(model)
    )
    assert code == 0, err
    answer = json.loads(out)
    assert answer["scenario"]["model"] == Model.from_dict(model).to_dict()
    assert answer["result"]["spending"] <= 6
    found = solve(["affordable_housing_orgs", "urbanists"], model=model)
    assert answer["score"] == found.score and answer["result"] == found.result


@pytest.mark.parametrize(
    ("model", "named"),
    [
        ('{"newcomers": {"low": 17}}', "got 17"),
        ('{"bogus": 1}', "'bogus'"),
        ('{"market_homes_for": ["middle"]}', "must contain 'high'"),
        ('{"vacancy_control_protects": []}', "non-empty"),
        ('{"budget": 1000}', "0-999"),
        ('{"budget": ', "malformed JSON"),
        ("missing-model.json", "missing-model.json"),
    ],
)
def test_nb_solve_bad_model_is_one_line_exit_2(cli: Cli, tmp_path, model: str, named: str) -> None:
    code, out, err = cli("nb", "solve", "--cards", "developer", "--model", model, cwd=tmp_path)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and "--model" in err and named in err, err


def test_nb_solve_with_no_board_within_budget_is_one_line_exit_2(cli: Cli) -> None:
    code, out, err = cli(
        "nb",
        "solve",
        "--cards",
        "developer",
        "--fix",
        "A1=tower_public",
        "--model",
        '{"budget": 0}',
    )
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "budget" in err, err

"""The coach under the model's switches: the scenario's model scores the boards, and no answer
breaks its city budget. Brute force (every board of a reduced catalogue, scored by the batch
evaluator under the same model, sorted by the documented order, docs/coach.md) among the boards
within the budget must give the coach's answer, by enumeration and by the board-space search.
"""

from __future__ import annotations

import numpy as np
import pytest

from housing_lab.north_berkeley.batch.boards import Boards
from housing_lab.north_berkeley.batch.evaluator import policies_of, policy_mask
from housing_lab.north_berkeley.coaching import search as coach_search
from housing_lab.north_berkeley.coaching.exact import best_change_for_hand, coach
from housing_lab.north_berkeley.engine.card_rules import CARD_IDS
from housing_lab.north_berkeley.engine.scoring import score_scenario
from housing_lab.north_berkeley.model import Model
from housing_lab.north_berkeley.policies import AFFORDABLE_100, POLICIES
from housing_lab.north_berkeley.scenario import board_spending, make_scenario
from tests.north_berkeley.test_coach import (
    UNCHANGED,
    codes_of,
    every_board,
    reduced_evaluator,
    reduced_scenarios,
    refused_table,
)

GOALS = ("win", "no-loss")
CARDS = [
    "affordable_housing_orgs",
    "middle_class_millennials",
    "anti_gentrification_activists",
    "fiscal_conservatives",
    "developer",
    "landlords",
]
# budget: extra dollars over the board's own spending (None: no budget)
SWITCHES = [
    ({"market_homes_for": ["high"], "vacancy_control_protects": ["apartments"]}, None),
    ({"newcomers": {"low": 16, "high": 2}}, None),
    ({}, 0),
    ({"newcomers": {"middle": 0}, "market_homes_for": ["high", "low"]}, 3),
]


def expected_answers(evaluator, codes, model: Model):
    """(card, goal) -> the first answer in the coach's order among every board within the
    model's budget, or None (written independently of the coach)."""
    current, policies, existing = codes
    tiles, masks, counts = every_board(evaluator, current, policies)
    restricted = (masks & policy_mask([AFFORDABLE_100])) > 0
    refused = refused_table(evaluator)[np.arange(len(current))[None, :], tiles].any(axis=1)
    keep = ~(restricted & refused)
    tiles, masks, counts = tiles[keep], masks[keep], counts[keep]
    n = len(tiles)
    boards = Boards(tiles, masks, np.tile(np.array(existing, dtype=np.uint8), (n, 1)))
    result = evaluator.evaluate(boards, model=model)
    within = np.asarray(result.within_budget, dtype=bool)
    ranks = np.where(tiles == np.array(current)[None, :], UNCHANGED, tiles.astype(np.int64))
    flipped = 1 - ((masks[:, None].astype(np.int64) ^ policy_mask(policies)) >> np.arange(4) & 1)

    def expected(card: str, goal: str):
        score = result.scores[:, CARD_IDS.index(card)]
        good = np.flatnonzero((score == 1 if goal == "win" else score >= 0) & within)
        if len(good) == 0:
            return None
        keys = [counts[good], result.spending_units[good]]
        keys += [ranks[good, s] for s in range(ranks.shape[1])]
        keys += [flipped[good, i] for i in range(len(POLICIES))]
        best = good[np.lexsort(keys[::-1])[0]]
        return (
            tuple(int(t) for t in tiles[best]),
            frozenset(policies_of(int(masks[best]))),
            int(counts[best]),
            int(result.spending_units[best]),
        )

    return expected


def with_model(evaluator, scenario, switches: dict, extra: float | None):
    spent = board_spending(scenario)
    budget = None if extra is None else float(spent) + extra
    model = Model.from_dict({**switches, "budget": budget})
    return model, make_scenario(
        dict(scenario.tiles),
        sorted(scenario.policies),
        dict(scenario.existing),
        scenario.seed,
        evaluator.layout,
        evaluator.catalogue,
        model,
    )


@pytest.mark.slow
@pytest.mark.parametrize("name", ["public_and_garage", "inclusionary_and_low_townhouse"])
@pytest.mark.parametrize(("switches", "extra"), SWITCHES, ids=lambda v: str(v)[:40])
def test_coach_under_switches_matches_brute_force(name, switches, extra) -> None:
    evaluator = reduced_evaluator(name)
    (plain,) = reduced_scenarios(evaluator, seed=4, n=1)
    model, scenario = with_model(evaluator, plain, switches, extra)
    current, policies, existing = codes_of(evaluator, scenario)
    expected = expected_answers(evaluator, (current, policies, existing), model)
    for card in CARDS:
        for goal in GOALS:
            want = expected(card, goal)
            question = coach_search.Question(card, goal, current, policies, existing, False, model)
            for found in (
                coach_search.search(evaluator, question),
                coach_search.searched(evaluator, question),
            ):
                got = (found.tiles, found.policies, found.changes, found.spending)
                assert (None if found.changes is None else got) == want, (card, goal)
            answer = coach(scenario, card, goal, evaluator=evaluator)
            if answer.changes is None:
                assert want is None
                assert extra is None or "city budget" in str(answer.reason)
                continue
            assert answer.scenario_after is not None and answer.scenario_after.model == model
            assert model.budget is None or answer.spending_after <= model.budget
            scored = score_scenario(answer.scenario_after).to_dict()
            assert scored["model"] == model.to_dict()


def test_a_budget_keeps_the_coach_from_suggesting_dearer_changes() -> None:
    """With the budget at the board's own spending, the coach answers only with changes that
    spend no more; without it, it would spend more for the same card (so the budget binds)."""
    evaluator = reduced_evaluator("public_and_garage")
    (plain,) = reduced_scenarios(evaluator, seed=4, n=1)
    model, scenario = with_model(evaluator, plain, {}, 0)
    bound = 0
    for card in CARDS:
        free = coach(plain, card, "win", evaluator=evaluator)
        tight = coach(scenario, card, "win", evaluator=evaluator)
        if tight.changes is not None:
            assert tight.spending_after <= model.budget
        if free.changes is not None and free.spending_after > model.budget:
            bound += 1
            assert tight.changes is None or tight.changes != free.changes
    assert bound > 0


def test_hand_advice_keeps_within_the_budget() -> None:
    evaluator = reduced_evaluator("public_and_garage")
    (plain,) = reduced_scenarios(evaluator, seed=4, n=1)
    model, scenario = with_model(evaluator, plain, {}, 0)
    hand = ["affordable_housing_orgs", "middle_class_millennials", "developer"]
    advice = best_change_for_hand(scenario, hand, evaluator=evaluator)
    if advice.change is not None:
        assert advice.spending_after <= model.budget
        assert advice.scenario_after is not None and advice.scenario_after.model == model


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1])
def test_search_keeps_boards_over_the_budget_apart(seed) -> None:
    """The board-space search, with the budget at the board's own spending: cases where the
    fewest changes in a state of the search spend more than the budget while more changes in
    the same state keep within it (found by dropping "over the budget" from the states: the
    answers then differ from brute force)."""
    evaluator = reduced_evaluator("inclusionary_and_low_townhouse")
    (plain,) = reduced_scenarios(evaluator, seed=seed, n=1)
    model, scenario = with_model(evaluator, plain, {}, 0)
    current, policies, existing = codes_of(evaluator, scenario)
    expected = expected_answers(evaluator, (current, policies, existing), model)
    for card in ("property_values", "bike_lobby", "neighborhood_character"):
        question = coach_search.Question(card, "win", current, policies, existing, False, model)
        found = coach_search.searched(evaluator, question)
        got = (found.tiles, found.policies, found.changes, found.spending)
        assert (None if found.changes is None else got) == expected(card, "win"), card

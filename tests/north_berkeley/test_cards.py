"""Every constituent card at the boundary of both its conditions: just meets / just misses.

Each row: card, the facts that decide it, and the expected (+1, -1). Rows come in pairs that
differ by the smallest step, so an off-by-one in any comparison fails a test.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from housing_lab._data import DataFileError
from housing_lab.north_berkeley.batch.arrays import ArrayFacts, card_scores
from housing_lab.north_berkeley.batch.evaluator import default_evaluator
from housing_lab.north_berkeley.batch.sweep import random_boards
from housing_lab.north_berkeley.constituents import CARD_IDS, cards, score_card
from housing_lab.north_berkeley.engine.card_rules import (
    BASE_FACTS,
    CARD_RULES,
    DERIVED_FACTS,
    CardRule,
    card_facts,
    card_texts,
    rules_from_dict,
)
from housing_lab.north_berkeley.engine.scoring import score_scenario
from housing_lab.north_berkeley.scenario import make_scenario
from housing_lab.north_berkeley.solver import atoms as solver_atoms
from housing_lab.north_berkeley.solver import exact as solver

from .helpers import homes, housed, neutral_facts

H = housed
N = homes

CASES: list[tuple[str, dict[str, Any], bool, bool]] = [
    # affordable_housing_orgs: +1 low housed = 12; -1 low housed < 6
    ("affordable_housing_orgs", {"housed": H(12, 6, 12)}, True, False),
    ("affordable_housing_orgs", {"housed": H(12, 6, 11)}, False, False),
    ("affordable_housing_orgs", {"housed": H(12, 6, 6)}, False, False),
    ("affordable_housing_orgs", {"housed": H(12, 6, 5)}, False, True),
    # labor_unions: +1 new >= 18 and low+middle >= half; -1 new < 12
    ("labor_unions", {"new_homes": N(9, 5, 4)}, True, False),
    ("labor_unions", {"new_homes": N(10, 4, 4)}, False, False),
    ("labor_unions", {"new_homes": N(8, 5, 4)}, False, False),
    ("labor_unions", {"new_homes": N(6, 3, 3)}, False, False),
    ("labor_unions", {"new_homes": N(5, 3, 3)}, False, True),
    # developer: +1 market >= 10 and spending < 10; -1 spending > 13
    ("developer", {"new_homes": N(10, 0, 0), "spending": "9.5"}, True, False),
    ("developer", {"new_homes": N(9, 0, 0), "spending": 0}, False, False),
    ("developer", {"new_homes": N(10, 0, 0), "spending": 10}, False, False),
    ("developer", {"spending": 13}, False, False),
    ("developer", {"spending": "13.5"}, False, True),
    # middle_class_millennials: +1 middle = 12; -1 middle < 8
    ("middle_class_millennials", {"housed": H(12, 12, 4)}, True, False),
    ("middle_class_millennials", {"housed": H(12, 11, 4)}, False, False),
    ("middle_class_millennials", {"housed": H(12, 8, 4)}, False, False),
    ("middle_class_millennials", {"housed": H(12, 7, 4)}, False, True),
    # anti_gentrification_activists: +1 low+middle > half of housed; -1 low < 4
    ("anti_gentrification_activists", {"housed": H(10, 6, 5)}, True, False),
    ("anti_gentrification_activists", {"housed": H(10, 5, 5)}, False, False),
    ("anti_gentrification_activists", {"housed": H(12, 8, 4)}, False, False),
    ("anti_gentrification_activists", {"housed": H(12, 8, 3)}, False, True),
    # business_improvement_district: +1 new >= 16 and garages >= 1; -1 spending > 10
    ("business_improvement_district", {"new_homes": N(16, 0, 0), "garages": 1}, True, False),
    ("business_improvement_district", {"new_homes": N(15, 0, 0), "garages": 1}, False, False),
    ("business_improvement_district", {"new_homes": N(16, 0, 0), "garages": 0}, False, False),
    ("business_improvement_district", {"spending": 10}, False, False),
    ("business_improvement_district", {"spending": "10.5"}, False, True),
    # refuse_capitalism: +1 low housed >= 8 and market <= 4; -1 market > 8
    ("refuse_capitalism", {"housed": H(12, 8, 8), "new_homes": N(4, 4, 4)}, True, False),
    ("refuse_capitalism", {"housed": H(12, 8, 7), "new_homes": N(4, 4, 4)}, False, False),
    ("refuse_capitalism", {"housed": H(12, 8, 8), "new_homes": N(5, 4, 4)}, False, False),
    ("refuse_capitalism", {"new_homes": N(8, 0, 0)}, False, False),
    ("refuse_capitalism", {"new_homes": N(9, 0, 0)}, False, True),
    # fiscal_conservatives: +1 spending < 5; -1 spending > 8
    ("fiscal_conservatives", {"spending": "4.5"}, True, False),
    ("fiscal_conservatives", {"spending": 5}, False, False),
    ("fiscal_conservatives", {"spending": 8}, False, False),
    ("fiscal_conservatives", {"spending": "8.5"}, False, True),
    # property_values: +1 low housed <= 4; -1 low housed > 8
    ("property_values", {"housed": H(12, 8, 4)}, True, False),
    ("property_values", {"housed": H(12, 8, 5)}, False, False),
    ("property_values", {"housed": H(12, 8, 8)}, False, False),
    ("property_values", {"housed": H(12, 8, 9)}, False, True),
    # landlords: +1 every apartment middle/high; -1 vacancy control
    ("landlords", {"apartments_middle_or_high": True}, True, False),
    ("landlords", {"apartments_middle_or_high": False}, False, False),
    ("landlords", {"vacancy_control": True, "apartments_middle_or_high": True}, True, True),
    # real_estate_speculators: +1 houses all high and spending < 9; -1 spending > 12
    ("real_estate_speculators", {"houses_all_high": True, "spending": "8.5"}, True, False),
    ("real_estate_speculators", {"houses_all_high": True, "spending": 9}, False, False),
    ("real_estate_speculators", {"houses_all_high": False, "spending": 0}, False, False),
    ("real_estate_speculators", {"spending": 12}, False, False),
    ("real_estate_speculators", {"spending": "12.5"}, False, True),
    # park_and_ride: +1 garages >= 2; -1 no garage
    ("park_and_ride", {"garages": 2}, True, False),
    ("park_and_ride", {"garages": 1}, False, False),
    ("park_and_ride", {"garages": 0}, False, True),
    # more_parks: +1 parks >= 2 and spending < 11; -1 no park
    ("more_parks", {"parks": 2, "spending": "10.5"}, True, False),
    ("more_parks", {"parks": 1, "spending": 0}, False, False),
    ("more_parks", {"parks": 2, "spending": 11}, False, False),
    ("more_parks", {"parks": 0}, False, True),
    # stop_the_shadows: +1 no tower/midrise on Virginia; -1 tower on Virginia or Acton
    ("stop_the_shadows", {"tall_on_virginia": False}, True, False),
    ("stop_the_shadows", {"tall_on_virginia": True}, False, False),
    (
        "stop_the_shadows",
        {"tall_on_virginia": True, "tower_on_virginia_or_acton": True},
        False,
        True,
    ),
    # save_our_views: +1 no tower and spending < 8; -1 towers >= 3
    ("save_our_views", {"towers": 0, "spending": "7.5"}, True, False),
    ("save_our_views", {"towers": 0, "spending": 8}, False, False),
    ("save_our_views", {"towers": 1, "spending": 0}, False, False),
    ("save_our_views", {"towers": 2}, False, False),
    ("save_our_views", {"towers": 3}, False, True),
    # urbanists: +1 tall squares >= 6; -1 tall squares < 4
    ("urbanists", {"tall_squares": 6}, True, False),
    ("urbanists", {"tall_squares": 5}, False, False),
    ("urbanists", {"tall_squares": 4}, False, False),
    ("urbanists", {"tall_squares": 3}, False, True),
    # bike_lobby: +1 greenway homes >= 10; -1 garages > 1
    ("bike_lobby", {"greenway_homes": 10}, True, False),
    ("bike_lobby", {"greenway_homes": 9}, False, False),
    ("bike_lobby", {"garages": 1}, False, False),
    ("bike_lobby", {"garages": 2}, False, True),
    # tech_corporations: +1 new >= 20 and spending < 12; -1 market < 8
    ("tech_corporations", {"new_homes": N(20, 0, 0), "spending": "11.5"}, True, False),
    ("tech_corporations", {"new_homes": N(19, 0, 0), "spending": 0}, False, False),
    ("tech_corporations", {"new_homes": N(20, 0, 0), "spending": 12}, False, False),
    ("tech_corporations", {"new_homes": N(8, 0, 0)}, False, False),
    ("tech_corporations", {"new_homes": N(7, 0, 0)}, False, True),
    # inclusionary_for_all: +1 every housing square affordable; -1 low < 7 or middle < 7
    (
        "inclusionary_for_all",
        {"every_housing_square_affordable": True, "housed": H(12, 7, 7)},
        True,
        False,
    ),
    (
        "inclusionary_for_all",
        {"every_housing_square_affordable": False, "housed": H(12, 7, 7)},
        False,
        False,
    ),
    ("inclusionary_for_all", {"housed": H(12, 7, 6)}, False, True),
    ("inclusionary_for_all", {"housed": H(12, 6, 7)}, False, True),
    # eco_primitivists: +1 parks > garages; -1 garages > 1
    ("eco_primitivists", {"parks": 2, "garages": 1}, True, False),
    ("eco_primitivists", {"parks": 1, "garages": 1}, False, False),
    ("eco_primitivists", {"parks": 3, "garages": 2}, True, True),
    # neighborhood_character: +1 townhouses on >= 3 corners; -1 tower on corner or spending > 14
    ("neighborhood_character", {"corner_townhouses": 3}, True, False),
    ("neighborhood_character", {"corner_townhouses": 2}, False, False),
    ("neighborhood_character", {"tower_on_corner": True}, False, True),
    ("neighborhood_character", {"spending": 14}, False, False),
    ("neighborhood_character", {"spending": "14.5"}, False, True),
    # save_our_parking: +1 6 x garages >= new; -1 8 x garages < new or spending > 11
    ("save_our_parking", {"garages": 2, "new_homes": N(12, 0, 0)}, True, False),
    ("save_our_parking", {"garages": 2, "new_homes": N(13, 0, 0)}, False, False),
    ("save_our_parking", {"garages": 2, "new_homes": N(16, 0, 0)}, False, False),
    ("save_our_parking", {"garages": 2, "new_homes": N(17, 0, 0)}, False, True),
    ("save_our_parking", {"garages": 0, "new_homes": N(0, 0, 0), "spending": 11}, True, False),
    ("save_our_parking", {"garages": 3, "new_homes": N(6, 0, 0), "spending": "11.5"}, True, True),
]


@pytest.mark.parametrize(("card", "facts", "plus", "minus"), CASES)
def test_card_boundary(card: str, facts: dict[str, Any], plus: bool, minus: bool) -> None:
    score = score_card(card, neutral_facts(**facts))
    assert (score.plus, score.minus) == (plus, minus)
    assert score.score == int(plus) - int(minus)


def test_every_card_has_boundary_cases_for_both_conditions() -> None:
    for card in CARD_IDS:
        rows = [row for row in CASES if row[0] == card]
        assert any(plus for _, _, plus, _ in rows), card
        assert any(not plus for _, _, plus, _ in rows), card
        assert any(minus for _, _, _, minus in rows), card
        assert any(not minus for _, _, _, minus in rows), card


def test_deck_has_22_cards_with_texts() -> None:
    deck = cards()
    assert len(deck) == 22 == len(set(CARD_IDS))
    for card in deck.values():
        assert card.name and card.plus_text.endswith(".") and card.minus_text.endswith(".")


# --- one declaration: every engine reads the same thresholds ----------------------------------


def _declaration_with(card: str, **conditions: object) -> dict[str, CardRule]:
    """The cards of constituents.toml with `card`'s conditions replaced (a modified copy)."""
    texts = {card_id: dict(entry) for card_id, entry in card_texts().items()}
    texts[card].update(conditions)
    return rules_from_dict(texts)


def _fiscal_minus_over(dollars: int) -> dict[str, CardRule]:
    return _declaration_with("fiscal_conservatives", minus_if={"all": [["spending", ">", dollars]]})


def _fiscal(boards, evaluator) -> tuple[np.ndarray, list[bool]]:
    """Fiscal conservatives' -1 on boards, by the batch evaluator and by the scalar engine."""
    column = CARD_IDS.index("fiscal_conservatives")
    batch = evaluator.evaluate(boards).minus[:, column]
    scalar = [
        score_scenario(
            make_scenario(**{k: v for k, v in evaluator.scenario_dict(boards, i).items()})
        )
        .cards["fiscal_conservatives"]
        .minus
        for i in range(len(boards))
    ]
    return batch, scalar


@pytest.mark.slow
def test_one_threshold_in_the_declaration_changes_scalar_batch_and_solver(monkeypatch) -> None:
    """Fiscal conservatives' -1 moved from "over $8" to "over $10" in a copy of the declaration:
    the scalar check, the batch evaluator and the solver all follow it."""
    assert _fiscal_minus_over(8)["fiscal_conservatives"] == CARD_RULES["fiscal_conservatives"]
    evaluator = default_evaluator()
    boards = random_boards(300, seed=4)
    nine = neutral_facts(spending=9)
    solver.clear_cache()
    before_solver = solver.solve({"fiscal_conservatives": -1})
    before_batch, before_scalar = _fiscal(boards, evaluator)

    monkeypatch.setitem(
        CARD_RULES, "fiscal_conservatives", _fiscal_minus_over(10)["fiscal_conservatives"]
    )
    solver.clear_cache()
    after_solver = solver.solve({"fiscal_conservatives": -1})
    after_batch, after_scalar = _fiscal(boards, evaluator)
    solver.clear_cache()

    # scalar: $9 was over the old threshold, not the new one
    assert score_card("fiscal_conservatives", nine).minus is False
    monkeypatch.undo()
    assert score_card("fiscal_conservatives", nine).minus is True
    # batch: the same answers as the scalar engine, before and after, and some changed
    assert before_batch.tolist() == before_scalar and after_batch.tolist() == after_scalar
    spending = evaluator.evaluate(boards).spending
    assert (before_batch != after_batch).any()
    assert (after_batch == (spending > 10)).all() and (before_batch == (spending > 8)).all()
    # solver: the cheapest board the card opposes is just over the threshold in force
    assert before_solver.score == after_solver.score == 1
    assert 8 < before_solver.spending <= 9 and 10 < after_solver.spending <= 11
    assert after_solver.result["constituents"]["fiscal_conservatives"]["minus"] is True


def test_a_relation_is_defined_once_for_every_engine(monkeypatch) -> None:
    """Save our parking's "a garage for every 6 new homes", changed to every 5 in the one
    definition of the relation, changes the scalar check, the batch formulas and the solver's
    thresholds on new homes."""
    facts = neutral_facts(garages=2, new_homes=homes(12, 0, 0))
    cuts = solver_atoms.card_atoms("save_our_parking")["new_total"]
    assert score_card("save_our_parking", facts).plus and 13 in cuts and 11 not in cuts
    monkeypatch.setitem(DERIVED_FACTS, "garages_for_6_homes", {"garages": 5, "new_total": -1})
    assert not score_card("save_our_parking", facts).plus
    assert 11 in solver_atoms.card_atoms("save_our_parking")["new_total"]
    arrays = ArrayFacts(
        scale=2, garages=np.array([2, 2]), new_total=np.array([10, 11]), spending=np.zeros(2)
    )
    plus, _ = card_scores(arrays, ("save_our_parking",))
    assert plus[:, 0].tolist() == [True, False]


@pytest.mark.parametrize(
    ("condition", "names"),
    [
        ({"all": [["castles", ">=", 1]]}, "'castles'"),
        ({"all": [["garages", "=>", 1]]}, "'=>'"),
        ({"all": [["garages", ">=", "one"]]}, "'one'"),
        ({"all": [["garages", ">="]]}, "['garages', '>=']"),
        ({"every": [["garages", ">=", 1]]}, "all = [...]"),
        ({"all": []}, "needs a clause"),
    ],
)
def test_a_bad_declaration_is_a_one_line_error(condition: dict, names: str) -> None:
    with pytest.raises(DataFileError) as caught:
        _declaration_with("park_and_ride", plus_if=condition)
    assert names in str(caught.value) and "park_and_ride" in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_card_without_its_condition_is_refused() -> None:
    texts = {card_id: dict(entry) for card_id, entry in card_texts().items()}
    del texts["urbanists"]["minus_if"]
    with pytest.raises(DataFileError, match="urbanists: 'minus_if' is missing"):
        rules_from_dict(texts)


def test_every_card_declares_both_conditions_on_known_facts() -> None:
    for card in CARD_IDS:
        rule = CARD_RULES[card]
        for condition in rule.conditions:
            assert condition.clauses and condition.mode in ("all", "any")
            assert card_facts(card) <= BASE_FACTS

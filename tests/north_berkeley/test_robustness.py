"""Robustness at a glance (issue 22): boards and policy sets under several model settings."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import housing_lab.north_berkeley as nb
from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley.batch.evaluator import default_evaluator
from housing_lab.north_berkeley.batch.robust import (
    DEFAULT_ASSUMPTIONS,
    RULEBOOK_NAME,
    assumption_settings,
    robustness,
    robustness_table,
    sweep_switches,
)
from housing_lab.north_berkeley.batch.sweep import random_boards
from housing_lab.north_berkeley.constituents import CARD_IDS, cards
from housing_lab.north_berkeley.engine.scoring import score_scenario
from housing_lab.north_berkeley.errors import OverBudgetError
from housing_lab.north_berkeley.model import Model
from housing_lab.north_berkeley.policies import INCOMES
from housing_lab.north_berkeley.scenario import make_scenario, scenario_from_dict

from .helpers import PLACEMENT

# market-rate homes, an affordable midrise and a park: filtering, budget and demand all matter
BOARD = {
    "A1": "park",
    "B1": "tower_market",
    "C1": "midrise_public",
    "B3": "townhouse_market",
    "A3": "tower_inclusionary_25",
}
POLICIES = ["vacancy_control", "adu"]
MEASURES = ("housed", "displaced", "unhoused")
SUBJECT_COLUMN = "Board or policy set"
NAMES = {card: cards()[card].name for card in CARD_IDS}


def column(measure: str, income: str) -> str:
    return f"{income.capitalize()} income {'not housed' if measure == 'unhoused' else measure}"


def scalar(model: Model | None, tiles=BOARD, policies=POLICIES, existing=PLACEMENT) -> dict:
    return score_scenario(make_scenario(tiles, policies, existing, model=model)).to_dict()


def test_a_board_under_each_setting_is_the_scalar_engine_under_that_model() -> None:
    frame = robustness({"tiles": BOARD, "policies": POLICIES, "existing": PLACEMENT})
    assert list(frame["Assumption"].astype(str)) == list(DEFAULT_ASSUMPTIONS)
    assert (frame["Boards"] == 1).all()
    for _, row in frame.iterrows():
        model = DEFAULT_ASSUMPTIONS[str(row["Assumption"])]
        if model.budget is not None and scalar(None)["spending"] > model.budget:
            assert row["Boards over budget"] == 1 and math.isnan(row["Low income housed"])
            continue
        out = scalar(model)
        assert row["Spending ($)"] == out["spending"]
        for measure in MEASURES:
            for income in INCOMES:
                assert row[column(measure, income)] == out[measure][income], (row, measure)
        assert row["What changes"] == model.describe()


def test_the_rulebook_column_is_the_plain_score_and_changes_are_counted_against_it() -> None:
    frame = sweep_switches([make_scenario(BOARD, POLICIES, PLACEMENT)])
    plain = score_scenario(make_scenario(BOARD, POLICIES, PLACEMENT))
    rulebook = frame[frame["Assumption"] == RULEBOOK_NAME].iloc[0]
    for income in INCOMES:
        assert rulebook[column("housed", income)] == plain.facts.housed[income]
    assert rulebook["Cards changed"] == 0 and rulebook["Cards that change"] == ""
    for _, row in frame[~frame["Over budget"]].iterrows():
        model = DEFAULT_ASSUMPTIONS[str(row["Assumption"])]
        under = score_scenario(make_scenario(BOARD, POLICIES, PLACEMENT, model=model)).cards
        changed = [c for c in CARD_IDS if under[c].score != plain.cards[c].score]
        assert row["Cards changed"] == len(changed)
        for card in CARD_IDS:
            assert row[NAMES[card]] == under[card].score
            assert (f"{NAMES[card]} (" in row["Cards that change"]) == (card in changed)


def test_no_filtering_leaves_low_income_out_of_new_market_homes() -> None:
    """The issue's own example: an all market-rate board houses low incomes only by filtering."""
    market = {s: "tower_market" for s in ("B1", "C1", "A3", "B3")}
    frame = robustness({"tiles": market, "existing": PLACEMENT}).heat_table()
    no_filtering = "No filtering: new market-rate homes only for high income"
    assert frame.loc["Board 1", no_filtering] < frame.loc["Board 1", RULEBOOK_NAME]
    assert (
        frame.loc["Board 1", no_filtering]
        == scalar(DEFAULT_ASSUMPTIONS[no_filtering], market, [])["housed"]["low"]
    )


def test_conservation_under_more_newcomers() -> None:
    frame = sweep_switches([["adu"]], {"more": {"newcomers": {"high": 14, "low": 3}}}, n=4, seed=2)
    for _, row in frame.iterrows():
        for income, newcomers in (("high", 14), ("middle", 8), ("low", 3)):
            total = row[column("housed", income)] + row[column("unhoused", income)]
            assert total == 4 + newcomers


def test_policy_sets_average_the_scalar_scores_of_their_seeded_random_boards() -> None:
    settings = {"rulebook": {}, "houses exempt": {"vacancy_control_protects": ["apartments"]}}
    frame = robustness([["vacancy_control"]], settings, n=6, seed=5)
    drawn = random_boards(6, 5, policy_sets=[["vacancy_control"]])
    boards = [default_evaluator().scenario_dict(drawn, i, seed=5) for i in range(6)]
    assert frame["Board or policy set"].tolist() == ["Vacancy Control"] * 2
    for _, row in frame.iterrows():
        model = nb.model.check_model(settings[str(row["Assumption"])])
        outs = [
            score_scenario(make_scenario(**{**scenario_from_dict(b).to_dict(), "model": model}))
            for b in boards
        ]
        for income in INCOMES:
            expected = np.mean([o.facts.housed[income] for o in outs])
            assert row[column("housed", income)] == pytest.approx(expected)
    assert (frame["Boards"] == 6).all()


def test_seeded_random_boards_give_the_same_table_and_another_seed_another() -> None:
    subjects = {"none": [], "ADUs": ["adu"]}
    settings = {"rulebook": {}, "no filtering": {"market_homes_for": ["high"]}}
    first = robustness(subjects, settings, n=4, seed=11)
    pd.testing.assert_frame_equal(first, robustness(subjects, settings, n=4, seed=11))
    assert not first.equals(robustness(subjects, settings, n=4, seed=12))
    assert first["Board or policy set"].unique().tolist() == ["none", "ADUs"]


def test_over_budget_boards_are_counted_and_left_out() -> None:
    cheap = {"tiles": {"B1": "tower_market"}, "existing": PLACEMENT}
    dear = {"tiles": {"B1": "tower_public", "C1": "midrise_public"}, "existing": PLACEMENT}
    frame = robustness({"cheap": cheap, "dear": dear}, {"budget": {"budget": 3}})
    table = frame.heat_table("Low income housed")
    assert table.loc["cheap", "budget"] == scalar(None, cheap["tiles"], [])["housed"]["low"]
    assert math.isnan(table.loc["dear", "budget"])
    one = robustness(dear, {"budget": 3})  # one bare JSON model, named in words
    assert one["Assumption"].tolist() == ["Not the rulebook: city budget $3"]
    assert frame.set_index("Board or policy set").loc["dear", "Boards over budget"] == 1


def test_heat_table_reads_in_words() -> None:
    frame = robustness([[], ["vacancy_control", "adu"]], n=3, seed=1)
    table = robustness_table(frame)
    assert table.index.tolist() == ["No policy", "Vacancy Control + Accessory Dwelling Units"]
    assert table.columns.tolist() == list(DEFAULT_ASSUMPTIONS)
    assert table.columns.name == "Low income housed"
    for _, row in frame.iterrows():
        cell = table.loc[row["Board or policy set"], str(row["Assumption"])]
        assert cell == row["Low income housed"] or (math.isnan(cell) and math.isnan(cell))
    displaced = frame.heat_table("Middle income displaced")
    assert displaced.columns.name == "Middle income displaced"


def test_settings_may_be_a_list_named_in_words() -> None:
    named = assumption_settings([{}, {"market_homes_for": ["high"]}])
    assert list(named) == [
        RULEBOOK_NAME,
        "Not the rulebook: market-rate homes only for high income",
    ]


@pytest.mark.parametrize(
    ("settings", "named"),
    [
        ({"Odd": {"budget": -1}}, ["Odd", "-1"]),
        ({"Typo": {"newcomer": {"low": 3}}}, ["Typo", "newcomer"]),
        ([{}, {"market_homes_for": ["low"]}], ["assumption 2", "market_homes_for"]),
        ("no filtering", ["no filtering"]),
    ],
)
def test_a_bad_setting_is_one_line_naming_it(settings: object, named: list[str]) -> None:
    with pytest.raises(HousingLabError) as caught:
        robustness({"tiles": BOARD, "existing": PLACEMENT}, settings)
    message = str(caught.value)
    assert "\n" not in message
    for word in named:
        assert word in message


@pytest.mark.parametrize(
    ("subjects", "named"),
    [("adu", "adu"), ([["adu", "rent_control"]], "rent_control"), ([], "no board")],
)
def test_a_bad_board_or_policy_set_is_one_line_naming_it(subjects: object, named: str) -> None:
    with pytest.raises(HousingLabError, match=named):
        robustness(subjects, n=2)
    with pytest.raises(HousingLabError, match="unknown measure 'Rent'"):
        robustness_table(robustness({"tiles": {}}, {"r": {}}), "Rent")


def test_the_facade_exports_it_lazily() -> None:
    assert nb.robustness is robustness and nb.sweep_switches is sweep_switches
    assert nb.robustness_table is robustness_table


def test_random_boards_scored_by_the_batch_agree_board_by_board_with_the_scalar_engine() -> None:
    """Differential: every default setting (the budget too) on seeded random boards."""
    sets = (["vacancy_control", "adu"], ["matching_funds"])
    frame = sweep_switches(list(sets), n=4, seed=3)
    rows = {(r[SUBJECT_COLUMN], r["Board"], str(r["Assumption"])): r for _, r in frame.iterrows()}
    for k, policies in enumerate(sets):
        drawn = random_boards(4, 3 + k, policy_sets=[policies])
        label = nb.policy_set_name(policies, short=False)
        for i in range(4):
            board = default_evaluator().scenario_dict(drawn, i)
            for name, model in DEFAULT_ASSUMPTIONS.items():
                row = rows[label, i + 1, name]
                try:
                    out = score_scenario(make_scenario(**{**board, "model": model})).to_dict()
                except OverBudgetError:
                    assert row["Over budget"] and math.isnan(row["Low income housed"])
                    continue
                assert not row["Over budget"]
                assert row["Spending ($)"] == out["spending"]
                for measure in MEASURES:
                    for income in INCOMES:
                        assert row[column(measure, income)] == out[measure][income]
                for card in CARD_IDS:
                    assert row[NAMES[card]] == out["constituents"][card]["score"]

"""The batch evaluator agrees exactly with the scalar engine (the reference), board by board."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from housing_lab._data import read_package_toml
from housing_lab.north_berkeley.batch.arrays import ArrayFacts
from housing_lab.north_berkeley.batch.evaluator import (
    ALL_POLICY_SETS,
    CHUNK,
    FEATURES,
    GAME_POLICY_SETS,
    BatchEvaluator,
    Boards,
    default_evaluator,
    policies_of,
    policy_mask,
)
from housing_lab.north_berkeley.batch.sweep import random_boards
from housing_lab.north_berkeley.constituents import CARD_IDS
from housing_lab.north_berkeley.engine.card_rules import (
    BASE_FACTS,
    TILE_COUNTS,
    card_facts,
    tile_counts,
)
from housing_lab.north_berkeley.engine.scoring import score_scenario
from housing_lab.north_berkeley.layout import layout_from_dict
from housing_lab.north_berkeley.policies import INCOMES, POLICIES, RuleOptions
from housing_lab.north_berkeley.scenario import make_scenario
from housing_lab.north_berkeley.tiles import catalogue_from_dict, default_catalogue

from .helpers import PLACEMENT

EVALUATOR = default_evaluator()


def scalar(evaluator: BatchEvaluator, boards: Boards, i: int, options: RuleOptions) -> dict:
    """The scalar engine's result for board i (validating it as a scenario on the way)."""
    data = evaluator.scenario_dict(boards, i)
    scenario = make_scenario(
        data["tiles"],
        data["policies"],
        data["existing"],
        layout=evaluator.layout,
        catalogue=evaluator.catalogue,
    )
    return score_scenario(scenario, options).to_dict()


def every_policy_combination(n: int, seed: int) -> Boards:
    """n random boards cycling through all 16 policy sets, some squares left empty."""
    per_set = [
        random_boards(n // len(ALL_POLICY_SETS) + 1, seed + k, policy_sets=[policies], empty=0.15)
        for k, policies in enumerate(ALL_POLICY_SETS)
    ]
    rows = np.arange(n)
    pick = [rows[rows % len(per_set) == k] // len(per_set) for k in range(len(per_set))]
    return Boards(
        *(
            np.concatenate([getattr(b, name)[p] for b, p in zip(per_set, pick, strict=True)])
            for name in ("tiles", "policies", "existing")
        )
    )


@pytest.mark.slow
def test_agrees_with_the_scalar_engine_on_10000_random_boards() -> None:
    boards = every_policy_combination(10_000, seed=1)
    counts = np.bincount(boards.policies, minlength=16)
    assert len(boards) == 10_000 and counts.min() >= 600  # every policy combination, often
    assert (boards.tiles == EVALUATOR.empty).any() and (boards.tiles != EVALUATOR.empty).all(
        axis=1
    ).any()
    outputs = EVALUATOR.evaluate(boards).to_dicts()
    for i, output in enumerate(outputs):
        assert output == scalar(EVALUATOR, boards, i, RuleOptions()), i


@pytest.mark.slow
@pytest.mark.parametrize(
    "options",
    [
        RuleOptions(low_income_in_adus=True),
        RuleOptions(displaced_first=False),
        RuleOptions(low_income_in_adus=True, displaced_first=False),
    ],
)
def test_agrees_under_every_rule_option(options: RuleOptions) -> None:
    boards = every_policy_combination(2_000, seed=7)
    outputs = EVALUATOR.evaluate(boards, options).to_dicts()
    for i, output in enumerate(outputs):
        assert output == scalar(EVALUATOR, boards, i, options), i


@pytest.mark.parametrize(
    ("tiles", "policies"),
    [
        ({}, []),
        ({}, ["vacancy_control"]),
        ({}, ["adu"]),
        ({s: "tower_market" for s in ("B1", "C1", "B2", "C2")}, ["adu", "vacancy_control"]),
        ({s: "tower_public" for s in ("A1", "A2", "A3", "B3", "C3")}, ["affordable_100"]),
        # matching funds: exactly 7 low homes halves the housing costs, 6 do not
        (
            {"A1": "tower_public", "B1": "midrise_public", "C1": "townhouse_low", "C3": "park"},
            ["matching_funds"],
        ),
        ({"A1": "tower_public", "B1": "midrise_public", "C3": "park"}, ["matching_funds"]),
        (
            {"A1": "townhouse_middle", "B1": "townhouse_middle", "C1": "townhouse_middle"},
            ["adu", "matching_funds"],
        ),
    ],
)
def test_hand_picked_boards(tiles: dict, policies: list) -> None:
    scenario = make_scenario(tiles, policies, PLACEMENT)
    boards = EVALUATOR.encode([scenario])
    assert EVALUATOR.evaluate(boards).to_dict(0) == score_scenario(scenario).to_dict()


def test_half_dollar_spending_is_exact() -> None:
    scenario = make_scenario(
        {"A1": "tower_public", "B1": "midrise_public", "C1": "townhouse_low", "C3": "park"},
        ["matching_funds"],
        PLACEMENT,
    )
    result = EVALUATOR.evaluate(EVALUATOR.encode([scenario]))
    assert result.to_dict(0)["spending"] == 5.5  # 7 low homes: (6 + 2 + 1) / 2 + 1
    assert result.spending[0] == 5.5


@pytest.mark.slow
def test_a_custom_catalogue_with_fractional_costs() -> None:
    """Tables come from the data: a teacher's catalogue with $0.5 tiles is scored exactly."""
    tiles = [
        {
            "id": t.id,
            "name": t.name,
            "kind": t.kind,
            "homes": list(t.homes),
            "cost": str(t.cost + Fraction(1, 2)),
        }
        for t in default_catalogue().values()
    ]
    evaluator = BatchEvaluator(catalogue=catalogue_from_dict({"tile": tiles}))
    assert evaluator.scale == 4
    boards = random_boards(1_000, seed=5, policy_sets=ALL_POLICY_SETS, evaluator=evaluator)
    outputs = evaluator.evaluate(boards).to_dicts()
    for i, output in enumerate(outputs):
        assert output == scalar(evaluator, boards, i, RuleOptions()), i


def test_a_catalogue_too_costly_for_int16_is_scored_in_int64() -> None:
    """The printed catalogue is scored in int16; a catalogue whose sums could overflow it is
    scored in int64, exactly all the same."""
    assert EVALUATOR.dtype == np.int16
    tiles = [
        {"id": t.id, "name": t.name, "kind": t.kind, "homes": list(t.homes), "cost": "999.5"}
        for t in default_catalogue().values()
    ]
    evaluator = BatchEvaluator(catalogue=catalogue_from_dict({"tile": tiles}))
    assert evaluator.dtype == np.int64
    boards = random_boards(120, seed=6, policy_sets=ALL_POLICY_SETS, evaluator=evaluator)
    for i, output in enumerate(evaluator.evaluate(boards).to_dicts()):
        assert output == scalar(evaluator, boards, i, RuleOptions()), i


@pytest.mark.slow
def test_a_custom_layout() -> None:
    """A teacher's board: other tags and phases, 15 existing homes (5 residents per income)."""
    data = read_package_toml("housing_lab.north_berkeley", "layout.toml")
    data["tags"] = {
        "virginia": ["A1", "A2", "A3"],
        "acton": ["C1"],
        "greenway": ["B1", "B2"],
        "corner": ["A1", "C3"],
    }
    data["phases"] = {"1": ["A1", "B1", "C1", "A2", "B2"], "2": ["C2", "A3", "B3", "C3"]}
    data["existing"] = [
        *data["existing"],
        {"id": "house-7", "kind": "house"},
        {"id": "apartment-7", "kind": "apartment"},
        {"id": "apartment-8", "kind": "apartment"},
    ]
    evaluator = BatchEvaluator(layout=layout_from_dict(data))
    assert evaluator.existing_per_income == 5
    boards = random_boards(
        1_000, seed=6, policy_sets=ALL_POLICY_SETS, empty=0.1, evaluator=evaluator
    )
    outputs = evaluator.evaluate(boards).to_dicts()
    for i, output in enumerate(outputs):
        assert output == scalar(evaluator, boards, i, RuleOptions()), i


@pytest.mark.slow
def test_chunks_and_threads_change_nothing() -> None:
    boards = random_boards(CHUNK * 2 + 17, seed=3, policy_sets=ALL_POLICY_SETS)
    one = BatchEvaluator(workers=1).evaluate(boards)
    two = BatchEvaluator(workers=2).evaluate(boards)
    for name in ("spending_units", "new_homes", "housed", "displaced", "outcomes", "plus", "minus"):
        assert np.array_equal(getattr(one, name), getattr(two, name)), name
    assert np.array_equal(one.existing_after_codes(), two.existing_after_codes())
    assert one.to_dicts(slice(CHUNK - 2, CHUNK + 2)) == [
        one.to_dict(i) for i in range(CHUNK - 2, CHUNK + 2)
    ]


@pytest.mark.slow
def test_conservation_on_a_million_boards() -> None:
    result = EVALUATOR.evaluate(random_boards(1_000_000, seed=4, policy_sets=ALL_POLICY_SETS))
    assert (result.housed + result.unhoused == 12).all()
    assert (result.outcomes.sum(axis=2) == 12).all()
    assert (result.displaced[:, 0] == 0).all()
    assert (result.scores == result.plus.astype(int) - result.minus).all()


def test_encoding_round_trip() -> None:
    scenario = make_scenario(
        {"A1": "park", "C2": "tower_social"}, ["adu", "matching_funds"], PLACEMENT, seed=9
    )
    boards = EVALUATOR.encode([scenario])
    assert EVALUATOR.scenario_dict(boards, 0, seed=9) == scenario.to_dict()
    assert policies_of(policy_mask(["adu", "vacancy_control"])) == ["vacancy_control", "adu"]


def test_policy_sets() -> None:
    assert len(GAME_POLICY_SETS) == 10 and all(1 <= len(s) <= 2 for s in GAME_POLICY_SETS)
    assert len(set(ALL_POLICY_SETS)) == 16 and frozenset() in ALL_POLICY_SETS
    assert {p for s in ALL_POLICY_SETS for p in s} == set(POLICIES)


def test_array_facts_hold_every_fact_the_cards_read() -> None:
    fields = set(ArrayFacts.__dataclass_fields__) - {"scale"}
    assert fields == BASE_FACTS
    assert all(card_facts(card) <= fields for card in CARD_IDS)
    assert INCOMES == ("high", "middle", "low")


def test_positional_facts_come_from_the_one_tile_table() -> None:
    """The batch table of every (square, tile) is what `TILE_COUNTS` says the tile adds there."""
    evaluator = default_evaluator()
    for s, square in enumerate(evaluator.squares):
        tags = evaluator.layout.tags_of_square[square]
        for t, tile in enumerate(evaluator.tile_ids):
            row = dict(zip(FEATURES, evaluator.features[s, t].tolist(), strict=True))
            assert {f: row[f] for f in TILE_COUNTS} == tile_counts(evaluator.catalogue[tile], tags)
    greenway = [q for q in evaluator.squares if "greenway" in evaluator.layout.tags_of_square[q]]
    assert greenway == ["C1", "B2", "A3"]


def test_inconsistent_arrays_are_refused() -> None:
    with pytest.raises(ValueError, match="inconsistent"):
        Boards(np.zeros((3, 9), np.uint8), np.zeros(2, np.uint8), np.zeros((3, 12), np.uint8))

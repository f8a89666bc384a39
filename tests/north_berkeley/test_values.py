"""Values, not references: what a caller holds after validation cannot change behind the scores.

Issue 43: a `Model`'s `newcomers` dict could be edited after validation (99 newcomers scored),
and `RULEBOOK.newcomers` too, changing every "rulebook" score in the process. Each object below
is shared or validated once; editing it must raise, and copies must still work."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from housing_lab.north_berkeley import (
    DEFAULT_ASSUMPTIONS,
    RULEBOOK,
    Model,
    make_scenario,
    score_scenario,
)
from housing_lab.north_berkeley.batch.evaluator import default_evaluator
from housing_lab.north_berkeley.layout import default_layout

BOARD = {"B1": "tower_market", "C1": "tower_public", "A1": "midrise_market"}


def test_the_rulebook_cannot_be_edited() -> None:
    housed = score_scenario(make_scenario(BOARD)).to_dict()["housed"]
    with pytest.raises(TypeError):
        RULEBOOK.newcomers["low"] = 99  # type: ignore[index]
    with pytest.raises(AttributeError):
        RULEBOOK.budget = 1  # type: ignore[misc]
    assert RULEBOOK.newcomers["low"] == 8
    assert score_scenario(make_scenario(BOARD)).to_dict()["housed"] == housed


def test_a_validated_model_cannot_be_edited_nor_follow_the_callers_dict() -> None:
    given = {"low": 3}
    model = Model(newcomers=given)
    given["low"] = 16  # the caller's own dict is not the model's
    assert model.newcomers["low"] == 3
    for parsed in (model, Model.from_dict({"newcomers": {"low": 3}})):
        with pytest.raises(TypeError):
            parsed.newcomers["low"] = 99  # type: ignore[index]
    scenario = make_scenario(BOARD, model=model)
    with pytest.raises(TypeError):
        scenario.assumptions.newcomers["low"] = 99  # type: ignore[index]
    assert score_scenario(scenario).to_dict()["model"]["newcomers"]["low"] == 3


def test_models_stay_values_equal_hashable_copyable_and_plain_json() -> None:
    a = Model(newcomers={"low": 3}, market_homes_for=["high"], budget=7.5)
    b = Model.from_dict({"newcomers": {"low": 3}, "market_homes_for": ["high"], "budget": 7.5})
    assert a == b and hash(a) == hash(b) and len({a, b, RULEBOOK}) == 2
    assert a != RULEBOOK
    for twin in (copy.copy(a), copy.deepcopy(a), pickle.loads(pickle.dumps(a))):
        assert twin == a and hash(twin) == hash(a)
        with pytest.raises(TypeError):
            twin.newcomers["low"] = 1  # type: ignore[index]
    assert json.loads(json.dumps(a.to_dict())) == a.to_dict()
    assert type(a.to_dict()["newcomers"]) is dict


def test_a_scenarios_mappings_are_read_only_views_of_private_copies() -> None:
    tiles = dict(BOARD)
    scenario = make_scenario(tiles)
    tiles["B1"] = "park"  # the caller's dict is not the board's
    assert scenario.tiles["B1"] == "tower_market"
    for mapping, key in (
        (scenario.tiles, "B1"),
        (scenario.existing, "house-1"),
        (scenario.catalogue, "park"),
    ):
        with pytest.raises(TypeError):
            mapping[key] = "x"  # type: ignore[index]
    twin = pickle.loads(pickle.dumps(scenario))
    assert twin == scenario and copy.deepcopy(scenario) == scenario
    assert json.loads(scenario.to_json()) == scenario.to_dict()


def test_shared_tables_cannot_be_edited() -> None:
    """`default_layout()` and `default_evaluator()` are built once and shared by every board;
    the robustness table's default settings start with the rulebook."""
    layout = default_layout()
    with pytest.raises(TypeError):
        layout.phases[2] = ()  # type: ignore[index]
    with pytest.raises(TypeError):
        layout.tags["corner"] = frozenset()  # type: ignore[index]
    assert pickle.loads(pickle.dumps(layout)) == layout
    evaluator = default_evaluator()
    with pytest.raises(TypeError):
        evaluator.catalogue["park"] = evaluator.catalogue["tower_public"]  # type: ignore[index]
    with pytest.raises(ValueError):
        evaluator.packed[0] = 0
    with pytest.raises(TypeError):
        DEFAULT_ASSUMPTIONS["The rulebook"] = Model(budget=1)  # type: ignore[index]

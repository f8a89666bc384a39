"""Parsing the RULES.md scenario format: good input round-trips, bad input names the bad value."""

from __future__ import annotations

import json

import pytest

from housing_lab.north_berkeley import scenario_from_dict, scenario_from_json
from housing_lab.north_berkeley.errors import (
    AffordableOnlyError,
    ScenarioFormatError,
    UnknownIdError,
)
from housing_lab.north_berkeley.layout import load_layout
from housing_lab.north_berkeley.scenario import shuffled_existing
from housing_lab.north_berkeley.tiles import default_catalogue

from .helpers import PLACEMENT


def test_catalogue_and_layout_match_rules() -> None:
    tiles = default_catalogue()
    assert len(tiles) == 15
    assert tiles["tower_social"].homes == ("low", "middle", "middle", "market")
    assert str(tiles["tower_public"].cost) == "6"
    layout = load_layout()
    assert layout.phases[1] == ("B1", "C1", "B2", "C2")
    assert layout.houses == tuple(f"house-{i}" for i in range(1, 7))
    assert layout.apartments == tuple(f"apartment-{i}" for i in range(1, 7))


def test_round_trip() -> None:
    data = {
        "tiles": {"A1": "tower_market", "C3": "park"},
        "policies": ["adu"],
        "existing": PLACEMENT,
        "seed": 7,
    }
    scenario = scenario_from_dict(data)
    assert scenario_from_json(scenario.to_json()) == scenario
    assert scenario.to_dict()["existing"] == PLACEMENT


def test_existing_absent_is_shuffled_with_the_seed() -> None:
    a = scenario_from_dict({"seed": 11})
    assert a.existing == shuffled_existing(load_layout(), 11)
    assert sorted(a.existing.values()).count("low") == 4
    assert scenario_from_dict({"seed": 11}).existing == a.existing
    assert any(scenario_from_dict({"seed": s}).existing != a.existing for s in range(12, 20))


@pytest.mark.parametrize(
    ("data", "error", "names"),
    [
        ({"tiles": {"D4": "park"}}, UnknownIdError, "'D4'"),
        ({"tiles": {"A1": "skyscraper"}}, UnknownIdError, "'skyscraper'"),
        ({"policies": ["rent_control"]}, UnknownIdError, "'rent_control'"),
        ({"policies": "adu"}, ScenarioFormatError, "'adu'"),
        ({"policies": ["adu", "adu"]}, ScenarioFormatError, "Accessory Dwelling Units is listed"),
        ({"existing": dict(PLACEMENT, **{"house-1": "rich"})}, UnknownIdError, "'rich'"),
        ({"existing": dict(PLACEMENT, **{"house-9": "low"})}, UnknownIdError, "'house-9'"),
        (
            {"existing": {k: v for k, v in PLACEMENT.items() if k != "house-2"}},
            ScenarioFormatError,
            "'house-2'",
        ),
        ({"existing": dict(PLACEMENT, **{"house-1": "high"})}, ScenarioFormatError, "5 high"),
        ({"seed": "seven"}, ScenarioFormatError, "'seven'"),
        (
            {"tiles": {"A1": "tower_market"}, "policies": ["affordable_100"]},
            AffordableOnlyError,
            "A1 (Market Rate Tower)",
        ),
        ({"tiels": {}}, ScenarioFormatError, "'tiels'"),
        ([1, 2], ScenarioFormatError, "[1, 2]"),
    ],
)
def test_bad_input_names_the_bad_value(data: object, error: type, names: str) -> None:
    with pytest.raises(error) as raised:
        scenario_from_dict(data)
    message = str(raised.value)
    assert names in message
    assert "\n" not in message


def test_malformed_json() -> None:
    with pytest.raises(ScenarioFormatError, match="malformed JSON"):
        scenario_from_json('{"tiles": ')


def test_custom_layout_file(tmp_path) -> None:
    from housing_lab._data import read_package_toml

    text = tmp_path / "board.toml"
    original = read_package_toml("housing_lab.north_berkeley", "layout.toml")
    # a teacher's board where the Greenway runs the other diagonal
    source = (
        "name = 'Mirror'\n"
        f"squares = {json.dumps(original['squares'])}\n"
        "[phases]\n1 = ['B1', 'C1', 'B2', 'C2']\n2 = ['A1', 'A2', 'A3', 'B3', 'C3']\n"
        "[tags]\nvirginia = ['A1', 'B1']\nacton = ['A1', 'A2', 'A3']\n"
        "greenway = ['A1', 'B2', 'C3']\ncorner = ['A1', 'C1', 'A3', 'C3']\n"
    )
    homes = "".join(f"[[existing]]\nid = '{h}'\nkind = '{h.split('-')[0]}'\n" for h in PLACEMENT)
    text.write_text(source + homes)
    layout = load_layout(text)
    assert layout.name == "Mirror" and layout.tags["greenway"] == {"A1", "B2", "C3"}
    from housing_lab.north_berkeley.engine.scoring import score_scenario
    from housing_lab.north_berkeley.scenario import make_scenario

    scenario = make_scenario({"A1": "tower_market", "C1": "tower_market"}, [], PLACEMENT, 0, layout)
    assert score_scenario(scenario).facts.greenway_homes == 4


def test_bad_layout_file(tmp_path) -> None:
    from housing_lab._data import DataFileError

    bad = tmp_path / "bad.toml"
    bad.write_text(
        "squares = ['A1']\n[phases]\n1 = ['A1']\n2 = ['Z9']\n[tags]\n"
        "[[existing]]\nid = 'house-1'\nkind = 'house'\n"
    )
    with pytest.raises(DataFileError, match=r"phases \['A1', 'Z9'\]"):
        load_layout(bad)
    bad.write_text("squares = ['A1']\n")
    with pytest.raises(DataFileError, match="missing entry 'phases'"):
        load_layout(bad)
    with pytest.raises(DataFileError, match="cannot read"):
        load_layout(tmp_path / "missing.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("squares = [")
    with pytest.raises(DataFileError, match="not valid TOML"):
        load_layout(broken)


@pytest.mark.parametrize("seed", [10**30, -(2**70), "7", 1.5, True])
def test_a_seed_goes_through_the_one_seed_check(seed) -> None:
    """A scenario's and the solver's seed: a whole number that a saved file can hold (the
    same check as the game's and the widgets'), else one line naming it."""
    from housing_lab.north_berkeley import make_scenario, solve

    with pytest.raises(ScenarioFormatError, match="'seed' must be"):
        make_scenario(seed=seed)
    with pytest.raises(ScenarioFormatError, match="'seed' must be"):
        solve(["developer"], seed=seed)

"""Board facts computed from real boards: the inputs every card reads."""

from __future__ import annotations

from housing_lab.north_berkeley.engine.scoring import score_as_is, score_scenario
from housing_lab.north_berkeley.scenario import make_scenario

from .helpers import PLACEMENT


def facts(tiles: dict[str, str], policies: list[str] | None = None):
    return score_scenario(make_scenario(tiles, policies or [], PLACEMENT)).facts


def test_tags_on_the_default_board() -> None:
    f = facts({"A1": "townhouse_market", "B1": "midrise_market"})
    assert f.tall_on_virginia and not f.tower_on_virginia_or_acton
    assert facts({"A2": "tower_market"}).tower_on_virginia_or_acton  # Acton
    assert not facts({"C1": "tower_market"}).tower_on_virginia_or_acton  # station corner
    assert facts({"C1": "tower_market"}).tower_on_corner
    assert not facts({"B2": "tower_market"}).tower_on_corner


def test_greenway_homes_count_quadrants_on_c1_b2_a3() -> None:
    f = facts(
        {"C1": "tower_market", "B2": "tower_public", "A3": "midrise_market", "A1": "tower_market"}
    )
    assert f.greenway_homes == 10


def test_corner_townhouses_and_tall_squares() -> None:
    f = facts(
        {
            "A1": "townhouse_low",
            "C1": "townhouse_market",
            "A3": "townhouse_middle",
            "C3": "tower_market",
            "B2": "midrise_public",
        }
    )
    assert f.corner_townhouses == 3 and f.tall_squares == 2 and f.towers == 1


def test_every_housing_square_affordable_ignores_parks_and_garages() -> None:
    assert facts({"A1": "park", "B1": "tower_inclusionary_25"}).every_housing_square_affordable
    assert not facts({"A1": "midrise_market", "B1": "tower_public"}).every_housing_square_affordable
    assert facts({}).every_housing_square_affordable  # no housing at all: nothing fails


def test_houses_all_high_counts_adu_residents() -> None:
    # 8 market homes + ADUs under vacancy control: the ADU slots get middles -> not all high
    f = facts({"A1": "tower_market", "B1": "tower_market"}, ["adu", "vacancy_control"])
    assert not f.houses_all_high
    # enough market homes nowhere, no vacancy control: highs take every house
    assert facts({}).houses_all_high


def test_apartments_middle_or_high() -> None:
    assert not facts({}, ["vacancy_control"]).apartments_middle_or_high  # lows stay put
    assert facts({}).apartments_middle_or_high  # highs displaced them all


def test_score_as_is_sees_only_the_existing_residents() -> None:
    scenario = make_scenario({"B1": "tower_public", "C1": "tower_public"}, [], PLACEMENT)
    cards = score_as_is(scenario)
    # 4 low residents housed now: Affordable Housing Orgs are at -1 (< 6), Property Values +1
    assert cards["affordable_housing_orgs"].minus
    assert cards["property_values"].plus
    assert cards["fiscal_conservatives"].minus  # spending 12 is a board fact

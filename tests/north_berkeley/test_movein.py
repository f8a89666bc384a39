"""Every move-in step on hand-built boards, with the fixed placement from helpers.PLACEMENT:

houses:     1 low, 2 middle, 3 high, 4 low, 5 middle, 6 high
apartments: 1 low, 2 middle, 3 high, 4 low, 5 middle, 6 high
"""

from __future__ import annotations

import re

import pytest

from housing_lab.north_berkeley.engine.movein import PROGRESS
from housing_lab.north_berkeley.engine.scoring import score_scenario
from housing_lab.north_berkeley.errors import IllegalActionError
from housing_lab.north_berkeley.policies import RuleOptions
from housing_lab.north_berkeley.scenario import make_scenario

from .helpers import PLACEMENT


def run(tiles: dict[str, str], policies: list[str] | None = None, **options: bool):
    scenario = make_scenario(tiles, policies or [], PLACEMENT)
    return score_scenario(scenario, RuleOptions(**options))


def test_empty_board_high_income_displace_houses_then_apartments_low_first() -> None:
    result = run({})
    out = result.to_dict()
    assert out["housed"] == {"high": 12, "middle": 0, "low": 0}
    assert out["displaced"] == {"high": 0, "middle": 4, "low": 4}
    displaced = [e.home for e in result.move_in.events if e.kind == "displaced"]
    # lowest income first, then layout order; houses before apartments
    assert displaced == [
        "house-1",
        "house-4",
        "house-2",
        "house-5",
        "apartment-1",
        "apartment-4",
        "apartment-2",
        "apartment-5",
    ]
    assert all(income == "high" for income in out["existing_after"].values())
    assert out["outcomes"]["middle"] == {
        "stayed": 0,
        "newcomer_housed": 0,
        "rehoused": 0,
        "displaced_left": 4,
        "newcomer_left": 8,
    }


def test_vacancy_control_forbids_every_displacement() -> None:
    out = run({}, ["vacancy_control"]).to_dict()
    assert out["housed"] == {"high": 4, "middle": 4, "low": 4}
    assert out["displaced"] == {"high": 0, "middle": 0, "low": 0}
    assert out["existing_after"] == PLACEMENT


def test_adu_slots_take_high_income_first_in_house_order() -> None:
    result = run({}, ["adu"])
    out = result.to_dict()
    assert [out["existing_after"][f"adu-{i}"] for i in range(1, 7)] == ["high"] * 6
    # 6 highs in ADUs, the other 2 displace the low residents of house-1 and house-4;
    # middle newcomers then displace the low residents of apartment-1 and apartment-4.
    assert out["existing_after"]["house-1"] == out["existing_after"]["house-4"] == "high"
    assert out["existing_after"]["apartment-1"] == "middle"
    assert out["existing_after"]["apartment-4"] == "middle"
    assert out["housed"] == {"high": 12, "middle": 6, "low": 0}
    steps = [e.step for e in result.move_in.events if e.kind == "placed"][:6]
    assert steps == ["high:adu"] * 6


def test_adu_slots_absent_from_existing_after_without_adu() -> None:
    out = run({}).to_dict()
    assert not any(home.startswith("adu-") for home in out["existing_after"])


def test_middle_income_takes_vacant_adu_after_new_homes() -> None:
    # 8 market homes take all the highs; middles: no middle homes, market full, so ADUs.
    out = run({"A1": "tower_market", "B1": "tower_market"}, ["adu", "vacancy_control"]).to_dict()
    assert [out["existing_after"][f"adu-{i}"] for i in range(1, 7)] == ["middle"] * 6
    assert out["housed"] == {"high": 12, "middle": 10, "low": 4}


def test_market_towers_then_middles_displace_low_residents() -> None:
    result = run({"A1": "tower_market", "B1": "tower_market"})
    out = result.to_dict()
    assert out["housed"] == {"high": 12, "middle": 8, "low": 0}
    by_middle = [
        e.home
        for e in result.move_in.events
        if e.kind == "displaced" and e.step.startswith("middle")
    ]
    assert by_middle == ["house-1", "house-4", "apartment-1", "apartment-4"]


def test_middle_homes_first_then_vacant_market_homes() -> None:
    tiles = {
        "A1": "tower_workforce",
        "B1": "tower_market",
        "C1": "tower_market",
        "A2": "tower_market",
        "B2": "midrise_market",
    }  # 4 middle, 14 market
    result = run(tiles, ["vacancy_control"])
    placed = [
        (e.step, e.home)
        for e in result.move_in.events
        if e.kind == "placed" and e.income == "middle"
    ]
    assert [home for _, home in placed[:4]] == ["A1-1", "A1-2", "A1-3", "A1-4"]
    assert {step for step, _ in placed[4:]} == {"middle:new_market"}
    assert len(placed) == 8


def test_low_income_fill_low_then_middle_then_market_vacancies() -> None:
    tiles = {
        "A1": "tower_public",
        "B1": "tower_workforce",
        "C1": "tower_market",
        "A2": "tower_market",
        "B2": "tower_market",
        "C2": "midrise_market",
    }
    out = run(tiles, ["vacancy_control"]).to_dict()
    # 14 market: 8 high + 4 middle (after 4 middle homes); 2 market left for low, plus 4 low.
    assert out["housed"] == {"high": 12, "middle": 12, "low": 10}
    assert out["unhoused"] == {"high": 0, "middle": 0, "low": 2}


def test_low_income_do_not_take_adu_slots_unless_the_option_says_so() -> None:
    tiles = {
        "A1": "tower_market",
        "B1": "tower_market",
        "C1": "tower_workforce",
        "B2": "tower_workforce",
    }
    policies = ["adu", "vacancy_control"]
    default = run(tiles, policies).to_dict()
    assert [default["existing_after"][f"adu-{i}"] for i in range(1, 7)] == [None] * 6
    assert default["housed"]["low"] == 4
    option = run(tiles, policies, low_income_in_adus=True).to_dict()
    assert [option["existing_after"][f"adu-{i}"] for i in range(1, 7)] == ["low"] * 6
    assert option["housed"]["low"] == 10


def test_displaced_residents_look_first_unless_newcomers_first() -> None:
    # 2 middle homes; highs displace 2 middle residents of houses (after the 2 lows).
    tiles = {"A1": "midrise_workforce"}
    first = run(tiles).to_dict()["outcomes"]["middle"]
    assert first["rehoused"] == 2 and first["newcomer_housed"] == 0
    later = run(tiles, displaced_first=False).to_dict()["outcomes"]["middle"]
    assert later["rehoused"] == 0 and later["newcomer_housed"] == 2
    assert run(tiles).to_dict()["housed"] == run(tiles, displaced_first=False).to_dict()["housed"]


def test_matching_funds_halve_housing_from_seven_low_homes() -> None:
    seven = {"A1": "tower_public", "B1": "midrise_public", "C1": "townhouse_low", "A2": "park"}
    assert run(seven, ["matching_funds"]).to_dict()["spending"] == 5.5  # (6+2+1)/2 + 1
    assert run(seven).to_dict()["spending"] == 10
    six = {"A1": "tower_public", "B1": "midrise_public", "A2": "park"}
    assert run(six, ["matching_funds"]).to_dict()["spending"] == 9
    garages = dict(seven, B2="garage", C2="garage")
    assert run(garages, ["matching_funds"]).to_dict()["spending"] == 7.5


def test_affordable_100_refuses_market_tile_on_phase_two_square() -> None:
    from housing_lab.north_berkeley.errors import AffordableOnlyError

    with pytest.raises(AffordableOnlyError, match=r"A3 \(Market Rate Midrise\)$"):
        make_scenario({"A3": "midrise_market", "B1": "tower_market"}, ["affordable_100"], PLACEMENT)
    # phase-1 squares may keep market tiles
    make_scenario({"B1": "tower_market", "A3": "tower_workforce"}, ["affordable_100"], PLACEMENT)


def progress(
    stayed: int = 0,
    newcomer_housed: int = 0,
    rehoused: int = 0,
    displaced_left: int = 0,
    newcomer_left: int = 0,
    displaced_waiting: int = 0,
    newcomer_waiting: int = 0,
) -> dict[str, int]:
    counts = dict(locals())
    assert tuple(counts) == PROGRESS
    return counts


def test_empty_board_wave_by_wave() -> None:
    """High income displaces 8 (16 events); middle and low find nothing (12 leave each)."""
    move_in = run({}).move_in
    assert move_in.wave_bounds() == (0, 16, 28, 40)
    assert move_in.newcomers() == {"high": 8, "middle": 8, "low": 8}
    assert move_in.outcomes_after(0) == {
        "high": progress(stayed=4, newcomer_waiting=8),
        "middle": progress(stayed=4, newcomer_waiting=8),
        "low": progress(stayed=4, newcomer_waiting=8),
    }
    assert move_in.outcomes_after(16) == {
        "high": progress(stayed=4, newcomer_housed=8),
        "middle": progress(displaced_waiting=4, newcomer_waiting=8),
        "low": progress(displaced_waiting=4, newcomer_waiting=8),
    }
    assert move_in.outcomes_after(28)["middle"] == progress(displaced_left=4, newcomer_left=8)
    assert move_in.outcomes_after(28)["low"] == progress(displaced_waiting=4, newcomer_waiting=8)
    # the first event: high-5, the first newcomer, displaces low-1 from house-1
    assert move_in.occupancy_after(0)["house-1"] == "low-1"
    assert move_in.occupancy_after(1)["house-1"] is None
    assert move_in.occupancy_after(2)["house-1"] == "high-5"
    assert move_in.outcomes_after(1)["low"] == progress(
        stayed=3, displaced_waiting=1, newcomer_waiting=8
    )
    assert move_in.incomes_after(0) == PLACEMENT
    assert move_in.incomes_after(16) == dict.fromkeys(PLACEMENT, "high")


def test_occupancy_after_replays_to_the_final_placement() -> None:
    move_in = run({"A1": "tower_inclusionary_50", "C3": "midrise_workforce"}, ["adu"]).move_in
    assert move_in.occupancy_after() == move_in.occupancy_after(len(move_in.events))
    assert move_in.occupancy_after() == move_in.occupants
    assert move_in.occupancy_after(0) == {
        **dict.fromkeys(move_in.occupants),
        **move_in.initial,
    }
    assert move_in.occupancy_after(0)["adu-1"] is None
    assert move_in.occupancy_after()["adu-1"] is not None
    frames = move_in.incomes_by_step()  # the replay's frames, in one pass
    assert frames == [move_in.incomes_after(n) for n in range(len(move_in.events) + 1)]
    assert frames[-1] != frames[0]


@pytest.mark.parametrize("count", [-1, 41, 2.0, True, "3"])
def test_move_in_queries_refuse_counts_outside_the_log(count: object) -> None:
    move_in = run({}).move_in  # 40 events
    for query in (move_in.occupancy_after, move_in.incomes_after, move_in.outcomes_after):
        with pytest.raises(
            IllegalActionError, match=re.escape(f"40 events; cannot show the state after {count!r}")
        ):
            query(count)  # type: ignore[arg-type]


PUBLIC_HOUSING = {
    "B1": "tower_public",
    "C1": "tower_public",
    "B2": "midrise_public",
    "C2": "townhouse_low",
    "A1": "park",
    "A2": "midrise_public",
    "A3": "tower_public",
    "B3": "townhouse_low",
    "C3": "park",
}


@pytest.mark.parametrize(("policies", "empty_low"), [([], 6), (["vacancy_control"], 10)])
def test_vacant_counts_the_public_housing_homes_nobody_fills(
    policies: list[str], empty_low: int
) -> None:
    """Lesson 03's public housing board: 18 low income homes, 12 low income residents at most
    (fewer to fill them once vacancy control stops displacement)."""
    out = score_scenario(make_scenario(PUBLIC_HOUSING, policies, seed=3)).to_dict()
    assert out["new_homes"]["low"] == 18
    assert out["vacant"] == {"market": 0, "middle": 0, "low": empty_low, "adu": 0}
    assert out["outcomes"]["middle"]["newcomer_left"] == 8  # no home a middle income can take


def test_vacant_adu_slots_unless_low_income_may_take_them() -> None:
    # 12 new market homes: 8 high income newcomers take 8, the 8 middle income newcomers take
    # the other 4 and 4 of the 6 ADU slots; low income does not take ADUs by default
    towers = {"A1": "tower_market", "B1": "tower_market", "C1": "tower_market"}
    out = run(towers, ["adu", "vacancy_control"]).to_dict()
    assert out["vacant"] == {"market": 0, "middle": 0, "low": 0, "adu": 2}
    out = run(towers, ["adu", "vacancy_control"], low_income_in_adus=True).to_dict()
    assert out["vacant"]["adu"] == 0
    assert run(towers, ["vacancy_control"]).to_dict()["vacant"]["adu"] == 0  # no ADU policy


def test_vacant_equals_the_empty_homes_of_the_final_board() -> None:
    for tiles, policies in [
        ({}, []),
        ({}, ["adu"]),
        ({"A1": "tower_market", "B1": "midrise_workforce"}, ["adu", "vacancy_control"]),
        (PUBLIC_HOUSING, ["adu"]),
    ]:
        move_in = run(tiles, policies).move_in
        types = {home.id: home.type for home in move_in.new_homes}
        types.update(dict.fromkeys(move_in.adu_slots, "adu"))
        empty = [types[h] for h, r in move_in.occupancy_after().items() if r is None]
        vacant = move_in.vacant()
        assert sum(vacant.values()) == len(empty)
        assert all(vacant[kind] == empty.count(kind) for kind in vacant)


def test_vacant_kinds_have_names_a_student_reads() -> None:
    from housing_lab.north_berkeley.engine.movein import VACANT_KEYS
    from housing_lab.north_berkeley.names import vacant_rows

    vacant = score_scenario(make_scenario(PUBLIC_HOUSING, [], seed=3)).to_dict()["vacant"]
    rows = vacant_rows(vacant)
    assert list(vacant) == list(VACANT_KEYS)
    assert rows["new low income homes"] == 6 and len(rows) == len(VACANT_KEYS)

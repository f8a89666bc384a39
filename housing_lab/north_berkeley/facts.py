"""Board facts: the handful of numbers every constituent card is decided by.

Computing them once and letting each card read them keeps every card a one-line condition and
lets the batch evaluator (later) compute the same facts for many boards at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from housing_lab.north_berkeley.policies import (
    INCOMES,
    MATCHING_FUNDS,
    MATCHING_FUNDS_LOW_HOMES,
    VACANCY_CONTROL,
)
from housing_lab.north_berkeley.scenario import Scenario

HOUSING_KINDS = ("tower", "midrise", "townhouse")
TALL_KINDS = ("tower", "midrise")


def new_home_counts(scenario: Scenario) -> dict[str, int]:
    counts = {"market": 0, "middle": 0, "low": 0}
    for tile_id in scenario.tiles.values():
        for home in scenario.catalogue[tile_id].homes:
            counts[home] += 1
    counts["total"] = counts["market"] + counts["middle"] + counts["low"]
    return counts


def spending(scenario: Scenario) -> Fraction:
    """Sum of tile costs; with matching funds and >= 7 low homes, housing tiles cost half."""
    halve = (
        MATCHING_FUNDS in scenario.policies
        and new_home_counts(scenario)["low"] >= MATCHING_FUNDS_LOW_HOMES
    )
    total = Fraction(0)
    for tile_id in scenario.tiles.values():
        tile = scenario.catalogue[tile_id]
        total += tile.cost / 2 if halve and tile.is_housing else tile.cost
    return total


@dataclass(frozen=True)
class BoardFacts:
    spending: Fraction
    new_homes: Mapping[str, int]  # market, middle, low, total
    housed: Mapping[str, int]  # high, middle, low
    towers: int
    garages: int
    parks: int
    tall_squares: int  # squares with a midrise or tower
    greenway_homes: int
    tall_on_virginia: bool  # a tower or midrise on a Virginia square
    tower_on_virginia_or_acton: bool
    corner_townhouses: int
    tower_on_corner: bool
    every_housing_square_affordable: bool  # each square with housing has a low/middle home
    apartments_middle_or_high: bool
    houses_all_high: bool  # every resident of an existing house or ADU is high income
    vacancy_control: bool

    @property
    def housed_total(self) -> int:
        return sum(self.housed.values())


def board_facts(scenario: Scenario, occupancy: Mapping[str, str | None]) -> BoardFacts:
    """Facts of `scenario` with `occupancy` (home id -> income or None) as who lives where."""
    layout, catalogue = scenario.layout, scenario.catalogue
    placed = {square: catalogue[tile] for square, tile in scenario.tiles.items()}

    def kind_on(tag: str, kinds: tuple[str, ...]) -> bool:
        return any(t.kind in kinds for s, t in placed.items() if layout.has_tag(s, tag))

    housed = dict.fromkeys(INCOMES, 0)
    for income in occupancy.values():
        if income is not None:
            housed[income] += 1
    house_homes = set(layout.houses) | set(layout.adu_slots)
    return BoardFacts(
        spending=spending(scenario),
        new_homes=new_home_counts(scenario),
        housed=housed,
        towers=sum(t.kind == "tower" for t in placed.values()),
        garages=sum(t.kind == "garage" for t in placed.values()),
        parks=sum(t.kind == "park" for t in placed.values()),
        tall_squares=sum(t.kind in TALL_KINDS for t in placed.values()),
        greenway_homes=sum(
            len(t.homes) for s, t in placed.items() if layout.has_tag(s, "greenway")
        ),
        tall_on_virginia=kind_on("virginia", TALL_KINDS),
        tower_on_virginia_or_acton=kind_on("virginia", ("tower",)) or kind_on("acton", ("tower",)),
        corner_townhouses=sum(
            t.kind == "townhouse" for s, t in placed.items() if layout.has_tag(s, "corner")
        ),
        tower_on_corner=kind_on("corner", ("tower",)),
        every_housing_square_affordable=all(
            t.count("low") + t.count("middle") > 0 for t in placed.values() if t.is_housing
        ),
        apartments_middle_or_high=all(
            occupancy.get(home) in ("middle", "high") for home in layout.apartments
        ),
        houses_all_high=all(occupancy.get(home) in (None, "high") for home in house_homes),
        vacancy_control=VACANCY_CONTROL in scenario.policies,
    )

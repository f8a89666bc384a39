"""Board facts: the handful of numbers every constituent card is decided by.

Computing them once and letting each card read them keeps every card a few clauses of data
(`card_rules`). The counted facts are sums of what each tile adds on its square
(`card_rules.TILE_COUNTS`), the same table the batch evaluator adds up for many boards.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from housing_lab.north_berkeley.engine import legal
from housing_lab.north_berkeley.engine.card_rules import TILE_COUNTS, fact_value, tile_counts
from housing_lab.north_berkeley.engine.scenario_view import ScenarioView
from housing_lab.north_berkeley.policies import INCOMES, VACANCY_CONTROL


def board_counts(scenario: ScenarioView) -> dict[str, int]:
    """Every counted fact of the board: what each placed tile adds on its square, summed."""
    counts = dict.fromkeys(TILE_COUNTS, 0)
    for square, tile_id in scenario.tiles.items():
        tags = scenario.layout.tags_of_square[square]
        for name, value in tile_counts(scenario.catalogue[tile_id], tags).items():
            counts[name] += value
    return counts


def new_home_counts(counts: Mapping[str, int]) -> dict[str, int]:
    """New homes by type (market, middle, low, total) from the board's counts."""
    homes = {kind: counts[f"new_{kind}"] for kind in ("market", "middle", "low")}
    return {**homes, "total": sum(homes.values())}


@dataclass(frozen=True)
class BoardFacts:
    spending: Fraction
    new_homes: Mapping[str, int]  # market, middle, low, total
    housed: Mapping[str, int]  # high, middle, low
    unhoused: Mapping[str, int]  # high, middle, low: residents of each income left homeless
    towers: int
    garages: int
    parks: int
    tall_squares: int  # squares with a midrise or tower
    greenway_homes: int
    tall_on_virginia: int  # towers and midrises on Virginia squares
    tower_on_virginia_or_acton: int  # towers on Virginia or Acton squares
    corner_townhouses: int
    tower_on_corner: int  # towers on corner squares
    every_housing_square_affordable: bool  # each square with housing has a low/middle home
    apartments_middle_or_high: bool
    houses_all_high: bool  # every resident of an existing house or ADU is high income
    vacancy_control: bool

    @property
    def housed_total(self) -> int:
        return sum(self.housed.values())

    def value(self, fact: str) -> int | Fraction:
        """Any fact a card declaration names (`card_rules`), derived relations included."""
        return fact_value(fact, self._base)

    def _base(self, name: str) -> int | Fraction:
        """A base fact, read once per board (the 22 cards read some several times)."""
        known = self._known
        if name not in known:
            known[name] = _READERS[name](self)
        return known[name]

    @functools.cached_property
    def _known(self) -> dict[str, int | Fraction]:
        return {}


def _counted(name: str) -> Callable[[BoardFacts], int]:
    return lambda facts: int(getattr(facts, name))


# Flat fact name (as the declarations and the batch evaluator spell it) -> how to read it here.
_READERS: dict[str, Callable[[BoardFacts], int | Fraction]] = {
    **{name: _counted(name) for name in TILE_COUNTS},
    **{f"new_{kind}": (lambda f, k=kind: f.new_homes[k]) for kind in ("market", "middle", "low")},
    "new_total": lambda f: f.new_homes["total"],
    **{f"housed_{income}": (lambda f, i=income: f.housed[i]) for income in INCOMES},
    "unhoused_middle": lambda f: f.unhoused["middle"],
    "unhoused_low": lambda f: f.unhoused["low"],
    # kept here as yes/no: 0 when every square with housing has a low or middle home
    "market_only_squares": lambda f: int(not f.every_housing_square_affordable),
    "spending": lambda f: f.spending,
    "apartments_middle_or_high": _counted("apartments_middle_or_high"),
    "houses_all_high": _counted("houses_all_high"),
    "vacancy_control": _counted("vacancy_control"),
}


def board_facts(scenario: ScenarioView, occupancy: Mapping[str, str | None]) -> BoardFacts:
    """Facts of `scenario` with `occupancy` (home id -> income or None) as who lives where."""
    layout = scenario.layout
    counts = board_counts(scenario)
    housed = dict.fromkeys(INCOMES, 0)
    for income in occupancy.values():
        if income is not None:
            housed[income] += 1
    house_homes = set(layout.houses) | set(layout.adu_slots)
    model = scenario.assumptions
    per_income = len(layout.existing_ids) // len(INCOMES)  # each income starts with as many
    return BoardFacts(
        spending=legal.spending(
            scenario.tiles, scenario.policies, scenario.catalogue, counts["new_low"]
        ),
        new_homes=new_home_counts(counts),
        housed=housed,
        unhoused={
            income: model.residents_of(income, existing=per_income) - housed[income]
            for income in INCOMES
        },
        towers=counts["towers"],
        garages=counts["garages"],
        parks=counts["parks"],
        tall_squares=counts["tall_squares"],
        greenway_homes=counts["greenway_homes"],
        tall_on_virginia=counts["tall_on_virginia"],
        tower_on_virginia_or_acton=counts["tower_on_virginia_or_acton"],
        corner_townhouses=counts["corner_townhouses"],
        tower_on_corner=counts["tower_on_corner"],
        every_housing_square_affordable=counts["market_only_squares"] == 0,
        apartments_middle_or_high=all(
            occupancy.get(home) in ("middle", "high") for home in layout.apartments
        ),
        houses_all_high=all(occupancy.get(home) in (None, "high") for home in house_homes),
        vacancy_control=VACANCY_CONTROL in scenario.policies,
    )

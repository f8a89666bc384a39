"""Move-in and the 22 cards as array formulas, shared by the batch evaluator and the solver.

The scalar move-in (`movein.py`) places residents one by one; every step there fills the first
vacant homes of a kind from the front of a pool, so the number placed at each step is a `min` of
the pool left and the homes left. Those closed forms are what this module computes, for whole
arrays of boards at once. Exact agreement with the scalar engine is a test, not a hope.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from housing_lab.north_berkeley.constituents import CARD_IDS

Array = np.ndarray


@dataclass(frozen=True)
class MoveInCounts:
    """How many residents each move-in step placed or displaced (arrays, one entry per board).

    `high_*`, `middle_*`, `low_*` name the income moving; `*_house_low` etc. name whom they
    displaced from where (houses before apartments, lowest income first, as the rules order it).
    """

    newcomers: int
    existing_per_income: int
    high_market: Array
    high_adu: Array
    high_house_low: Array
    high_house_middle: Array
    high_apartment_low: Array
    high_apartment_middle: Array
    middle_middle: Array
    middle_market: Array
    middle_adu: Array
    middle_house_low: Array
    middle_apartment_low: Array
    low_new: Array
    low_adu: Array
    left: tuple[Array, Array, Array]  # high, middle, low residents who found no home

    def housed(self) -> tuple[Array, Array, Array]:
        total = self.newcomers + self.existing_per_income
        return tuple(total - left for left in self.left)  # type: ignore[return-value]

    def displaced(self) -> tuple[Array, Array, Array]:
        middle = self.high_house_middle + self.high_apartment_middle
        low = (
            self.high_house_low
            + self.high_apartment_low
            + self.middle_house_low
            + self.middle_apartment_low
        )
        return np.zeros_like(middle), middle, low

    def outcomes(self, displaced_first: bool) -> list[tuple[Array, ...]]:
        """Per income: stayed, newcomer_housed, rehoused, displaced_left, newcomer_left.

        The pool holds displaced residents then newcomers (or the reverse), and the first
        `placed` of the pool find a home: only that split depends on `displaced_first`.
        """
        table = []
        for displaced, left in zip(self.displaced(), self.left, strict=True):
            placed = self.newcomers + displaced - left
            if displaced_first:
                rehoused = np.minimum(displaced, placed)
                newcomer_housed = placed - rehoused
            else:
                newcomer_housed = np.minimum(self.newcomers, placed)
                rehoused = placed - newcomer_housed
            table.append(
                (
                    self.existing_per_income - displaced,
                    newcomer_housed,
                    rehoused,
                    displaced - rehoused,
                    self.newcomers - newcomer_housed,
                )
            )
        return table

    def apartments_middle_or_high(self, apartment_low: Array) -> Array:
        """Landlords' +1: no low income resident is left in an existing apartment."""
        return apartment_low - self.high_apartment_low - self.middle_apartment_low == 0

    def houses_all_high(self, house_low: Array, house_middle: Array) -> Array:
        """Speculators' +1: every resident of a house or ADU is high income."""
        low_left = house_low - self.high_house_low - self.middle_house_low
        middle_in = house_middle - self.high_house_middle + self.middle_house_low
        return (low_left == 0) & (middle_in == 0) & (self.middle_adu == 0) & (self.low_adu == 0)


def move_in_counts(
    market: Array,
    middle: Array,
    low: Array,
    adu_slots: Array,
    can_displace: Array,
    house_low: Array,
    house_middle: Array,
    apartment_low: Array,
    apartment_middle: Array,
    *,
    newcomers: int = 8,
    existing_per_income: int = 4,
    low_income_in_adus: bool = False,
) -> MoveInCounts:
    """The move-in of RULES.md as counts: new homes by type, ADU slots (0 without `adu`), whether
    displacing is allowed (no `vacancy_control`) and who lives in the houses and apartments."""
    mini = np.minimum
    keep = can_displace.astype(market.dtype) if can_displace.dtype == bool else can_displace

    # High income: new market homes, ADU slots, then displace (houses, then apartments).
    high_market = mini(newcomers, market)
    rest = newcomers - high_market
    high_adu = mini(rest, adu_slots)
    rest = rest - high_adu
    high_house_low = mini(rest, house_low) * keep
    rest = rest - high_house_low
    high_house_middle = mini(rest, house_middle) * keep
    rest = rest - high_house_middle
    high_apartment_low = mini(rest, apartment_low) * keep
    rest = rest - high_apartment_low
    high_apartment_middle = mini(rest, apartment_middle) * keep
    high_left = rest - high_apartment_middle

    # Middle income: newcomers and displaced middles.
    rest = newcomers + high_house_middle + high_apartment_middle
    middle_middle = mini(rest, middle)
    rest = rest - middle_middle
    market_vacant = market - high_market
    middle_market = mini(rest, market_vacant)
    rest = rest - middle_market
    adu_vacant = adu_slots - high_adu
    middle_adu = mini(rest, adu_vacant)
    rest = rest - middle_adu
    middle_house_low = mini(rest, house_low - high_house_low) * keep
    rest = rest - middle_house_low
    middle_apartment_low = mini(rest, apartment_low - high_apartment_low) * keep
    middle_left = rest - middle_apartment_low

    # Low income: newcomers and displaced lows, into any vacant new home (then ADUs, optionally).
    rest = newcomers + high_house_low + high_apartment_low + middle_house_low + middle_apartment_low
    vacant = low + (middle - middle_middle) + (market_vacant - middle_market)
    low_new = mini(rest, vacant)
    rest = rest - low_new
    if low_income_in_adus:
        low_adu = mini(rest, adu_vacant - middle_adu)
        rest = rest - low_adu
    else:
        low_adu = np.zeros_like(rest)
    return MoveInCounts(
        newcomers,
        existing_per_income,
        high_market,
        high_adu,
        high_house_low,
        high_house_middle,
        high_apartment_low,
        high_apartment_middle,
        middle_middle,
        middle_market,
        middle_adu,
        middle_house_low,
        middle_apartment_low,
        low_new,
        low_adu,
        (high_left, middle_left, rest),
    )


@dataclass
class ArrayFacts:
    """`facts.BoardFacts` for many boards: each field an array (or None when not needed).

    Spending is an integer number of `1 / scale` dollars so that comparisons stay exact.
    Positional facts are counts here (e.g. towers on Virginia or Acton squares); the cards read
    them as "at least one".
    """

    scale: int
    spending: Array | None = None
    new_market: Array | None = None
    new_middle: Array | None = None
    new_low: Array | None = None
    new_total: Array | None = None
    housed_high: Array | None = None
    housed_middle: Array | None = None
    housed_low: Array | None = None
    towers: Array | None = None
    garages: Array | None = None
    parks: Array | None = None
    tall_squares: Array | None = None
    greenway_homes: Array | None = None
    tall_on_virginia: Array | None = None
    tower_on_virginia_or_acton: Array | None = None
    corner_townhouses: Array | None = None
    tower_on_corner: Array | None = None
    market_only_squares: Array | None = None
    apartments_middle_or_high: Array | None = None
    houses_all_high: Array | None = None
    vacancy_control: Array | None = None

    def dollars(self, amount: int) -> int:
        return amount * self.scale


F = ArrayFacts
Rule = Callable[[ArrayFacts], Array]


def _housed_total(f: F) -> Array:
    return f.housed_high + f.housed_middle + f.housed_low


# Card id -> (+1, -1) as array formulas; the same conditions as constituents.CONDITIONS.
CARD_RULES: dict[str, tuple[Rule, Rule]] = {
    "affordable_housing_orgs": (
        lambda f: f.housed_low == 12,
        lambda f: f.housed_low < 6,
    ),
    "labor_unions": (
        lambda f: (f.new_total >= 18) & (2 * (f.new_low + f.new_middle) >= f.new_total),
        lambda f: f.new_total < 12,
    ),
    "developer": (
        lambda f: (f.new_market >= 10) & (f.spending < f.dollars(10)),
        lambda f: f.spending > f.dollars(13),
    ),
    "middle_class_millennials": (
        lambda f: f.housed_middle == 12,
        lambda f: f.housed_middle < 8,
    ),
    "anti_gentrification_activists": (
        lambda f: 2 * (f.housed_low + f.housed_middle) > _housed_total(f),
        lambda f: f.housed_low < 4,
    ),
    "business_improvement_district": (
        lambda f: (f.new_total >= 16) & (f.garages >= 1),
        lambda f: f.spending > f.dollars(10),
    ),
    "refuse_capitalism": (
        lambda f: (f.housed_low >= 8) & (f.new_market <= 4),
        lambda f: f.new_market > 8,
    ),
    "fiscal_conservatives": (
        lambda f: f.spending < f.dollars(5),
        lambda f: f.spending > f.dollars(8),
    ),
    "property_values": (
        lambda f: f.housed_low <= 4,
        lambda f: f.housed_low > 8,
    ),
    "landlords": (
        lambda f: f.apartments_middle_or_high,
        lambda f: f.vacancy_control,
    ),
    "real_estate_speculators": (
        lambda f: f.houses_all_high & (f.spending < f.dollars(9)),
        lambda f: f.spending > f.dollars(12),
    ),
    "park_and_ride": (
        lambda f: f.garages >= 2,
        lambda f: f.garages == 0,
    ),
    "more_parks": (
        lambda f: (f.parks >= 2) & (f.spending < f.dollars(11)),
        lambda f: f.parks == 0,
    ),
    "stop_the_shadows": (
        lambda f: f.tall_on_virginia == 0,
        lambda f: f.tower_on_virginia_or_acton > 0,
    ),
    "save_our_views": (
        lambda f: (f.towers == 0) & (f.spending < f.dollars(8)),
        lambda f: f.towers >= 3,
    ),
    "urbanists": (
        lambda f: f.tall_squares >= 6,
        lambda f: f.tall_squares < 4,
    ),
    "bike_lobby": (
        lambda f: f.greenway_homes >= 10,
        lambda f: f.garages > 1,
    ),
    "tech_corporations": (
        lambda f: (f.new_total >= 20) & (f.spending < f.dollars(12)),
        lambda f: f.new_market < 8,
    ),
    "inclusionary_for_all": (
        lambda f: f.market_only_squares == 0,
        lambda f: (f.housed_low < 7) | (f.housed_middle < 7),
    ),
    "eco_primitivists": (
        lambda f: f.parks > f.garages,
        lambda f: f.garages > 1,
    ),
    "neighborhood_character": (
        lambda f: f.corner_townhouses >= 3,
        lambda f: (f.tower_on_corner > 0) | (f.spending > f.dollars(14)),
    ),
    "save_our_parking": (
        lambda f: 6 * f.garages >= f.new_total,
        lambda f: (8 * f.garages < f.new_total) | (f.spending > f.dollars(11)),
    ),
}

# Which facts each card reads ("move_in": housed counts and who lives where); the solver keeps
# only these in its search state.
CARD_FACTS: dict[str, frozenset[str]] = {
    "affordable_housing_orgs": frozenset({"move_in"}),
    "labor_unions": frozenset({"new_total", "new_low", "new_middle"}),
    "developer": frozenset({"new_market", "spending"}),
    "middle_class_millennials": frozenset({"move_in"}),
    "anti_gentrification_activists": frozenset({"move_in"}),
    "business_improvement_district": frozenset({"new_total", "garages", "spending"}),
    "refuse_capitalism": frozenset({"move_in", "new_market"}),
    "fiscal_conservatives": frozenset({"spending"}),
    "property_values": frozenset({"move_in"}),
    "landlords": frozenset({"move_in", "vacancy_control"}),
    "real_estate_speculators": frozenset({"move_in", "spending"}),
    "park_and_ride": frozenset({"garages"}),
    "more_parks": frozenset({"parks", "spending"}),
    "stop_the_shadows": frozenset({"tall_on_virginia", "tower_on_virginia_or_acton"}),
    "save_our_views": frozenset({"towers", "spending"}),
    "urbanists": frozenset({"tall_squares"}),
    "bike_lobby": frozenset({"greenway_homes", "garages"}),
    "tech_corporations": frozenset({"new_total", "new_market", "spending"}),
    "inclusionary_for_all": frozenset({"market_only_squares", "move_in"}),
    "eco_primitivists": frozenset({"parks", "garages"}),
    "neighborhood_character": frozenset({"corner_townhouses", "tower_on_corner", "spending"}),
    "save_our_parking": frozenset({"garages", "new_total", "spending"}),
}

if tuple(CARD_RULES) != CARD_IDS or tuple(CARD_FACTS) != CARD_IDS:  # pragma: no cover
    raise ImportError("batch_rules.CARD_RULES must list the cards of constituents.CONDITIONS")


def card_scores(
    facts: ArrayFacts, card_ids: tuple[str, ...] = CARD_IDS, out: tuple[Array, Array] | None = None
) -> tuple[Array, Array]:
    """(plus, minus) boolean arrays of shape (boards, cards) for `card_ids`, in that order."""
    if out is None:
        n = _length(facts)
        out = (np.empty((n, len(card_ids)), dtype=bool), np.empty((n, len(card_ids)), dtype=bool))
    plus, minus = out
    for column, card in enumerate(card_ids):
        plus_rule, minus_rule = CARD_RULES[card]
        plus[:, column] = plus_rule(facts)
        minus[:, column] = minus_rule(facts)
    return plus, minus


def _length(facts: ArrayFacts) -> int:
    for value in vars(facts).values():
        if isinstance(value, np.ndarray):
            return len(value)
    raise ValueError("facts hold no arrays")

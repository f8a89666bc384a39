"""Move-in and the 22 cards on arrays, shared by the batch evaluator and the solver.

The scalar move-in (`movein.py`) places residents one by one; every step there fills the first
vacant homes of a kind from the front of a pool, so the number placed at each step is a `min` of
the pool left and the homes left. Those closed forms are what this module computes, for whole
arrays of boards at once. Exact agreement with the scalar engine is a test, not a hope.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from housing_lab.north_berkeley.engine.card_rules import (
    BASE_FACTS,
    CARD_IDS,
    CARD_RULES,
    fact_value,
    holds,
)
from housing_lab.north_berkeley.model import RULEBOOK, Model
from housing_lab.north_berkeley.policies import INCOMES

Array = np.ndarray
HIGH, MIDDLE, LOW = (INCOMES.index(i) for i in ("high", "middle", "low"))
NOBODY = -1  # an empty ADU slot in `MoveInCounts.existing_after`


@dataclass(frozen=True)
class MoveInCounts:
    """How many residents each move-in step placed or displaced (arrays, one entry per board).

    `high_*`, `middle_*`, `low_*` name the income moving; `*_house_low` etc. name whom they
    displaced from where (houses before apartments, lowest income first, as the rules order it).
    `newcomers` holds the newcomers of each income (high, middle, low: the model's demand).
    """

    newcomers: tuple[int, int, int]
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

    def residents(self) -> tuple[int, int, int]:
        """Residents of each income: those in existing homes plus the newcomers."""
        return tuple(self.existing_per_income + n for n in self.newcomers)  # type: ignore[return-value]

    def housed(self) -> tuple[Array, Array, Array]:
        return tuple(  # type: ignore[return-value]
            total - left for total, left in zip(self.residents(), self.left, strict=True)
        )

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
        for newcomers, displaced, left in zip(
            self.newcomers, self.displaced(), self.left, strict=True
        ):
            placed = newcomers + displaced - left
            if displaced_first:
                rehoused = np.minimum(displaced, placed)
                newcomer_housed = placed - rehoused
            else:
                newcomer_housed = np.minimum(newcomers, placed)
                rehoused = placed - newcomer_housed
            table.append(
                (
                    self.existing_per_income - displaced,
                    newcomer_housed,
                    rehoused,
                    displaced - rehoused,
                    newcomers - newcomer_housed,
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

    def facts(
        self, house_low: Array, house_middle: Array, apartment_low: Array
    ) -> dict[str, Array]:
        """The `ArrayFacts` fields move-in decides, given the starting placement (low and
        middle income residents in houses, low in apartments): one copy for every caller."""
        housed = self.housed()
        return {
            "housed_high": housed[HIGH],
            "housed_middle": housed[MIDDLE],
            "housed_low": housed[LOW],
            "unhoused_middle": self.left[MIDDLE],
            "unhoused_low": self.left[LOW],
            "apartments_middle_or_high": self.apartments_middle_or_high(apartment_low),
            "houses_all_high": self.houses_all_high(house_low, house_middle),
        }

    def existing_after(self, existing: Array, is_house: Array) -> Array:
        """(n, homes + ADU slots) income codes of who lives in each existing home and ADU slot
        after move-in (NOBODY: an empty slot), from `existing` (n, homes) codes.

        Every displacing step takes the lowest income first, then the first home in layout
        order, so the k-th low income house is taken by a high income resident when k < the
        lows high income displaced from houses, else by a middle one when k < that plus the lows
        middle income displaced from houses; ADU slots fill in house order: high, middle, low.
        """
        existing = existing.astype(np.int16)
        after = existing.copy()
        for kind_mask, by_high_low, by_middle_low, by_high_middle in (
            (is_house, self.high_house_low, self.middle_house_low, self.high_house_middle),
            (
                ~is_house,
                self.high_apartment_low,
                self.middle_apartment_low,
                self.high_apartment_middle,
            ),
        ):
            for income in (LOW, MIDDLE):
                mine = (existing == income) & kind_mask
                rank = np.cumsum(mine, axis=1) - 1  # k-th such home, in layout order
                if income == LOW:
                    to_high = mine & (rank < by_high_low[:, None])
                    to_middle = mine & ~to_high & (rank < (by_high_low + by_middle_low)[:, None])
                    after[to_middle] = MIDDLE
                else:
                    to_high = mine & (rank < by_high_middle[:, None])
                after[to_high] = HIGH
        slot = np.arange(int(is_house.sum()))[None, :]
        high_end = self.high_adu[:, None]
        middle_end = high_end + self.middle_adu[:, None]
        low_end = middle_end + self.low_adu[:, None]
        adus = np.select(
            [slot < high_end, slot < middle_end, slot < low_end], [HIGH, MIDDLE, LOW], NOBODY
        )
        return np.concatenate([after, adus], axis=1)


def _factor(allowed: Array, dtype: np.dtype) -> Array:
    """Whether displacing is allowed, as 0 / 1 to multiply counts by."""
    return allowed.astype(dtype) if allowed.dtype == bool else allowed


def move_in_counts(
    market: Array,
    middle: Array,
    low: Array,
    adu_slots: Array,
    can_displace: Array | tuple[Array, Array],
    house_low: Array,
    house_middle: Array,
    apartment_low: Array,
    apartment_middle: Array,
    *,
    newcomers: int | None = None,
    existing_per_income: int = 4,
    low_income_in_adus: bool = False,
    model: Model = RULEBOOK,
) -> MoveInCounts:
    """The move-in of RULES.md as counts: new homes by type, ADU slots (0 without `adu`), whether
    displacing is allowed (one array for every existing home, or a pair for houses and
    apartments: `encoding.displacing_by_kind`) and who lives in the houses and apartments.

    `model` is asked how many newcomers of each income arrive (`Model.newcomers_of`) and who
    may take a vacant new market home (`Model.market_home_for`); `newcomers` (one number for
    every income) is the older call's demand and overrides the model's."""
    mini = np.minimum
    house_ok, apartment_ok = (
        can_displace if isinstance(can_displace, tuple) else (can_displace, can_displace)
    )
    keep_house = _factor(house_ok, market.dtype)
    keep_apartment = keep_house if apartment_ok is house_ok else _factor(apartment_ok, market.dtype)
    arriving = (
        (newcomers,) * len(INCOMES)
        if newcomers is not None
        else tuple(model.newcomers_of(i, existing=existing_per_income) for i in INCOMES)
    )
    high_newcomers, middle_newcomers, low_newcomers = (arriving[i] for i in (HIGH, MIDDLE, LOW))

    # High income: new market homes, ADU slots, then displace (houses, then apartments).
    high_market = mini(high_newcomers, market)
    rest = high_newcomers - high_market
    high_adu = mini(rest, adu_slots)
    rest = rest - high_adu
    high_house_low = mini(rest, house_low) * keep_house
    rest = rest - high_house_low
    high_house_middle = mini(rest, house_middle) * keep_house
    rest = rest - high_house_middle
    high_apartment_low = mini(rest, apartment_low) * keep_apartment
    rest = rest - high_apartment_low
    high_apartment_middle = mini(rest, apartment_middle) * keep_apartment
    high_left = rest - high_apartment_middle

    # Middle income: newcomers and displaced middles (new market homes only if the model lets).
    rest = middle_newcomers + high_house_middle + high_apartment_middle
    middle_middle = mini(rest, middle)
    rest = rest - middle_middle
    market_vacant = market - high_market
    if model.market_home_for("middle"):
        middle_market = mini(rest, market_vacant)
        rest = rest - middle_market
    else:
        middle_market = np.zeros_like(rest)
    adu_vacant = adu_slots - high_adu
    middle_adu = mini(rest, adu_vacant)
    rest = rest - middle_adu
    middle_house_low = mini(rest, house_low - high_house_low) * keep_house
    rest = rest - middle_house_low
    middle_apartment_low = mini(rest, apartment_low - high_apartment_low) * keep_apartment
    middle_left = rest - middle_apartment_low

    # Low income: newcomers and displaced lows, into any vacant new home they may take (market
    # homes only if the model lets), then ADUs, optionally.
    rest = (
        low_newcomers
        + high_house_low
        + high_apartment_low
        + middle_house_low
        + middle_apartment_low
    )
    vacant = low + (middle - middle_middle)
    if model.market_home_for("low"):
        vacant = vacant + (market_vacant - middle_market)
    low_new = mini(rest, vacant)
    rest = rest - low_new
    if low_income_in_adus:
        low_adu = mini(rest, adu_vacant - middle_adu)
        rest = rest - low_adu
    else:
        low_adu = np.zeros_like(rest)
    return MoveInCounts(
        arriving,  # type: ignore[arg-type]
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
    unhoused_middle: Array | None = None
    unhoused_low: Array | None = None
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

    def value(self, fact: str) -> Array:
        """Any fact a card declaration names (`card_rules`), derived relations included."""
        return fact_value(fact, self.__getattribute__)


if {f for f in ArrayFacts.__dataclass_fields__ if f != "scale"} != BASE_FACTS:  # pragma: no cover
    raise ImportError("ArrayFacts must hold exactly the base facts of card_rules.BASE_FACTS")


def card_scores(
    facts: ArrayFacts, card_ids: tuple[str, ...] = CARD_IDS, out: tuple[Array, Array] | None = None
) -> tuple[Array, Array]:
    """(plus, minus) boolean arrays of shape (boards, cards) for `card_ids`, in that order."""
    if out is None:
        n = _length(facts)
        out = (np.empty((n, len(card_ids)), dtype=bool), np.empty((n, len(card_ids)), dtype=bool))
    plus, minus = out
    value = cache(facts.value)  # a fact several cards read (spending, garages ...) made once
    for column, card in enumerate(card_ids):
        rule = CARD_RULES[card]
        plus[:, column] = holds(rule.plus, value, facts.scale)
        minus[:, column] = holds(rule.minus, value, facts.scale)
    return plus, minus


def _length(facts: ArrayFacts) -> int:
    for value in vars(facts).values():
        if isinstance(value, np.ndarray):
            return len(value)
    raise ValueError("facts hold no arrays")

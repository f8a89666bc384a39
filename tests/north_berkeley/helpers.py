"""Shared builders for North Berkeley tests."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from housing_lab.north_berkeley.engine.facts import BoardFacts

# A fixed, readable placement: each street has one of each income in order.
PLACEMENT = {
    "house-1": "low",
    "house-2": "middle",
    "house-3": "high",
    "house-4": "low",
    "house-5": "middle",
    "house-6": "high",
    "apartment-1": "low",
    "apartment-2": "middle",
    "apartment-3": "high",
    "apartment-4": "low",
    "apartment-5": "middle",
    "apartment-6": "high",
}


def neutral_facts(**overrides: Any) -> BoardFacts:
    """Facts of a middling board; tests override the one fact a card reads. Unless given,
    `unhoused` follows `housed` under the rulebook's 12 residents of each income."""
    values: dict[str, Any] = dict(
        spending=Fraction(6),
        new_homes={"market": 6, "middle": 4, "low": 4, "total": 14},
        housed={"high": 12, "middle": 9, "low": 6},
        towers=1,
        garages=1,
        parks=1,
        tall_squares=5,
        greenway_homes=6,
        tall_on_virginia=False,
        tower_on_virginia_or_acton=False,
        corner_townhouses=1,
        tower_on_corner=False,
        every_housing_square_affordable=False,
        apartments_middle_or_high=False,
        houses_all_high=False,
        vacancy_control=False,
    )
    for key, value in overrides.items():
        if key not in values:
            raise KeyError(key)
        values[key] = Fraction(value) if key == "spending" else value
    values.setdefault("unhoused", {i: 12 - n for i, n in values["housed"].items()})
    return BoardFacts(**values)


def homes(market: int, middle: int, low: int) -> dict[str, int]:
    return {"market": market, "middle": middle, "low": low, "total": market + middle + low}


def housed(high: int, middle: int, low: int) -> dict[str, int]:
    return {"high": high, "middle": middle, "low": low}

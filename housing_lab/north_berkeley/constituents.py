"""The 22 constituent cards: each a +1 and a -1 condition on the board facts.

Comparisons follow RULES.md: "under $X" is < X, "over $X" is > X, "at least" >=, "less than" <,
"no more than" <=. A card can score both +1 and -1 (net 0).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache

from housing_lab._data import DataFileError, read_package_toml
from housing_lab.north_berkeley.errors import UnknownIdError
from housing_lab.north_berkeley.facts import BoardFacts

Condition = Callable[[BoardFacts], bool]

# id: (+1 condition, -1 condition), in the deck's printed order.
CONDITIONS: dict[str, tuple[Condition, Condition]] = {
    "affordable_housing_orgs": (
        lambda f: f.housed["low"] == 12,
        lambda f: f.housed["low"] < 6,
    ),
    "labor_unions": (
        lambda f: (
            f.new_homes["total"] >= 18
            and 2 * (f.new_homes["low"] + f.new_homes["middle"]) >= f.new_homes["total"]
        ),
        lambda f: f.new_homes["total"] < 12,
    ),
    "developer": (
        lambda f: f.new_homes["market"] >= 10 and f.spending < 10,
        lambda f: f.spending > 13,
    ),
    "middle_class_millennials": (
        lambda f: f.housed["middle"] == 12,
        lambda f: f.housed["middle"] < 8,
    ),
    "anti_gentrification_activists": (
        lambda f: 2 * (f.housed["low"] + f.housed["middle"]) > f.housed_total,
        lambda f: f.housed["low"] < 4,
    ),
    "business_improvement_district": (
        lambda f: f.new_homes["total"] >= 16 and f.garages >= 1,
        lambda f: f.spending > 10,
    ),
    "refuse_capitalism": (
        lambda f: f.housed["low"] >= 8 and f.new_homes["market"] <= 4,
        lambda f: f.new_homes["market"] > 8,
    ),
    "fiscal_conservatives": (
        lambda f: f.spending < 5,
        lambda f: f.spending > 8,
    ),
    "property_values": (
        lambda f: f.housed["low"] <= 4,
        lambda f: f.housed["low"] > 8,
    ),
    "landlords": (
        lambda f: f.apartments_middle_or_high,
        lambda f: f.vacancy_control,
    ),
    "real_estate_speculators": (
        lambda f: f.houses_all_high and f.spending < 9,
        lambda f: f.spending > 12,
    ),
    "park_and_ride": (
        lambda f: f.garages >= 2,
        lambda f: f.garages == 0,
    ),
    "more_parks": (
        lambda f: f.parks >= 2 and f.spending < 11,
        lambda f: f.parks == 0,
    ),
    "stop_the_shadows": (
        lambda f: not f.tall_on_virginia,
        lambda f: f.tower_on_virginia_or_acton,
    ),
    "save_our_views": (
        lambda f: f.towers == 0 and f.spending < 8,
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
        lambda f: f.new_homes["total"] >= 20 and f.spending < 12,
        lambda f: f.new_homes["market"] < 8,
    ),
    "inclusionary_for_all": (
        lambda f: f.every_housing_square_affordable,
        lambda f: f.housed["low"] < 7 or f.housed["middle"] < 7,
    ),
    "eco_primitivists": (
        lambda f: f.parks > f.garages,
        lambda f: f.garages > 1,
    ),
    "neighborhood_character": (
        lambda f: f.corner_townhouses >= 3,
        lambda f: f.tower_on_corner or f.spending > 14,
    ),
    "save_our_parking": (
        lambda f: 6 * f.garages >= f.new_homes["total"],
        lambda f: 8 * f.garages < f.new_homes["total"] or f.spending > 11,
    ),
}


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    plus_text: str
    minus_text: str
    plus: Condition
    minus: Condition


@dataclass(frozen=True)
class CardScore:
    plus: bool
    minus: bool

    @property
    def score(self) -> int:
        return int(self.plus) - int(self.minus)

    def to_dict(self) -> dict[str, bool | int]:
        return {"plus": self.plus, "minus": self.minus, "score": self.score}


@cache
def _cards() -> tuple[Card, ...]:
    texts = read_package_toml("housing_lab.north_berkeley", "constituents.toml")
    if set(texts) != set(CONDITIONS):
        raise DataFileError(
            f"constituents.toml and the card conditions disagree: {set(texts) ^ set(CONDITIONS)}"
        )
    return tuple(
        Card(
            card_id,
            texts[card_id]["name"],
            texts[card_id]["plus"],
            texts[card_id]["minus"],
            plus,
            minus,
        )
        for card_id, (plus, minus) in CONDITIONS.items()
    )


def cards() -> Mapping[str, Card]:
    """All 22 cards by id, in deck order."""
    return {card.id: card for card in _cards()}


CARD_IDS: tuple[str, ...] = tuple(CONDITIONS)


def check_card(card_id: object) -> str:
    if card_id not in CONDITIONS:
        raise UnknownIdError(f"unknown constituent card {card_id!r}")
    return str(card_id)


def score_card(card_id: str, facts: BoardFacts) -> CardScore:
    plus, minus = CONDITIONS[check_card(card_id)]
    return CardScore(plus=plus(facts), minus=minus(facts))


def score_all(facts: BoardFacts) -> dict[str, CardScore]:
    return {
        card_id: CardScore(plus(facts), minus(facts))
        for card_id, (plus, minus) in CONDITIONS.items()
    }

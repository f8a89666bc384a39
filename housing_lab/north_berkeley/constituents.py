"""The 22 constituent cards: each a +1 and a -1 condition on the board facts.

The conditions are data (`data/constituents.toml`, read by `card_rules`); this module is the
reference check of them on one board's `BoardFacts`. A card can score both +1 and -1 (net 0).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from housing_lab.errors import shown
from housing_lab.north_berkeley.card_rules import (
    CARD_IDS,
    CARD_RULES,
    Condition,
    card_texts,
    holds,
)
from housing_lab.north_berkeley.engine.facts import BoardFacts
from housing_lab.north_berkeley.errors import UnknownIdError

__all__ = ["CARD_IDS", "Card", "CardScore", "cards", "check_card", "score_all", "score_card"]


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
    texts = card_texts()
    return tuple(
        Card(
            card_id,
            texts[card_id]["name"],
            texts[card_id]["plus"],
            texts[card_id]["minus"],
            rule.plus,
            rule.minus,
        )
        for card_id, rule in CARD_RULES.items()
    )


def cards() -> Mapping[str, Card]:
    """All 22 cards by id, in deck order."""
    return {card.id: card for card in _cards()}


def check_card(card_id: object) -> str:
    if not isinstance(card_id, str) or card_id not in CARD_RULES:  # a list is no id
        raise UnknownIdError(f"unknown constituent card {shown(card_id)}")
    return str(card_id)


def score_card(card_id: str, facts: BoardFacts) -> CardScore:
    rule = CARD_RULES[check_card(card_id)]
    return CardScore(
        plus=bool(holds(rule.plus, facts.value)), minus=bool(holds(rule.minus, facts.value))
    )


def score_all(facts: BoardFacts) -> dict[str, CardScore]:
    return {card_id: score_card(card_id, facts) for card_id in CARD_IDS}

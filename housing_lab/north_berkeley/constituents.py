"""The 22 constituent cards as students read them (names, printed +1 and -1 texts), and a
coalition of them as a question names it (card ids and weights, checked).

The conditions are data (`data/constituents.toml`, read by `engine.card_rules`); deciding them
on a board is the engine's (`engine.scoring`, whose names are kept importable from here).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from housing_lab.north_berkeley.engine.card_rules import CARD_IDS, CARD_RULES, Condition, card_texts
from housing_lab.north_berkeley.engine.scoring import CardScore, check_card, score_all, score_card
from housing_lab.north_berkeley.errors import ScenarioFormatError

__all__ = [
    "CARD_IDS",
    "Card",
    "CardScore",
    "Number",
    "cards",
    "check_card",
    "coalition",
    "score_all",
    "score_card",
]

Number = int | float


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    plus_text: str
    minus_text: str
    plus: Condition
    minus: Condition


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


def coalition(
    cards: Sequence[str] | Mapping[str, Number] | str | None,
    weights: Sequence[Number] | None = None,
    required: bool = True,
) -> tuple[tuple[str, ...], tuple[Number, ...]]:
    """Card ids and weights: a list (weights 1 unless given), a mapping card -> weight, or
    a comma-separated string."""
    if cards is None:
        cards = []
    if isinstance(cards, str):
        cards = [c.strip() for c in cards.split(",") if c.strip()]
    if isinstance(cards, Mapping):
        if weights is not None:
            raise ScenarioFormatError("give weights either in the card mapping or as weights")
        cards, weights = list(cards), list(cards.values())
    ids = tuple(check_card(card) for card in cards)
    if not ids and required:
        raise ScenarioFormatError("a coalition needs at least one constituent card")
    for card in ids:
        if ids.count(card) > 1:
            raise ScenarioFormatError(f"card {card!r} is listed twice")
    if weights is None:
        return ids, (1,) * len(ids)
    weights = list(weights)
    if len(weights) != len(ids):
        raise ScenarioFormatError(
            f"{len(weights)} weights given for {len(ids)} card(s) ({', '.join(ids)})"
        )
    for weight in weights:
        if (
            isinstance(weight, bool)
            or not isinstance(weight, (int, float))
            or not math.isfinite(weight)
        ):
            raise ScenarioFormatError(f"a weight must be a finite number, got {weight!r}")
    return ids, tuple(weights)

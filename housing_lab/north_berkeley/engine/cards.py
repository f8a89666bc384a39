"""The 22 cards decided on one board: each card's +1 and -1 condition (`card_rules`, the
declaration everything reads) checked against the board's `BoardFacts`. A card can score both
+1 and -1 (net 0). The cards' names and printed texts are `constituents.cards()`."""

from __future__ import annotations

from dataclasses import dataclass

from housing_lab.errors import shown
from housing_lab.north_berkeley.engine.card_rules import CARD_IDS, CARD_RULES, CardRule, holds
from housing_lab.north_berkeley.engine.facts import BoardFacts
from housing_lab.north_berkeley.errors import UnknownIdError


@dataclass(frozen=True)
class CardScore:
    plus: bool
    minus: bool

    @property
    def score(self) -> int:
        return int(self.plus) - int(self.minus)

    def to_dict(self) -> dict[str, bool | int]:
        return {"plus": self.plus, "minus": self.minus, "score": self.score}


def check_card(card_id: object) -> str:
    if not isinstance(card_id, str) or card_id not in CARD_RULES:  # a list is no id
        raise UnknownIdError(f"unknown constituent card {shown(card_id)}")
    return str(card_id)


def score_card(card_id: str, facts: BoardFacts) -> CardScore:
    return _score(CARD_RULES[check_card(card_id)], facts)


def score_all(facts: BoardFacts) -> dict[str, CardScore]:
    return {card_id: _score(CARD_RULES[card_id], facts) for card_id in CARD_IDS}


def _score(rule: CardRule, facts: BoardFacts) -> CardScore:
    value = facts.value
    return CardScore(plus=bool(holds(rule.plus, value)), minus=bool(holds(rule.minus, value)))

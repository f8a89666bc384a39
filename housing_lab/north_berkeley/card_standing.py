"""Where a board stands on a card, in words: "+1 now: 12 low income residents housed; −1 if
fewer than 6 low income residents housed".

A team that negotiates needs each card's conditions and how far the board is from them, not
only its score. The words are built from the card's declaration (`card_rules`, the clauses the
engines score) and the board's facts, so they say exactly what decides the score: each clause
is checked here on its own, and the tests hold the result to `constituents.score_card`.

Each fact a card may read has its words (`FACT_WORDS`): a count ("3 garages", "at least 2
parks"), spending ("spending under $10"), a yes/no fact, or one of the relations of
`card_rules.DERIVED_FACTS` ("8 of 20 new homes low or middle income").
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from housing_lab.north_berkeley.constituents import cards, check_card
from housing_lab.north_berkeley.engine.card_rules import (
    BASE_FACTS,
    CARD_RULES,
    DERIVED_FACTS,
    OPERATORS,
    Clause,
    Condition,
)
from housing_lab.north_berkeley.engine.facts import BoardFacts

__all__ = ["FACT_WORDS", "CardStanding", "SideStanding", "card_standing", "dollars"]

MINUS = "\u2212"  # the minus sign, as the cards print "−1"
Value = Callable[[str], Any]  # a fact's value on the board (`BoardFacts.value`)


def dollars(amount: int | Fraction) -> str:
    """ "$7", or "$7.50" for the halves that matching funds make."""
    amount = Fraction(amount)
    if amount.denominator == 1:
        return f"${amount.numerator}"
    return f"${float(amount):.2f}"


class FactWords(ABC):
    """How one fact is said: as a condition (`condition`), as it stands (`now`), and as the
    short figure added after a condition not met (`short`, "now 9")."""

    @abstractmethod
    def condition(self, op: str, threshold: int | Fraction, value: Value) -> str:
        raise NotImplementedError

    @abstractmethod
    def now(self, value: Value) -> str:
        raise NotImplementedError

    @abstractmethod
    def short(self, value: Value, holds: bool) -> str:
        raise NotImplementedError

    @abstractmethod
    def said_by_now(self) -> frozenset[str]:
        """The figures `now` gives (so a later clause of the line need not repeat them)."""
        raise NotImplementedError

    def said_by_short(self) -> frozenset[str]:
        """The figures `short` gives."""
        return self.said_by_now()


@dataclass(frozen=True)
class Count(FactWords):
    """A fact that counts things: "3 garages", "at least 2 parks", "no tower"."""

    fact: str
    one: str
    many: str

    def amount(self, count: int | Fraction) -> str:
        return f"{count} {self.one if count == 1 else self.many}"

    def condition(self, op: str, threshold: int | Fraction, value: Value) -> str:
        if op == "==" and threshold == 0:
            return f"no {self.one}"
        words = {">=": "at least", ">": "more than", "<": "fewer than", "<=": "no more than"}
        return f"{words.get(op, 'exactly')} {self.amount(threshold)}"

    def now(self, value: Value) -> str:
        return self.amount(value(self.fact))

    def short(self, value: Value, holds: bool) -> str:
        return f"now {value(self.fact)}"

    def said_by_now(self) -> frozenset[str]:
        return frozenset({self.fact})


@dataclass(frozen=True)
class Spending(FactWords):
    """The city's spending: "spending under $10" (RULES.md: "under" is <, "over" is >)."""

    def condition(self, op: str, threshold: int | Fraction, value: Value) -> str:
        words = {"<": "under", ">": "over", "<=": "at most", ">=": "at least"}
        return f"spending {words.get(op, 'of exactly')} {dollars(threshold)}"

    def now(self, value: Value) -> str:
        return f"spending {dollars(value('spending'))}"

    def short(self, value: Value, holds: bool) -> str:
        return f"now {dollars(value('spending'))}"

    def said_by_now(self) -> frozenset[str]:
        return frozenset({"spending"})


@dataclass(frozen=True)
class YesNo(FactWords):
    """A yes/no fact (1 or 0): `yes` when it is 1, `no` when it is 0."""

    fact: str
    yes: str
    no: str

    def condition(self, op: str, threshold: int | Fraction, value: Value) -> str:
        if op != "==":
            raise ValueError(f"{self.fact} is yes or no: compare it with ==, not {op}")
        return self.yes if threshold else self.no

    def now(self, value: Value) -> str:
        return self.yes if value(self.fact) else self.no

    def short(self, value: Value, holds: bool) -> str:
        return "yes now" if holds else "not now"

    def said_by_now(self) -> frozenset[str]:
        return frozenset({self.fact})


@dataclass(frozen=True)
class AllHoused(FactWords):
    """Residents of an income left without a home; 0 is "all 12 ... housed" (the model may
    bring more or fewer than the rulebook's 12, so the number is read from the board)."""

    income: str

    def _numbers(self, value: Value) -> tuple[int, int]:
        return int(value(f"housed_{self.income}")), int(value(f"unhoused_{self.income}"))

    def condition(self, op: str, threshold: int | Fraction, value: Value) -> str:
        housed, unhoused = self._numbers(value)
        if op == "==" and threshold == 0:
            return f"all {housed + unhoused} {self.income} income residents housed"
        left = f"{self.income} income resident"
        return Count("", f"{left} without a home", f"{left}s without a home").condition(
            op, threshold, value
        )

    def now(self, value: Value) -> str:
        housed, unhoused = self._numbers(value)
        if unhoused <= 0:
            return f"all {housed} {self.income} income residents housed"
        return f"{housed} {self.income} income residents housed, {unhoused} without a home"

    def short(self, value: Value, holds: bool) -> str:
        return f"now {self._numbers(value)[1]} without a home"

    def said_by_now(self) -> frozenset[str]:
        return frozenset({f"housed_{self.income}", f"unhoused_{self.income}"})

    def said_by_short(self) -> frozenset[str]:
        return frozenset({f"unhoused_{self.income}"})


HALF = {">=": "at least half", ">": "more than half", "<": "less than half", "<=": "at most half"}


@dataclass(frozen=True)
class Share(FactWords):
    """2 (low + middle) - total compared with 0: "at least half of the new homes are low or
    middle income"; now "8 of 20 new homes low or middle income"."""

    part: tuple[str, str]  # the two facts of the share
    whole: str
    noun: str  # "new homes", "residents housed"

    def _numbers(self, value: Value) -> tuple[int, int]:
        return int(value(self.part[0]) + value(self.part[1])), int(value(self.whole))

    def condition(self, op: str, threshold: int | Fraction, value: Value) -> str:
        if threshold != 0 or op not in HALF:
            raise ValueError(f"a share compares with 0 by {', '.join(HALF)}, not {op} {threshold}")
        return f"{HALF[op]} of the {self.noun} low or middle income"

    def now(self, value: Value) -> str:
        part, whole = self._numbers(value)
        return f"{part} of {whole} {self.noun} low or middle income"

    def short(self, value: Value, holds: bool) -> str:
        part, whole = self._numbers(value)
        return f"now {part} of {whole}"

    def said_by_now(self) -> frozenset[str]:
        return frozenset({f"share of {self.whole}", self.whole})


MORE = {">": "more", ">=": "at least as many", "<": "fewer", "<=": "no more"}


@dataclass(frozen=True)
class ParksAndGarages(FactWords):
    """parks - garages compared with 0: "more parks than garages"."""

    def condition(self, op: str, threshold: int | Fraction, value: Value) -> str:
        if threshold != 0 or op not in MORE:
            raise ValueError(f"parks and garages compare by {', '.join(MORE)} 0, not {op}")
        return f"{MORE[op]} parks {'as' if op == '>=' else 'than'} garages"

    def now(self, value: Value) -> str:
        return f"{PARKS.amount(value('parks'))}, {GARAGES.amount(value('garages'))}"

    def short(self, value: Value, holds: bool) -> str:
        return f"now {self.now(value)}"

    def said_by_now(self) -> frozenset[str]:
        return frozenset({"parks", "garages"})


@dataclass(frozen=True)
class GaragesPerHomes(FactWords):
    """k x garages - new homes compared with 0: "at least 1 garage for every 6 new homes"."""

    homes: int

    def condition(self, op: str, threshold: int | Fraction, value: Value) -> str:
        words = {">=": "at least", "<": "fewer than", ">": "more than", "<=": "at most"}
        if threshold != 0 or op not in words:
            raise ValueError(f"garages per homes compare with 0, not {op} {threshold}")
        return f"{words[op]} 1 garage for every {self.homes} new homes"

    def now(self, value: Value) -> str:
        return f"{GARAGES.amount(value('garages'))} for {NEW_HOMES.amount(value('new_total'))}"

    def short(self, value: Value, holds: bool) -> str:
        return f"now {self.now(value)}"

    def said_by_now(self) -> frozenset[str]:
        return frozenset({"garages", "new_total"})


PARKS = Count("parks", "park", "parks")
GARAGES = Count("garages", "garage", "garages")
NEW_HOMES = Count("new_total", "new home", "new homes")

# Every fact a card may read (card_rules.BASE_FACTS and DERIVED_FACTS), in words.
FACT_WORDS: dict[str, FactWords] = {
    "spending": Spending(),
    "new_total": NEW_HOMES,
    "new_market": Count("new_market", "new market rate home", "new market rate homes"),
    "new_middle": Count("new_middle", "new middle income home", "new middle income homes"),
    "new_low": Count("new_low", "new low income home", "new low income homes"),
    **{
        f"housed_{income}": Count(
            f"housed_{income}",
            f"{income} income resident housed",
            f"{income} income residents housed",
        )
        for income in ("high", "middle", "low")
    },
    "housed_total": Count("housed_total", "resident housed", "residents housed"),
    "unhoused_middle": AllHoused("middle"),
    "unhoused_low": AllHoused("low"),
    "parks": PARKS,
    "garages": GARAGES,
    "towers": Count("towers", "tower", "towers"),
    "tall_squares": Count(
        "tall_squares", "square with a midrise or tower", "squares with a midrise or tower"
    ),
    "greenway_homes": Count(
        "greenway_homes",
        "home on the squares next to the Ohlone Greenway",
        "homes on the squares next to the Ohlone Greenway",
    ),
    "tall_on_virginia": Count(
        "tall_on_virginia",
        "tower or midrise next to Virginia Street",
        "towers and midrises next to Virginia Street",
    ),
    "tower_on_virginia_or_acton": Count(
        "tower_on_virginia_or_acton",
        "tower next to Virginia or Acton Street",
        "towers next to Virginia or Acton Street",
    ),
    "corner_townhouses": Count(
        "corner_townhouses", "corner square with townhouses", "corner squares with townhouses"
    ),
    "tower_on_corner": Count("tower_on_corner", "tower on a corner square", "towers on corners"),
    "market_only_squares": YesNo(
        "market_only_squares",
        "a square with housing has only market rate homes",
        "every square with housing has a low or middle income home",
    ),
    "apartments_middle_or_high": YesNo(
        "apartments_middle_or_high",
        "every existing apartment has a middle or high income resident",
        "not every existing apartment has a middle or high income resident",
    ),
    "houses_all_high": YesNo(
        "houses_all_high",
        "every resident of the existing houses and ADUs is high income",
        "not every resident of the existing houses and ADUs is high income",
    ),
    "vacancy_control": YesNo("vacancy_control", "vacancy control in effect", "no vacancy control"),
    "new_affordable_margin": Share(("new_low", "new_middle"), "new_total", "new homes"),
    "housed_affordable_margin": Share(
        ("housed_low", "housed_middle"), "housed_total", "residents housed"
    ),
    "parks_minus_garages": ParksAndGarages(),
    "garages_for_6_homes": GaragesPerHomes(6),
    "garages_for_8_homes": GaragesPerHomes(8),
}

if set(FACT_WORDS) != BASE_FACTS | set(DERIVED_FACTS):  # pragma: no cover - a new fact
    raise ImportError("card_standing.FACT_WORDS must say every fact of card_rules in words")


@dataclass(frozen=True)
class SideStanding:
    """One side of a card (+1 or −1) on a board: whether it holds and its words."""

    points: int  # +1 or -1
    met: bool
    condition: str  # "fewer than 6 low income residents housed"
    text: str  # "+1 now: ..." when met, "+1 if ... (now ...)" when not

    def to_dict(self) -> dict[str, Any]:
        return {"met": self.met, "condition": self.condition, "text": self.text}


@dataclass(frozen=True)
class CardStanding:
    """A card on a board: its name, its score there, and each side in words."""

    card: str
    name: str
    plus: SideStanding
    minus: SideStanding

    @property
    def score(self) -> int:
        return int(self.plus.met) - int(self.minus.met)

    @property
    def text(self) -> str:
        return f"{self.plus.text}; {self.minus.text}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "name": self.name,
            "score": self.score,
            "plus": self.plus.to_dict(),
            "minus": self.minus.to_dict(),
            "text": self.text,
        }


def _clause_holds(clause: Clause, value: Value) -> bool:
    return bool(OPERATORS[clause.op](value(clause.fact), clause.threshold))


def _side(points: int, condition: Condition, value: Value, said: set[str]) -> SideStanding:
    """One side's words; `said` holds the facts whose values the line has given already."""
    sign = "+1" if points > 0 else f"{MINUS}1"
    joiner = " and " if condition.mode == "all" else " or "
    results = [_clause_holds(clause, value) for clause in condition.clauses]
    met = all(results) if condition.mode == "all" else any(results)
    words = [FACT_WORDS[c.fact].condition(c.op, c.threshold, value) for c in condition.clauses]
    if met:  # the facts that make it hold, as they stand
        parts = []
        for clause, holds in zip(condition.clauses, results, strict=True):
            if holds:
                parts.append(FACT_WORDS[clause.fact].now(value))
                said.update(FACT_WORDS[clause.fact].said_by_now())
        text = f"{sign} now: {joiner.join(parts)}"
    else:  # each condition, with its figure now (once per line)
        parts = []
        for clause, said_as, holds in zip(condition.clauses, words, results, strict=True):
            fact = FACT_WORDS[clause.fact]
            if fact.said_by_short() <= said:
                parts.append(said_as)
            else:
                parts.append(f"{said_as} ({fact.short(value, holds)})")
                said.update(fact.said_by_short())
        text = f"{sign} if {joiner.join(parts)}"
    return SideStanding(points, met, joiner.join(words), text)


def card_standing(card_id: str, facts: BoardFacts) -> CardStanding:
    """Card `card_id` on the board whose facts are `facts` (a scored board: the move-in's
    `ScenarioResult.facts`, or the board as it stands): each side's condition in words,
    whether it holds and the figures now. Its `score` is the card's score on that board."""
    card_id = check_card(card_id)
    rule = CARD_RULES[card_id]
    said: set[str] = set()
    plus = _side(1, rule.plus, facts.value, said)
    minus = _side(-1, rule.minus, facts.value, said)
    return CardStanding(card_id, cards()[card_id].name, plus, minus)

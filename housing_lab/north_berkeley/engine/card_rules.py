"""The facts a card reads and the 22 cards' conditions, each declared once.

A board's counted facts (new homes by type, towers, garages, homes on Greenway squares, towers on
corners, ...) are sums over squares of what each placed tile adds there, given the square's tags
(`TILE_COUNTS`). The scalar engine (`facts.board_counts`) adds these up for one board; the batch
(`batch.encoding`) tabulates them per (square, tile) and the solver (`solver.atoms`) bounds them,
all from this one table, so a positional rule changes in one place.

Each card's +1 and -1 condition is written in `data/constituents.toml`, beside its printed
text, as clauses `[fact, comparison, threshold]` combined with `all` or `any`:

    plus_if = { all = [["new_total", ">=", 18], ["new_affordable_margin", ">=", 0]] }

A fact is a board number (`BASE_FACTS`) or a named relation between them (`DERIVED_FACTS`, a
linear combination such as 2 (low + middle) - total). Everything that decides a card reads this
one declaration: the scalar check (`constituents.score_card`), the numpy formulas
(`batch.arrays.card_scores`) and the solver's thresholds (`solver.atoms.card_atoms`).

Comparisons follow RULES.md: "under $X" is `<`, "over $X" is `>`, "at least" `>=`, "less than"
`<`, "no more than" `<=`. Spending thresholds stay exact (Fractions; the batch compares whole
units of 1/scale dollars).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, reduce
from typing import Any, Literal

from housing_lab._data import DataFileError, read_package_toml
from housing_lab.north_berkeley.tiles import Tile

Number = Any  # an int, Fraction, bool, or a numpy array of them (the batch)

# --- what one tile on one square adds to the board's counted facts -----------------------
TALL_KINDS = ("tower", "midrise")

Contribution = Callable[[Tile, Collection[str]], int]

# fact name -> what `tile` adds to it on a square with `tags`
TILE_COUNTS: dict[str, Contribution] = {
    "new_market": lambda tile, tags: tile.homes.count("market"),
    "new_middle": lambda tile, tags: tile.homes.count("middle"),
    "new_low": lambda tile, tags: tile.homes.count("low"),
    "parks": lambda tile, tags: int(tile.kind == "park"),
    "garages": lambda tile, tags: int(tile.kind == "garage"),
    "towers": lambda tile, tags: int(tile.kind == "tower"),
    "tall_squares": lambda tile, tags: int(tile.kind in TALL_KINDS),
    "greenway_homes": lambda tile, tags: len(tile.homes) if "greenway" in tags else 0,
    "tall_on_virginia": lambda tile, tags: int(tile.kind in TALL_KINDS and "virginia" in tags),
    "tower_on_virginia_or_acton": lambda tile, tags: int(
        tile.kind == "tower" and ("virginia" in tags or "acton" in tags)
    ),
    "corner_townhouses": lambda tile, tags: int(tile.kind == "townhouse" and "corner" in tags),
    "tower_on_corner": lambda tile, tags: int(tile.kind == "tower" and "corner" in tags),
    # housing with no low or middle income home: "every square with housing has one" is 0 of these
    "market_only_squares": lambda tile, tags: int(
        tile.is_housing and tile.homes.count("market") == len(tile.homes)
    ),
}


def tile_counts(tile: Tile, tags: Collection[str]) -> dict[str, int]:
    """Every counted fact `tile` adds on a square with `tags`."""
    return {name: contribution(tile, tags) for name, contribution in TILE_COUNTS.items()}


# --- the facts a card reads and its conditions ------------------------------------------
OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    ">=": operator.ge,
    ">": operator.gt,
    "<=": operator.le,
    "<": operator.lt,
    "==": operator.eq,
}
MONEY_FACTS = frozenset({"spending"})
# The board numbers a card may read: spending, new homes by type, residents housed by income,
# the counted tile facts (`TILE_COUNTS`) and three yes/no facts (1 or 0).
BASE_FACTS = frozenset(
    {
        "spending",
        "new_total",
        "housed_high",
        "housed_middle",
        "housed_low",
        # residents of an income left without a home: 0 is "every one of them housed" (the
        # cards print "all 12", the rulebook's number; the model can bring more or fewer)
        "unhoused_middle",
        "unhoused_low",
        "apartments_middle_or_high",  # every existing apartment holds a middle or high resident
        "houses_all_high",  # every resident of an existing house or ADU is high income
        "vacancy_control",
        *TILE_COUNTS,
    }
)

# Relations between facts, each a linear combination {fact: coefficient}; the cards compare
# them with a threshold (e.g. "at least half of the new homes are low or middle income" is
# new_affordable_margin >= 0).
DERIVED_FACTS: dict[str, dict[str, int]] = {
    "housed_total": {"housed_high": 1, "housed_middle": 1, "housed_low": 1},
    # labour unions: 2 (low + middle) - total new homes
    "new_affordable_margin": {"new_low": 2, "new_middle": 2, "new_total": -1},
    # anti-gentrification: 2 (low + middle) - total residents housed
    "housed_affordable_margin": {"housed_low": 2, "housed_middle": 2, "housed_total": -1},
    # eco-primitivists: parks - garages
    "parks_minus_garages": {"parks": 1, "garages": -1},
    # save our parking: one garage for every 6 new homes is 6 x garages - new homes >= 0,
    # fewer than one for every 8 is 8 x garages - new homes < 0
    "garages_for_6_homes": {"garages": 6, "new_total": -1},
    "garages_for_8_homes": {"garages": 8, "new_total": -1},
}


@dataclass(frozen=True)
class Clause:
    """`fact` `op` `threshold`, e.g. spending < 10."""

    fact: str
    op: str
    threshold: int | Fraction


@dataclass(frozen=True)
class Condition:
    """Clauses that must all (`all`) or any (`any`) hold."""

    mode: Literal["all", "any"]
    clauses: tuple[Clause, ...]

    @property
    def facts(self) -> frozenset[str]:
        return frozenset(clause.fact for clause in self.clauses)


@dataclass(frozen=True)
class CardRule:
    plus: Condition
    minus: Condition

    @property
    def conditions(self) -> tuple[Condition, Condition]:
        return self.plus, self.minus


def linear_form(fact: str) -> dict[str, int]:
    """A fact as {base fact: coefficient} (a base fact is {fact: 1})."""
    if fact not in DERIVED_FACTS:
        return {fact: 1}
    form: dict[str, int] = {}
    for part, coefficient in DERIVED_FACTS[fact].items():
        for base, inner in linear_form(part).items():
            form[base] = form.get(base, 0) + coefficient * inner
    return {base: c for base, c in form.items() if c}


def base_facts(fact: str) -> frozenset[str]:
    """The board numbers `fact` is computed from."""
    return frozenset(linear_form(fact))


def fact_value(fact: str, base: Callable[[str], Number]) -> Number:
    """Any fact, `base(name)` giving the base facts (scalars or arrays). A derived relation is
    its linear form over base facts, terms of one coefficient added before multiplying, so that
    arrays take few passes (2 (low + middle) - total: three)."""
    if fact not in DERIVED_FACTS:
        return base(fact)
    by_coefficient: dict[int, list[str]] = {}
    for name, coefficient in linear_form(fact).items():
        by_coefficient.setdefault(coefficient, []).append(name)
    total = None
    for coefficient, names in sorted(by_coefficient.items(), reverse=True):
        term = reduce(operator.add, map(base, names))
        size = abs(coefficient)
        term = term if size == 1 else size * term
        if total is None:
            total = term if coefficient > 0 else -term
        else:
            total = total + term if coefficient > 0 else total - term
    return total


def holds(condition: Condition, value: Callable[[str], Number], scale: int = 1) -> Number:
    """Whether `condition` holds, `value(fact)` giving each fact (scalars: a bool; arrays: a
    boolean array). Money facts are read in units of 1/`scale` dollars."""
    results = [
        OPERATORS[c.op](value(c.fact), _scaled(c, scale) if scale != 1 else c.threshold)
        for c in condition.clauses
    ]
    return reduce(operator.and_ if condition.mode == "all" else operator.or_, results)


@cache
def _scaled(clause: Clause, scale: int) -> int | float:
    """A threshold in the units the batch reads its fact in (halves of a dollar stay exact)."""
    if clause.fact not in MONEY_FACTS:
        return clause.threshold  # type: ignore[return-value]
    amount = Fraction(clause.threshold) * scale
    return int(amount) if amount.denominator == 1 else float(amount)


# --- reading the declaration ---------------------------------------------------------------
def _clause(card: str, raw: object) -> Clause:
    if not (isinstance(raw, list) and len(raw) == 3):
        raise DataFileError(
            f"constituents.toml: {card}: a clause is [fact, op, threshold]: {raw!r}"
        )
    fact, op, threshold = raw
    if fact not in BASE_FACTS and fact not in DERIVED_FACTS:
        raise DataFileError(f"constituents.toml: {card}: unknown fact {fact!r}")
    if op not in OPERATORS:
        raise DataFileError(f"constituents.toml: {card}: unknown comparison {op!r}")
    if isinstance(threshold, float) and fact in MONEY_FACTS:
        threshold = Fraction(threshold)
    if not isinstance(threshold, (int, Fraction)):
        raise DataFileError(f"constituents.toml: {card}: bad threshold {threshold!r}")
    return Clause(fact, op, threshold)


def _condition(card: str, raw: object) -> Condition:
    if not (isinstance(raw, dict) and len(raw) == 1 and next(iter(raw)) in ("all", "any")):
        raise DataFileError(
            f"constituents.toml: {card}: a condition is {{ all = [...] }} or {{ any = [...] }}"
        )
    mode, clauses = next(iter(raw.items()))
    if not clauses:
        raise DataFileError(f"constituents.toml: {card}: a condition needs a clause")
    return Condition(mode, tuple(_clause(card, c) for c in clauses))


def rules_from_dict(data: Mapping[str, Any]) -> dict[str, CardRule]:
    """Card id -> its rule, from the parsed constituents.toml (deck order kept)."""
    rules = {}
    for card, entry in data.items():
        for key in ("name", "plus", "minus", "plus_if", "minus_if"):
            if key not in entry:
                raise DataFileError(f"constituents.toml: {card}: {key!r} is missing")
        rules[card] = CardRule(
            _condition(card, entry["plus_if"]), _condition(card, entry["minus_if"])
        )
    return rules


@cache
def card_texts() -> dict[str, dict[str, Any]]:
    """The parsed constituents.toml: names, printed texts and conditions."""
    return read_package_toml("housing_lab.north_berkeley", "constituents.toml")


for _name, _parts in DERIVED_FACTS.items():  # pragma: no cover - a mistake in this module
    if _name in BASE_FACTS or not set(_parts) <= BASE_FACTS | set(DERIVED_FACTS):
        raise ImportError(f"derived fact {_name!r} clashes with a base fact or has unknown parts")

# Card id -> rule, in the deck's printed order. Every engine looks a card up here when it scores
# it, so replacing an entry (tests do) changes the scalar, batch and solver answers together.
CARD_RULES: dict[str, CardRule] = rules_from_dict(card_texts())
CARD_IDS: tuple[str, ...] = tuple(CARD_RULES)


def card_facts(card: str) -> frozenset[str]:
    """The board numbers `card` reads (derived facts expanded)."""
    rule = CARD_RULES[card]
    return frozenset(b for c in rule.conditions for f in c.facts for b in base_facts(f))

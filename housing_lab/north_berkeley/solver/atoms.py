"""What each card can see of a board: the atoms the solver's compression must keep apart.

Every card clause compares a fact with a threshold (`card_rules`: "at least 6 tall squares",
"spending over $13", "2 (low + middle) - total >= 0"). Written as "fact >= t" thresholds
(spending: (amount, strict), strict meaning "over"), a fact's value matters to a coalition only
through the thresholds its cards use: values between two thresholds can be merged. A fact given
as None is kept exactly (it meets a fact of another group in a relation). `card_atoms` reads the
thresholds off the cards' one declaration; tests check the solver built on them against brute
force for every card.

Facts live in the search's groups: the new-home counts and everything the move-in makes of them
(`NEW_HOMES_GROUP_FACTS`, the `POLICY_DEPENDENT` ones once per policy set), spending, and each other
counted tile fact on its own, or joined with the facts a relation ties it to (parks and garages
for "more parks than garages").
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from fractions import Fraction

from housing_lab.north_berkeley.engine.card_rules import (
    CARD_RULES,
    DERIVED_FACTS,
    MONEY_FACTS,
    TILE_COUNTS,
    Clause,
    base_facts,
    linear_form,
)

Spec = tuple | None

NEW_HOME_COUNTS = ("new_market", "new_middle", "new_low", "new_total")
MOVE_IN_FACTS = (
    "housed_high",
    "housed_middle",
    "housed_low",
    "unhoused_middle",
    "unhoused_low",
    "apartments_middle_or_high",
    "houses_all_high",
)
POLICY_FACTS = frozenset({"vacancy_control"})  # the same for every board of a policy set
SINGLES = tuple(f for f in TILE_COUNTS if f not in NEW_HOME_COUNTS)  # each its own group
# derived facts computed within one group (the others are read through their parts)
NEW_HOME_DERIVED = tuple(
    f for f in DERIVED_FACTS if base_facts(f) <= {*NEW_HOME_COUNTS, *MOVE_IN_FACTS}
)
SINGLE_DERIVED = tuple(f for f in DERIVED_FACTS if base_facts(f) <= set(SINGLES))
NEW_HOMES_GROUP_FACTS = (*NEW_HOME_COUNTS, *MOVE_IN_FACTS, *NEW_HOME_DERIVED)
POLICY_DEPENDENT = (
    *MOVE_IN_FACTS,
    *(f for f in NEW_HOME_DERIVED if base_facts(f) & set(MOVE_IN_FACTS)),
)
MOST_COUNT = 36  # more than any count on a board (one tile per square); extra thresholds are free


def thresholds(op: str, value: int | Fraction) -> tuple[int, ...]:
    """The ">= t" thresholds that decide `x op value` for every whole number x."""
    if op in (">=", "<"):
        return (math.ceil(value),)
    if op in (">", "<="):
        return (math.floor(value) + 1,)
    exact = Fraction(value)  # a yes/no fact's `true` is 1
    return (int(exact), int(exact) + 1) if exact.denominator == 1 else ()


def _spending(clause: Clause) -> tuple[tuple[int | Fraction, bool], ...]:
    """(amount, strict) pairs: "under $x" and "at least $x" split at x, "over" just above."""
    strict = {">=": (False,), "<": (False,), ">": (True,), "<=": (True,), "==": (False, True)}
    return tuple((clause.threshold, s) for s in strict[clause.op])


def _across(clause: Clause) -> dict[str, Spec]:
    """A relation between a single fact s and a new-home count n (a s + c n `op` t): s kept
    exactly, n through the thresholds of c n `op` t - a v for every value v of s."""
    form = linear_form(clause.fact)
    singles = [f for f in form if f in SINGLES]
    counts = [f for f in form if f in NEW_HOME_COUNTS]
    if len(singles) != 1 or len(counts) != 1 or len(form) != 2:  # pragma: no cover
        raise NotImplementedError(f"the solver cannot split the relation {clause.fact!r}")
    (single,), (count,) = singles, counts
    a, c = form[single], form[count]
    flipped = {">=": "<=", "<=": ">=", ">": "<", "<": ">", "==": "=="}
    op = clause.op if c > 0 else flipped[clause.op]
    cuts = {
        t
        for v in range(MOST_COUNT + 1)
        for t in thresholds(op, Fraction(clause.threshold - a * v, c))
    }
    return {single: None, count: tuple(sorted(cuts))}


def clause_atoms(clause: Clause) -> dict[str, Spec]:
    """What the solver must keep apart to decide one clause."""
    if clause.fact in MONEY_FACTS:
        return {clause.fact: _spending(clause)}
    if clause.fact in POLICY_FACTS:
        return {}
    if clause.fact in DERIVED_FACTS and clause.fact not in (*NEW_HOME_DERIVED, *SINGLE_DERIVED):
        return _across(clause)
    cuts = thresholds(clause.op, clause.threshold)
    if clause.fact not in DERIVED_FACTS:  # counts are never negative: a cut at 0 splits nothing
        cuts = tuple(t for t in cuts if t > 0)
    return {clause.fact: cuts}


def card_atoms(card: str) -> dict[str, Spec]:
    """The atoms of `card`, read off its declaration (`card_rules.CARD_RULES`) each time, so
    that a changed declaration changes the search."""
    rule = CARD_RULES[card]
    return merge(clause_atoms(c) for condition in rule.conditions for c in condition.clauses)


def merge(specs: Iterable[Mapping[str, Spec]]) -> dict[str, Spec]:
    """Union of atom needs: thresholds add up, an exact need (None) wins over thresholds."""
    merged: dict[str, Spec] = {}
    for spec in specs:
        for fact, need in spec.items():
            old = merged.get(fact, ())
            if fact not in merged:
                merged[fact] = need
            elif old is None or need is None:
                merged[fact] = None
            else:
                merged[fact] = tuple(sorted(set(old) | set(need)))
    return merged


def spending_thresholds(spec: Spec, scale: int) -> tuple[int, ...]:
    """Spending thresholds in 1/scale dollars as ">= t" ("over $13" is ">= 13 + 1/scale")."""
    assert isinstance(spec, tuple)
    return tuple(
        sorted(
            {
                math.floor(amount * scale) + 1 if strict else math.ceil(amount * scale)
                for amount, strict in spec
            }
        )
    )

"""The facts a search group's sums give: what the signatures and the bounds both read.

A group holds a few feature sums (the three new-home counts, the two costs, parks and garages,
...). The cards read facts of them: the counts themselves, the move-in's results under each
policy set, and the relations `card_rules.DERIVED_FACTS` defines, computed here from that one
definition.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from housing_lab.north_berkeley.engine.card_rules import base_facts, fact_value
from housing_lab.north_berkeley.solver.atoms import (
    NEW_HOME_DERIVED,
    NEW_HOMES_GROUP_FACTS,
    POLICY_DEPENDENT,
    SINGLE_DERIVED,
    SINGLES,
    Spec,
)

Array = np.ndarray
NEW_HOMES = ("new_market", "new_middle", "new_low")
SPENDING = ("housing_cost", "other_cost")
# (market, middle, low, policies) -> the move-in facts (solver.atoms.MOVE_IN_FACTS)
MoveIn = Callable[[Array, Array, Array, frozenset[str]], dict[str, Array]]


def single_groups(facts: Sequence[str]) -> list[tuple[str, ...]]:
    """The groups of the single features among `facts`: each alone, except those a relation
    in `facts` ties together (parks and garages for "more parks than garages")."""
    clusters: list[set[str]] = [{f} for f in SINGLES if f in facts]
    for relation in SINGLE_DERIVED:
        if relation in facts:
            tied = set(base_facts(relation))
            touching = [c for c in clusters if c & tied]
            clusters = [c for c in clusters if not c & tied]
            clusters.append(tied.union(*touching))
    groups = [tuple(f for f in SINGLES if f in c) for c in clusters]
    return sorted(groups, key=lambda g: SINGLES.index(g[0]))


def group_of(fact: str, singles: Sequence[tuple[str, ...]]) -> tuple[str, ...] | None:
    """The features of the group holding `fact` (None: spending, or a fact read by parts)."""
    if fact in NEW_HOMES_GROUP_FACTS:
        return NEW_HOMES
    parts = base_facts(fact)
    return next((g for g in singles if parts <= set(g)), None)


def group_facts(
    features: tuple[str, ...],
    values: Array,
    policy_sets: Sequence[frozenset[str]],
    move_in: MoveIn | None = None,
) -> dict[str, Array]:
    """The facts of a group's values (rows of `values`); the move-in facts per policy set as
    `fact@i` (only with `move_in`)."""
    values = values.astype(np.int64)
    if features == SPENDING:
        housing, other = values.T
        return {"spending": 2 * (housing + other), "spending_halved": housing + 2 * other}
    facts = {f: values[:, i] for i, f in enumerate(features)}
    if features == NEW_HOMES:
        market, middle, low = values.T
        facts["new_total"] = market + middle + low
        if move_in is not None:
            for i, policies in enumerate(policy_sets):
                moved = {**facts, **move_in(market, middle, low, policies)}
                for fact in POLICY_DEPENDENT:
                    facts[f"{fact}@{i}"] = fact_value(fact, moved.__getitem__)
        derived = [f for f in NEW_HOME_DERIVED if f not in POLICY_DEPENDENT]
    else:
        derived = [f for f in SINGLE_DERIVED if base_facts(f) <= set(features)]
    for fact in derived:
        facts[fact] = fact_value(fact, facts.__getitem__)
    return facts


def atom_classes(values: Array, spec: Spec) -> Array:
    """A fact's value as the question sees it: its class among the ">= t" thresholds of
    `spec` (how many it reaches), or the value itself (None: kept exactly). Whole numbers in
    a small range are classed by one look-up each (the search classes every value of a
    group's value space, tens of thousands, for every threshold set)."""
    if not isinstance(spec, tuple):
        return values.astype(np.int64)
    cuts = np.array(spec)
    if values.dtype.kind in "iu" and cuts.dtype.kind in "iuf" and len(values) > 64:
        low, high = int(values.min()), int(values.max())
        if high - low <= 4 * len(values):
            table = np.searchsorted(cuts, np.arange(low, high + 1), side="right")
            return table[values - low]
    return np.searchsorted(cuts, values, side="right")

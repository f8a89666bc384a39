"""A board as arrays: the one encoding the batch, the solver, the coach, the sweep and the
`nb score` stream read.

Policy sets are bit masks (bit i is `POLICIES[i]`); each (square, tile) has a row of features
(the counted facts of `TILE_COUNTS` and two costs); the allowed-tile table says which tiles each
square takes under a policy set; spending is counted in whole 1/scale dollars with matching
funds applied; the move-in reads ADU slots, whether displacing is allowed and who lives in the
houses and apartments. Each of these is the array form of one scalar rule (`engine.legal`,
`engine.facts`, `engine.movein`); tests/north_berkeley/test_legal.py checks them against the
scalar engine on random boards.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from math import lcm

import numpy as np
from numpy.typing import DTypeLike

from housing_lab.north_berkeley.engine.card_rules import TILE_COUNTS, tile_counts
from housing_lab.north_berkeley.engine.legal import halving_enacted, tile_allowed
from housing_lab.north_berkeley.layout import Layout
from housing_lab.north_berkeley.model import HOME_KINDS, RULEBOOK, Model
from housing_lab.north_berkeley.policies import (
    ADU,
    AFFORDABLE_100,
    MATCHING_FUNDS,
    MATCHING_FUNDS_LOW_HOMES,
    POLICIES,
    VACANCY_CONTROL,
)
from housing_lab.north_berkeley.tiles import Catalogue

Array = np.ndarray
# Per-(square, tile) contributions, summed over the board: the counted facts (`TILE_COUNTS`,
# ArrayFacts fields) and the two costs (housing tiles are halved by matching funds, garages and
# parks are not).
COSTS = ("housing_cost", "other_cost")
FEATURES = (*TILE_COUNTS, *COSTS)


# --- policies ---------------------------------------------------------------------------------
def policy_mask(policies: Iterable[str]) -> int:
    """Bit mask of a policy set (bit i is POLICIES[i])."""
    return sum(1 << POLICIES.index(p) for p in set(policies))


def policies_of(mask: int) -> list[str]:
    """The policy ids of a bit mask, in POLICIES order."""
    return [p for i, p in enumerate(POLICIES) if mask >> i & 1]


def policy_bit(policy: str) -> int:
    return 1 << POLICIES.index(policy)


# --- tiles on squares -------------------------------------------------------------------------
def tile_features(layout: Layout, catalogue: Catalogue) -> tuple[Array, int]:
    """Table (squares, tiles + 1, FEATURES) of each tile's contribution on each square (the last
    tile row is the empty square), and the cost unit (costs are whole multiples of 1/unit)."""
    tiles = list(catalogue.values())
    unit = lcm(*(t.cost.denominator for t in tiles)) if tiles else 1
    table = np.zeros((len(layout.squares), len(tiles) + 1, len(FEATURES)), dtype=np.int64)
    for s, square in enumerate(layout.squares):
        tags = layout.tags_of_square[square]
        for t, tile in enumerate(tiles):
            cost = int(tile.cost * unit)
            counted = tile_counts(tile, tags)
            table[s, t] = [
                *(counted[name] for name in TILE_COUNTS),
                cost if tile.is_housing else 0,
                0 if tile.is_housing else cost,
            ]
    return table, unit


def allowed_table(layout: Layout, catalogue: Catalogue, policies: Collection[str]) -> Array:
    """(squares, tiles + 1) booleans: which tile codes each square takes under `policies`
    (`engine.legal.tile_allowed`; the last column, the empty square, is always allowed)."""
    table = np.ones((len(layout.squares), len(catalogue) + 1), dtype=bool)
    for s, square in enumerate(layout.squares):
        phase = layout.phase_of_square[square]
        for t, tile in enumerate(catalogue.values()):
            table[s, t] = tile_allowed(tile, policies, phase)
    return table


def refused_table(layout: Layout, catalogue: Catalogue) -> Array:
    """(squares, tiles + 1) booleans: True where `affordable_100` refuses the tile code on the
    square (the one table the coach, its candidates and the `nb score` stream read)."""
    return ~allowed_table(layout, catalogue, (AFFORDABLE_100,))


def allowed_codes(
    layout: Layout, catalogue: Catalogue, policies: Collection[str], empty: bool = False
) -> tuple[tuple[int, ...], ...]:
    """Per square, the tile codes it takes under `policies` (with the empty code if `empty`)."""
    table = allowed_table(layout, catalogue, policies)
    if not empty:
        table = table[:, :-1]
    return tuple(tuple(np.flatnonzero(row).tolist()) for row in table)


# --- spending ---------------------------------------------------------------------------------
def halved(policies: Array | Collection[str], new_low: Array) -> Array:
    """Whether matching funds halve the housing: a policy mask array (or one policy set) and
    the boards' new low income homes (`engine.legal.housing_halved` on arrays)."""
    if isinstance(policies, np.ndarray):
        enacted = (policies & policy_bit(MATCHING_FUNDS)) > 0
    else:
        enacted = np.full(np.shape(new_low), halving_enacted(policies))
    return enacted & (new_low >= MATCHING_FUNDS_LOW_HOMES)


# the fact and threshold that decide the halving: a search keeps boards on either side apart
HALVING_ATOMS = {"new_low": (MATCHING_FUNDS_LOW_HOMES,)}


def may_halve(policy_sets: Iterable[Collection[str]]) -> bool:
    """Whether matching funds may halve the housing under any of `policy_sets` (a search then
    keeps two cost columns, `cost_columns`)."""
    return any(halving_enacted(s) for s in policy_sets)


def spending_units(housing: Array, other: Array, halve: Array) -> Array:
    """Spending in 1/(2 unit) dollars from the summed housing and other costs (1/unit): halves
    stay whole (the housing counted once instead of twice where `halve`)."""
    return 2 * (housing + other) - halve * housing


def cost_columns(housing: Array, other: Array, halves: bool) -> list[Array]:
    """Spending in 1/(2 unit) dollars as costs a search minimizes: the full price, and (when
    matching funds may apply) the halved one; `np.where(halved, last, first)` picks."""
    columns = [2 * (housing + other)]
    if halves:
        columns.append(housing + 2 * other)
    return columns


# --- move-in inputs ---------------------------------------------------------------------------
def adu_slots(policies: Array, houses: int, dtype: DTypeLike = np.int64) -> Array:
    """ADU slots per board: one per existing house with `adu`, else none."""
    return ((policies & policy_bit(ADU)) > 0).astype(dtype) * houses


def vacancy_control(policies: Array) -> Array:
    """Whether `vacancy_control` is enacted, per board (a card fact)."""
    return (policies & policy_bit(VACANCY_CONTROL)) > 0


def can_displace(policies: Array) -> Array:
    """Whether displacing is allowed per board (no `vacancy_control`): the rulebook's answer
    for every kind of existing home."""
    return (policies & policy_bit(VACANCY_CONTROL)) == 0


def displacing_by_kind(policies: Array, model: Model = RULEBOOK) -> tuple[Array, Array]:
    """Whether residents of existing houses, and of apartments, can be displaced per board:
    allowed unless vacancy control is enacted and the model says it covers that kind
    (`Model.protects`). Under the rulebook both are `can_displace` (the same array)."""
    free = can_displace(policies)
    if all(model.protects(kind) for kind in HOME_KINDS):
        return free, free
    return tuple(  # type: ignore[return-value]
        free if model.protects(kind) else np.ones_like(free) for kind in HOME_KINDS
    )


def set_move_in_inputs(
    policies: Collection[str], n: int, houses: int, model: Model = RULEBOOK
) -> tuple[Array, Array | tuple[Array, Array]]:
    """ADU slots and whether displacing is allowed, for `n` boards under one policy set (a pair
    for houses and apartments when `model` lets vacancy control cover only one kind)."""
    adus = np.full(n, houses if ADU in policies else 0)
    free = np.full(n, VACANCY_CONTROL not in policies)
    if all(model.protects(kind) for kind in HOME_KINDS):
        return adus, free
    return adus, tuple(  # type: ignore[return-value]
        free if model.protects(kind) else np.ones_like(free) for kind in HOME_KINDS
    )

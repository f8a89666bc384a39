"""What the rules allow on a board, asked instead of probed.

Which tiles a square takes now, why a tile is refused (in words a student reads), what each tile
costs now (matching funds applied) and why a policy cannot be enacted: every caller (scenario
checks, `Game`, the lab, the game table, the CLI, the coach, the solver) asks these functions,
so no one builds a throw-away board or reads an error message to learn what is legal.

The functions take a bare board (tiles, policies, layout, catalogue); `Scenario` and `Game`
offer them as methods. Unknown ids are bad input and raise `UnknownIdError`; a refusal is a
sentence, and None means allowed.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from fractions import Fraction

from housing_lab.errors import shown_id
from housing_lab.north_berkeley.errors import UnknownIdError
from housing_lab.north_berkeley.layout import Layout
from housing_lab.north_berkeley.model import Model, dollars
from housing_lab.north_berkeley.policies import (
    AFFORDABLE_100,
    MATCHING_FUNDS,
    MATCHING_FUNDS_LOW_HOMES,
    POLICY_NAMES,
    check_policy,
)
from housing_lab.north_berkeley.tiles import Catalogue, Tile

# The words of `affordable_100`'s refusal (the engine's error says the same with ids).
AFFORDABLE_RULE = "allows only low/middle income tiles on phase-2 squares"
AFFORDABLE_REFUSAL = f"{POLICY_NAMES[AFFORDABLE_100]} {AFFORDABLE_RULE}"


def check_square(square: object, layout: Layout) -> str:
    if not isinstance(square, str) or square not in layout.squares:
        raise UnknownIdError(
            f"unknown square {shown_id(square)} (squares: {', '.join(layout.squares)})"
        )
    return square


def check_tile(tile: object, catalogue: Catalogue) -> str:
    if not isinstance(tile, str) or tile not in catalogue:  # a list is no id (nor hashable)
        raise UnknownIdError(f"unknown tile {shown_id(tile)} (tiles: {', '.join(catalogue)})")
    return tile


def restricts_tiles(policies: Collection[str], square_phase: int) -> bool:
    """True when `policies` limit a square of `square_phase` to tiles without market homes.

    The one place that knows `affordable_100`'s reach: phase-2 squares only."""
    return square_phase == 2 and AFFORDABLE_100 in policies


def tile_allowed(tile: Tile, policies: Collection[str], square_phase: int) -> bool:
    """Whether `tile` may stand on a square of `square_phase` while `policies` are enacted."""
    return tile.affordable_only or not restricts_tiles(policies, square_phase)


def allowed_tiles(
    square: str, policies: Collection[str], layout: Layout, catalogue: Catalogue
) -> tuple[str, ...]:
    """The tiles the rules accept on `square` under `policies`, in catalogue order."""
    phase = layout.phase_of(check_square(square, layout))
    return tuple(t for t, tile in catalogue.items() if tile_allowed(tile, policies, phase))


def refusal(
    square: str, tile: str, policies: Collection[str], layout: Layout, catalogue: Catalogue
) -> str | None:
    """Why the rules refuse `tile` on `square` under `policies`, in words; None if allowed."""
    square, tile = check_square(square, layout), check_tile(tile, catalogue)
    if tile_allowed(catalogue[tile], policies, layout.phase_of(square)):
        return None
    return AFFORDABLE_REFUSAL


def affordable_violations(
    tiles: Mapping[str, str], layout: Layout, catalogue: Catalogue
) -> list[str]:
    """Phase-2 squares holding a tile with market homes, in layout order."""
    return [
        square
        for square in layout.squares
        if square in tiles
        and not tile_allowed(catalogue[tiles[square]], (AFFORDABLE_100,), layout.phase_of(square))
    ]


def policy_refusal(
    policy: str, tiles: Mapping[str, str], layout: Layout, catalogue: Catalogue
) -> str | None:
    """Why `policy` cannot be enacted on the board `tiles`, in words; None if it can."""
    if check_policy(policy) != AFFORDABLE_100:
        return None
    violations = affordable_violations(tiles, layout, catalogue)
    if not violations:
        return None
    listed = ", ".join(f"{square} ({catalogue[tiles[square]].name})" for square in violations)
    return f"{AFFORDABLE_REFUSAL}; market homes on {listed}"


def housing_halved(policies: Collection[str], new_low: int) -> bool:
    """Matching funds in effect: enacted, and at least 7 low income homes built."""
    return MATCHING_FUNDS in policies and new_low >= MATCHING_FUNDS_LOW_HOMES


def tile_cost(tile: Tile, halved: bool) -> Fraction:
    """A tile's cost; housing costs half while matching funds are in effect (parks, garages
    keep their price)."""
    return tile.cost / 2 if halved and tile.is_housing else tile.cost


def new_low_homes(tiles: Mapping[str, str], catalogue: Catalogue) -> int:
    return sum(catalogue[t].count("low") for t in tiles.values())


def spending(tiles: Mapping[str, str], policies: Collection[str], catalogue: Catalogue) -> Fraction:
    """What a board costs the city, matching funds applied (at least 7 low income homes)."""
    halved = housing_halved(policies, new_low_homes(tiles, catalogue))
    return sum((tile_cost(catalogue[t], halved) for t in tiles.values()), Fraction(0))


def budget_refusal(
    tiles: Mapping[str, str], policies: Collection[str], catalogue: Catalogue, model: Model
) -> str | None:
    """Why the board `tiles` (as it would stand) breaks the model's city budget, in words;
    None when it keeps within it (or there is no budget).

    Callers pass the board *after* the change they ask about: a placement, a cleared square
    (clearing can cost money, when it takes low income homes below matching funds' 7) or a
    policy change."""
    budget = model.city_budget()
    if budget is None:
        return None
    spent = spending(tiles, policies, catalogue)
    if not model.over_budget(spent):
        return None
    return f"the board would spend {dollars(spent)}, over the city budget of {dollars(budget)}"


def placement_refusal(
    square: str,
    tile: str,
    tiles: Mapping[str, str],
    policies: Collection[str],
    layout: Layout,
    catalogue: Catalogue,
    model: Model,
) -> str | None:
    """Why `tile` cannot go on `square` of the board `tiles` (replacing what stands there):
    the rules first (`refusal`), then the city budget; None if it can."""
    reason = refusal(square, tile, policies, layout, catalogue)
    if reason is not None:
        return reason
    after = {**tiles, square: tile}
    reason = budget_refusal(after, policies, catalogue, model)
    if reason is None:
        return None
    return f"{catalogue[tile].name} on {square}: {reason}"


def tile_costs(
    tiles: Mapping[str, str], policies: Collection[str], catalogue: Catalogue
) -> dict[str, Fraction]:
    """What each tile of the catalogue costs on this board now (matching funds applied as the
    board's low income homes stand), in catalogue order."""
    halved = housing_halved(policies, new_low_homes(tiles, catalogue))
    return {tile_id: tile_cost(tile, halved) for tile_id, tile in catalogue.items()}

"""What the rules allow on a board, asked instead of probed.

Which tiles a square takes now, why a tile is refused (in words a student reads), what each tile
costs now (matching funds applied) and why a policy cannot be enacted: every caller (scenario
checks, `Game`, the lab, the game table, the CLI, the coach, the solver) asks these functions,
so no one builds a throw-away board or reads an error message to learn what is legal.

The functions take a bare board (tiles, policies, layout, catalogue); `Board`, `Scenario` and
`Game` offer them as methods. Unknown ids are bad input and raise `UnknownIdError`. The
action-level questions (`place_refusal`, `clear_refusal`, `policy_change_refusal`) answer with
a `Refusal`: a stable rule id, the ids involved and the sentence a student reads (names as
printed, no ids), so no caller rewrites or parses words; the older helpers return its words.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
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

# The words of `affordable_100`'s refusal (its errors add where: `market_homes_words`).
AFFORDABLE_RULE = "allows only low/middle income tiles on phase-2 squares"
AFFORDABLE_REFUSAL = f"{POLICY_NAMES[AFFORDABLE_100]} {AFFORDABLE_RULE}"

# The rule ids a `Refusal` names (stable: views and tests may branch on them).
RULE_AFFORDABLE = AFFORDABLE_100  # a tile with market homes on a phase-2 square
RULE_BUDGET = "budget"  # the model's city budget
RULE_NO_CHANGE = "no_change"  # the action would leave the board as it is
RULE_PHASE = "phase"  # not now: another phase of the game (`Game`)
RULE_NOT_DRAWN = "not_drawn"  # a policy card not drawn this game (`Game`)


@dataclass(frozen=True)
class Refusal:
    """Why the rules refuse an action: `rule` (one of the `RULE_*` ids), `ids` (the squares,
    tiles and policies involved) and `words` (the sentence a student reads: names as
    printed, no ids; shown as it is)."""

    rule: str
    ids: tuple[str, ...]
    words: str


def check_square(square: object, layout: Layout) -> str:
    if not isinstance(square, str) or square not in layout.squares:
        raise UnknownIdError(
            f"unknown square {shown_id(square)} (squares: {', '.join(layout.squares)})"
        )
    return square


def check_tile(tile: object, catalogue: Catalogue) -> str:
    """`tile` if the catalogue has it; else one line quoting it and naming the tiles as
    printed (their ids in the error's `ids`)."""
    if not isinstance(tile, str) or tile not in catalogue:  # a list is no id (nor hashable)
        names = ", ".join(entry.name for entry in catalogue.values())
        raise UnknownIdError(f"unknown tile {shown_id(tile)} (tiles: {names})", ids=catalogue)
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
    phase = layout.phase_of_square[check_square(square, layout)]
    return tuple(t for t, tile in catalogue.items() if tile_allowed(tile, policies, phase))


def tile_refusal(
    square: str, tile: str, policies: Collection[str], layout: Layout, catalogue: Catalogue
) -> Refusal | None:
    """Why the rules refuse `tile` on `square` under `policies` (the budget aside); None if
    allowed."""
    square, tile = check_square(square, layout), check_tile(tile, catalogue)
    if tile_allowed(catalogue[tile], policies, layout.phase_of_square[square]):
        return None
    return Refusal(RULE_AFFORDABLE, (AFFORDABLE_100, square, tile), AFFORDABLE_REFUSAL)


def refusal(
    square: str, tile: str, policies: Collection[str], layout: Layout, catalogue: Catalogue
) -> str | None:
    """Why the rules refuse `tile` on `square` under `policies`, in words; None if allowed."""
    reason = tile_refusal(square, tile, policies, layout, catalogue)
    return None if reason is None else reason.words


def ruled_out(
    tiles: Mapping[str, str], policies: Collection[str], layout: Layout, catalogue: Catalogue
) -> list[str]:
    """The squares (layout order) whose tiles `policies` forbid (affordable_100 on phase 2)."""
    return [
        square
        for square in layout.squares
        if square in tiles
        and not tile_allowed(catalogue[tiles[square]], policies, layout.phase_of_square[square])
    ]


def affordable_violations(
    tiles: Mapping[str, str], layout: Layout, catalogue: Catalogue
) -> list[str]:
    """Phase-2 squares holding a tile with market homes, in layout order."""
    return ruled_out(tiles, (AFFORDABLE_100,), layout, catalogue)


def enact_refusal(
    policy: str, tiles: Mapping[str, str], layout: Layout, catalogue: Catalogue
) -> Refusal | None:
    """Why `policy` cannot be enacted on the board `tiles` (the budget aside); None if it can."""
    if check_policy(policy) != AFFORDABLE_100:
        return None
    violations = affordable_violations(tiles, layout, catalogue)
    if not violations:
        return None
    words = market_homes_words(violations, tiles, catalogue)
    return Refusal(RULE_AFFORDABLE, (AFFORDABLE_100, *violations), words)


def market_homes_words(
    squares: Collection[str], tiles: Mapping[str, str], catalogue: Catalogue
) -> str:
    """`affordable_100`'s refusal and where it bites, tiles by name: "100% Affordable Housing
    allows only ...; market homes on A1 (Market Rate Tower), B3 (Market Rate Midrise)"."""
    listed = ", ".join(f"{square} ({catalogue[tiles[square]].name})" for square in squares)
    return f"{AFFORDABLE_REFUSAL}; market homes on {listed}"


def policy_refusal(
    policy: str, tiles: Mapping[str, str], layout: Layout, catalogue: Catalogue
) -> str | None:
    """Why `policy` cannot be enacted on the board `tiles`, in words; None if it can."""
    reason = enact_refusal(policy, tiles, layout, catalogue)
    return None if reason is None else reason.words


def halving_enacted(policies: Collection[str]) -> bool:
    """Matching funds enacted: housing costs half once enough low income homes are built
    (at their cheapest, the most a board of these policies can hope for)."""
    return MATCHING_FUNDS in policies


def housing_halved(policies: Collection[str], new_low: int) -> bool:
    """Matching funds in effect: enacted, and at least 7 low income homes built (the one
    scalar statement of the halving; `batch.encoding.halved` is its array form)."""
    return halving_enacted(policies) and new_low >= MATCHING_FUNDS_LOW_HOMES


def tile_cost(tile: Tile, halved: bool) -> Fraction:
    """A tile's cost; housing costs half while matching funds are in effect (parks, garages
    keep their price)."""
    return tile.cost / 2 if halved and tile.is_housing else tile.cost


def new_low_homes(tiles: Mapping[str, str], catalogue: Catalogue) -> int:
    return sum(catalogue[t].homes.count("low") for t in tiles.values())


def spending(
    tiles: Mapping[str, str],
    policies: Collection[str],
    catalogue: Catalogue,
    new_low: int | None = None,
) -> Fraction:
    """What a board costs the city, matching funds applied (at least 7 low income homes);
    `new_low`, the board's new low income homes, when the caller has counted them."""
    if new_low is None:
        new_low = new_low_homes(tiles, catalogue)
    halved = housing_halved(policies, new_low)
    return sum((tile_cost(catalogue[t], halved) for t in tiles.values()), Fraction(0))


def budget_refusal(
    tiles: Mapping[str, str],
    policies: Collection[str],
    catalogue: Catalogue,
    model: Model,
    would: bool = True,
) -> str | None:
    """Why the board `tiles` breaks the model's city budget, in words; None when it keeps
    within it (or there is no budget).

    `would`: the board as it would stand after a change asked about ("the board would
    spend"; a placement, a cleared square, which can cost money when it takes low income
    homes below matching funds' 7, or a policy change); False for a board as given ("the
    board spends", a loaded scenario)."""
    budget = model.city_budget()
    if budget is None:
        return None
    spent = spending(tiles, policies, catalogue)
    if not model.over_budget(spent):
        return None
    verb = "would spend" if would else "spends"
    return f"the board {verb} {dollars(spent)}, over the city budget of {dollars(budget)}"


def _over_budget(
    what: str,
    ids: tuple[str, ...],
    tiles: Mapping[str, str],
    policies: Collection[str],
    catalogue: Catalogue,
    model: Model,
) -> Refusal | None:
    """The budget's refusal of the change `what` (its words' subject) leaving `tiles`."""
    reason = budget_refusal(tiles, policies, catalogue, model)
    return None if reason is None else Refusal(RULE_BUDGET, ids, f"{what}: {reason}")


def place_refusal(
    square: str,
    tile: str,
    tiles: Mapping[str, str],
    policies: Collection[str],
    layout: Layout,
    catalogue: Catalogue,
    model: Model,
) -> Refusal | None:
    """Why `tile` cannot go on `square` of the board `tiles` (replacing what stands there):
    the rules first (`tile_refusal`), then the city budget; None if it can. The tile that
    already stands there is allowed here (a `Game` may place it again); `Board` refuses it
    as no change (`same_tile_refusal`)."""
    reason = tile_refusal(square, tile, policies, layout, catalogue)
    if reason is not None or model.city_budget() is None:
        return reason
    after = {**tiles, square: tile}
    what = f"{catalogue[tile].name} on {square}"
    return _over_budget(what, (square, tile), after, policies, catalogue, model)


def square_refusals(
    square: str,
    tiles: Mapping[str, str],
    policies: Collection[str],
    layout: Layout,
    catalogue: Catalogue,
    model: Model,
) -> dict[str, Refusal | None]:
    """Tile -> `same_tile_refusal` or `place_refusal` of it on `square`, for the whole
    catalogue at once (a palette; the same answers as asking tile by tile, checked by
    tests/north_berkeley/test_board.py, with the square's checks made once)."""
    phase = layout.phase_of_square[check_square(square, layout)]
    current = tiles.get(square)
    answers: dict[str, Refusal | None] = {}
    for tile_id, tile in catalogue.items():
        if tile_id == current:
            answers[tile_id] = same_tile_refusal(square, tile_id, tiles, catalogue)
        elif not tile_allowed(tile, policies, phase) or model.city_budget() is not None:
            answers[tile_id] = place_refusal(
                square, tile_id, tiles, policies, layout, catalogue, model
            )
        else:
            answers[tile_id] = None
    return answers


def placement_refusal(
    square: str,
    tile: str,
    tiles: Mapping[str, str],
    policies: Collection[str],
    layout: Layout,
    catalogue: Catalogue,
    model: Model,
) -> str | None:
    """`place_refusal` in words; None if the tile may go there."""
    reason = place_refusal(square, tile, tiles, policies, layout, catalogue, model)
    return None if reason is None else reason.words


def same_tile_refusal(
    square: str, tile: str, tiles: Mapping[str, str], catalogue: Catalogue
) -> Refusal | None:
    """Placing the tile that already stands on `square` changes nothing: refused as such."""
    if tiles.get(square) != tile:
        return None
    return Refusal(
        RULE_NO_CHANGE, (square, tile), f"the {catalogue[tile].name} already stands on {square}"
    )


def clear_refusal(
    square: str,
    tiles: Mapping[str, str],
    policies: Collection[str],
    layout: Layout,
    catalogue: Catalogue,
    model: Model,
) -> Refusal | None:
    """Why `square` cannot be cleared: it is empty, or clearing it breaks the city budget
    (taking low income homes below matching funds' 7 doubles what other housing costs)."""
    square = check_square(square, layout)
    if square not in tiles:
        return Refusal(RULE_NO_CHANGE, (square,), f"square {square} is already empty")
    after = {s: t for s, t in tiles.items() if s != square}
    return _over_budget(f"clearing {square}", (square,), after, policies, catalogue, model)


def policy_change_refusal(
    policy: str,
    enacted: bool,
    tiles: Mapping[str, str],
    policies: Collection[str],
    layout: Layout,
    catalogue: Catalogue,
    model: Model,
) -> Refusal | None:
    """Why `policy` cannot be enacted (`enacted` True) or repealed (False) on this board:
    it already is (no change), `affordable_100` and market homes on phase-2 squares, or the
    city budget (repealing matching funds doubles what housing costs); None if it can."""
    policy = check_policy(policy)
    name = POLICY_NAMES[policy]
    if (policy in policies) == enacted:
        state = "already enacted" if enacted else "not enacted"
        return Refusal(RULE_NO_CHANGE, (policy,), f"{name} is {state}")
    if enacted:
        reason = enact_refusal(policy, tiles, layout, catalogue)
        if reason is not None:
            return reason
        after = {*policies, policy}
    else:
        after = {p for p in policies if p != policy}
    what = f"{'enacting' if enacted else 'repealing'} {name}"
    return _over_budget(what, (policy,), tiles, after, catalogue, model)


def tile_costs(
    tiles: Mapping[str, str], policies: Collection[str], catalogue: Catalogue
) -> dict[str, Fraction]:
    """What each tile of the catalogue costs on this board now (matching funds applied as the
    board's low income homes stand), in catalogue order."""
    halved = housing_halved(policies, new_low_homes(tiles, catalogue))
    return {tile_id: tile_cost(tile, halved) for tile_id, tile in catalogue.items()}

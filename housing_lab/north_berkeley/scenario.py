"""The scenario's JSON (a board's tiles on squares, enacted policies and existing residents)
checked into a `Scenario`.

This is the engine's public input format (RULES.md "Scenario JSON"). Parsing validates every
value and raises a one-line error naming the first bad one. The value itself, `Scenario`, is
the engine's (`engine.scoring`), kept importable from here; `replaced` is a checked copy.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from housing_lab.errors import shown
from housing_lab.jsonio import JsonInputError, loads
from housing_lab.north_berkeley.engine import legal
from housing_lab.north_berkeley.engine.legal import (
    affordable_violations,
    check_square,
    check_tile,
    restricts_tiles,
    tile_allowed,
)
from housing_lab.north_berkeley.engine.scoring import DEFAULT_SEED, Scenario, check_budget
from housing_lab.north_berkeley.errors import (
    AffordableOnlyError,
    ScenarioFormatError,
    UnknownIdError,
    checked_object,
)
from housing_lab.north_berkeley.layout import Layout, default_layout
from housing_lab.north_berkeley.model import (
    Model,
    asked_model,
)
from housing_lab.north_berkeley.policies import (
    AFFORDABLE_100,
    INCOMES,
    POLICY_NAMES,
    check_income,
    check_policy,
)
from housing_lab.north_berkeley.tiles import Catalogue, default_catalogue
from housing_lab.numbers import check_seed

# asked of the engine's rules module, kept importable from here
__all__ = [
    "DEFAULT_SEED",
    "SCENARIO_KEYS",
    "Scenario",
    "affordable_error",
    "affordable_violations",
    "check_existing",
    "check_square",
    "check_tile",
    "make_scenario",
    "replaced",
    "restricts_tiles",
    "scenario_from_dict",
    "scenario_from_json",
    "shuffled_existing",
    "tile_allowed",
]

SCENARIO_KEYS = ("tiles", "policies", "existing", "seed", "model")


def shuffled_existing(layout: Layout, seed: int) -> dict[str, str]:
    """Setup step 1: 4 high, 4 middle, 4 low residents shuffled into the existing homes."""
    homes = layout.existing_ids
    per_income = len(homes) // len(INCOMES)
    residents = [income for income in INCOMES for _ in range(per_income)]
    random.Random(seed).shuffle(residents)
    return dict(zip(homes, residents, strict=True))


def affordable_error(
    violations: list[str], tiles: Mapping[str, str], catalogue: Catalogue
) -> AffordableOnlyError:
    """`affordable_100` refusing market homes on the phase-2 squares `violations` of `tiles`
    (the words of `Board`'s refusal; `ids`: the policy, then each square and its tile)."""
    ids = [AFFORDABLE_100, *(i for square in violations for i in (square, tiles[square]))]
    words = legal.market_homes_words(violations, tiles, catalogue)
    return AffordableOnlyError(words, ids=ids)


def check_existing(existing: object, layout: Layout) -> dict[str, str]:
    if not isinstance(existing, Mapping):
        raise ScenarioFormatError(
            f"'existing' must be an object of home -> income, got {shown(existing)}"
        )
    for home in existing:
        if home not in layout.existing_ids:
            raise UnknownIdError(
                f"unknown existing home {shown(home)} (homes: {', '.join(layout.existing_ids)})"
            )
    placement = {}
    for home in layout.existing_ids:
        if home not in existing:
            raise ScenarioFormatError(f"'existing' does not say who lives in {home!r}")
        placement[home] = check_income(existing[home])
    expected = len(layout.existing_ids) // len(INCOMES)
    counts = {income: list(placement.values()).count(income) for income in INCOMES}
    if any(count != expected for count in counts.values()):
        got = ", ".join(f"{counts[i]} {i}" for i in INCOMES)
        raise ScenarioFormatError(
            f"'existing' must hold {expected} residents of each income; got {got}"
        )
    return placement


def make_scenario(
    tiles: Mapping[str, str] | None = None,
    policies: Any = (),
    existing: Mapping[str, str] | None = None,
    seed: int = DEFAULT_SEED,
    layout: Layout | None = None,
    catalogue: Catalogue | None = None,
    model: Model | Mapping[str, Any] | None = None,
) -> Scenario:
    """Validate Python values into a Scenario (the one place where every check lives).

    `model`: the assumptions (a `Model` or its JSON object; None: the rulebook's). A board
    that spends more than the model's budget is refused."""
    layout = layout or default_layout()
    catalogue = catalogue if catalogue is not None else default_catalogue()
    seed = check_seed(seed, "'seed'", error=ScenarioFormatError)  # the one seed check
    tiles = {} if tiles is None else tiles
    if not isinstance(tiles, Mapping):  # [], 0, false and "" are no empty board either
        raise ScenarioFormatError(
            f"'tiles' must be an object of square -> tile, got {shown(tiles)}"
        )
    checked_tiles = {
        check_square(square, layout): check_tile(tile, catalogue) for square, tile in tiles.items()
    }
    if not isinstance(policies, (list, tuple, set, frozenset)):
        raise ScenarioFormatError(f"'policies' must be a list of policy ids, got {shown(policies)}")
    checked_policies = [check_policy(p) for p in policies]
    for policy in set(checked_policies):
        if checked_policies.count(policy) > 1:
            raise ScenarioFormatError(
                f"{POLICY_NAMES[policy]} is listed twice in 'policies'", ids=(policy,)
            )
    placement = (
        shuffled_existing(layout, seed) if existing is None else check_existing(existing, layout)
    )
    if AFFORDABLE_100 in checked_policies:
        violations = affordable_violations(checked_tiles, layout, catalogue)
        if violations:
            raise affordable_error(violations, checked_tiles, catalogue)
    scenario = Scenario(
        tiles=checked_tiles,
        policies=frozenset(checked_policies),
        existing=placement,
        seed=seed,
        layout=layout,
        catalogue=catalogue,
        model=asked_model(model),
    )
    check_budget(scenario)
    return scenario


def replaced(scenario: Scenario, **changes: Any) -> Scenario:
    """`scenario` with some of tiles, policies, existing, seed, model changed, validated whole
    as `make_scenario` validates (`existing=None` reshuffles with the seed)."""
    values: dict[str, Any] = {
        "tiles": scenario.tiles,
        "policies": sorted(scenario.policies),
        "existing": scenario.existing,
        "seed": scenario.seed,
        "model": scenario.model,  # the board keeps its assumptions unless told otherwise
    }
    values.update(changes)
    if not isinstance(values["policies"], (list, tuple)):
        values["policies"] = sorted(values["policies"])
    return make_scenario(layout=scenario.layout, catalogue=scenario.catalogue, **values)


def board_spending(scenario: Scenario) -> Fraction:
    """What the board costs the city, matching funds applied (at least 7 low income homes)."""
    return legal.spending(scenario.tiles, scenario.policies, scenario.catalogue)


def scenario_from_dict(
    data: Any, layout: Layout | None = None, catalogue: Catalogue | None = None
) -> Scenario:
    """Parse the RULES.md input format (already decoded from JSON). A key set to null counts
    as absent; any other value must have the key's type (`"tiles": []` is refused, not read as
    an empty board)."""
    data = checked_object(
        data, SCENARIO_KEYS, "a scenario must be a JSON object", "unknown scenario key", kind=dict
    )
    policies = data.get("policies")
    seed = data.get("seed")
    return make_scenario(
        tiles=data.get("tiles"),
        policies=() if policies is None else policies,
        existing=data.get("existing"),
        seed=DEFAULT_SEED if seed is None else seed,
        layout=layout,
        catalogue=catalogue,
        model=None if data.get("model") is None else Model.from_dict(data["model"]),
    )


def scenario_from_json(
    text: str | bytes, layout: Layout | None = None, catalogue: Catalogue | None = None
) -> Scenario:
    """Parse a scenario document (limits and refusals: docs/loaders.md)."""
    try:
        data = loads(text, source="scenario")
    except JsonInputError as error:  # keep the scenario's own error type
        raise ScenarioFormatError(str(error)) from None
    return scenario_from_dict(data, layout, catalogue)

"""The scenario: a board (tiles on squares), enacted policies and the existing residents.

This is the engine's public input format (RULES.md "Scenario JSON"). Parsing validates every
value and raises a one-line error naming the first bad one.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
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
from housing_lab.north_berkeley.errors import (
    AffordableOnlyError,
    OverBudgetError,
    ScenarioFormatError,
    UnknownIdError,
    checked_object,
)
from housing_lab.north_berkeley.layout import Layout, default_layout
from housing_lab.north_berkeley.model import (
    Model,
    asked_model,
    model_or_rulebook,
    one_model,
)
from housing_lab.north_berkeley.policies import (
    AFFORDABLE_100,
    INCOMES,
    POLICIES,
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
    "restricts_tiles",
    "scenario_from_dict",
    "scenario_from_json",
    "shuffled_existing",
    "tile_allowed",
]

SCENARIO_KEYS = ("tiles", "policies", "existing", "seed", "model")
DEFAULT_SEED = 0


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


@dataclass(frozen=True)
class Scenario:
    """A validated board. `existing` is always complete (home id -> income) after parsing."""

    tiles: Mapping[str, str]
    policies: frozenset[str]
    existing: Mapping[str, str]
    seed: int = DEFAULT_SEED
    layout: Layout = field(default_factory=default_layout, compare=False, repr=False)
    catalogue: Catalogue = field(default_factory=default_catalogue, compare=False, repr=False)
    model: Model | None = None
    """The assumptions asked for (`model.py`); None: none asked for, the rulebook's hold.
    Results echo `model` only when one was asked for, so rulebook outputs stay as they were."""

    def __post_init__(self) -> None:
        """A value: the mappings become read-only views of private copies, so neither the
        caller's dicts nor anyone holding this board can change it after validation."""
        for name in ("tiles", "existing", "catalogue"):
            object.__setattr__(self, name, MappingProxyType(dict(getattr(self, name))))
        object.__setattr__(self, "policies", frozenset(self.policies))

    def __reduce__(self) -> tuple[Any, ...]:
        """Copies and pickles rebuild the board from plain values (a read-only view cannot
        be pickled)."""
        values = (dict(self.tiles), self.policies, dict(self.existing), self.seed)
        return (Scenario, (*values, self.layout, dict(self.catalogue), self.model))

    @property
    def assumptions(self) -> Model:
        """The model this board is scored under (the rulebook's unless `model` says otherwise)."""
        return model_or_rulebook(self.model)

    def under(
        self, model: Model | None, given_by: str = "the rule options give another"
    ) -> Scenario:
        """This board under the model another carrier gives (`RuleOptions.given_model`): the
        same board when it gives none or the same one, the board carrying it (its budget
        checked) when the board had none, and one line naming both when they differ."""
        agreed = one_model(self.model, model, "the scenario carries its own model", given_by)
        return self if agreed is self.model else self.replace(model=agreed)

    def to_dict(self) -> dict[str, Any]:
        """The RULES.md input format, squares and policies in a stable order."""
        data: dict[str, Any] = {
            "tiles": {s: self.tiles[s] for s in self.layout.squares if s in self.tiles},
            "policies": [p for p in POLICIES if p in self.policies],
            "existing": {h: self.existing[h] for h in self.layout.existing_ids},
            "seed": self.seed,
        }
        if self.model is not None:
            data["model"] = self.model.to_dict()
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    # --- what the rules allow on this board (`engine.legal`, the words `Board.refusal` gives;
    # a board that changes, with push and pop, is a `Board`) -----------------------------
    def allowed_tiles(self, square: str) -> tuple[str, ...]:
        """The tiles `square` accepts under this board's policies, in catalogue order."""
        return legal.allowed_tiles(square, self.policies, self.layout, self.catalogue)

    def refusal(self, square: str, tile: str) -> str | None:
        """Why `tile` may not stand on `square` here, in words; None if it may."""
        return legal.refusal(square, tile, self.policies, self.layout, self.catalogue)

    def placement_refusal(self, square: str, tile: str) -> str | None:
        """Why `tile` may not go on `square` here (the rules, then the model's city budget,
        counting the tile it replaces), in words; None if it may."""
        return legal.placement_refusal(
            square, tile, self.tiles, self.policies, self.layout, self.catalogue, self.assumptions
        )

    def tile_costs(self) -> dict[str, Fraction]:
        """What each tile costs on this board now (matching funds applied)."""
        return legal.tile_costs(self.tiles, self.policies, self.catalogue)

    def policy_refusal(self, policy: str) -> str | None:
        """Why `policy` cannot be enacted on this board, in words; None if it can."""
        return legal.policy_refusal(policy, self.tiles, self.layout, self.catalogue)

    def replace(self, **changes: Any) -> Scenario:
        """This board with some of tiles, policies, existing, seed, model changed, validated whole
        as `make_scenario` validates (`existing=None` reshuffles with the seed)."""
        values: dict[str, Any] = {
            "tiles": self.tiles,
            "policies": sorted(self.policies),
            "existing": self.existing,
            "seed": self.seed,
            "model": self.model,  # the board keeps its assumptions unless told otherwise
        }
        values.update(changes)
        if not isinstance(values["policies"], (list, tuple)):
            values["policies"] = sorted(values["policies"])
        return make_scenario(layout=self.layout, catalogue=self.catalogue, **values)


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


def board_spending(scenario: Scenario) -> Fraction:
    """What the board costs the city, matching funds applied (at least 7 low income homes)."""
    return legal.spending(scenario.tiles, scenario.policies, scenario.catalogue)


def check_budget(scenario: Scenario) -> None:
    """Refuse a board that spends more than its model's budget (one line naming both)."""
    reason = legal.budget_refusal(
        scenario.tiles, scenario.policies, scenario.catalogue, scenario.assumptions, would=False
    )
    if reason is not None:
        raise OverBudgetError(reason)


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

"""A solver question, validated: the coalition, fixed squares, policy sets, existing residents.

Every mistake is a one-line `HousingLabError` naming the bad value, raised before any search.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypedDict

from housing_lab.north_berkeley.batch.evaluator import GAME_POLICY_SETS, BatchEvaluator
from housing_lab.north_berkeley.constituents import Number, coalition
from housing_lab.north_berkeley.engine.legal import halving_enacted, ruled_out, tile_cost
from housing_lab.north_berkeley.errors import OverBudgetError, ScenarioFormatError
from housing_lab.north_berkeley.model import (
    Model,
    asked_model,
    dollars,
    model_or_rulebook,
    one_model,
)
from housing_lab.north_berkeley.policies import RuleOptions, check_policy
from housing_lab.north_berkeley.scenario import (
    affordable_error,
    check_existing,
    check_square,
    check_tile,
    shuffled_existing,
)
from housing_lab.north_berkeley.tiles import Catalogue
from housing_lab.numbers import check_seed


class Where(TypedDict, total=False):
    """Where the solver looks, besides the cards: the keyword arguments `solve`,
    `every_card_nonnegative` and `pareto_frontier` pass on to `make_problem`."""

    fixed: Mapping[str, str] | None
    policies: Iterable[str] | None
    policy_sets: Iterable[Iterable[str]] | None
    existing: Mapping[str, str] | None
    seed: int
    options: RuleOptions | None
    model: Model | Mapping[str, object] | None


@dataclass(frozen=True)
class Problem:
    """What to search: `cards` with `weights`, boards with `fixed` squares, `policy_sets`."""

    cards: tuple[str, ...]
    weights: tuple[Number, ...]
    fixed: tuple[tuple[str, str], ...]  # (square, tile) in layout order
    policy_sets: tuple[frozenset[str], ...]
    existing: tuple[tuple[str, str], ...]  # (home, income) in layout order
    seed: int
    options: RuleOptions
    model: Model | None = None  # the switches asked for; None: the rulebook, not echoed

    @property
    def assumptions(self) -> Model:
        """The model the boards are scored under (the rulebook's unless one was asked for)."""
        return model_or_rulebook(self.model)


def _policy_set(policies: Iterable[str]) -> frozenset[str]:
    if isinstance(policies, str):
        raise ScenarioFormatError(f"policies must be a list of policy ids, got {policies!r}")
    checked = [check_policy(p) for p in policies]
    for policy in checked:
        if checked.count(policy) > 1:
            raise ScenarioFormatError(f"policy {policy!r} is listed twice")
    return frozenset(checked)


def _refuse_fixed_over_budget(
    fixed: Mapping[str, str],
    candidates: Sequence[frozenset[str]],
    catalogue: Catalogue,
    model: Model,
) -> None:
    """One line when the fixed tiles alone spend more than the city budget under every
    candidate policy set, at their cheapest (housing halved where matching funds are enacted,
    as 7 low income homes elsewhere on the board might make it)."""
    budget = model.city_budget()
    if budget is None or not fixed or not candidates:
        return
    cheapest = min(
        sum(
            (tile_cost(catalogue[tile], halving_enacted(policies)) for tile in fixed.values()),
            Fraction(0),
        )
        for policies in candidates
    )
    if model.over_budget(cheapest):
        raise OverBudgetError(
            f"the fixed tiles alone spend at least {dollars(cheapest)}, over the city budget of "
            f"{dollars(budget)}: no board can keep within it"
        )


def make_problem(
    evaluator: BatchEvaluator,
    cards: Sequence[str] | Mapping[str, Number] | str,
    weights: Sequence[Number] | None = None,
    fixed: Mapping[str, str] | None = None,
    policies: Iterable[str] | None = None,
    policy_sets: Iterable[Iterable[str]] | None = None,
    existing: Mapping[str, str] | None = None,
    seed: int = 0,
    options: RuleOptions | None = None,
    cards_required: bool = True,
    model: Model | Mapping[str, object] | None = None,
) -> Problem:
    """Validate a question. `policies` fixes the policy set; `policy_sets` lists candidates
    (default: the 10 sets of one or two policies, dropping those `fixed` squares rule out);
    `model`: the switches (a `Model` or its JSON object; None: the rulebook's)."""
    layout, catalogue = evaluator.layout, evaluator.catalogue
    options = options or RuleOptions()
    checked_model = one_model(
        asked_model(model),
        options.given_model,
        "model= gives one model",
        "the rule options give another",
    )
    ids, checked_weights = coalition(cards, weights, cards_required)
    seed = check_seed(seed, "'seed'", error=ScenarioFormatError)  # the one seed check
    fixed = dict(fixed or {})
    for square, tile in fixed.items():
        check_square(square, layout)
        check_tile(tile, catalogue)
    if policies is not None and policy_sets is not None:
        raise ScenarioFormatError(
            "give either one policy set (policies) or candidates (policy_sets), not both"
        )
    explicit = policies is not None or policy_sets is not None
    if policies is not None:
        candidates = [_policy_set(policies)]
    elif policy_sets is not None:
        candidates = list(dict.fromkeys(_policy_set(s) for s in policy_sets))
    else:
        candidates = list(GAME_POLICY_SETS)
    if not candidates:
        raise ScenarioFormatError("no policy set to search")

    broken = next((b for s in candidates if (b := ruled_out(fixed, s, layout, catalogue))), None)
    if broken and explicit:
        raise affordable_error(broken, fixed, catalogue)
    candidates = [s for s in candidates if not ruled_out(fixed, s, layout, catalogue)]
    _refuse_fixed_over_budget(fixed, candidates, catalogue, model_or_rulebook(checked_model))
    placement = (
        shuffled_existing(layout, seed) if existing is None else check_existing(existing, layout)
    )
    return Problem(
        cards=ids,
        weights=checked_weights,
        fixed=tuple((s, fixed[s]) for s in layout.squares if s in fixed),
        policy_sets=tuple(candidates),
        existing=tuple((h, placement[h]) for h in layout.existing_ids),
        seed=seed,
        options=options or RuleOptions(),
        model=checked_model,
    )

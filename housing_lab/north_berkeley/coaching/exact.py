"""The coach: the fewest changes to a board that win a constituent card over, exactly.

A board game shows what happens; a self-guided student also wants to know what would change it.
For a scenario (board, policies, the residents who live there), a card and a goal (`win`: the
card scores +1; `no-loss`: it scores at least 0), `coach` finds the smallest set of changes that
reaches the goal. A change sets one square to a tile or empties it, or enacts or repeals one
policy; the existing residents stay as they are; `affordable_100` refuses what it refuses in the
game. Ties go to the lowest spending after the changes, then to the change that comes earliest
(docs/coach.md). `best_change_for_hand`: the one change that raises a hand's total most.

    answer = coach(scenario, "urbanists", "win")
    answer.changes  # (Change(square="C1", tile="park"),) or () already, or None: impossible
    answer.to_dict()  # the CLI's JSON

Every answer is re-scored by the scalar engine before it is returned.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from housing_lab.errors import shown
from housing_lab.north_berkeley.batch.evaluator import (
    BatchEvaluator,
    default_evaluator,
    policies_of,
)
from housing_lab.north_berkeley.coaching.answers import Change, CoachAnswer, HandAdvice
from housing_lab.north_berkeley.coaching.candidates import first_in_order
from housing_lab.north_berkeley.coaching.search import (
    ENUMERATED,
    GOALS,
    Found,
    Question,
    reaches,
    scored_change_sets,
    search,
)
from housing_lab.north_berkeley.coaching.words import no_better_change, unreachable_reason
from housing_lab.north_berkeley.constituents import check_card
from housing_lab.north_berkeley.engine.card_rules import CARD_IDS
from housing_lab.north_berkeley.engine.scoring import score_scenario
from housing_lab.north_berkeley.errors import ScenarioFormatError
from housing_lab.north_berkeley.layout import default_layout
from housing_lab.north_berkeley.model import dollars
from housing_lab.north_berkeley.policies import INCOMES, POLICIES, RuleOptions, check_policy
from housing_lab.north_berkeley.scenario import Scenario, check_square, make_scenario
from housing_lab.north_berkeley.tiles import default_catalogue

__all__ = [
    "GOALS",
    "Change",
    "CoachAnswer",
    "HandAdvice",
    "apply_changes",
    "best_change_for_hand",
    "coach",
]


def check_goal(goal: object) -> str:
    if goal not in GOALS:
        raise ScenarioFormatError(f"unknown goal {shown(goal)} (goals: {', '.join(GOALS)})")
    return str(goal)


def _check_scenario(scenario: object) -> Scenario:
    if not isinstance(scenario, Scenario):
        raise ScenarioFormatError(f"the coach needs a Scenario, got {shown(scenario)}")
    return scenario


def _evaluator(scenario: Scenario, evaluator: BatchEvaluator | None) -> BatchEvaluator:
    """The batch evaluator of the scenario's layout and catalogue."""
    if evaluator is not None:
        return evaluator
    if scenario.layout == default_layout() and dict(scenario.catalogue) == dict(
        default_catalogue()
    ):
        return default_evaluator()
    return BatchEvaluator(scenario.layout, scenario.catalogue)


def _board(scenario: Scenario, evaluator: BatchEvaluator) -> tuple[int, ...]:
    codes = {tile: t for t, tile in enumerate(evaluator.tile_ids)}
    return tuple(
        codes[scenario.tiles[q]] if q in scenario.tiles else evaluator.empty
        for q in evaluator.squares
    )


def _residents(scenario: Scenario, evaluator: BatchEvaluator) -> tuple[int, ...]:
    return tuple(INCOMES.index(scenario.existing[h]) for h in evaluator.homes)


def _changes(
    scenario: Scenario, evaluator: BatchEvaluator, tiles: Sequence[int], policies: frozenset[str]
) -> tuple[Change, ...]:
    """The changes from `scenario` to a board, squares in layout order, then policies."""
    out = []
    for square, code, now in zip(
        evaluator.squares, tiles, _board(scenario, evaluator), strict=True
    ):
        if code != now:
            tile = None if code == evaluator.empty else evaluator.tile_ids[code]
            out.append(Change(square=square, tile=tile))
    for policy in POLICIES:
        if (policy in policies) != (policy in scenario.policies):
            out.append(Change(policy=policy, enacted=policy in policies))
    return tuple(out)


def apply_changes(scenario: Scenario, changes: Sequence[Change]) -> Scenario:
    """The scenario after `changes` (validated by the engine, as any scenario is; an unknown
    policy is refused by name, never dropped)."""
    scenario = _check_scenario(scenario)
    if isinstance(changes, (str, bytes, Mapping)) or not isinstance(changes, Sequence):
        raise ScenarioFormatError(f"changes must be a list of Change, got {shown(changes, 60)}")
    tiles = dict(scenario.tiles)
    policies = set(scenario.policies)
    for change in changes:
        if not isinstance(change, Change):
            raise ScenarioFormatError(f"a change must be a Change, got {shown(change, 60)}")
        if change.policy is not None:
            policy = check_policy(change.policy)
            (policies.add if change.enacted else policies.discard)(policy)
        elif change.tile is None:
            tiles.pop(check_square(change.square, scenario.layout), None)
        else:
            tiles[check_square(change.square, scenario.layout)] = change.tile
    return make_scenario(
        tiles,
        [p for p in POLICIES if p in policies],
        dict(scenario.existing),
        scenario.seed,
        scenario.layout,
        scenario.catalogue,
        model=scenario.model,
    )


def coach(
    scenario: Scenario,
    card: str,
    goal: str = "win",
    *,
    options: RuleOptions | None = None,
    evaluator: BatchEvaluator | None = None,
) -> CoachAnswer:
    """The smallest set of changes to `scenario` after which `card` meets `goal` ("win": +1,
    "no-loss": at least 0); ties: the lowest spending, then the earliest change. The board is
    scored under the scenario's model (or the one `options` carry), and no answer breaks its
    city budget."""
    started = time.perf_counter()
    options = options or RuleOptions()
    scenario = _check_scenario(scenario).under(options.given_model)
    card, goal = check_card(card), check_goal(goal)
    evaluator = _evaluator(scenario, evaluator)
    now = score_scenario(scenario, options).to_dict()["constituents"][card]["score"]
    question = Question(
        card,
        goal,
        _board(scenario, evaluator),
        frozenset(scenario.policies),
        _residents(scenario, evaluator),
        options.low_income_in_adus,
        scenario.assumptions,
    )
    found = search(evaluator, question)
    if found.tiles is None or found.policies is None:
        budget = scenario.assumptions.city_budget()
        reason = unreachable_reason(card, goal, None if budget is None else dollars(budget))
        seconds = time.perf_counter() - started
        return CoachAnswer(card, goal, now, None, None, None, None, reason, seconds)
    changes = _changes(scenario, evaluator, found.tiles, found.policies)
    after_scenario, after, spending = _checked(
        scenario, changes, question, options, found, evaluator
    )
    seconds = time.perf_counter() - started
    return CoachAnswer(card, goal, now, changes, after, spending, after_scenario, None, seconds)


def _checked(
    scenario: Scenario,
    changes: Sequence[Change],
    question: Question,
    options: RuleOptions,
    found: Found,
    evaluator: BatchEvaluator,
) -> tuple[Scenario, int, Fraction]:
    """Apply the changes and re-score with the scalar engine: the search's claim must hold."""
    after_scenario = apply_changes(scenario, changes)
    result = score_scenario(after_scenario, options)
    after = result.to_dict()["constituents"][question.card]["score"]
    spending = result.facts.spending
    if (
        len(changes) != found.changes
        or Fraction(int(found.spending or 0), evaluator.scale) != spending
        or not reaches(np.array([after]), question.goal)[0]
    ):  # pragma: no cover - a bug, never a user mistake
        raise RuntimeError(f"the coach and the scalar engine disagree on {after_scenario}")
    return after_scenario, after, spending


def best_change_for_hand(
    scenario: Scenario,
    cards: Sequence[str] | Mapping[str, Any],
    *,
    options: RuleOptions | None = None,
    evaluator: BatchEvaluator | None = None,
) -> HandAdvice:
    """The single change that raises the total of `cards` most; ties: the lowest spending,
    then the earliest change (the coach's order), among changes within the scenario's city
    budget (or that of the model `options` carry). `change` None when no change raises it."""
    options = options or RuleOptions()
    scenario = _check_scenario(scenario).under(options.given_model)
    if isinstance(cards, (str, bytes)) or not isinstance(cards, (Sequence, Mapping)):
        raise ScenarioFormatError(f"a hand is a list of card ids, got {shown(cards, 60)}")
    hand = tuple(check_card(c) for c in cards)
    if not hand:
        raise ScenarioFormatError("a hand needs at least one constituent card")
    evaluator = _evaluator(scenario, evaluator)
    scores_now = score_scenario(scenario, options).to_dict()["constituents"]
    now = sum(scores_now[c]["score"] for c in hand)
    sets, scores, spending = scored_change_sets(
        evaluator,
        _board(scenario, evaluator),
        frozenset(scenario.policies),
        _residents(scenario, evaluator),
        options.low_income_in_adus,
        ENUMERATED,
        scenario.assumptions,  # scored under the scenario's switches, within its budget
    )
    columns = [CARD_IDS.index(c) for c in hand]
    total = scores[:, columns].astype(np.int64).sum(axis=1)
    single = sets.changes == 1
    best = int(total[single].max()) if single.any() else now
    first = first_in_order(single & (total == best) & (best > now), spending, sets.order)
    if first is None:
        return HandAdvice(hand, now, None, None, None, None, no_better_change(now))
    tiles = sets.boards.tiles[first].tolist()
    policies = frozenset(policies_of(int(sets.boards.policies[first])))
    (change,) = _changes(scenario, evaluator, tiles, policies)
    after_scenario = apply_changes(scenario, [change])
    result = score_scenario(after_scenario, options).to_dict()
    after = sum(result["constituents"][c]["score"] for c in hand)
    if after != best:  # pragma: no cover - a bug, never a user mistake
        raise RuntimeError(f"the hand coach and the scalar engine disagree on {after_scenario}")
    spending_after = Fraction(int(spending[first]), evaluator.scale)
    return HandAdvice(hand, now, change, after, spending_after, after_scenario, None)

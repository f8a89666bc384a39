"""The exact solver: "what is possible?" for a coalition of cards, over every board at once.

There are 15^9 boards for each policy set; the search (`solver.search`) reduces them to the few
sums the coalition's cards read, so every answer here is exact, not sampled, and comes back in
well under a second. Three questions:

    solve(["developer", "urbanists"], fixed={"A1": "park"})   # the best board, total and all
    every_card_nonnegative(["developer", "refuse_capitalism"])  # None: no board pleases both
    pareto_frontier()  # the cheapest board for each number of low income residents housed

Boards fill all 9 squares (the game always does); policy sets default to the 10 the game allows
(one or two policies), `affordable_100` restricting phase-2 squares. Ties on the coalition's total
go to the lowest spending, then to the first policy set in `GAME_POLICY_SETS` order.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from housing_lab.north_berkeley.batch.evaluator import BatchEvaluator, default_evaluator
from housing_lab.north_berkeley.engine.scoring import money, score_scenario
from housing_lab.north_berkeley.errors import OverBudgetError
from housing_lab.north_berkeley.model import dollars
from housing_lab.north_berkeley.policies import POLICIES
from housing_lab.north_berkeley.scenario import Scenario, make_scenario
from housing_lab.north_berkeley.solver.inputs import Number, Problem, Where, make_problem
from housing_lab.north_berkeley.solver.search import Scored, clear_cache, search

if TYPE_CHECKING:
    from typing import Unpack  # 3.11; only type checkers read it

__all__ = [
    "FrontierPoint",
    "Solution",
    "clear_cache",
    "every_card_nonnegative",
    "pareto_frontier",
    "solve",
]


@dataclass(frozen=True)
class Solution:
    """A best board, with the scalar engine's result of it (the solver checks they agree)."""

    scenario: Scenario
    score: Number
    spending: Fraction
    cards: Mapping[str, int]  # the coalition's card scores on this board
    result: Mapping[str, Any]  # the scalar engine's RULES.md result of `scenario`
    seconds: float
    nonnegative_possible: bool  # can every card of the coalition score >= 0 together?

    def to_dict(self) -> dict[str, Any]:
        out = {
            "scenario": self.scenario.to_dict(),
            "result": dict(self.result),
            "score": self.score,
            "seconds": round(self.seconds, 4),
            "cards": dict(self.cards),
            "every_card_nonnegative": self.nonnegative_possible,
        }
        return out


@dataclass(frozen=True)
class FrontierPoint:
    """The cheapest way found to house `low_housed` low income residents (no cheaper board
    houses as many or more)."""

    low_housed: int
    spending: Fraction
    scenario: Scenario

    def to_dict(self) -> dict[str, Any]:
        return {
            "low_housed": self.low_housed,
            "spending": money(self.spending),
            "scenario": self.scenario.to_dict(),
        }


def _problem(
    evaluator: BatchEvaluator | None,
    cards: Any,
    weights: Any,
    where: Where,
    cards_required: bool = True,
) -> tuple[BatchEvaluator, Problem]:
    """The evaluator (default: the shared one) and the question, checked by `make_problem`
    (an unknown keyword is a TypeError there)."""
    evaluator = evaluator or default_evaluator()
    return evaluator, make_problem(
        evaluator, cards, weights, cards_required=cards_required, **where
    )


def _best(scored: list[Scored], nonnegative: bool) -> tuple[int, int] | None:
    """(policy set index, state index) of the highest total, then lowest spending."""
    best: tuple[Number, int, int, int] | None = None
    for index, part in enumerate(scored):
        valid = part.nonnegative if nonnegative else np.ones(len(part.keys), dtype=bool)
        if not valid.any():
            continue
        top = part.score[valid].max()
        cheapest = part.spending[valid & (part.score == top)].min()
        if best is None or (top, -cheapest) > (best[0], -best[1]):
            state = int(np.argmax(valid & (part.score == top) & (part.spending == cheapest)))
            best = (top, cheapest, index, state)
    return None if best is None else (best[2], best[3])


def _scenario(evaluator: BatchEvaluator, problem: Problem, part: Scored, state: int) -> Scenario:
    codes = part.board(state)
    tiles = {
        square: evaluator.tile_ids[t] for square, t in zip(evaluator.squares, codes, strict=True)
    }
    return make_scenario(
        tiles,
        [p for p in POLICIES if p in part.policies],
        dict(problem.existing),
        problem.seed,
        evaluator.layout,
        evaluator.catalogue,
        problem.model,
    )


def _solution(
    evaluator: BatchEvaluator,
    problem: Problem,
    scored: list[Scored],
    pick: tuple[int, int],
    started: float,
) -> Solution:
    part = scored[pick[0]]
    scenario = _scenario(evaluator, problem, part, pick[1])
    total = part.score[pick[1]].item()
    spending = part.spending[pick[1]].item()
    seconds = time.perf_counter() - started
    scalar = score_scenario(scenario, problem.options)
    result = scalar.to_dict()
    cards = {card: result["constituents"][card]["score"] for card in problem.cards}
    check = sum(w * cards[c] for c, w in zip(problem.cards, problem.weights, strict=True))
    if abs(check - total) > 1e-6 or Fraction(spending, evaluator.scale) != scalar.facts.spending:
        # pragma: no cover - a bug, never a user mistake
        raise RuntimeError(f"solver and scalar engine disagree on {scenario.to_json()}")
    return Solution(
        scenario,
        total,
        Fraction(spending, evaluator.scale),
        cards,
        result,
        seconds,
        any(bool(p.nonnegative.any()) for p in scored),
    )


def solve(
    cards: Sequence[str] | Mapping[str, Number] | str,
    weights: Sequence[Number] | None = None,
    *,
    evaluator: BatchEvaluator | None = None,
    **where: Unpack[Where],
) -> Solution:
    """The board (and policy set) with the highest total score of `cards` (weights default 1),
    ties: lowest spending. `where` (`Where`): `fixed` square -> tile; `policies`: one exact
    policy set; `policy_sets`: the candidates; `existing`: the placement (default: shuffled
    with `seed`); `options`; `model`: the switches (RULES.md "Model assumptions"): boards are
    scored under them, and boards spending more than its budget are not answers (none within
    it: `OverBudgetError`)."""
    solution = _answer("best", evaluator, cards, weights, where)
    assert solution is not None  # `_answer` refuses a "best" search that finds no board
    return solution


def every_card_nonnegative(
    cards: Sequence[str] | Mapping[str, Number] | str,
    weights: Sequence[Number] | None = None,
    *,
    evaluator: BatchEvaluator | None = None,
    **where: Unpack[Where],
) -> Solution | None:
    """A board on which no card of the coalition scores -1 (the best such total, then the
    cheapest), or None when no board allows it (within `model`'s budget, if any); `where`
    as for `solve`."""
    return _answer("nonnegative", evaluator, cards, weights, where)


def _answer(
    goal: str, evaluator: BatchEvaluator | None, cards: Any, weights: Any, where: Where
) -> Solution | None:
    """`solve` ("best") and `every_card_nonnegative` ("nonnegative"): search the boards for
    `goal`, pick the best total (then cheapest) among those the goal accepts, and check it
    with the scalar engine."""
    started = time.perf_counter()
    evaluator, problem = _problem(evaluator, cards, weights, where)
    scored = search(evaluator, problem, goal=goal)
    pick = _best(scored, nonnegative=goal == "nonnegative")
    if pick is None and goal == "best":  # every policy set has boards: only a budget rules
        budget = problem.assumptions.city_budget()  # them all out
        raise OverBudgetError(
            f"no board keeps within the city budget of {dollars(budget or 0)} with these "
            "fixed squares and policies"
        )
    return None if pick is None else _solution(evaluator, problem, scored, pick, started)


def pareto_frontier(
    cards: Sequence[str] | Mapping[str, Number] | str | None = None,
    *,
    evaluator: BatchEvaluator | None = None,
    **where: Unpack[Where],
) -> list[FrontierPoint]:
    """Spending against low income residents housed: for each number housed, the cheapest
    board, keeping only points that no cheaper board matches or beats. With `cards`, only
    boards on which none of them scores -1; with `model`, under its switches and within its
    budget; `where` as for `solve`. Sorted by spending (and so by low housed)."""
    evaluator, problem = _problem(evaluator, cards, None, where, cards_required=False)
    scored = search(evaluator, problem, pareto=True, goal="pareto")
    cheapest: dict[int, tuple[int, int, int]] = {}  # low housed -> (spending, set, state)
    for index, part in enumerate(scored):
        valid = part.nonnegative
        assert part.low_housed is not None
        for low in np.unique(part.low_housed[valid]).tolist():
            mine = valid & (part.low_housed == low)
            spend = int(part.spending[mine].min())
            if low not in cheapest or spend < cheapest[low][0]:
                state = int(np.argmax(mine & (part.spending == spend)))
                cheapest[low] = (spend, index, state)
    points, best_so_far = [], None
    for low in sorted(cheapest, reverse=True):
        spend, index, state = cheapest[low]
        if best_so_far is None or spend < best_so_far:
            best_so_far = spend
            scenario = _scenario(evaluator, problem, scored[index], state)
            points.append(FrontierPoint(low, Fraction(spend, evaluator.scale), scenario))
    return points[::-1]

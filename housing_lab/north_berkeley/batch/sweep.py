"""Sweeps for the lessons: many boards scored at once, as one pandas DataFrame.

One row per board and policy set; columns name the tiles on each square, the policies, who lived
where, every measure of the result and every card's score. Typical lessons:

    sweep(state_fills({"B1": "tower_market"}, n=10_000, seed=1, policies=["adu"]))
    sweep(policy_combinations({"A1": "park", ...}))          # every policy set on one board
    sweep(random_boards(100_000, seed=3), coalition={"developer": 1, "urbanists": 1})

Progress: pass `progress=callback`, called as `callback(done, total)` after every chunk of rows
(the notebook progress bar lives in `housing_lab.widgets`, not in the engine), or iterate over
`sweep_chunks(...)` yourself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from housing_lab.north_berkeley.batch.encoding import allowed_table, halved, spending_units
from housing_lab.north_berkeley.batch.evaluator import (
    ALL_POLICY_SETS,
    GAME_POLICY_SETS,
    BatchEvaluator,
    BatchResult,
    Boards,
    default_evaluator,
    policy_mask,
)
from housing_lab.north_berkeley.constituents import Number, coalition
from housing_lab.north_berkeley.engine.card_rules import CARD_IDS
from housing_lab.north_berkeley.engine.legal import ruled_out
from housing_lab.north_berkeley.engine.movein import OUTCOMES
from housing_lab.north_berkeley.errors import OverBudgetError, ScenarioFormatError
from housing_lab.north_berkeley.model import Model, asked_model, check_model, dollars
from housing_lab.north_berkeley.policies import (
    INCOMES,
    POLICIES,
    RuleOptions,
    check_policy,
)
from housing_lab.north_berkeley.scenario import (
    Scenario,
    affordable_error,
    check_existing,
    check_square,
    check_tile,
    scenario_from_dict,
)

Progress = Callable[[int, int], None]
ModelLike = Model | Mapping[str, Any] | None
CHUNK_ROWS = 1 << 16
BUDGET_ROUNDS = 64  # redraws of the boards over budget before giving up (see random_boards)
BUDGET_DRAW = 1 << 16  # boards drawn at most per redraw

__all__ = [
    "ALL_POLICY_SETS",
    "GAME_POLICY_SETS",
    "boards_from_scenarios",
    "policy_combinations",
    "random_boards",
    "state_fills",
    "sweep",
    "sweep_chunks",
]


def _evaluator(evaluator: BatchEvaluator | None) -> BatchEvaluator:
    return evaluator or default_evaluator()


def _policy_sets(policy_sets: Iterable[Iterable[str]]) -> list[frozenset[str]]:
    sets = []
    for policies in policy_sets:
        if isinstance(policies, str):
            raise ScenarioFormatError(f"a policy set must be a list of ids, got {policies!r}")
        sets.append(frozenset(check_policy(p) for p in policies))
    if not sets:
        raise ScenarioFormatError("no policy set given")
    return sets


def _tile_codes(evaluator: BatchEvaluator, tiles: Mapping[str, str] | None) -> dict[int, int]:
    """Validated fixed tiles as {square index: tile code}."""
    if tiles is not None and not isinstance(tiles, Mapping):
        raise ScenarioFormatError(f"tiles must be an object of square -> tile, got {tiles!r}")
    tiles = dict(tiles or {})
    for square, tile in tiles.items():
        check_square(square, evaluator.layout)
        check_tile(tile, evaluator.catalogue)
    return {evaluator.squares.index(s): evaluator.tile_ids.index(t) for s, t in tiles.items()}


def _placements(
    evaluator: BatchEvaluator, n: int, existing: Mapping[str, str] | None, rng: np.random.Generator
) -> np.ndarray:
    if existing is not None:
        placement = check_existing(existing, evaluator.layout)
        codes = np.array([INCOMES.index(placement[h]) for h in evaluator.homes], dtype=np.uint8)
        return np.broadcast_to(codes, (n, len(codes))).copy()
    per_income = np.repeat(np.arange(len(INCOMES), dtype=np.uint8), evaluator.existing_per_income)
    return rng.permuted(np.broadcast_to(per_income, (n, len(per_income))), axis=1)


def random_boards(
    n: int,
    seed: int = 0,
    *,
    tiles: Mapping[str, str] | None = None,
    policy_sets: Iterable[Iterable[str]] = GAME_POLICY_SETS,
    existing: Mapping[str, str] | None = None,
    empty: float = 0.0,
    evaluator: BatchEvaluator | None = None,
    model: ModelLike = None,
) -> Boards:
    """`n` random boards (seeded): a policy set drawn uniformly from `policy_sets`, a uniform
    random tile on every square not fixed by `tiles` (only low/middle tiles on phase-2 squares
    under `affordable_100`, as the state draws them), and a shuffled placement unless
    `existing` is given. `empty`: chance that a free square stays empty (property tests).

    `model`: the assumptions the boards carry (`sweep` scores them under it). With a city
    budget only boards within it are drawn: the same draw, with every board over budget drawn
    again (the same distribution, conditioned on keeping within budget); if boards within
    budget are too rare to find, one line says so."""
    evaluator = _evaluator(evaluator)
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ScenarioFormatError(f"the number of boards must be a whole number >= 0, got {n!r}")
    checked = asked_model(model)
    fixed = _tile_codes(evaluator, tiles)
    sets = _policy_sets(policy_sets)
    fixed_ids = {evaluator.squares[s]: evaluator.tile_ids[t] for s, t in fixed.items()}
    layout, catalogue = evaluator.layout, evaluator.catalogue
    allowing = [s for s in sets if not ruled_out(fixed_ids, s, layout, catalogue)]
    if not allowing:
        broken = ruled_out(fixed_ids, sets[0], layout, catalogue)
        raise affordable_error(broken, fixed_ids, catalogue)
    sets = allowing
    rng = np.random.default_rng(seed)
    # which (policy set, square) pairs limit the tiles, and the tiles every such pair allows
    tables = np.stack([allowed_table(layout, catalogue, s)[:, :-1] for s in sets])
    limits = ~tables.all(axis=2)  # (sets, squares)
    allowed = np.flatnonzero((tables | ~limits[:, :, None]).all(axis=(0, 1)))
    set_masks = np.array([policy_mask(s) for s in sets], dtype=np.uint8)

    def draw(count: int) -> Boards:
        chosen = rng.integers(0, len(sets), size=count)
        masks = set_masks[chosen]
        codes = rng.integers(0, len(evaluator.tile_ids), size=(count, len(evaluator.squares)))
        limited_codes = allowed[rng.integers(0, len(allowed), size=codes.shape)]
        codes = np.where(limits[chosen], limited_codes, codes)
        if empty > 0:
            codes = np.where(rng.random(codes.shape) < empty, evaluator.empty, codes)
        for square, tile in fixed.items():
            codes[:, square] = tile
        placements = _placements(evaluator, count, existing, rng)
        return Boards(codes.astype(np.uint8), masks, placements, checked)

    boards = draw(n)
    if checked is None or checked.city_budget() is None:
        return boards
    return _within_budget(evaluator, boards, checked, draw, fixed)


def _keeps_within(evaluator: BatchEvaluator, boards: Boards, model: Model) -> np.ndarray:
    """Which boards spend no more than the model's budget (exact, in 1/scale dollars)."""
    sums = evaluator.sums(boards.tiles)
    units = spending_units(
        sums["housing_cost"], sums["other_cost"], halved(boards.policies, sums["new_low"])
    ).astype(np.int64)  # the sums are int16: a budget's numerator and denominator may not be
    budget = model.city_budget()
    assert budget is not None
    return units * budget.denominator <= budget.numerator * evaluator.scale


def _refuse_fixed_over_budget(
    evaluator: BatchEvaluator, fixed: dict[int, int], model: Model
) -> None:
    """One line if the fixed tiles spend more than the budget whatever else is drawn: at their
    cheapest (housing halved, as matching funds might)."""
    row = np.full((1, len(evaluator.squares)), evaluator.empty, dtype=np.uint8)
    for square, tile in fixed.items():
        row[0, square] = tile
    sums = evaluator.sums(row)
    cheapest = spending_units(sums["housing_cost"], sums["other_cost"], np.array([True]))
    budget = model.city_budget()
    assert budget is not None
    if int(cheapest[0]) * budget.denominator > budget.numerator * evaluator.scale:
        spent = Fraction(int(cheapest[0]), evaluator.scale)
        raise OverBudgetError(
            f"the fixed tiles alone spend at least {dollars(spent)}, over the city budget of "
            f"{dollars(budget)}: no random board can keep within it"
        )


def _within_budget(
    evaluator: BatchEvaluator,
    boards: Boards,
    model: Model,
    draw: Callable[[int], Boards],
    fixed: dict[int, int],
) -> Boards:
    """`boards` with every board over budget replaced by a fresh draw that keeps within it."""
    tiles, policies, existing = boards.tiles.copy(), boards.policies.copy(), boards.existing.copy()
    keeps = _keeps_within(evaluator, boards, model)
    if not keeps.any():  # perhaps no board can: do the fixed tiles alone spend more?
        _refuse_fixed_over_budget(evaluator, fixed, model)
    missing = np.flatnonzero(~keeps)
    drawn, kept = len(boards), int(keeps.sum())
    for _ in range(BUDGET_ROUNDS):
        if not len(missing):
            break
        # draw enough that one round likely fills the gap (rate so far), in bounded memory
        rate = (kept + 1) / (drawn + 1)
        size = int(min(BUDGET_DRAW, max(len(missing), len(missing) / rate * 1.25 + 16)))
        fresh = draw(size)
        keep = _keeps_within(evaluator, fresh, model)
        drawn, kept = drawn + size, kept + int(keep.sum())
        taken = np.flatnonzero(keep)[: len(missing)]
        filled = missing[: len(taken)]
        tiles[filled], policies[filled], existing[filled] = (
            fresh.tiles[taken],
            fresh.policies[taken],
            fresh.existing[taken],
        )
        missing = missing[len(filled) :]
        if kept == 0 and drawn >= 2 * BUDGET_DRAW:
            break  # none in this many: too rare to find by drawing
    if len(missing):
        raise OverBudgetError(
            f"only {len(boards) - len(missing)} of {len(boards)} random boards kept within the "
            f"city budget of {dollars(model.city_budget() or 0)} ({kept} of {drawn} drawn): raise "
            f"the budget, fix cheaper tiles or allow empty squares"
        )
    return Boards(tiles, policies, existing, model)


def state_fills(
    tiles: Mapping[str, str] | None,
    n: int,
    seed: int = 0,
    *,
    policies: Iterable[str] = (),
    existing: Mapping[str, str] | None = None,
    evaluator: BatchEvaluator | None = None,
    model: ModelLike = None,
) -> Boards:
    """`n` ways the state could fill the empty squares of a board (seeded), with one policy set
    and (by default) a shuffled placement per board: "what happens if we let the state decide?"
    With a `model` budget the state draws only fills within it (`random_boards`)."""
    return random_boards(
        n,
        seed,
        tiles=tiles,
        policy_sets=[list(policies)],
        existing=existing,
        evaluator=evaluator,
        model=model,
    )


def policy_combinations(
    tiles: Mapping[str, str] | None,
    policy_sets: Iterable[Iterable[str]] = ALL_POLICY_SETS,
    *,
    existing: Mapping[str, str] | None = None,
    seed: int = 0,
    evaluator: BatchEvaluator | None = None,
    model: ModelLike = None,
) -> Boards:
    """One board under each policy set (default: all 16, "no policy" included). A set with
    `affordable_100` that the board's tiles break is refused, naming the squares; with a
    `model` budget, so is a set under which the board spends more than it."""
    evaluator = _evaluator(evaluator)
    sets = _policy_sets(policy_sets)
    echo = None if model is None else check_model(model).to_dict()
    scenarios = [
        scenario_from_dict(
            {
                "tiles": dict(tiles or {}),
                "policies": sorted(s),
                "existing": existing,
                "seed": seed,
                "model": echo,
            },
            evaluator.layout,
            evaluator.catalogue,
        )
        for s in sets
    ]
    return evaluator.encode(scenarios)


def boards_from_scenarios(
    scenarios: Sequence[Scenario | Mapping[str, Any]], evaluator: BatchEvaluator | None = None
) -> Boards:
    """Scenarios (objects or RULES.md dicts, validated) as a batch."""
    evaluator = _evaluator(evaluator)
    return evaluator.encode(
        [
            s
            if isinstance(s, Scenario)
            else scenario_from_dict(s, evaluator.layout, evaluator.catalogue)
            for s in scenarios
        ]
    )


def _frame(result: BatchResult, weights: dict[str, Number] | None) -> pd.DataFrame:
    evaluator, boards = result.evaluator, result.boards
    columns: dict[str, Any] = {}
    tiles = boards.tiles.astype(np.int16)
    for s, square in enumerate(evaluator.squares):
        codes = np.where(tiles[:, s] >= evaluator.empty, -1, tiles[:, s])
        columns[square] = pd.Categorical.from_codes(codes, categories=list(evaluator.tile_ids))
    masks = boards.policies.astype(np.int64)
    names = np.array(
        [
            "+".join(p for i, p in enumerate(POLICIES) if m >> i & 1) or "none"
            for m in range(1 << len(POLICIES))
        ]
    )
    columns["policies"] = pd.Categorical(names[masks], categories=list(dict.fromkeys(names)))
    for i, policy in enumerate(POLICIES):
        columns[policy] = (masks >> i & 1).astype(bool)
    existing = np.broadcast_to(boards.existing, (len(boards), len(evaluator.homes)))
    for h, home in enumerate(evaluator.homes):
        columns[home] = pd.Categorical.from_codes(
            existing[:, h].astype(np.int16), categories=list(INCOMES)
        )
    columns["spending"] = result.spending
    for c, kind in enumerate(("market", "middle", "low", "total")):
        columns[f"new_{kind}"] = result.new_homes[:, c]
    for measure, table in (
        ("housed", result.housed),
        ("unhoused", result.unhoused),
        ("displaced", result.displaced),
    ):
        for i, income in enumerate(INCOMES):
            columns[f"{measure}_{income}"] = table[:, i]
    for i, income in enumerate(INCOMES):
        for o, outcome in enumerate(OUTCOMES):
            columns[f"{income}_{outcome}"] = result.outcomes[:, i, o]
    scores = result.scores
    for c, card in enumerate(CARD_IDS):
        columns[card] = scores[:, c]
    if weights:
        index = [CARD_IDS.index(card) for card in weights]
        columns["score"] = scores[:, index] @ np.array(list(weights.values()))
        columns["nonnegative"] = (scores[:, index] >= 0).all(axis=1)
    if result.assumptions.city_budget() is not None:
        columns["within_budget"] = result.within_budget
    return pd.DataFrame(columns)


def sweep_chunks(
    boards: Boards | Sequence[Scenario | Mapping[str, Any]],
    *,
    options: RuleOptions | None = None,
    coalition_cards: Sequence[str] | Mapping[str, Number] | None = None,
    chunk_rows: int = CHUNK_ROWS,
    evaluator: BatchEvaluator | None = None,
    model: ModelLike = None,
) -> Iterator[pd.DataFrame]:
    """The sweep's DataFrame in chunks of `chunk_rows` rows (same columns as `sweep`)."""
    evaluator = _evaluator(evaluator)
    if not isinstance(boards, Boards):
        boards = boards_from_scenarios(boards, evaluator)
    weights = None
    if coalition_cards is not None:
        ids, values = coalition(coalition_cards)
        weights = dict(zip(ids, values, strict=True))
    for start in range(0, max(len(boards), 1), max(1, chunk_rows)):
        part = boards.take(slice(start, start + chunk_rows))
        frame = _frame(evaluator.evaluate(part, options, model), weights)
        frame.index = pd.RangeIndex(start, start + len(frame))
        yield frame


def sweep(
    boards: Boards | Sequence[Scenario | Mapping[str, Any]],
    *,
    options: RuleOptions | None = None,
    coalition: Sequence[str] | Mapping[str, Number] | None = None,
    progress: Progress | None = None,
    chunk_rows: int = CHUNK_ROWS,
    evaluator: BatchEvaluator | None = None,
    model: ModelLike = None,
) -> pd.DataFrame:
    """Score every board with the batch evaluator: one DataFrame row per board (a board under
    one policy set), columns for squares, policies, existing residents, every measure, every
    card's score, and with `coalition` (cards, or card -> weight) its total `score` and whether
    no card of it scores -1 (`nonnegative`).

    `model`: the assumptions to score under (a `Model` or its JSON object; None: the model
    the boards carry, the rulebook's if none). With a city budget the frame gains a boolean
    `within_budget` column (boards over budget are scored all the same)."""
    total = len(boards)
    frames, done = [], 0
    for frame in sweep_chunks(
        boards,
        options=options,
        coalition_cards=coalition,
        chunk_rows=chunk_rows,
        evaluator=evaluator,
        model=model,
    ):
        frames.append(frame)
        done += len(frame)
        if progress is not None and total:
            progress(done, total)
    return pd.concat(frames) if len(frames) > 1 else frames[0]

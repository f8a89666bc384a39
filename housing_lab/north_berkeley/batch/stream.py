"""`nb score` as a stream of chunks: documents in, result lines out, a chunk at a time.

Each document is checked as the scalar engine checks it (a fast path for well-formed
scenarios, `scenario_from_dict` for everything else, so errors read the same), a chunk of
boards goes through the batch evaluator, and its lines are written by `batch.lines`. A chunk
holds boards under one model: a document's `model` (parsed by the scalar engine) is scored by
the batch under it, and a change of model starts a new chunk, so the order is kept. Memory
stays flat; the chunks before a bad document are given before its error stops the run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from typing import Any

import numpy as np

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley.batch.encoding import refused_table
from housing_lab.north_berkeley.batch.evaluator import BatchEvaluator, Boards, default_evaluator
from housing_lab.north_berkeley.batch.lines import ResultLines
from housing_lab.north_berkeley.layout import Layout, default_layout
from housing_lab.north_berkeley.model import Model
from housing_lab.north_berkeley.policies import AFFORDABLE_100, INCOMES, POLICIES, RuleOptions
from housing_lab.north_berkeley.scenario import (
    SCENARIO_KEYS,
    Scenario,
    scenario_from_dict,
    shuffled_existing,
)
from housing_lab.numbers import MAX_SEED

Row = tuple[tuple[int, ...], int, tuple[int, ...]]  # tile codes, policy mask, income codes
FIRST_CHUNK, LAST_CHUNK = 64, 4096  # chunks grow: the first lines appear at once


def chunk_sizes(last: int = LAST_CHUNK) -> Iterator[int]:
    """64, 128, ... up to `last`: small chunks first so that output starts at once."""
    size = min(FIRST_CHUNK, last)
    while True:
        yield size
        size = min(2 * size, last)


class BoardRows:
    """Scenario documents as board rows of one evaluator, validated exactly as the scalar
    engine validates them."""

    def __init__(self, evaluator: BatchEvaluator):
        self.evaluator = evaluator
        self.square_index = {square: i for i, square in enumerate(evaluator.squares)}
        self.tile_code = {tile: t for t, tile in enumerate(evaluator.tile_ids)}
        self.policy_bit = {policy: 1 << i for i, policy in enumerate(POLICIES)}
        self.income_code = {income: c for c, income in enumerate(INCOMES)}
        self.restricted_bit = self.policy_bit[AFFORDABLE_100]
        # the encoding's table of what affordable_100 refuses: (square, codes it refuses)
        refused = refused_table(evaluator.layout, evaluator.catalogue)
        self.refused = [
            (s, frozenset(np.flatnonzero(row).tolist()))
            for s, row in enumerate(refused)
            if row.any()
        ]
        self.homes = evaluator.homes
        per_income = len(self.homes) // len(INCOMES)
        self.even_split = [code for code in range(len(INCOMES)) for _ in range(per_income)]
        self.keys = frozenset(SCENARIO_KEYS)
        self.empty_row = [evaluator.empty] * len(self.square_index)
        self.shuffled = lru_cache(maxsize=4096)(self._shuffled)

    def row(self, document: Any) -> Row:
        """The board row of a document; a bad one raises the scalar engine's error."""
        fast = self._fast_row(document) if type(document) is dict else None
        if fast is not None:
            return fast
        return self.scenario_row(
            scenario_from_dict(document, self.evaluator.layout, self.evaluator.catalogue)
        )

    def scenario_row(self, scenario: Scenario) -> Row:
        boards = self.evaluator.encode([scenario])
        return (
            tuple(boards.tiles[0].tolist()),
            int(boards.policies[0]),
            tuple(boards.existing[0].tolist()),
        )

    def _shuffled(self, seed: int) -> tuple[int, ...]:
        """The income codes of setup step 1's seeded shuffle (`scenario.shuffled_existing`)."""
        placement = shuffled_existing(self.evaluator.layout, seed)
        return tuple(self.income_code[placement[h]] for h in self.evaluator.homes)

    def _fast_row(self, document: dict[str, Any]) -> Row | None:
        """The row of a plainly valid document, or None to let the scalar parser decide.

        A lookup that fails (an unknown id, or a list where an id belongs: unhashable) means
        "not plainly valid"; catching that is cheaper per line than checking types first."""
        if not self.keys.issuperset(document) or document.get("model") is not None:
            return None
        tiles = document.get("tiles")
        codes = list(self.empty_row)
        mask = 0
        try:
            if tiles is not None:
                if type(tiles) is not dict:
                    return None
                square_index, tile_code = self.square_index, self.tile_code
                for square, tile in tiles.items():
                    codes[square_index[square]] = tile_code[tile]
            policies = document.get("policies")
            if policies is not None:
                if type(policies) is not list:
                    return None
                policy_bit = self.policy_bit
                for policy in policies:
                    bit = policy_bit[policy]
                    if mask & bit:
                        return None
                    mask |= bit
        except (KeyError, TypeError):
            return None
        if mask & self.restricted_bit and any(codes[i] in no for i, no in self.refused):
            return None
        seed = document.get("seed")
        if seed is None:
            seed = 0
        elif type(seed) is not int or not -MAX_SEED <= seed <= MAX_SEED:
            return None  # the scalar loader words the refusal (numbers.check_seed)
        existing = document.get("existing")
        if existing is None:
            return tuple(codes), mask, self.shuffled(seed)
        if type(existing) is not dict or len(existing) != len(self.homes):
            return None
        try:
            incomes = tuple(
                map(self.income_code.__getitem__, map(existing.__getitem__, self.homes))
            )
        except (KeyError, TypeError):  # a home left out, an unknown or unhashable income
            return None
        if sorted(incomes) != self.even_split:
            return None
        return tuple(codes), mask, incomes


def evaluator_for(layout: Layout) -> BatchEvaluator:
    """The shared evaluator of the printed board, or one built for a custom layout."""
    return default_evaluator() if layout == default_layout() else BatchEvaluator(layout=layout)


def scored_chunks(
    documents: Iterable[tuple[int | None, Any]], layout: Layout, options: RuleOptions
) -> Iterator[list[str]]:
    """The result line of every document (line number, document), a chunk at a time through
    the batch evaluator; a bad document raises its error (naming its line) after the chunk of
    results before it."""
    evaluator = evaluator_for(layout)
    rows_of, lines_of = BoardRows(evaluator), ResultLines(evaluator)
    sizes = chunk_sizes()
    size, rows = next(sizes), []
    chunk_model: Model | None = None  # the model every board of the chunk carries

    def flush() -> list[str]:
        tiles, masks, existing = zip(*rows, strict=True)
        boards = Boards(
            np.array(tiles, dtype=np.uint8),
            np.array(masks, dtype=np.uint8),
            np.array(existing, dtype=np.uint8),
            chunk_model,
        )
        rows.clear()  # first: a stop while writing must not write these lines again
        return list(lines_of.lines(evaluator.evaluate(boards, options)))

    def parse(document: Any) -> Scenario:
        return scenario_from_dict(document, evaluator.layout, evaluator.catalogue)

    try:
        for number, document in documents:
            model = None
            if type(document) is dict and document.get("model") is not None:
                # a board under its own assumptions: parsed by the scalar engine, scored in a
                # chunk of consecutive boards under the same model (order is kept)
                scenario = with_line(number, parse, document)
                row, model = rows_of.scenario_row(scenario), scenario.model
            else:
                row = with_line(number, rows_of.row, document)
            if rows and model != chunk_model:
                yield flush()
            chunk_model = model
            rows.append(row)
            if len(rows) == size:
                yield flush()
                size = next(sizes)
    except HousingLabError:  # the results before the bad line are given (not on a stop)
        if rows:
            yield flush()
        raise
    if rows:
        yield flush()


def with_line(number: int | None, parse: Callable[[Any], Any], document: Any) -> Any:
    """`parse(document)`, its error prefixed with the document's line (JSON Lines only)."""
    try:
        return parse(document)
    except HousingLabError as error:
        if number is None:
            raise
        raise type(error)(f"line {number}: {error}") from None

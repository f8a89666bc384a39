"""`nb score` as a stream: documents in, result lines out, a chunk at a time.

Each document is checked as the scalar engine checks it (a fast path for well-formed
scenarios, `scenario_from_dict` for everything else, so errors read the same), a chunk of
boards goes through the batch evaluator, and each result line is assembled from cached JSON
fragments: byte for byte the `json.dumps(score_scenario(...).to_dict())` of the scalar engine
(tests/test_cli_stream.py checks this on random boards). Memory stays flat; results before a bad
document are already written when its error stops the run.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from functools import lru_cache
from typing import Any, TextIO

import numpy as np

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley.batch import BatchEvaluator, Boards, default_evaluator
from housing_lab.north_berkeley.batch_result import BatchResult
from housing_lab.north_berkeley.constituents import CARD_IDS
from housing_lab.north_berkeley.layout import Layout, default_layout
from housing_lab.north_berkeley.movein import OUTCOMES
from housing_lab.north_berkeley.policies import (
    ADU,
    AFFORDABLE_100,
    INCOMES,
    POLICIES,
    RESIDENTS_PER_INCOME,
    RuleOptions,
)
from housing_lab.north_berkeley.scenario import (
    SCENARIO_KEYS,
    Scenario,
    scenario_from_dict,
    shuffled_existing,
)
from housing_lab.north_berkeley.scoring import money, score_scenario

Row = tuple[tuple[int, ...], int, tuple[int, ...]]  # tile codes, policy mask, income codes
FIRST_CHUNK, LAST_CHUNK = 64, 4096  # chunks grow: the first lines appear at once
MAX_CACHED = 20_000  # JSON fragments kept per result section (about 30 MB at most)


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
        layout = evaluator.layout
        self.square_index = {square: i for i, square in enumerate(evaluator.squares)}
        self.tile_code = {tile: t for t, tile in enumerate(evaluator.tile_ids)}
        self.policy_bit = {policy: 1 << i for i, policy in enumerate(POLICIES)}
        self.income_code = {income: c for c, income in enumerate(INCOMES)}
        self.restricted_bit = self.policy_bit[AFFORDABLE_100]
        self.phase_two = [self.square_index[s] for s in layout.phases[2]]
        self.market_tiles = {
            t
            for t, tile in enumerate(evaluator.tile_ids)
            if not evaluator.catalogue[tile].affordable_only
        }
        self.homes = evaluator.homes
        per_income = len(self.homes) // len(INCOMES)
        self.even_split = [code for code in range(len(INCOMES)) for _ in range(per_income)]
        self.keys = frozenset(SCENARIO_KEYS)
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
        placement = shuffled_existing(self.evaluator.layout, seed)
        return tuple(self.income_code[placement[h]] for h in self.evaluator.homes)

    def _fast_row(self, document: dict[str, Any]) -> Row | None:
        """The row of a plainly valid document, or None to let the scalar parser decide."""
        if not self.keys.issuperset(document):
            return None
        tiles = document.get("tiles")
        codes = [self.evaluator.empty] * len(self.square_index)
        if tiles is not None:
            if type(tiles) is not dict:
                return None
            for square, tile in tiles.items():
                index = self.square_index.get(square)
                code = self.tile_code.get(tile) if type(tile) is str else None
                if index is None or code is None:
                    return None
                codes[index] = code
        mask = 0
        policies = document.get("policies")
        if policies is not None:
            if type(policies) is not list:
                return None
            for policy in policies:
                bit = self.policy_bit.get(policy) if type(policy) is str else None
                if bit is None or mask & bit:
                    return None
                mask |= bit
        if mask & self.restricted_bit and any(
            codes[i] in self.market_tiles for i in self.phase_two
        ):
            return None
        seed = document.get("seed")
        if seed is None:
            seed = 0
        elif type(seed) is not int:
            return None
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


def _packed(values: np.ndarray, bits: int) -> list[int]:
    """One integer key per row of small non-negative integers (`bits` bits each)."""
    flat = values.reshape(len(values), -1).astype(np.int64)
    shifts = np.arange(flat.shape[1], dtype=np.int64) * bits
    return (flat << shifts).sum(axis=1).tolist()


class ResultLines:
    """The scalar engine's JSON result lines, assembled from fragments cached by value."""

    def __init__(self, evaluator: BatchEvaluator):
        self.evaluator = evaluator
        names = {-1: "null", **{c: json.dumps(i) for c, i in enumerate(INCOMES)}}
        # "home": "income" for every home and every code (index code + 1: NOBODY is -1)
        self.homes = [
            [f"{json.dumps(h)}: {names[c]}" for c in range(-1, len(INCOMES))]
            for h in evaluator.homes
        ]
        self.slots = [
            [f"{json.dumps(s)}: {names[c]}" for c in range(-1, len(INCOMES))]
            for s in evaluator.layout.adu_slots
        ]
        self.adu_bit = POLICIES.index(ADU)
        self.caches: dict[str, dict[int, str]] = {}

    def lines(self, result: BatchResult) -> Iterator[str]:
        """The result line of every board of `result`, in order."""
        scale = self.evaluator.scale
        spending = result.spending_units.tolist()
        new_homes, housed = result.new_homes.tolist(), result.housed.tolist()
        displaced = result.displaced.tolist()
        adu = ((result.boards.policies >> self.adu_bit) & 1).astype(np.int64)
        after = result.existing_after_codes()
        after_rows = after.tolist()
        cards = result.plus.astype(np.int64) + 2 * result.minus.astype(np.int64)
        card_rows, outcome_rows = cards.tolist(), result.outcomes.tolist()
        adu_rows = adu.tolist()
        sections: list[tuple[str, list[int], Callable[[int], str]]] = [
            (
                "spending",
                spending,
                lambda i: '{"spending": ' + json.dumps(money(Fraction(spending[i], scale))),
            ),
            (
                "new_homes",
                _packed(result.new_homes, 6),
                lambda i: ', "new_homes": ' + _new_homes(new_homes[i]),
            ),
            ("housed", _packed(result.housed, 4), lambda i: ', "housed": ' + _housed(housed[i])),
            (
                "displaced",
                _packed(result.displaced, 4),
                lambda i: ', "displaced": ' + _by_income(displaced[i]),
            ),
            (
                "existing_after",
                _packed(np.column_stack([adu, after + 1]), 2),
                lambda i: ', "existing_after": ' + self._after(after_rows[i], bool(adu_rows[i])),
            ),
            (
                "constituents",
                _packed(cards, 2),
                lambda i: ', "constituents": ' + _constituents(card_rows[i]),
            ),
            (
                "outcomes",
                _packed(result.outcomes, 4),
                lambda i: ', "outcomes": ' + _outcomes(outcome_rows[i]) + "}",
            ),
        ]
        plan = [(self.caches.setdefault(name, {}), keys, build) for name, keys, build in sections]
        for i in range(len(result)):
            parts = []
            for cache, keys, build in plan:
                text = cache.get(keys[i])
                if text is None:
                    if len(cache) > MAX_CACHED:  # flat memory on adversarial inputs
                        cache.clear()
                    text = cache[keys[i]] = build(i)
                parts.append(text)
            yield "".join(parts)

    def _after(self, codes: list[int], adu: bool) -> str:
        """`existing_after`: the homes, then (with `adu`) the ADU slots."""
        homes = len(self.homes)
        pairs = [home[c + 1] for home, c in zip(self.homes, codes[:homes], strict=True)]
        if adu:
            pairs += [slot[c + 1] for slot, c in zip(self.slots, codes[homes:], strict=True)]
        return "{" + ", ".join(pairs) + "}"


def _by_income(values: list[int]) -> str:
    return json.dumps(dict(zip(INCOMES, values, strict=True)))


def _new_homes(values: list[int]) -> str:
    return json.dumps(dict(zip(("market", "middle", "low", "total"), values, strict=True)))


def _housed(values: list[int]) -> str:
    unhoused = [RESIDENTS_PER_INCOME - h for h in values]
    return f'{_by_income(values)}, "unhoused": {_by_income(unhoused)}'


def _card_fragment(card: str, code: int) -> str:
    plus, minus = bool(code & 1), bool(code & 2)
    return json.dumps({card: {"plus": plus, "minus": minus, "score": int(plus) - int(minus)}})[1:-1]


# every card's JSON for each (plus, minus) pair, coded plus + 2 * minus
CARD_FRAGMENTS = [[_card_fragment(card, code) for code in range(4)] for card in CARD_IDS]


def _constituents(codes: list[int]) -> str:
    return (
        "{"
        + ", ".join(fragments[code] for fragments, code in zip(CARD_FRAGMENTS, codes, strict=True))
        + "}"
    )


def _outcomes(rows: list[list[int]]) -> str:
    return json.dumps(
        {
            income: dict(zip(OUTCOMES, row, strict=True))
            for income, row in zip(INCOMES, rows, strict=True)
        }
    )


def evaluator_for(layout: Layout) -> BatchEvaluator:
    """The shared evaluator of the printed board, or one built for a custom layout."""
    return default_evaluator() if layout == default_layout() else BatchEvaluator(layout=layout)


def score_batched(
    documents: Iterable[tuple[int | None, Any]], layout: Layout, options: RuleOptions, out: TextIO
) -> None:
    """Write the result line of every document, a chunk at a time through the batch evaluator."""
    evaluator = evaluator_for(layout)
    rows_of, lines_of = BoardRows(evaluator), ResultLines(evaluator)
    sizes = chunk_sizes()
    size, rows = next(sizes), []

    def flush() -> None:
        tiles, masks, existing = zip(*rows, strict=True)
        boards = Boards(
            np.array(tiles, dtype=np.uint8),
            np.array(masks, dtype=np.uint8),
            np.array(existing, dtype=np.uint8),
        )
        for line in lines_of.lines(evaluator.evaluate(boards, options)):
            out.write(line)
            out.write("\n")
        out.flush()
        rows.clear()

    try:
        for number, document in documents:
            rows.append(_with_line(number, rows_of.row, document))
            if len(rows) == size:
                flush()
                size = next(sizes)
    finally:  # on an error too: the results before the bad line are written
        if rows:
            flush()


def score_scalar(
    documents: Iterable[tuple[int | None, Any]],
    layout: Layout,
    options: RuleOptions,
    out: TextIO,
    events: bool = False,
) -> None:
    """Write the result line of every document, one at a time through the scalar engine (which
    also knows the move-in events)."""
    for number, document in documents:
        scenario = _with_line(number, lambda d: scenario_from_dict(d, layout), document)
        result = score_scenario(scenario, options)
        output = result.to_dict()
        if events:
            output["events"] = [event.to_dict() for event in result.move_in.events]
        out.write(json.dumps(output))
        out.write("\n")
        out.flush()


def _with_line(number: int | None, parse: Callable[[Any], Any], document: Any) -> Any:
    """`parse(document)`, its error prefixed with the document's line (JSON Lines only)."""
    try:
        return parse(document)
    except HousingLabError as error:
        if number is None:
            raise
        raise type(error)(f"line {number}: {error}") from None

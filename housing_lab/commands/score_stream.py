"""`nb score` as a stream: documents in, result lines out, a chunk at a time.

Each document is checked as the scalar engine checks it (a fast path for well-formed
scenarios, `scenario_from_dict` for everything else, so errors read the same), a chunk of
boards goes through the batch evaluator, and each result line is assembled from cached JSON
fragments: byte for byte the `json.dumps(score_scenario(...).to_dict())` of the scalar engine
(tests/test_cli_stream.py checks this on random boards). A chunk holds boards under one model:
a document's `model` (parsed by the scalar engine) is scored by the batch under it, and a change
of model starts a new chunk, so the order is kept. Memory stays flat; results before a bad
document are already written when its error stops the run.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from functools import lru_cache
from typing import Any, TextIO

import numpy as np

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley.batch.encoding import allowed_table
from housing_lab.north_berkeley.batch.evaluator import BatchEvaluator, Boards, default_evaluator
from housing_lab.north_berkeley.batch.result import BatchResult
from housing_lab.north_berkeley.constituents import CARD_IDS
from housing_lab.north_berkeley.engine import output
from housing_lab.north_berkeley.engine.scoring import score_scenario
from housing_lab.north_berkeley.layout import Layout, default_layout
from housing_lab.north_berkeley.model import Model
from housing_lab.north_berkeley.policies import (
    ADU,
    AFFORDABLE_100,
    INCOMES,
    POLICIES,
    RuleOptions,
)
from housing_lab.north_berkeley.scenario import (
    SCENARIO_KEYS,
    Scenario,
    scenario_from_dict,
    shuffled_existing,
)
from housing_lab.numbers import MAX_SEED

Row = tuple[tuple[int, ...], int, tuple[int, ...]]  # tile codes, policy mask, income codes
FIRST_CHUNK, LAST_CHUNK = 64, 4096  # chunks grow: the first lines appear at once
MAX_CACHED = 20_000  # JSON fragments kept per result section (about 30 MB at most)
HOMES_PER_GROUP = 4  # 4 codes a home: 256 precomputed fragments per group of 4 homes
CARDS_PER_GROUP = 4  # (plus, minus) per card: 256 per group of 4 cards


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
        # the encoding's allowed-tile table under affordable_100: (square, codes it refuses)
        refused = ~allowed_table(layout, evaluator.catalogue, (AFFORDABLE_100,))
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
        # the seeded shuffle of setup step 1 (see scenario.shuffled_existing), written out
        residents = layout.existing_ids  # shuffled in this order: the engine's even split
        self.shuffle_steps = [
            (i, i + 1, (i + 1).bit_length()) for i in range(len(residents) - 1, 0, -1)
        ]
        positions = [residents.index(home) for home in self.homes]
        self.home_positions = None if positions == sorted(positions) else positions
        fast_is_exact = all(self._shuffled_fast(s) == self._shuffled(s) for s in range(64))
        self.shuffled = lru_cache(maxsize=4096)(
            self._shuffled_fast if fast_is_exact else self._shuffled
        )

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

    def _shuffled_fast(self, seed: int) -> tuple[int, ...]:
        """`_shuffled`, with `random.shuffle`'s steps written out (a third of the time per
        line); `__init__` checks it gives the library's order and uses the library if not."""
        codes = list(self.even_split)
        getrandbits = random.Random(seed).getrandbits
        for i, n, bits in self.shuffle_steps:
            j = getrandbits(bits)
            while j >= n:
                j = getrandbits(bits)
            codes[i], codes[j] = codes[j], codes[i]
        if self.home_positions is None:
            return tuple(codes)
        return tuple(codes[p] for p in self.home_positions)

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


def _packed(values: np.ndarray, bits: int) -> list[int]:
    """One integer key per row of small non-negative integers (`bits` bits each)."""
    flat = values.reshape(len(values), -1).astype(np.int64)
    shifts = np.arange(flat.shape[1], dtype=np.int64) * bits
    return (flat << shifts).sum(axis=1).tolist()


class FragmentTable:
    """JSON fragments for a row of small codes, precomputed for groups of a few columns.

    A row of n codes (each below `base`) is written as n fragments joined by ", ". Instead of
    caching whole rows (22 cards have 4^22 combinations, so a cache of rows misses on varied
    input), every combination of each group of columns is written once, up front: a row is then
    a few list lookups."""

    def __init__(self, fragments: list[list[str]], sizes: list[int]):
        self.base = len(fragments[0])
        starts = list(itertools.accumulate(sizes, initial=0))
        self.groups = [fragments[a:b] for a, b in itertools.pairwise(starts)]
        self.tables = [
            [", ".join(combination) for combination in itertools.product(*group)]
            for group in self.groups
        ]

    def keys(self, codes: np.ndarray) -> list[tuple[int, ...]]:
        """Per row, the index of its combination in each group's table."""
        keys, start = [], 0
        for group in self.groups:
            part = codes[:, start : start + len(group)].astype(np.int64)
            weights = self.base ** np.arange(len(group), dtype=np.int64)[::-1]
            keys.append((part * weights).sum(axis=1).tolist())
            start += len(group)
        return list(zip(*keys, strict=True))

    def text(self, keys: tuple[int, ...], groups: int | None = None) -> str:
        """The fragments of one row (of its first `groups` groups), joined."""
        tables = self.tables if groups is None else self.tables[:groups]
        return ", ".join(map(list.__getitem__, tables, keys))


def _sizes(columns: int, most: int) -> list[int]:
    """Group sizes of at most `most` covering `columns` columns."""
    return [min(most, columns - start) for start in range(0, columns, most)]


class ResultLines:
    """The scalar engine's JSON result lines, assembled from precomputed or cached fragments.

    Each section of a line is `output.member(key, value)` with the value made by the schema's
    helpers (`engine.output`), and the sections stand in `output.KEYS` order, so a line is
    exactly `json.dumps` of the scalar engine's result."""

    def __init__(self, evaluator: BatchEvaluator):
        self.evaluator = evaluator
        names = {-1: None, **dict(enumerate(INCOMES))}
        # "home": "income" for every home, slot and code (index code + 1: NOBODY is -1)
        places = list(evaluator.homes) + list(evaluator.layout.adu_slots)
        home_sizes = _sizes(len(evaluator.homes), HOMES_PER_GROUP)
        self.after = FragmentTable(
            [[output.member(h, names[c]) for c in range(-1, len(INCOMES))] for h in places],
            home_sizes + _sizes(len(evaluator.layout.adu_slots), HOMES_PER_GROUP),
        )
        self.home_groups = len(home_sizes)  # without `adu`, the slots' groups are left out
        # every card's JSON for each (plus, minus) pair, coded plus + 2 * minus
        card_fragments = [
            [output.member(c, output.card(bool(code & 1), bool(code & 2))) for code in range(4)]
            for c in CARD_IDS
        ]
        self.cards = FragmentTable(card_fragments, _sizes(len(CARD_IDS), CARDS_PER_GROUP))
        self.adu_bit = POLICIES.index(ADU)
        self.caches: dict[str, dict[Any, str]] = {}

    def lines(self, result: BatchResult) -> Iterator[str]:
        """The result line of every board of `result`, in order.

        Cached sections are keyed by one packed integer per board; a board's values are read
        from the arrays (`values[i].tolist()`) only when its key is new, since converting
        whole arrays to Python lists would cost more than all the rest."""
        scale = self.evaluator.scale
        units = result.spending_units
        new_homes, housed = result.new_homes, result.housed
        residents = result.residents  # the model's; the cache of "unhoused" is kept per model
        displaced, outcomes, vacant = result.displaced, result.outcomes, result.vacant
        housed_keys = _packed(housed, 5)
        # 15 outcome counts: 4 bits each while no count passes 15 (the rulebook's 8 newcomers),
        # else 5 bits, in two keys (a model's 16 newcomers)
        if max(result.counts.newcomers) < 16:
            outcome_name, outcome_keys = "outcomes", _packed(outcomes, 4)
        else:
            flat = outcomes.reshape(len(outcomes), -1)
            outcome_name = "outcomes-wide"
            outcome_keys = list(zip(_packed(flat[:, :8], 5), _packed(flat[:, 8:], 5), strict=True))
        cached: dict[str, tuple[str, Any, Callable[[int], Any]]] = {
            # key: (cache name, a key per board, the section's value of board i)
            "spending": (
                "spending",
                units.tolist(),
                lambda i: output.money(Fraction(int(units[i]), scale)),
            ),
            "new_homes": (
                "new_homes",
                _packed(new_homes, 6),
                lambda i: output.new_homes(new_homes[i].tolist()),
            ),
            "housed": ("housed", housed_keys, lambda i: output.by_income(housed[i].tolist())),
            "unhoused": (
                f"unhoused{residents}",
                housed_keys,
                lambda i: output.by_income(
                    [total - h for total, h in zip(residents, housed[i].tolist(), strict=True)]
                ),
            ),
            "displaced": (
                "displaced",
                _packed(displaced, 4),
                lambda i: output.by_income(displaced[i].tolist()),
            ),
            "outcomes": (
                outcome_name,
                outcome_keys,
                lambda i: output.outcomes(outcomes[i].tolist()),
            ),
            "vacant": ("vacant", _packed(vacant, 6), lambda i: output.vacant(vacant[i].tolist())),
        }
        adu_rows = ((result.boards.policies >> self.adu_bit) & 1).astype(bool).tolist()
        after_keys = self.after.keys(result.existing_after_codes() + 1)
        card_keys = self.cards.keys(
            result.plus.astype(np.int64) + 2 * result.minus.astype(np.int64)
        )
        after_text, card_text, home_groups = self.after.text, self.cards.text, self.home_groups
        tabled: dict[str, Callable[[int], str]] = {  # sections written from fragment tables
            "existing_after": lambda i: (
                '"existing_after": {'
                + after_text(after_keys[i], None if adu_rows[i] else home_groups)
                + "}"
            ),
            "constituents": lambda i: '"constituents": {' + card_text(card_keys[i]) + "}",
        }
        plan: list[tuple[dict[Any, str] | None, Any, Callable[[int], str]]] = []
        for key in output.KEYS:  # the schema's order
            if key in tabled:
                plan.append((None, None, tabled[key]))
            else:
                name, keys, value = cached[key]
                plan.append((self.caches.setdefault(name, {}), keys, _member(key, value)))
        end = (
            "}"
            if result.model is None
            else ", " + output.member(output.MODEL, result.model.to_dict()) + "}"
        )
        for i in range(len(result)):
            parts = [
                build(i) if cache is None else _cached(cache, keys[i], build, i)
                for cache, keys, build in plan
            ]
            yield "{" + ", ".join(parts) + end


def _member(key: str, value: Callable[[int], Any]) -> Callable[[int], str]:
    """The `"key": value` text of board i, the value made by `value(i)`."""
    return lambda i: output.member(key, value(i))


def _cached(cache: dict[Any, str], key: Any, build: Callable[[int], str], i: int) -> str:
    """`build(i)`, remembered under `key` (a cache that never grows past MAX_CACHED)."""
    text = cache.get(key)
    if text is None:
        if len(cache) > MAX_CACHED:  # flat memory on adversarial inputs
            cache.clear()
        text = cache[key] = build(i)
    return text


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
    chunk_model: Model | None = None  # the model every board of the chunk carries

    def flush() -> None:
        tiles, masks, existing = zip(*rows, strict=True)
        boards = Boards(
            np.array(tiles, dtype=np.uint8),
            np.array(masks, dtype=np.uint8),
            np.array(existing, dtype=np.uint8),
            chunk_model,
        )
        rows.clear()  # first: a stop while writing must not write these lines again
        for line in lines_of.lines(evaluator.evaluate(boards, options)):
            out.write(line + "\n")  # one write: a stop leaves whole lines
        out.flush()

    def parse(document: Any) -> Scenario:
        return scenario_from_dict(document, evaluator.layout, evaluator.catalogue)

    try:
        for number, document in documents:
            model = None
            if type(document) is dict and document.get("model") is not None:
                # a board under its own assumptions: parsed by the scalar engine, scored in a
                # chunk of consecutive boards under the same model (order is kept)
                scenario = _with_line(number, parse, document)
                row, model = rows_of.scenario_row(scenario), scenario.model
            else:
                row = _with_line(number, rows_of.row, document)
            if rows and model != chunk_model:
                flush()
            chunk_model = model
            rows.append(row)
            if len(rows) == size:
                flush()
                size = next(sizes)
    except HousingLabError:  # the results before the bad line are written (not on a stop)
        if rows:
            flush()
        raise
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
        out.write(json.dumps(output) + "\n")  # one write: a stop leaves whole lines
        out.flush()


def _with_line(number: int | None, parse: Callable[[Any], Any], document: Any) -> Any:
    """`parse(document)`, its error prefixed with the document's line (JSON Lines only)."""
    try:
        return parse(document)
    except HousingLabError as error:
        if number is None:
            raise
        raise type(error)(f"line {number}: {error}") from None

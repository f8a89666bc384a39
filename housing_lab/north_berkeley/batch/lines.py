"""The scalar engine's JSON result lines, written for a batch of boards from fragments.

Each section of a line is `output.member(key, value)` with the value made by the schema's
helpers (`engine.output`), in `output.KEYS` order: byte for byte the
`json.dumps(score_scenario(...).to_dict())` of the scalar engine
(tests/reliability/test_cli_stream.py checks this on random boards). `nb score` and `nb sample`
write their lines with it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import numpy as np

from housing_lab.north_berkeley.batch.evaluator import BatchEvaluator
from housing_lab.north_berkeley.batch.result import BatchResult
from housing_lab.north_berkeley.constituents import CARD_IDS
from housing_lab.north_berkeley.engine import output
from housing_lab.north_berkeley.policies import ADU, INCOMES, POLICIES

MAX_CACHED = 20_000  # JSON fragments kept per result section (about 30 MB at most)
HOMES_PER_GROUP = 4  # 4 codes a home: 256 precomputed fragments per group of 4 homes
CARDS_PER_GROUP = 4  # (plus, minus) per card: 256 per group of 4 cards


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
        unhoused = result.unhoused  # residents - housed, worked out by the result
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
                lambda i: output.by_income(unhoused[i].tolist()),
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

"""The batch evaluator: score many boards at once with numpy, exactly as the scalar engine does.

A batch of boards is three integer arrays (`Boards`): tile codes on every square (catalogue
order, `evaluator.empty` for an empty square), a policy bit mask (bit i is `POLICIES[i]`) and the
income codes of the existing residents (`INCOMES` order) in layout order of the homes. Every card
reads only a few numbers per board; those are sums over squares of per-(square, tile)
contributions, which the evaluator packs into one 64-bit word per (square, tile) and adds (one
table look-up per group of three squares), then runs the move-in closed forms of `batch.arrays`
and the 22 card formulas on whole arrays, in int16 for the printed catalogue, a chunk of boards
at a time (two threads: numpy releases the GIL in its loops).

    from housing_lab.north_berkeley.batch.evaluator import default_evaluator
    evaluator = default_evaluator()
    boards = evaluator.encode([scenario, ...])
    result = evaluator.evaluate(boards)
    result.to_dict(0) == score_scenario(scenario).to_dict()
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from itertools import chain, combinations
from types import MappingProxyType

import numpy as np

from housing_lab.north_berkeley.batch.arrays import (
    LOW,
    MIDDLE,
    ArrayFacts,
    MoveInCounts,
    card_scores,
    move_in_counts,
)
from housing_lab.north_berkeley.batch.boards import Array, Boards
from housing_lab.north_berkeley.batch.encoding import (
    COSTS,
    FEATURES,
    adu_slots,
    displacing_by_kind,
    halved,
    policies_of,
    policy_mask,
    spending_units,
    tile_features,
    vacancy_control,
)
from housing_lab.north_berkeley.batch.result import BatchResult
from housing_lab.north_berkeley.engine.card_rules import CARD_IDS, TILE_COUNTS
from housing_lab.north_berkeley.errors import ScenarioFormatError
from housing_lab.north_berkeley.layout import Layout, default_layout
from housing_lab.north_berkeley.model import (
    MAX_NEWCOMERS,
    RULEBOOK,
    Model,
    asked_model,
    model_or_rulebook,
    one_model,
)
from housing_lab.north_berkeley.policies import (
    INCOMES,
    POLICIES,
    RESIDENTS_PER_INCOME,
    RuleOptions,
)
from housing_lab.north_berkeley.scenario import Scenario
from housing_lab.north_berkeley.tiles import Catalogue, default_catalogue

# the encoding's names, kept importable from here (`batch.encoding` defines them)
__all__ = [
    "ALL_POLICY_SETS",
    "COSTS",
    "FEATURES",
    "GAME_POLICY_SETS",
    "BatchEvaluator",
    "Boards",
    "default_evaluator",
    "evaluate",
    "policies_of",
    "policy_mask",
    "tile_features",
]
CHUNK = 1 << 16  # boards per step: int16 arrays of this size stay in the CPU cache
GROUP_ENTRIES = 4096  # the most entries of a table of a group of squares (32 KB)


def _policy_sets(sizes: Iterable[int]) -> tuple[frozenset[str], ...]:
    return tuple(frozenset(c) for k in sizes for c in combinations(POLICIES, k))


# The policy sets the game allows (step 6: enact one or both of two cards drawn), and all 16.
GAME_POLICY_SETS = _policy_sets((1, 2))
ALL_POLICY_SETS = _policy_sets(range(len(POLICIES) + 1))


class BatchEvaluator:
    """Evaluates `Boards` for one layout and catalogue (tables are built once here)."""

    def __init__(
        self,
        layout: Layout | None = None,
        catalogue: Catalogue | None = None,
        workers: int | None = None,
    ):
        self.layout = layout or default_layout()
        # read-only: `default_evaluator()` is shared by every caller in the process
        self.catalogue = MappingProxyType(
            dict(catalogue if catalogue is not None else default_catalogue())
        )
        self.tile_ids = tuple(self.catalogue)
        self.squares = self.layout.squares
        self.homes = self.layout.existing_ids
        self.empty = len(self.tile_ids)  # the code of an empty square
        self.features, self.unit = tile_features(self.layout, self.catalogue)
        self.scale = 2 * self.unit  # spending in 1/scale dollars: halves stay whole
        self.is_house = np.array([h in self.layout.houses for h in self.homes])
        # the setup puts as many residents of each income in the existing homes (4 of 12)
        self.existing_per_income = len(self.homes) // len(INCOMES)
        self.newcomers = RESIDENTS_PER_INCOME - self.existing_per_income
        self.workers = workers or min(2, os.cpu_count() or 1)
        self._pack()
        for table in (self.features, self.is_house, self.packed, *chain(*self.group_tables)):
            table.flags.writeable = False  # the tables every board is scored with

    def _pack(self) -> None:
        """Give every feature a bit field wide enough for its largest board sum, in as few
        64-bit words as fit (one, for the printed catalogue): one table look-up per group of
        squares then adds every feature at once.

        When every sum is small (the printed catalogue's are at most 54), the boards are
        scored in int16 (`self.dtype`): 4 times less memory to pass over than int64, and no
        field straddles one of a word's four 16-bit lanes, so a feature is read from its lane
        in int16 too."""
        most = self.features.max(axis=1).sum(axis=0)
        # int16 while the largest number a card or the move-in makes of the sums (8 garages
        # less the new homes, 2 (housing + other) units, 16 newcomers ...) stays far inside it
        small = 64 * max(int(most.max()), MAX_NEWCOMERS + len(self.homes)) < 2**15
        self.dtype = np.dtype(np.int16 if small else np.int64)
        lane_bits = 16 if small else 63  # int64: the sign bit stays clear
        widths = [max(int(m), 1).bit_length() for m in most]
        for name, m, width in zip(FEATURES, most, widths, strict=True):
            if width > 63:
                raise ValueError(f"{name} sums to {int(m)} on a board: too large to score")
        # first fit, widest first: the printed catalogue's 63 bits fill four 16-bit lanes
        fields: dict[int, tuple[int, int, int]] = {}  # feature: (lane, shift, width)
        used: list[int] = []  # bits used in each lane (4 lanes a word, or 1)
        for f in sorted(range(len(widths)), key=lambda f: -widths[f]):
            width = widths[f]
            lane = next((i for i, bits in enumerate(used) if bits + width <= lane_bits), None)
            if lane is None:
                lane = len(used)
                used.append(0)
            fields[f] = (lane, used[lane], width)
            used[lane] += width
        self.fields = [fields[f] for f in range(len(widths))]
        self.lane_bits = lane_bits
        lanes_per_word = 64 // lane_bits
        words = -(-len(used) // lanes_per_word)
        self.packed = np.zeros((words, *self.features.shape[:2]), dtype=np.int64)
        for f, (lane, shift, _) in enumerate(self.fields):
            word, offset = divmod(lane, lanes_per_word)
            self.packed[word] += self.features[:, :, f] << (offset * lane_bits + shift)
        # a few squares a look-up: per word, a table of the group's sums for every combination
        # of their codes, as many squares as keep it within the CPU's fastest cache (3 squares,
        # 16^3 entries, for the printed catalogue)
        self.square_codes = self.packed.shape[2]
        size = max(1, int(math.log(GROUP_ENTRIES) / math.log(max(self.square_codes, 2)) + 1e-9))
        squares = range(len(self.squares))
        self.square_groups = [tuple(squares[a : a + size]) for a in squares[::size]]
        self.group_tables = [
            [self._group_table(packed, group) for group in self.square_groups]
            for packed in self.packed
        ]
        self.house_columns = tuple(np.flatnonzero(self.is_house).tolist())
        self.apartment_columns = tuple(np.flatnonzero(~self.is_house).tolist())

    def _group_table(self, packed: Array, group: tuple[int, ...]) -> Array:
        """The packed sums of the squares of `group` for every combination of their codes,
        flat: the first square's code is the most significant digit (base `self.square_codes`)."""
        table = np.zeros((), dtype=np.int64)
        for square in group:
            table = (table[..., None] + packed[square]).reshape(-1)
        return table

    # --- encoding ----------------------------------------------------------------------------
    def encode(self, scenarios: Sequence[Scenario]) -> Boards:
        """Scenarios (validated by the scalar engine) as arrays, carrying their model.

        A batch is scored under one model: scenarios whose switches differ are refused in one
        line (score them as separate batches)."""
        models = list(dict.fromkeys(s.assumptions for s in scenarios))
        if len(models) > 1:
            said = "; ".join(f"{m.describe()}" for m in models[:2])
            raise ScenarioFormatError(
                f"a batch is scored under one model, these boards carry {len(models)} "
                f"({said}): score them as separate batches"
            )
        asked = next((s.model for s in scenarios if s.model is not None), None)
        code = {tile: t for t, tile in enumerate(self.tile_ids)}
        tiles = np.array(
            [
                [code[s.tiles[q]] if q in s.tiles else self.empty for q in self.squares]
                for s in scenarios
            ],
            dtype=np.uint8,
        )
        policies = np.array([policy_mask(s.policies) for s in scenarios], dtype=np.uint8)
        existing = np.array(
            [[INCOMES.index(s.existing[h]) for h in self.homes] for s in scenarios], dtype=np.uint8
        )
        return Boards(
            tiles.reshape(len(scenarios), len(self.squares)),
            policies,
            existing.reshape(len(scenarios), len(self.homes)),
            asked,
        )

    def scenario_dict(self, boards: Boards, i: int, seed: int = 0) -> dict[str, object]:
        """Board `i` in the RULES.md input format (`existing` included)."""
        tiles = boards.tiles[i].tolist()
        return {
            "tiles": {
                q: self.tile_ids[t]
                for q, t in zip(self.squares, tiles, strict=True)
                if t < self.empty
            },
            "policies": policies_of(int(boards.policies[i])),
            "existing": {
                h: INCOMES[c] for h, c in zip(self.homes, boards.existing[i].tolist(), strict=True)
            },
            "seed": seed,
            **({} if boards.model is None else {"model": boards.model.to_dict()}),
        }

    # --- evaluation --------------------------------------------------------------------------
    def sums(self, tiles: Array) -> dict[str, Array]:
        """Board sums of every feature (arrays of `self.dtype`): one table look-up per group of
        squares adds all features at once in a packed word."""
        lanes = []
        per_word = 64 // self.lane_bits
        for tables in self.group_tables:
            word = None
            for group, table in zip(self.square_groups, tables, strict=True):
                index = tiles[:, group[0]].astype(np.intp)
                for square in group[1:]:
                    index *= self.square_codes
                    index += tiles[:, square]
                part = table.take(index)
                word = part if word is None else np.add(word, part, out=word)
            if per_word == 1:
                lanes.append(word)
            else:  # each 16-bit lane on its own (a truncating cast), then fields within it
                for k in range(per_word):
                    lanes.append((word >> (k * self.lane_bits)).astype(np.uint16))
        out = {}
        for name, (lane, shift, width) in zip(FEATURES, self.fields, strict=True):
            value = lanes[lane]
            if shift:
                value = value >> shift
            if shift + width < self.lane_bits:
                value = value & ((1 << width) - 1)
            out[name] = value.view(self.dtype) if value.dtype != self.dtype else value
        return out

    def held(self, existing: Array) -> tuple[Array, Array, Array, Array]:
        """Low and middle income residents in existing houses, then in apartments, per board
        (`self.dtype`), from the income codes of the homes (n, homes), or one row for all."""
        by_home = np.ascontiguousarray(np.moveaxis(existing, -1, 0))  # a home's boards side by side
        counts = []
        for columns in (self.house_columns, self.apartment_columns):
            for income in (LOW, MIDDLE):
                count = np.zeros(existing.shape[:-1], dtype=self.dtype)
                for h in columns:
                    np.add(count, by_home[h] == income, out=count)
                counts.append(count)
        return tuple(counts)  # type: ignore[return-value]

    def evaluate(
        self,
        boards: Boards,
        options: RuleOptions | None = None,
        model: Model | dict | None = None,
    ) -> BatchResult:
        """Score every board: the same numbers `score_scenario(...).to_dict()` gives.

        `model`: the assumptions (a `Model` or its JSON object); None: the model the boards
        carry (`Boards.model`) or `options` carry, the rulebook's if none; two different models
        are refused in one line. Boards over the model's budget are
        scored all the same and flagged (`BatchResult.within_budget`)."""
        options = options or RuleOptions()
        held = "these boards carry their own model"
        asked = one_model(boards.model, asked_model(model), held, "model= another")
        asked = one_model(asked, options.given_model, held, "the rule options give another")
        assumptions = model_or_rulebook(asked)
        n = len(boards)
        small = np.int8  # every count fits: at most 36 homes, 12 residents per income
        out = BatchResult(
            self,
            boards,
            options,
            model=asked,
            spending_units=np.empty(n, dtype=np.int32),
            new_homes=_by_column(n, (4,), small),
            housed=_by_column(n, (3,), small),
            displaced=_by_column(n, (3,), small),
            outcomes=_by_column(n, (3, 5), small),
            plus=_by_column(n, (len(CARD_IDS),), bool),
            minus=_by_column(n, (len(CARD_IDS),), bool),
            counts=MoveInCounts(
                self.arriving(assumptions),
                self.existing_per_income,
                *(np.empty(n, dtype=small) for _ in range(13)),
                left=tuple(np.empty(n, dtype=small) for _ in range(3)),
            ),
        )

        def run(start: int) -> None:
            rows = slice(start, start + CHUNK)
            self._evaluate_chunk(boards.take(rows), options, assumptions, out, rows)

        starts = range(0, n, CHUNK)
        workers = min(self.workers, len(starts))
        if workers > 1:  # numpy releases the GIL in its loops: chunks run side by side
            with ThreadPoolExecutor(workers) as pool:
                list(pool.map(run, starts))
        else:
            for start in starts:
                run(start)
        return out

    def arriving(self, model: Model = RULEBOOK) -> tuple[int, int, int]:
        """Newcomers of each income (INCOMES order) under `model` on this layout."""
        return tuple(  # type: ignore[return-value]
            model.newcomers_of(i, existing=self.existing_per_income) for i in INCOMES
        )

    def facts(
        self,
        sums: dict[str, Array],
        policies: Array,
        existing: Array,
        options: RuleOptions,
        model: Model = RULEBOOK,
    ) -> tuple[ArrayFacts, MoveInCounts]:
        """Card facts and move-in counts from the board sums, policies and placements, under
        `model`'s assumptions."""
        low = sums["new_low"]
        spending = spending_units(sums["housing_cost"], sums["other_cost"], halved(policies, low))
        house_low, house_middle, apartment_low, apartment_middle = self.held(existing)
        if existing.ndim == 1:
            house_low, house_middle, apartment_low, apartment_middle = (
                np.full(len(policies), value, dtype=self.dtype)
                for value in (house_low, house_middle, apartment_low, apartment_middle)
            )
        counts = move_in_counts(
            sums["new_market"],
            sums["new_middle"],
            low,
            adu_slots(policies, len(self.layout.houses), self.dtype),
            displacing_by_kind(policies, model),
            house_low,
            house_middle,
            apartment_low,
            apartment_middle,
            existing_per_income=self.existing_per_income,
            low_income_in_adus=options.low_income_in_adus,
            model=model,
        )
        facts = ArrayFacts(
            scale=self.scale,
            spending=spending,
            new_total=sums["new_market"] + sums["new_middle"] + low,
            **counts.facts(house_low, house_middle, apartment_low),
            vacancy_control=vacancy_control(policies),
            **{name: sums[name] for name in TILE_COUNTS},
        )
        return facts, counts

    def _evaluate_chunk(
        self, boards: Boards, options: RuleOptions, model: Model, out: BatchResult, rows: slice
    ) -> None:
        sums = self.sums(boards.tiles)
        facts, counts = self.facts(sums, boards.policies, boards.existing, options, model)
        out.spending_units[rows] = facts.spending
        for column, name in enumerate(("new_market", "new_middle", "new_low", "new_total")):
            out.new_homes[rows, column] = getattr(facts, name)
        for income, (housed, displaced, outcomes) in enumerate(
            zip(
                counts.housed(),
                counts.displaced(),
                counts.outcomes(options.displaced_first),
                strict=True,
            )
        ):
            out.housed[rows, income] = housed
            out.displaced[rows, income] = displaced
            for column, value in enumerate(outcomes):
                out.outcomes[rows, income, column] = value
        card_scores(facts, out=(out.plus[rows], out.minus[rows]))
        for name in MoveInCounts.__dataclass_fields__:
            value = getattr(counts, name)
            if name == "left":
                for target, part in zip(out.counts.left, value, strict=True):
                    target[rows] = part
            elif isinstance(value, np.ndarray):
                getattr(out.counts, name)[rows] = value


def _by_column(n: int, shape: tuple[int, ...], dtype: type) -> Array:
    """An (n, *shape) array stored column by column (each column's n boards side by side):
    a chunk of boards fills a column in one contiguous pass."""
    return np.moveaxis(np.empty((*shape, n), dtype=dtype), -1, 0)


@cache
def default_evaluator() -> BatchEvaluator:
    """The evaluator of the printed board and catalogue (built once)."""
    return BatchEvaluator()


def evaluate(
    boards: Boards, options: RuleOptions | None = None, model: Model | dict | None = None
) -> BatchResult:
    """Evaluate boards of the default layout and catalogue (under `model`, if given)."""
    return default_evaluator().evaluate(boards, options, model)

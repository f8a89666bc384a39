"""The batch evaluator: score many boards at once with numpy, exactly as the scalar engine does.

A batch of boards is three integer arrays (`Boards`): tile codes on every square (catalogue
order, `evaluator.empty` for an empty square), a policy bit mask (bit i is `POLICIES[i]`) and the
income codes of the existing residents (`INCOMES` order) in layout order of the homes. Every card
reads only a few numbers per board; those are sums over squares of per-(square, tile)
contributions, which the evaluator packs into one 64-bit word per (square, tile) and adds (one
table look-up per square), then runs the move-in closed forms of `batch.arrays` and the 22 card
formulas on whole arrays.

    from housing_lab.north_berkeley.batch.evaluator import default_evaluator
    evaluator = default_evaluator()
    boards = evaluator.encode([scenario, ...])
    result = evaluator.evaluate(boards)
    result.to_dict(0) == score_scenario(scenario).to_dict()
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from itertools import combinations
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
CHUNK = 1 << 15  # boards per step: arrays of this size stay in the CPU cache


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
        for table in (self.features, self.is_house, self.packed, self.home_table):
            table.flags.writeable = False  # the tables every board is scored with

    def _pack(self) -> None:
        """Give every feature a bit field wide enough for its largest board sum, in as few
        64-bit words as fit (one, for the printed catalogue)."""
        most = self.features.max(axis=1).sum(axis=0)
        self.fields: list[tuple[int, int, int]] = []  # (word, shift, width) per feature
        word, used = 0, 0
        for m in most:
            width = max(int(m), 1).bit_length()
            if used + width > 63:
                word, used = word + 1, 0
            self.fields.append((word, used, width))
            used += width
        self.packed = np.zeros((word + 1, *self.features.shape[:2]), dtype=np.int64)
        for f, (w, shift, _) in enumerate(self.fields):
            self.packed[w] += self.features[:, :, f] << shift  # (words, squares, tiles + 1)
        # existing residents: (home, income code) -> packed house_low, house_middle, apt_low, ...
        self.home_table = np.zeros((len(self.homes), len(INCOMES)), dtype=np.int64)
        for h, is_house in enumerate(self.is_house):
            self.home_table[h, LOW] = 1 << (0 if is_house else 16)
            self.home_table[h, MIDDLE] = 1 << (8 if is_house else 24)

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
        """Board sums of every feature (int64 arrays): one table look-up per square adds all
        features at once in a packed word."""
        words = []
        for packed in self.packed:
            word = np.zeros(len(tiles), dtype=np.int64)
            for s in range(len(self.squares)):
                word += packed[s].take(tiles[:, s])
            words.append(word)
        return {
            name: (words[w] >> shift) & ((1 << width) - 1)
            for name, (w, shift, width) in zip(FEATURES, self.fields, strict=True)
        }

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
            new_homes=np.empty((n, 4), dtype=small),
            housed=np.empty((n, 3), dtype=small),
            displaced=np.empty((n, 3), dtype=small),
            outcomes=np.empty((n, 3, 5), dtype=small),
            plus=np.empty((n, len(CARD_IDS)), dtype=bool),
            minus=np.empty((n, len(CARD_IDS)), dtype=bool),
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
        if existing.ndim == 1:
            existing = np.broadcast_to(existing, (len(policies), len(existing)))
        held = self.home_table[np.arange(len(self.homes)), existing].sum(axis=1)
        house_low, house_middle = held & 255, held >> 8 & 255
        apartment_low, apartment_middle = held >> 16 & 255, held >> 24 & 255
        counts = move_in_counts(
            sums["new_market"],
            sums["new_middle"],
            low,
            adu_slots(policies, len(self.layout.houses)),
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


@cache
def default_evaluator() -> BatchEvaluator:
    """The evaluator of the printed board and catalogue (built once)."""
    return BatchEvaluator()


def evaluate(
    boards: Boards, options: RuleOptions | None = None, model: Model | dict | None = None
) -> BatchResult:
    """Evaluate boards of the default layout and catalogue (under `model`, if given)."""
    return default_evaluator().evaluate(boards, options, model)

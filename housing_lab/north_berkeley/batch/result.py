"""What the batch evaluator returns: arrays per board, and the RULES.md result dict of any board.

`existing_after` (who lives in each existing home and ADU after move-in) is not stored: the
move-in counts give it (`batch.arrays.MoveInCounts.existing_after`).

Every section of the result is read off the arrays once, in `result_sections`: per board a row
of integer codes and the section's JSON value of a row. `BatchResult.to_dicts` makes dicts of
it, and `batch.lines` the same results as JSON text (its fragments made from the same values).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from housing_lab.north_berkeley.batch.arrays import NOBODY, MoveInCounts
from housing_lab.north_berkeley.batch.boards import Array, Boards, EvaluatorFacts
from housing_lab.north_berkeley.engine import scoring
from housing_lab.north_berkeley.engine.card_rules import CARD_IDS
from housing_lab.north_berkeley.engine.movein import OUTCOMES
from housing_lab.north_berkeley.engine.scoring import money
from housing_lab.north_berkeley.model import Model, model_or_rulebook
from housing_lab.north_berkeley.policies import ADU, INCOMES, POLICIES, RuleOptions


@dataclass(frozen=True)
class BatchResult:
    """Results of many boards. Shapes: (n,), new_homes (n, 4: market, middle, low, total),
    housed / displaced (n, 3: INCOMES), outcomes (n, 3, 5: OUTCOMES), plus / minus (n, 22);
    `vacant` (n, 4: VACANT_KEYS) is derived from the move-in counts. `model` is the model
    asked for (None: none, the rulebook's; `to_dicts` echoes it only when asked, as
    `ScenarioResult.to_dict` does)."""

    evaluator: EvaluatorFacts  # the BatchEvaluator that made it
    boards: Boards
    options: RuleOptions
    model: Model | None
    spending_units: Array  # spending in 1 / evaluator.scale dollars
    new_homes: Array
    housed: Array
    displaced: Array
    outcomes: Array
    plus: Array
    minus: Array
    counts: MoveInCounts

    def __len__(self) -> int:
        return len(self.spending_units)

    @property
    def spending(self) -> Array:
        """Spending in dollars (float64; exact for the halves that matching funds makes)."""
        return self.spending_units / self.evaluator.scale

    @property
    def assumptions(self) -> Model:
        """The model these boards were scored under."""
        return model_or_rulebook(self.model)

    @property
    def residents(self) -> tuple[int, int, int]:
        """Residents of each income (INCOMES order): existing plus the model's newcomers."""
        return self.counts.residents()

    @property
    def unhoused(self) -> Array:
        return np.array(self.residents, dtype=self.housed.dtype) - self.housed

    @property
    def within_budget(self) -> Array:
        """(n,) booleans: whether each board keeps within the model's city budget (all True
        without a budget). The scalar engine refuses a board over budget; the batch scores it
        all the same and says so here, so a sweep can count or drop such boards."""
        budget = self.assumptions.city_budget()
        if budget is None:
            return np.ones(len(self), dtype=bool)
        # spending_units / scale <= p / q, exactly: spending_units * q <= p * scale
        units = self.spending_units.astype(np.int64)
        return units * budget.denominator <= budget.numerator * self.evaluator.scale

    @property
    def scores(self) -> Array:
        """Card scores -1, 0 or +1, shape (n, 22), columns in CARD_IDS order."""
        return self.plus.astype(np.int8) - self.minus.astype(np.int8)

    @property
    def vacant(self) -> Array:
        """Homes left empty, shape (n, 4: `VACANT_KEYS` market, middle, low, adu), from the
        move-in counts: low income fills low homes first, then middle, then market."""
        counts = self.counts
        market, middle, low = (self.new_homes[:, c].astype(np.int16) for c in range(3))
        has_adu = (self.boards.policies >> POLICIES.index(ADU)) & 1
        slots = has_adu.astype(np.int16) * len(self.evaluator.layout.houses)
        low_new = counts.low_new.astype(np.int16)
        in_low = np.minimum(low_new, low)
        middle_left = middle - counts.middle_middle
        in_middle = np.minimum(low_new - in_low, middle_left)
        market_left = market - counts.high_market - counts.middle_market
        in_market = low_new - in_low - in_middle
        adu_taken = counts.high_adu + counts.middle_adu + counts.low_adu
        return np.stack(
            [market_left - in_market, middle_left - in_middle, low - in_low, slots - adu_taken],
            axis=1,
        )

    def existing_after_codes(self) -> Array:
        """(n, homes + ADU slots) income codes after move-in; NOBODY for an empty ADU slot."""
        existing = self.boards.existing
        if existing.ndim == 1:
            existing = np.broadcast_to(existing, (len(self), len(existing)))
        return self.counts.existing_after(existing, self.evaluator.is_house)

    def to_dict(self, i: int) -> dict[str, Any]:
        """Board `i` in the RULES.md output format (equal to the scalar engine's `to_dict`)."""
        return self.to_dicts(slice(i, i + 1))[0]

    def to_dicts(self, index: slice | None = None) -> list[dict[str, Any]]:
        """The RULES.md output of every board (or of a slice), each section made from the
        board's codes by `result_sections` (what `batch.lines` writes as text)."""
        index = index if index is not None else slice(None)
        sections = result_sections(self.evaluator)
        rows = zip(*(section.codes(self)[index].tolist() for section in sections), strict=True)
        model = self.model
        # a fresh model dict per board: callers may edit one
        return [
            scoring.result(
                {s.key: s.value(row) for s, row in zip(sections, board, strict=True)},
                None if model is None else model.to_dict(),
            )
            for board in rows
        ]


ABSENT = object()
"""A member's value that leaves the member out of its object (an ADU slot without `adu`)."""


@dataclass(frozen=True)
class Section:
    """One key of the result as the batch reads it off its arrays: per board a row of integer
    codes (`codes`: (boards, columns)), and the section's JSON value of one row (`value`)."""

    key: str
    codes: Callable[[BatchResult], Array]
    value: Callable[[list[int]], Any]


@dataclass(frozen=True)
class MemberSection:
    """A section that is a JSON object with one member per column (`members`), each member's
    value given by its own code alone (`values[code]`; ABSENT leaves the member out), so that
    a text writer can write every member's text once, up front. `fresh` copies a value that
    a caller could edit (each board's dict gets its own)."""

    key: str
    codes: Callable[[BatchResult], Array]
    members: tuple[str, ...]
    values: tuple[Any, ...]
    fresh: Callable[[Any], Any] | None = None

    def value(self, row: list[int]) -> dict[str, Any]:
        values = map(self.values.__getitem__, row)
        if ABSENT not in self.values:
            fresh = values if self.fresh is None else map(self.fresh, values)
            return dict(zip(self.members, fresh, strict=True))
        fresh = self.fresh or (lambda value: value)
        pairs = zip(self.members, values, strict=True)
        return {name: fresh(value) for name, value in pairs if value is not ABSENT}


# existing_after's codes: who lives in a home or ADU slot after move-in (income code +
# OCCUPIED), an empty slot (EMPTY_SLOT) and a slot that is no member (NO_SLOT: no `adu`)
NO_SLOT, OCCUPIED = 0, 2
EMPTY_SLOT = OCCUPIED + NOBODY
RESIDENTS: tuple[Any, ...] = (ABSENT, None, *INCOMES)  # existing_after's value of each code


def _after_codes(result: BatchResult) -> Array:
    codes = result.existing_after_codes() + OCCUPIED
    has_adu = ((result.boards.policies >> POLICIES.index(ADU)) & 1).astype(bool)
    codes[~has_adu, len(result.evaluator.homes) :] = NO_SLOT
    return codes


def _outcomes(row: list[int]) -> dict[str, dict[str, int]]:
    """outcomes of its row of codes: (INCOMES x OUTCOMES) flattened."""
    width = len(OUTCOMES)
    return scoring.outcomes([row[i : i + width] for i in range(0, len(row), width)])


def result_sections(evaluator: EvaluatorFacts) -> tuple[Section | MemberSection, ...]:
    """Every section of the result in `scoring.KEYS` order: the codes each is read from and its
    JSON value (`engine.scoring`'s result JSON helpers). `BatchResult.to_dicts` and `batch.lines`'s
    JSON text both read this one table."""
    scale = evaluator.scale
    sections = (
        Section(
            "spending",
            lambda r: r.spending_units[:, None],
            lambda row: money(Fraction(row[0], scale)),
        ),
        Section("new_homes", lambda r: r.new_homes, scoring.new_homes),
        Section("housed", lambda r: r.housed, scoring.by_income),
        Section("unhoused", lambda r: r.unhoused, scoring.by_income),
        Section("displaced", lambda r: r.displaced, scoring.by_income),
        MemberSection(
            "existing_after",
            _after_codes,
            (*evaluator.homes, *evaluator.layout.adu_slots),
            RESIDENTS,
        ),
        MemberSection(
            "constituents",
            lambda r: r.plus.astype(np.uint8) + 2 * r.minus.astype(np.uint8),
            CARD_IDS,
            tuple(scoring.card(bool(code & 1), bool(code & 2)) for code in range(4)),
            fresh=dict,  # a card's entry is a flat dict: dict() copies it
        ),
        Section("outcomes", lambda r: r.outcomes.reshape(len(r), -1), _outcomes),
        Section("vacant", lambda r: r.vacant, scoring.vacant),
    )
    if tuple(s.key for s in sections) != scoring.KEYS:  # pragma: no cover
        raise ValueError("the batch's result sections must be scoring.KEYS, in order")
    return sections

"""What the batch evaluator returns: arrays per board, and the RULES.md result dict of any board.

`existing_after` (who lives in each existing home and ADU after move-in) is not stored: the
move-in counts give it (`batch.arrays.MoveInCounts.existing_after`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from housing_lab.north_berkeley.batch.arrays import NOBODY, MoveInCounts
from housing_lab.north_berkeley.batch.boards import Array, Boards, EvaluatorFacts
from housing_lab.north_berkeley.engine import output
from housing_lab.north_berkeley.engine.card_rules import CARD_IDS
from housing_lab.north_berkeley.engine.output import money
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
        """The RULES.md output of every board (or of a slice), built from the arrays."""
        index = index if index is not None else slice(None)
        homes = self.evaluator.homes
        adu_slots = self.evaluator.layout.adu_slots
        scale = self.evaluator.scale
        has_adu = ((self.boards.policies[index] >> POLICIES.index(ADU)) & 1).astype(bool).tolist()
        after = self.existing_after_codes()[index].tolist()
        rows = zip(
            self.spending_units[index].tolist(),
            self.new_homes[index].tolist(),
            self.housed[index].tolist(),
            self.unhoused[index].tolist(),
            self.displaced[index].tolist(),
            after,
            has_adu,
            self.plus[index].tolist(),
            self.minus[index].tolist(),
            self.outcomes[index].tolist(),
            self.vacant[index].tolist(),
            strict=True,
        )
        model = self.model
        out = []
        for row in rows:
            spend, new, housed, unhoused, displaced, codes, adu, plus, minus, outcomes, vacant = row
            names = [None if c == NOBODY else INCOMES[c] for c in codes]
            existing_after = dict(zip(homes, names, strict=False))
            if adu:
                existing_after.update(zip(adu_slots, names[len(homes) :], strict=True))
            sections = {
                "spending": money(Fraction(spend, scale)),
                "new_homes": output.new_homes(new),
                "housed": output.by_income(housed),
                "unhoused": output.by_income(unhoused),
                "displaced": output.by_income(displaced),
                "existing_after": existing_after,
                "constituents": {
                    card: output.card(p, m)
                    for card, p, m in zip(CARD_IDS, plus, minus, strict=True)
                },
                "outcomes": output.outcomes(outcomes),
                "vacant": output.vacant(vacant),
            }
            # a fresh model dict per board: callers may edit one
            out.append(output.result(sections, None if model is None else model.to_dict()))
        return out

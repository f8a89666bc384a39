"""The result of a scored board (RULES.md's output format), defined once.

Three writers make this output: the scalar engine (`ScenarioResult.to_dict`), the batch
(`BatchResult.to_dicts`) and `nb score`'s streamed lines (assembled from JSON fragments for
speed). All three take the keys, their order and every section's shape from here, so a key
added or renamed here changes all three alike (tests/north_berkeley/test_output.py).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from housing_lab.north_berkeley.engine.movein import OUTCOMES, VACANT_KEYS
from housing_lab.north_berkeley.policies import INCOMES

KEYS = (
    "spending",
    "new_homes",
    "housed",
    "unhoused",
    "displaced",
    "existing_after",
    "constituents",
    "outcomes",
    "vacant",
)
"""The keys of every result, in order; `model` follows when a board asked for one."""
MODEL = "model"
NEW_HOME_KEYS = ("market", "middle", "low", "total")


def money(amount: Fraction) -> int | float:
    """Dollars for JSON: whole amounts as ints, halves (matching funds) as floats."""
    return int(amount) if amount.denominator == 1 else float(amount)


def new_homes(counts: Sequence[int]) -> dict[str, int]:
    """New homes by kind, counts in `NEW_HOME_KEYS` order."""
    return dict(zip(NEW_HOME_KEYS, counts, strict=True))


def by_income(counts: Sequence[int]) -> dict[str, int]:
    """One count per income (housed, unhoused, displaced), counts in `INCOMES` order."""
    return dict(zip(INCOMES, counts, strict=True))


def card(plus: bool, minus: bool) -> dict[str, bool | int]:
    """One constituent card's entry under "constituents"."""
    return {"plus": plus, "minus": minus, "score": int(plus) - int(minus)}


def outcomes(rows: Sequence[Sequence[int]]) -> dict[str, dict[str, int]]:
    """Per income (`INCOMES` order), the counts of each of the 5 `OUTCOMES`."""
    return {
        income: dict(zip(OUTCOMES, row, strict=True))
        for income, row in zip(INCOMES, rows, strict=True)
    }


def vacant(counts: Sequence[int]) -> dict[str, int]:
    """Homes left empty, counts in `VACANT_KEYS` order."""
    return dict(zip(VACANT_KEYS, counts, strict=True))


def result(sections: Mapping[str, Any], model: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The result dict: `sections` (every key of `KEYS`, values as the helpers above make them)
    in the schema's order, then `model` (every switch) when the board asked for one."""
    if set(sections) != set(KEYS):
        raise ValueError(f"result sections {sorted(sections)} are not {list(KEYS)}")
    out = {key: sections[key] for key in KEYS}
    if model is not None:
        out[MODEL] = model
    return out


def member(key: str, value: Any) -> str:
    """`"key": value` as it stands inside `json.dumps` of a result (for streamed lines)."""
    return f"{json.dumps(key)}: {json.dumps(value)}"

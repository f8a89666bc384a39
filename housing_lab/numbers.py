"""The one number check at the public boundaries: finite, in range, whole where it must be.

NaN compares false with everything, so a `while elapsed < seconds` loop on NaN or infinity never
ends and a JSON file with `Infinity` cannot be read back; integers beyond a float overflow when a
message formats them. Every budget, timeout and count a caller gives goes through `check_number`
first, and a refusal is one line naming the argument (the value shortened by `shown`).

>>> check_number(5, "iterations", low=1, whole=True)
5
>>> check_number(float("nan"), "seconds", low=0)
Traceback (most recent call last):
...
housing_lab.errors.HousingLabError: seconds must be a finite number, got nan
"""

from __future__ import annotations

import math

from housing_lab.errors import HousingLabError, shown

MAX_WHOLE = 2**63 - 1  # the largest count any budget may hold (a 64-bit signed integer)
MAX_SEED = 2**64 - 1  # the largest seed: what the CLI, rooms and saved games take


def check_number(
    value: object,
    what: str,
    *,
    low: float | None = None,
    high: float | None = None,
    whole: bool = False,
    limit: int = MAX_WHOLE,
    error: type[HousingLabError] = HousingLabError,
) -> int | float:
    """`value` if it is a real number (not True/False, not text) that is finite, whole when
    `whole`, no larger than `limit` either way and within [`low`, `high`]; else `error`
    naming `what`."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        kind = "a whole number" if whole else "a number"
        raise error(f"{what} must be {kind}, got {type(value).__name__} {shown(value, 60)}")
    if whole and not isinstance(value, int):
        raise error(f"{what} must be a whole number, got {shown(value, 60)}")
    if isinstance(value, float) and not math.isfinite(value):
        raise error(f"{what} must be a finite number, got {shown(value, 60)}")
    if (low is not None and value < low) or (high is not None and value > high):
        if low is not None and high is not None:
            bounds = f"from {_bound(low)} to {_bound(high)}"
        else:
            bounds = f"at least {_bound(low)}" if low is not None else f"at most {_bound(high)}"
        raise error(f"{what} must be {bounds}, got {shown(value, 60)}")
    if isinstance(value, int) and abs(value) > limit:
        raise error(f"{what} must be between -{limit:,} and {limit:,}, got {shown(value, 60)}")
    return value


def _bound(number: float | None) -> str:
    """A bound as a reader writes it: 1,000,000 (not 1e+06), 0.5."""
    if isinstance(number, int) or (isinstance(number, float) and number.is_integer()):
        return f"{int(number):,}"
    return f"{number:g}"


def check_seed(
    value: object, what: str = "seed", *, error: type[HousingLabError] = HousingLabError
) -> int:
    """A seed: a whole number with |seed| <= `MAX_SEED` (not True, 1.9, "7", NaN or a
    5,000-digit number, which `random.Random` would take but no saved file could hold)."""
    return int(check_number(value, what, whole=True, limit=MAX_SEED, error=error))

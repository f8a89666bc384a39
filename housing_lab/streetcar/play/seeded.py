"""`SeededBot`: what every Streetcar bot shares, a checked seed and its own `random.Random`.

A bot draws only from its own RNG, so the same seeds always give the same game; the seed is
checked once here (`numbers.check_seed`) rather than in each bot.
"""

from __future__ import annotations

import random

from housing_lab.numbers import check_seed
from housing_lab.streetcar.errors import StreetcarError


class SeededBot:
    """A bot's seeded start: `seed` a whole number within `MAX_SEED`, or None (a fresh,
    unrepeatable game); a bad seed is a `StreetcarError` before anything else is checked."""

    def __init__(self, seed: int | None = 0) -> None:
        if seed is not None:
            check_seed(seed, error=StreetcarError)
        self.rng = random.Random(seed)

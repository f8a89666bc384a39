"""The batch evaluator's input type, and what its result needs to know of the evaluator.

Kept apart from `batch.evaluator` so that `batch.result` can name both without importing the
evaluator (which imports `batch.result`): the two share these types instead of importing each
other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from housing_lab.north_berkeley.layout import Layout
from housing_lab.north_berkeley.model import Model

Array = np.ndarray


@dataclass(frozen=True)
class Boards:
    """Many scenarios as arrays: tiles (n, squares), policies (n,), existing (n, homes), and
    the one model they carry (None: none asked for, the rulebook's; `BatchEvaluator.encode`
    sets it from the scenarios)."""

    tiles: Array
    policies: Array
    existing: Array
    model: Model | None = None

    def __post_init__(self) -> None:
        n = len(self.tiles)
        if (
            self.tiles.ndim != 2
            or self.policies.shape != (n,)
            or self.existing.ndim != 2
            or self.existing.shape[0] != n
        ):
            raise ValueError(
                f"inconsistent board arrays: tiles {self.tiles.shape}, policies "
                f"{self.policies.shape}, existing {self.existing.shape}"
            )

    def __len__(self) -> int:
        return len(self.tiles)

    def take(self, index: slice | Array) -> Boards:
        return Boards(self.tiles[index], self.policies[index], self.existing[index], self.model)


class EvaluatorFacts(Protocol):
    """What a `BatchResult` reads from the `BatchEvaluator` that made it."""

    layout: Layout
    homes: tuple[str, ...]
    scale: int
    is_house: Array

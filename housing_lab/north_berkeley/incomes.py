"""The three incomes and the rulebook's residents of each: the vocabulary that the policies
(`policies.py`) and the model's assumptions (`model.py`) share, kept apart so that neither
imports the other's module to learn it."""

from __future__ import annotations

INCOMES = ("high", "middle", "low")
RESIDENTS_PER_INCOME = 12
# The rulebook's kit: 4 of each income start in the existing homes (layout.check_kit checks it).
EXISTING_PER_INCOME = 4

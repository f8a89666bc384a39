"""North Berkeley errors: each names the bad value, and raising one never changes a game state."""

from __future__ import annotations

from housing_lab.errors import HousingLabError


class NorthBerkeleyError(HousingLabError):
    """Base class of every North Berkeley user mistake."""


class UnknownIdError(NorthBerkeleyError):
    """An id (square, tile, policy, income, home, card, player) that does not exist."""


class ScenarioFormatError(NorthBerkeleyError):
    """A scenario or saved game whose JSON has the wrong shape."""


class AffordableOnlyError(NorthBerkeleyError):
    """A tile with market homes on a phase-2 square while `affordable_100` is enacted."""


class OverBudgetError(NorthBerkeleyError):
    """A board that spends more than the model's city budget (`model.budget`)."""


class IllegalActionError(NorthBerkeleyError):
    """A game action that the rules do not allow now (wrong phase, wrong player, ...)."""

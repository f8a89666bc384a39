"""North Berkeley errors: each names the bad value, and raising one never changes a game state.

The message is the sentence a student reads: tiles, policies and cards by their printed names
(a known id never appears in it; an unknown one is quoted as given). A program that needs the
ids reads `error.ids`, the ids of the things the sentence names, in the order it names them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from housing_lab.errors import HousingLabError, shown


class NorthBerkeleyError(HousingLabError):
    """Base class of every North Berkeley user mistake. `ids`: the ids (squares, tiles,
    policies, cards) of what the message names in words, for programs (empty when it names
    none)."""

    def __init__(self, message: object = "", *args: object, ids: Iterable[str] = ()) -> None:
        super().__init__(message, *args)
        self.ids: tuple[str, ...] = tuple(ids)


class UnknownIdError(NorthBerkeleyError):
    """An id (square, tile, policy, income, home, card, player) that does not exist."""


class ScenarioFormatError(NorthBerkeleyError):
    """A scenario or saved game whose JSON has the wrong shape."""


class AffordableOnlyError(NorthBerkeleyError):
    """A tile with market homes on a phase-2 square while `affordable_100` is enacted."""


class OverBudgetError(NorthBerkeleyError):
    """A board that spends more than the model's city budget (`Model.city_budget`)."""


class IllegalActionError(NorthBerkeleyError):
    """A game action that the rules do not allow now (wrong phase, wrong player, ...)."""


def checked_object(
    data: object,
    known: Sequence[str],
    not_object: str,
    unknown: str,
    unknown_error: type[NorthBerkeleyError] = ScenarioFormatError,
    kind: type = Mapping,
) -> Mapping[str, Any]:
    """`data` if it is an object (`kind`) whose keys are all `known`; else one line:
    "`not_object`, got VALUE" (`ScenarioFormatError`) or "`unknown` KEY (known: ...)"."""
    if not isinstance(data, kind):
        raise ScenarioFormatError(f"{not_object}, got {shown(data)}")
    for key in data:
        if key not in known:
            raise unknown_error(f"{unknown} {shown(key)} (known: {', '.join(known)})")
    return data

"""Streetcar's user-mistake errors, all `HousingLabError`s so the CLI and widgets show one line."""

from __future__ import annotations

from housing_lab.errors import HousingLabError


class StreetcarError(HousingLabError):
    """Any Streetcar mistake: a bad board, position, option, move or record."""


class BoardError(StreetcarError):
    """A board or coordinate that is not a valid Streetcar board, hex, edge or intersection."""


class IllegalMoveError(StreetcarError):
    """A move that breaks a rule; the game state is left unchanged.

    `rule` is a short stable id (e.g. ``"edge-touches-other-colour"``) so tests and widgets can
    react to the kind of mistake without parsing the message.
    """

    def __init__(self, message: str, *, rule: str, turn: int, reason: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.turn = turn
        self.reason = reason


class RecordError(StreetcarError):
    """A game record that cannot be read or does not replay; names the turn when there is one."""

    def __init__(self, message: str, *, turn: int | None = None) -> None:
        super().__init__(message)
        self.turn = turn

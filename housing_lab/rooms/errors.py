"""Room errors: each is a `HousingLabError`, so the CLI and pages show it as one line."""

from __future__ import annotations

from housing_lab.errors import HousingLabError


class RoomError(HousingLabError):
    """Any room mistake: a bad store URL, team list, option or action."""


class AccessDenied(RoomError):
    """A missing or wrong token, or a room that does not exist (worded the same on purpose:
    a guessed room code tells nothing about which rooms exist)."""


class ActionRefused(RoomError):
    """An action the holder of this token may not play now; the message is the rule broken
    (the engine's own message when the engine refused it)."""

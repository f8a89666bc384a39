"""The game table's arguments checked at the door: one `HousingLabError` line naming the bad
value, before anything changes (a lesson's typo must not end in a TypeError halfway through).

Rules are not checked here (the engine does that); only that each value has the type the
method takes, so the engine's own checks see text where they expect text.
"""

from __future__ import annotations

import os
import pathlib
from collections.abc import Mapping, Sequence
from typing import Any

from housing_lab.errors import shown
from housing_lab.north_berkeley.errors import ScenarioFormatError
from housing_lab.north_berkeley.play.game import check_minutes
from housing_lab.north_berkeley.play.state import check_seed
from housing_lab.north_berkeley.policies import RuleOptions
from housing_lab.team_names import check_name

__all__ = [
    "check_flag",
    "check_minutes",
    "check_optional_text",
    "check_options",
    "check_path",
    "check_seed",
    "check_text",
    "check_texts",
]


def _refuse(what: str, wanted: str, value: object) -> ScenarioFormatError:
    return ScenarioFormatError(
        f"{what} must be {wanted}, got {type(value).__name__} {shown(value)}"
    )


def check_text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise _refuse(what, "text", value)
    return value


def check_optional_text(value: object, what: str) -> str | None:
    return None if value is None else check_text(value, what)


def check_texts(value: object, what: str) -> list[str]:
    """A list or tuple of names or ids (a plain string is refused, not split into letters)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise _refuse(what, "a list of names", value)
    for item in value:
        if not isinstance(item, str):
            raise _refuse(f"every item of {what}", "text", item)
    return list(value)


def check_flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise _refuse(what, "True or False", value)
    return value


def check_options(options: object) -> RuleOptions:
    """Rules as the engine takes them: RuleOptions, a dict of them (the browser), or None."""
    if options is None:
        return RuleOptions()
    if isinstance(options, RuleOptions):
        return options
    if not isinstance(options, Mapping):
        raise _refuse("options", "RuleOptions or a dict of rule options", options)
    try:
        return RuleOptions.from_dict(dict(options))
    except TypeError:  # a key that is not text
        raise _refuse("every rule option's name", "text", options) from None


def check_path(path: object, what: str) -> pathlib.Path:
    """A file or folder path (text or a path object, no NUL byte)."""
    if not isinstance(path, (str, os.PathLike)):
        raise _refuse(what, "a file path", path)
    text = os.fspath(path)
    if not isinstance(text, str) or not text or "\0" in text:
        raise ScenarioFormatError(f"{what} is not a usable path: {shown(text)}")
    return pathlib.Path(text)


def check_team_names(teams: object) -> list[str]:
    """Team names as a class reads them (`team_names.check_name`: printable, 1 to 40
    characters); the engine then checks their number and that none is used twice."""
    names = check_texts(teams, "teams")
    for name in names:
        check_name(name, error=ScenarioFormatError)
    return names


def checked_setup(teams: Any, seed: Any, options: Any, hidden_hands: Any) -> tuple[Any, ...]:
    """The four setup arguments of `GameTable` and `start`, checked in order."""
    return (
        check_team_names(teams),
        check_seed(seed),
        check_options(options),
        check_flag(hidden_hands, "hidden_hands"),
    )

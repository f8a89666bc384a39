"""The one check of a team or player name, shared by the engine's `Game`, the game table and
classroom rooms: a class reads the name on a projector's narrow column and in every message,
so it is printable text of 1 to `MAX_NAME` characters (surrounding spaces dropped).

>>> check_name("  Red team ")
'Red team'
>>> check_name("Red" + chr(10) + "team")
Traceback (most recent call last):
...
housing_lab.errors.HousingLabError: a team name is 1 to 40 printable characters, got 'Red\\nteam'
"""

from __future__ import annotations

from housing_lab.errors import HousingLabError, shown

MAX_NAME = 40  # characters: what fits a team's column on the projector
SHOWN = 60  # characters of a bad name shown in a message


def check_name(
    value: object, what: str = "a team name", *, error: type[HousingLabError] = HousingLabError
) -> str:
    """`value` without surrounding spaces if it is printable text of 1 to `MAX_NAME`
    characters; else `error` naming `what` (the bad value shortened)."""
    if not isinstance(value, str):
        raise error(f"{what} must be text, got {type(value).__name__} {shown(value, SHOWN)}")
    name = value.strip()
    if not name or len(name) > MAX_NAME or not name.isprintable():
        raise error(f"{what} is 1 to {MAX_NAME} printable characters, got {shown(value, SHOWN)}")
    return name

"""The one check of a team or player name, shared by the engine's `Game`, the game table and
classroom rooms: a class reads the name on a projector's narrow column and in every message,
so it is printable text of 1 to `MAX_NAME` characters (surrounding spaces dropped). The one
invisible character allowed is the zero-width joiner (U+200D) inside an emoji sequence (a
family emoji is three or four emoji joined by it), never next to a letter, where "Red" and
"Red" with a joiner inside would look alike.

>>> check_name("  Red team ")
'Red team'
>>> check_name("Red" + chr(10) + "team")
Traceback (most recent call last):
...
housing_lab.errors.HousingLabError: a team name is 1 to 40 printable characters, got 'Red\\nteam'
"""

from __future__ import annotations

import itertools
import unicodedata

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
    if not name or len(name) > MAX_NAME or not _printable(name):
        raise error(f"{what} is 1 to {MAX_NAME} printable characters, got {shown(value, SHOWN)}")
    return name


ZWJ = "\u200d"  # the zero-width joiner of emoji sequences
_EMOJI_PARTS = ("So", "Sk", "Mn")  # emoji, skin-tone modifiers, the emoji variation selector


def _printable(name: str) -> bool:
    """Printable, a zero-width joiner allowed only between two parts of an emoji sequence."""
    if ZWJ not in name:
        return name.isprintable()
    parts = name.split(ZWJ)
    joined = all(
        before
        and after
        and unicodedata.category(before[-1]) in _EMOJI_PARTS
        and unicodedata.category(after[0]) == "So"
        for before, after in itertools.pairwise(parts)
    )
    return joined and all(part.isprintable() for part in parts)

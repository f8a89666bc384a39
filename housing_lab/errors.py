"""The one error base class every user-facing mistake derives from, and how to word its message.

The CLI and the widgets catch `HousingLabError` and show its message as one line; anything else
is a bug and keeps its traceback. A message names the bad value, so the helpers here keep any
shown value short (`shown`), quote paths (`quote_path`) and fold a message onto one line
(`one_line`): a 100 MB string or a file name with a newline must not flood the terminal.
"""

from __future__ import annotations

import difflib
import reprlib
import unicodedata
from collections.abc import Iterable
from os import PathLike

MAX_SHOWN = 200  # characters of a bad value shown in a message
MAX_MESSAGE = 1000  # characters of a whole message line


class HousingLabError(ValueError):
    """A user mistake (bad input, illegal action): the message names the bad value.

    The message is always one line (`one_line`), whatever text went into it: a damaged file's
    schema or a library's own multi-line error must not break the one-line contract."""

    def __init__(self, message: object = "", *args: object) -> None:
        super().__init__(one_line(message) if isinstance(message, str) else message, *args)


class WriteError(HousingLabError):
    """An output file or folder that cannot be written (the message says "cannot write")."""


class _ShortRepr(reprlib.Repr):
    """`reprlib.Repr` that also survives integers too long for `repr` (over 4,300 digits)."""

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 4000:  # about 1,200 digits: never worth printing
            return f"<an integer of {x.bit_length()} bits>"
        return super().repr_int(x, level)


_REPR = _ShortRepr()
_REPR.maxstring = MAX_SHOWN
_REPR.maxother = MAX_SHOWN
_REPR.maxlong = 40
_REPR.maxlevel = 3


def shown(value: object, limit: int = MAX_SHOWN) -> str:
    """`repr(value)` cut to at most `limit` characters (always one line)."""
    text = one_line(_REPR.repr(value), limit=None)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def quote_path(path: str | PathLike[str]) -> str:
    """A path as it should appear in a message: quoted, escaped, shortened."""
    return shown(str(path) if isinstance(path, PathLike) else path)


def shown_id(value: object) -> str:
    """An id as a message shows it. Ids are ASCII: one with another character (a Cyrillic
    "а" prints exactly like a Latin "a") also names that character, so the difference shows:
    'pаrk', whose 'а' is U+0430 CYRILLIC SMALL LETTER A, not ASCII."""
    text = shown(value)
    if not isinstance(value, str) or value.isascii():
        return text
    odd = next(char for char in value if not char.isascii())
    name = unicodedata.name(odd, "a character without a name")
    return f"{text}, whose {shown(odd)} is U+{ord(odd):04X} {name}, not ASCII"


def unknown_key(key: object, known: Iterable[str], what: str = "key") -> str:
    """The message for a key no reader knows (a misspelling would otherwise be silently
    ignored): "unknown key 'penatly' (did you mean 'penalty'? known: board, ...)"."""
    names = sorted(known)
    close = difflib.get_close_matches(key, names, n=1) if isinstance(key, str) else []
    hint = f"did you mean {shown(close[0])}? " if close else ""
    return f"unknown {what} {shown_id(key)} ({hint}known: {', '.join(names)})"


def one_line(message: str, limit: int | None = MAX_MESSAGE) -> str:
    """`message` with line breaks escaped, cut to `limit` characters."""
    text = "".join(
        char if char.isprintable() or char == " " else repr(char)[1:-1] for char in message
    )
    if limit is not None and len(text) > limit:
        text = text[: limit - 3] + "..."
    return text

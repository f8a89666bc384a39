"""Reading JSON documents from users: one set of limits for every loader (see docs/loaders.md).

`json.loads` alone accepts things a user never means (NaN, Infinity, duplicate keys where the
last one silently wins) and fails badly on others (a traceback for deep nesting or an integer
over 4,300 digits, any bytes decoded with the wrong codec). Every function here either returns
plain JSON values or raises `JsonInputError`, one line that names the source and the problem.
"""

from __future__ import annotations

import io
import json
import os
import re
import sys
import time
from collections.abc import Iterator
from typing import IO, Any

from housing_lab.errors import HousingLabError, quote_path, shown
from housing_lab.outputs import PIPE, not_a_file

MAX_DEPTH = 32  # nesting of arrays and objects; scenarios and records need 4
MAX_DOCUMENT_BYTES = 64 * 1024 * 1024  # a whole file or stdin read as one document
MAX_LINE_BYTES = 1024 * 1024  # one line of a JSON Lines stream
MAX_INTEGER_DIGITS = 100  # no value in any document needs more
BOM = "\ufeff"  # the byte-order mark Windows editors put before UTF-8 text

_BRACKETS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


class JsonInputError(HousingLabError):
    """A document that is not UTF-8 JSON within the limits of this module."""


def _refuse_constant(name: str) -> Any:
    raise JsonInputError(f"{name} is not a JSON number")


def _checked_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INTEGER_DIGITS:
        raise JsonInputError(
            f"an integer of {digits} digits is too long (at most {MAX_INTEGER_DIGITS})"
        )
    return int(text)


def _checked_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise JsonInputError(f"the number {shown(text, 60)} is too large")
    return value


def _unique_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise JsonInputError(f"key {shown(key)} appears twice in one object")
            seen.add(key)
    return result


_DECODER = json.JSONDecoder(
    object_pairs_hook=_unique_object,
    parse_constant=_refuse_constant,
    parse_int=_checked_int,
    parse_float=_checked_float,
)


def _check_depth(text: str) -> None:
    """Refuse nesting deeper than MAX_DEPTH before the parser recurses into it."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return  # the common case: too few brackets to nest that deep
    depth = 0
    for match in _BRACKETS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise JsonInputError(f"nested deeper than {MAX_DEPTH} arrays or objects")
        elif token in "]}":
            depth -= 1


def loads(text: str | bytes, source: str = "JSON") -> Any:
    """Parse one document; `source` (e.g. "line 3" or a quoted path) starts the error message
    (nothing does when it is empty)."""
    at = f"{source}: " if source else ""
    try:
        # a byte-order mark (Windows Notepad's UTF-8) is not part of the document
        text = text.decode("utf-8-sig") if isinstance(text, bytes) else text.removeprefix(BOM)
        _check_depth(text)
        return _DECODER.decode(text)
    except UnicodeDecodeError as error:
        raise JsonInputError(
            f"{at}not UTF-8 text (byte {error.start}: {error.object[error.start]:#04x})"
        ) from None
    except json.JSONDecodeError as error:
        raise JsonInputError(
            f"{at}malformed JSON: {error.msg} (line {error.lineno} column {error.colno})"
        ) from None
    except JsonInputError as error:
        raise JsonInputError(f"{at}{error}") from None
    except (RecursionError, ValueError) as error:  # deep nesting past the scan, int limits
        raise JsonInputError(f"{at}unreadable JSON: {shown(str(error), 120)}") from None


def open_bytes(
    path: str | os.PathLike[str], error: type[HousingLabError] = JsonInputError
) -> IO[bytes]:
    """`path` opened for reading bytes (the caller closes it); a file that cannot be opened,
    or a name no file system allows (a NUL byte), is one `error` line naming it.

    A device (/dev/zero, a terminal) is refused, and so is a named pipe (FIFO) that nothing
    writes to: opening one would wait for ever. A pipe with a writer (`<(command)`, a FIFO
    being written) is read as it comes."""
    kind = not_a_file(path)
    if kind is not None and kind != PIPE:
        raise error(f"cannot read {quote_path(path)}: it is {kind}, not a file")
    try:
        if kind == PIPE:
            return _open_pipe(path, error)
        return open(path, "rb")
    except HousingLabError:  # a ValueError too, but not a bad file name
        raise
    except OSError as failure:
        raise error(f"cannot read {quote_path(path)}: {failure.strerror}") from None
    except ValueError:
        raise error(f"cannot read {quote_path(path)}: not a file name") from None


PIPE_WRITER_GRACE_S = 0.5  # how long a pipe may show no writer before it counts as having none


def _open_pipe(path: str | os.PathLike[str], error: type[HousingLabError]) -> IO[bytes]:
    """A pipe opened without waiting: its first byte read at once tells a writer (a byte, or
    "nothing yet") from none (end of file), and is given back before the rest."""
    handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    # A writer waiting in its own open() is let in by ours, but may not have returned from it
    # yet: end of file means "no writer" only once it has stayed so for a moment.
    deadline = time.monotonic() + PIPE_WRITER_GRACE_S
    while True:
        try:
            first = os.read(handle, 1)
        except BlockingIOError:
            first = None  # a writer that has not written yet
        except OSError:
            os.close(handle)
            raise
        if first != b"" or time.monotonic() >= deadline:
            break
        time.sleep(0.01)
    if first == b"":
        os.close(handle)
        raise error(f"cannot read {quote_path(path)}: it is {PIPE} that nothing writes to")
    os.set_blocking(handle, True)
    return io.BufferedReader(_Prefixed(first or b"", io.FileIO(handle, "rb")))


class _Prefixed(io.RawIOBase):
    """A raw stream that gives `prefix` before the bytes of `rest`."""

    def __init__(self, prefix: bytes, rest: io.FileIO) -> None:
        self.prefix, self.rest = prefix, rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.prefix:
            size = min(len(buffer), len(self.prefix))
            buffer[:size] = self.prefix[:size]
            self.prefix = self.prefix[size:]
            return size
        return self.rest.readinto(buffer) or 0

    def close(self) -> None:
        self.rest.close()
        super().close()


def read_bytes(path: str | os.PathLike[str], limit: int = MAX_DOCUMENT_BYTES) -> bytes:
    """The bytes of a file (or stdin for "-"), refusing more than `limit` bytes."""
    if str(path) == "-":
        stream = stdin_bytes()
        data = stream.read(limit + 1)
    else:
        with open_bytes(path) as handle:
            try:
                data = handle.read(limit + 1)
            except OSError as error:
                raise JsonInputError(f"cannot read {quote_path(path)}: {error.strerror}") from None
    if len(data) > limit:
        raise JsonInputError(f"{_name(path)} is larger than {limit} bytes")
    return data


def read_text(path: str | os.PathLike[str], limit: int = MAX_DOCUMENT_BYTES) -> str:
    """A UTF-8 text file (or stdin for "-"), with or without a byte-order mark; other
    encodings are refused, not guessed."""
    data = read_bytes(path, limit)
    try:
        return data.decode("utf-8-sig")  # a byte-order mark first is dropped
    except UnicodeDecodeError as error:
        raise JsonInputError(
            f"{_name(path)} is not UTF-8 text (byte {error.start}: {data[error.start]:#04x})"
        ) from None


def load_path(path: str | os.PathLike[str], limit: int = MAX_DOCUMENT_BYTES) -> Any:
    """One JSON document from a file (or stdin for "-")."""
    return loads(read_bytes(path, limit), source=_name(path))


def stdin_bytes() -> IO[bytes]:
    """Standard input as bytes; a closed stdin is a clear error, not an AttributeError."""
    stream = sys.stdin
    if stream is None or stream.closed:
        raise JsonInputError("cannot read stdin: it is closed")
    if hasattr(stream, "buffer"):
        return stream.buffer
    return io.BytesIO(stream.read().encode("utf-8"))  # a text-only stand-in (tests, notebooks)


def physical_lines(
    stream: IO[bytes], limit: int = MAX_LINE_BYTES, first_number: int = 1
) -> Iterator[tuple[int, bytes]]:
    """(line number, line) of a byte stream, refusing a line longer than `limit` bytes before
    reading it whole."""
    number = first_number
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if len(line) > limit and not line.endswith(b"\n"):
            raise JsonInputError(f"line {number}: longer than {limit} bytes")
        yield number, line
        number += 1


def _name(path: str | os.PathLike[str]) -> str:
    return "stdin" if str(path) == "-" else quote_path(path)


def documents(stream: IO[bytes]) -> Iterator[tuple[int | None, Any]]:
    """One JSON document, or JSON Lines (one document per non-blank line), read as it comes.

    Yields (physical line number, document) for JSON Lines and (None, document) for a lone
    document, which may span lines; at most MAX_DOCUMENT_BYTES are read for one. Only a first
    line that is incomplete JSON makes the input one multi-line document."""
    lines = physical_lines(stream)
    start = next(((n, text) for n, text in lines if text.strip()), None)
    if start is None:
        raise JsonInputError("no JSON document in the input (it is empty)")
    number, line = start
    try:
        first = loads(line, source=f"line {number}")
    except JsonInputError:
        if not _incomplete(line):
            raise
        rest = stream.read(MAX_DOCUMENT_BYTES + 1)
        whole = b"\n" * (number - 1) + line + rest
        if len(whole) > MAX_DOCUMENT_BYTES:
            raise JsonInputError(
                f"the document is larger than {MAX_DOCUMENT_BYTES} bytes"
            ) from None
        yield None, loads(whole, source="")
        return
    try:
        following = next(((n, text) for n, text in lines if text.strip()), None)
    except JsonInputError:  # a second line too long to read: JSON Lines, its error after line 1
        yield number, first
        raise
    if following is None:
        yield None, first
        return
    yield number, first
    yield following[0], loads(following[1], source=f"line {following[0]}")
    for number, line in lines:
        if line.strip():
            yield number, loads(line, source=f"line {number}")


def _incomplete(line: bytes) -> bool:
    """Whether a line is the start of a longer document (plain syntax error), as opposed to
    complete JSON this module refuses (duplicate keys, NaN, ...)."""
    try:
        json.loads(line)
    except json.JSONDecodeError as error:
        return not error.msg.startswith("Extra data")
    except (ValueError, RecursionError):
        return False
    return False

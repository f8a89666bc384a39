"""Argument types shared by the sub-commands: each refuses a bad value with one line naming it;
and `command_group`, the one way a group of sub-commands is added.

argparse turns the `ArgumentTypeError` into "argument --seed: ..." on one stderr line, exit 2.
Bounds keep every command's memory and time sane (no 10**20 players, no 10**300 weights).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from pathlib import Path

from housing_lab.errors import shown
from housing_lab.numbers import MAX_SEED

MAX_TEXT = 10_000  # characters of one argument: ids and names are short
MAX_WEIGHT = 1000  # |weight|: totals stay exact enough for solver and scalar engine to agree
WEIGHT_DECIMALS = 6  # and no weight finer than the solver's rounding (1e-9) can tell apart


def command_group(
    groups: argparse._SubParsersAction, name: str, **kwargs: str
) -> argparse._SubParsersAction:
    """The `housing-lab NAME` group (`help=`, `description=` as argparse takes them) and its
    sub-commands, one of which must be given: a bare `housing-lab NAME` is a usage error."""
    parser = groups.add_parser(name, **kwargs)
    return parser.add_subparsers(dest="command", required=True)


def _whole(text: str, what: str) -> int:
    stripped = text.strip()
    if len(stripped) > 30 or not stripped.lstrip("+-").isdigit() or not stripped.isascii():
        raise argparse.ArgumentTypeError(f"{what} must be a whole number, got {shown(text)}")
    return int(stripped)


def seed(text: str) -> int:
    """A seed: a whole number from 0 to 2**64 - 1."""
    value = _whole(text, "a seed")
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(
            f"a seed must be between 0 and 2**64 - 1, got {shown(text)}"
        )
    return value


def count(low: int, high: int, what: str = "a count") -> Callable[[str], int]:
    """An argument type for a whole number from `low` to `high`."""

    def parse(text: str) -> int:
        value = _whole(text, what)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"{what} must be at least {low} and at most {high}, got {shown(text)}"
            )
        return value

    parse.__name__ = what  # argparse names the type in some messages
    return parse


def port(value: str) -> int:
    """A TCP port to serve on: a whole number from 1 to 65535 (a larger one is no port, and
    the server would print an address it does not serve)."""
    return count(1, 65535, "a port")(value)


def text(value: str) -> str:
    """Any short text (ids, lists of ids, names)."""
    if len(value) > MAX_TEXT:
        raise argparse.ArgumentTypeError(
            f"at most {MAX_TEXT} characters, got {len(value)}: {shown(value)}"
        )
    return value


def items(value: str | None) -> list[str]:
    """A comma-separated list, blanks dropped."""
    return [] if value is None else [item.strip() for item in value.split(",") if item.strip()]


def weight(item: str) -> int | float:
    """One weight: finite, at most MAX_WEIGHT in size and WEIGHT_DECIMALS decimal places;
    whole numbers stay ints (the solver's exact integer path)."""
    try:
        number = Decimal(item) if len(item) <= 40 else None
    except InvalidOperation:
        number = None
    if number is None or not number.is_finite():
        raise argparse.ArgumentTypeError(f"a weight must be a number, got {shown(item)}")
    if abs(number) > MAX_WEIGHT:
        raise argparse.ArgumentTypeError(
            f"a weight must be between -{MAX_WEIGHT} and {MAX_WEIGHT}, got {shown(item)}"
        )
    if number != number.quantize(Decimal(1).scaleb(-WEIGHT_DECIMALS)):
        raise argparse.ArgumentTypeError(
            f"a weight has at most {WEIGHT_DECIMALS} decimal places, got {shown(item)}"
        )
    return (
        int(number) if number == number.to_integral_value() and "." not in item else float(number)
    )


def existing_folder(value: str) -> Path:
    """A folder that exists (a missing one is a mistake, not "use the default")."""
    path = Path(text(value))
    if not path.is_dir():
        reason = "is not a folder" if path.exists() else "does not exist"
        raise argparse.ArgumentTypeError(f"folder {shown(value)} {reason}")
    return path

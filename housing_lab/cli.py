"""The `housing-lab` command: one entry point, one sub-command group per game.

Each group lives in `housing_lab/commands/<game>.py` and exposes `register(subparsers)`, which adds
its parser and sets `func` on it. Every user mistake is a `HousingLabError` (or a bad file):
it becomes one line on stderr and exit status 2, with nothing on stdout.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from housing_lab.errors import HousingLabError

EXIT_USAGE = 2


class _ArgumentParser(argparse.ArgumentParser):
    """argparse prints a usage block on errors; we want the one-line contract instead."""

    def error(self, message: str) -> None:  # type: ignore[override]
        print(f"housing-lab: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    from housing_lab.commands import lessons, north_berkeley, streetcar

    parser = _ArgumentParser(
        prog="housing-lab",
        description="Housing-policy board games as engines, widgets and lessons.",
    )
    groups = parser.add_subparsers(dest="group", required=True, parser_class=_ArgumentParser)
    lessons.register(groups)
    north_berkeley.register(groups)
    streetcar.register(groups)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except HousingLabError as error:
        print(f"housing-lab: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as error:
        name = getattr(error, "filename", None) or ""
        reason = error.strerror or str(error)
        print(f"housing-lab: error: cannot read {name!s}: {reason}".rstrip(": "), file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    raise SystemExit(main())

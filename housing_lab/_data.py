"""Reading the package's TOML data files (layouts, catalogues) with a clear error on bad files."""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised only on Python 3.10
    import tomli as tomllib

from housing_lab.errors import MAX_SHOWN, HousingLabError, one_line, quote_path
from housing_lab.jsonio import JsonInputError, read_text

MAX_TOML_BYTES = 1024 * 1024  # a layout or catalogue is a few kilobytes


class DataFileError(HousingLabError):
    """A layout or catalogue file is missing, not TOML, or has a bad value."""


def read_package_toml(package: str, name: str) -> dict[str, Any]:
    """Read `name` from the `data/` folder of `package`."""
    text = resources.files(package).joinpath("data").joinpath(name).read_text(encoding="utf-8")
    return tomllib.loads(text)


def read_toml_file(path: str | Path) -> dict[str, Any]:
    """Read a user-supplied TOML file (UTF-8, at most MAX_TOML_BYTES); any problem is a
    one-line `DataFileError`."""
    try:
        text = read_text(path, limit=MAX_TOML_BYTES)
    except JsonInputError as error:  # the reading part of jsonio knows nothing of JSON
        raise DataFileError(str(error)) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        reason = one_line(str(error), MAX_SHOWN)
        raise DataFileError(f"{quote_path(path)} is not valid TOML: {reason}") from None
    except RecursionError:
        raise DataFileError(f"{quote_path(path)} is nested too deeply") from None

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

from housing_lab.errors import HousingLabError


class DataFileError(HousingLabError):
    """A layout or catalogue file is missing, not TOML, or has a bad value."""


def read_package_toml(package: str, name: str) -> dict[str, Any]:
    """Read `name` from the `data/` folder of `package`."""
    text = resources.files(package).joinpath("data").joinpath(name).read_text(encoding="utf-8")
    return tomllib.loads(text)


def read_toml_file(path: str | Path) -> dict[str, Any]:
    """Read a user-supplied TOML file; any problem is a one-line `DataFileError`."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise DataFileError(f"cannot read {str(path)!r}: {error.strerror}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise DataFileError(f"{str(path)!r} is not valid TOML: {error}") from None

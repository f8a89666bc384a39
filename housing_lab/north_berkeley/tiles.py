"""The tile catalogue: what each building tile houses and what it costs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from housing_lab._data import DataFileError, read_package_toml, read_toml_file

HOME_TYPES = ("market", "middle", "low")
TILE_KINDS = ("tower", "midrise", "townhouse", "garage", "park")


@dataclass(frozen=True)
class Tile:
    """A building tile. `homes` lists its quadrants in printed order."""

    id: str
    name: str
    kind: str
    homes: tuple[str, ...]
    cost: Fraction
    # read for every tile of every palette: plain values, worked out once from `homes`;
    # `affordable_only`: the tile may stand on a phase-2 square under `affordable_100`
    is_housing: bool = field(init=False, repr=False)
    affordable_only: bool = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "is_housing", bool(self.homes))
        object.__setattr__(self, "affordable_only", "market" not in self.homes)

    def count(self, home_type: str) -> int:
        return self.homes.count(home_type)


Catalogue = Mapping[str, Tile]


def catalogue_from_dict(data: Mapping[str, Any], source: str = "tiles") -> dict[str, Tile]:
    tiles: dict[str, Tile] = {}
    try:
        for entry in data["tile"]:
            tile = Tile(
                id=str(entry["id"]),
                name=str(entry.get("name", entry["id"])),
                kind=str(entry["kind"]),
                homes=tuple(str(h) for h in entry["homes"]),
                cost=Fraction(str(entry["cost"])),
            )
            if tile.id in tiles:
                raise DataFileError(f"{source}: tile {tile.id!r} is listed twice")
            if tile.kind not in TILE_KINDS:
                raise DataFileError(f"{source}: tile {tile.id!r} has unknown kind {tile.kind!r}")
            for home in tile.homes:
                if home not in HOME_TYPES:
                    raise DataFileError(f"{source}: tile {tile.id!r} has unknown home {home!r}")
            tiles[tile.id] = tile
    except (KeyError, TypeError, ValueError) as error:
        raise DataFileError(f"{source}: missing or malformed entry {error}") from None
    return tiles


@cache
def _default_catalogue() -> tuple[tuple[str, Tile], ...]:
    data = read_package_toml("housing_lab.north_berkeley", "tiles.toml")
    return tuple(catalogue_from_dict(data).items())


def default_catalogue() -> dict[str, Tile]:
    """The 15 printed tiles, in catalogue order (a fresh dict; Tiles themselves are immutable)."""
    return dict(_default_catalogue())


def load_catalogue(path: str | Path | None = None) -> dict[str, Tile]:
    if path is None:
        return default_catalogue()
    return catalogue_from_dict(read_toml_file(path), source=str(path))

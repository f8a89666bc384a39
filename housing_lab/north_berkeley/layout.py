"""The board: squares, their tags and phases, and the existing homes, loaded from a data file."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from housing_lab._data import DataFileError, read_package_toml, read_toml_file

HOME_KINDS = ("house", "apartment")
REQUIRED_TAGS = ("virginia", "acton", "greenway", "corner")


@dataclass(frozen=True)
class ExistingHome:
    """One existing home: a single-family house (which can take an ADU) or an apartment unit."""

    id: str
    kind: str
    street: str = ""


@dataclass(frozen=True)
class Layout:
    """An immutable board. Tuples keep layout order, which move-in uses to break ties."""

    name: str
    squares: tuple[str, ...]
    phases: Mapping[int, tuple[str, ...]]
    tags: Mapping[str, frozenset[str]]
    existing: tuple[ExistingHome, ...]

    @property
    def houses(self) -> tuple[str, ...]:
        return tuple(home.id for home in self.existing if home.kind == "house")

    @property
    def apartments(self) -> tuple[str, ...]:
        return tuple(home.id for home in self.existing if home.kind == "apartment")

    @property
    def existing_ids(self) -> tuple[str, ...]:
        return tuple(home.id for home in self.existing)

    @property
    def adu_slots(self) -> tuple[str, ...]:
        """ADU slot ids `adu-1`.. in house order: slot i belongs to the i-th house."""
        return tuple(f"adu-{i}" for i in range(1, len(self.houses) + 1))

    def phase_of(self, square: str) -> int:
        for phase, squares in self.phases.items():
            if square in squares:
                return phase
        raise DataFileError(f"square {square!r} is in no phase")  # prevented by validation

    def has_tag(self, square: str, tag: str) -> bool:
        return square in self.tags.get(tag, frozenset())


def layout_from_dict(data: Mapping[str, Any], source: str = "layout") -> Layout:
    """Build and validate a Layout; every problem names the bad value."""
    try:
        squares = tuple(str(s) for s in data["squares"])
        phases = {int(k): tuple(str(s) for s in v) for k, v in data["phases"].items()}
        tags = {str(k): frozenset(str(s) for s in v) for k, v in data["tags"].items()}
        existing = tuple(
            ExistingHome(id=str(h["id"]), kind=str(h["kind"]), street=str(h.get("street", "")))
            for h in data["existing"]
        )
    except KeyError as error:
        raise DataFileError(f"{source}: missing entry {error}") from None
    except (TypeError, ValueError, AttributeError) as error:
        raise DataFileError(f"{source}: malformed entry: {error}") from None
    if len(set(squares)) != len(squares):
        raise DataFileError(f"{source}: a square is listed twice in {list(squares)}")
    if sorted(phases) != [1, 2]:
        raise DataFileError(f"{source}: phases must be 1 and 2, got {sorted(phases)}")
    phased = [s for p in (1, 2) for s in phases[p]]
    if sorted(phased) != sorted(squares):
        raise DataFileError(f"{source}: phases {phased} must cover every square exactly once")
    for tag in REQUIRED_TAGS:
        if tag not in tags:
            raise DataFileError(f"{source}: tag {tag!r} is missing")
    for tag, members in tags.items():
        for square in members - set(squares):
            raise DataFileError(f"{source}: tag {tag!r} names unknown square {square!r}")
    ids = [home.id for home in existing]
    if len(set(ids)) != len(ids):
        raise DataFileError(f"{source}: an existing home id is listed twice in {ids}")
    for home in existing:
        if home.kind not in HOME_KINDS:
            raise DataFileError(f"{source}: home {home.id!r} has unknown kind {home.kind!r}")
    return Layout(
        name=str(data.get("name", source)),
        squares=squares,
        phases=phases,
        tags=tags,
        existing=existing,
    )


@cache
def default_layout() -> Layout:
    return layout_from_dict(read_package_toml("housing_lab.north_berkeley", "layout.toml"))


def load_layout(path: str | Path | None = None) -> Layout:
    """The default board, or a teacher's own layout file (same format as `data/layout.toml`)."""
    if path is None:
        return default_layout()
    return layout_from_dict(read_toml_file(path), source=str(path))

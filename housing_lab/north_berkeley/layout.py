"""The board: squares, their tags and phases, and the existing homes, loaded from a data file."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any

from housing_lab._data import DataFileError, read_package_toml, read_toml_file
from housing_lab.errors import MAX_SHOWN, one_line, shown
from housing_lab.north_berkeley.policies import EXISTING_PER_INCOME, INCOMES, RESIDENTS_PER_INCOME

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

    def __post_init__(self) -> None:
        """Read-only views of private copies: `default_layout()` is shared by every board."""
        phases = {phase: tuple(squares) for phase, squares in self.phases.items()}
        tags = {tag: frozenset(members) for tag, members in self.tags.items()}
        object.__setattr__(self, "phases", MappingProxyType(phases))
        object.__setattr__(self, "tags", MappingProxyType(tags))
        object.__setattr__(self, "squares", tuple(self.squares))
        object.__setattr__(self, "existing", tuple(self.existing))

    def __reduce__(self) -> tuple[Any, ...]:
        """Copies and pickles rebuild the layout from plain values."""
        plain = (dict(self.phases), dict(self.tags), self.existing)
        return (Layout, (self.name, self.squares, *plain))

    @cached_property
    def houses(self) -> tuple[str, ...]:
        return tuple(home.id for home in self.existing if home.kind == "house")

    @cached_property
    def apartments(self) -> tuple[str, ...]:
        return tuple(home.id for home in self.existing if home.kind == "apartment")

    @cached_property
    def existing_ids(self) -> tuple[str, ...]:
        return tuple(home.id for home in self.existing)

    @cached_property
    def adu_slots(self) -> tuple[str, ...]:
        """ADU slot ids `adu-1`.. in house order: slot i belongs to the i-th house."""
        return tuple(f"adu-{i}" for i in range(1, len(self.houses) + 1))

    @cached_property
    def phase_of_square(self) -> Mapping[str, int]:
        """Square -> its phase (validation puts every square in exactly one). A table, not a
        method: the rules read it for every tile of every palette at every click."""
        return MappingProxyType(
            {square: phase for phase, squares in self.phases.items() for square in squares}
        )

    @cached_property
    def tags_of_square(self) -> Mapping[str, frozenset[str]]:
        """Square -> its tags (street, corner, greenway, ...), in the layout's tag order."""
        return MappingProxyType(
            {
                square: frozenset(tag for tag, members in self.tags.items() if square in members)
                for square in self.squares
            }
        )


def _strings(value: object, what: str, source: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) and item for item in value):
        raise DataFileError(f"{source}: {what} must be a list of names, got {shown(value)}")
    return tuple(value)


def _table(value: object, what: str, source: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise DataFileError(f"{source}: {what} must be a table, got {shown(value)}")
    return value


def _home(entry: object, source: str) -> ExistingHome:
    home = _table(entry, "an existing home", source)
    for key in ("id", "kind", "street"):
        if key in home and not isinstance(home[key], str):
            raise DataFileError(f"{source}: home {key} must be text, got {shown(home[key])}")
    return ExistingHome(id=home["id"], kind=home["kind"], street=home.get("street", ""))


def _phases(value: object, source: str) -> dict[int, tuple[str, ...]]:
    table = _table(value, "phases", source)
    if sorted(str(key) for key in table) != ["1", "2"]:
        raise DataFileError(f"{source}: phases must be 1 and 2, got {shown(list(table))}")
    return {int(key): _strings(squares, f"phase {key}", source) for key, squares in table.items()}


def layout_from_dict(data: Mapping[str, Any], source: str = "layout") -> Layout:
    """Build and validate a Layout; every problem names the bad value.

    This checks the board's shape only; `check_kit` also holds it to the rulebook's pieces."""
    source = one_line(source, limit=MAX_SHOWN)
    try:
        squares = _strings(data["squares"], "squares", source)
        phases = _phases(data["phases"], source)
        tags = {
            str(tag): frozenset(_strings(members, f"tag {tag!r}", source))
            for tag, members in _table(data["tags"], "tags", source).items()
        }
        existing_list = data["existing"]
        if not isinstance(existing_list, list):
            raise DataFileError(
                f"{source}: existing must be a list of homes, got {shown(existing_list)}"
            )
        existing = tuple(_home(entry, source) for entry in existing_list)
    except KeyError as error:
        raise DataFileError(f"{source}: missing entry {error}") from None
    name = data.get("name", source)
    if not isinstance(name, str):
        raise DataFileError(f"{source}: name must be text, got {shown(name)}")
    if len(set(squares)) != len(squares):
        raise DataFileError(f"{source}: a square is listed twice in {shown(list(squares))}")
    phased = [s for p in (1, 2) for s in phases[p]]
    if sorted(phased) != sorted(squares):
        raise DataFileError(
            f"{source}: phases {shown(phased)} must cover every square exactly once"
        )
    for tag in REQUIRED_TAGS:
        if tag not in tags:
            raise DataFileError(f"{source}: tag {tag!r} is missing")
    for tag, members in tags.items():
        for square in sorted(members - set(squares)):
            raise DataFileError(f"{source}: tag {shown(tag)} names unknown square {shown(square)}")
    ids = [home.id for home in existing]
    if len(set(ids)) != len(ids):
        raise DataFileError(f"{source}: an existing home id is listed twice in {shown(ids)}")
    for home in existing:
        if home.kind not in HOME_KINDS:
            raise DataFileError(
                f"{source}: home {shown(home.id)} has unknown kind {shown(home.kind)}"
            )
    most = RESIDENTS_PER_INCOME * len(INCOMES)
    if not existing or len(existing) % len(INCOMES) or len(existing) > most:
        raise DataFileError(
            f"{source}: {len(existing)} existing homes cannot hold as many residents of each "
            f"of the {len(INCOMES)} incomes (a multiple of {len(INCOMES)}, at most {most})"
        )
    return Layout(name=name, squares=squares, phases=phases, tags=tags, existing=existing)


def check_kit(layout: Layout, source: str = "layout") -> Layout:
    """Refuse a board the rulebook's pieces cannot play: the kit has residents for exactly
    as many existing homes as the printed board (4 of each income in 12 homes), and the draft
    deals as many squares in each phase as the printed board has."""
    homes = EXISTING_PER_INCOME * len(INCOMES)
    if len(layout.existing) != homes:
        raise DataFileError(
            f"{one_line(source, limit=MAX_SHOWN)}: {len(layout.existing)} existing homes; the "
            f"kit has residents for {homes} ({EXISTING_PER_INCOME} of each income)"
        )
    printed = default_layout()
    for phase, squares in printed.phases.items():
        if len(layout.phases[phase]) != len(squares):
            raise DataFileError(
                f"{one_line(source, limit=MAX_SHOWN)}: phase {phase} has "
                f"{len(layout.phases[phase])} squares; the game deals {len(squares)}"
            )
    return layout


@cache
def default_layout() -> Layout:
    return layout_from_dict(read_package_toml("housing_lab.north_berkeley", "layout.toml"))


def load_layout(path: str | Path | None = None) -> Layout:
    """The default board, or a teacher's own layout file (same format as `data/layout.toml`),
    held to the rulebook's kit (`check_kit`)."""
    if path is None:
        return default_layout()
    source = shown(str(path))
    return check_kit(layout_from_dict(read_toml_file(path), source=source), source)

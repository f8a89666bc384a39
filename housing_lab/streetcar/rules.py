"""The kit (colours, players, supply) and the rule options a teacher can change.

The numbers live in `data/standard_board.json` and `data/goals.json`; this module reads them once
and exposes `Rules`, the frozen set of options a game is played with (all variants off by default).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from housing_lab.errors import shown
from housing_lab.numbers import check_number
from housing_lab.streetcar.errors import StreetcarError


def load_data(name: str) -> dict[str, Any]:
    """Read one of the package's JSON data files."""
    text = (
        resources.files("housing_lab.streetcar").joinpath("data").joinpath(name).read_text("utf-8")
    )
    return json.loads(text)


_KIT = load_data("standard_board.json")
_GOALS = load_data("goals.json")["goals"]

COLOURS: tuple[str, ...] = tuple(_KIT["colours"])
PLAYERS: tuple[str, ...] = tuple(_KIT["players"])
STANDARD_BOUNDS: dict[str, list[int]] = _KIT["bounds"]
CUBES_PER_COLOUR: int = _KIT["cubes_per_colour"]
DEFAULT_PENALTY: int = _KIT["penalty"]
MAX_PENALTY = 1_000_000  # points per line, either way: beyond any board's score
GOAL_BONUS: dict[str, int] = {name: spec["bonus"] for name, spec in _GOALS.items()}
GOAL_TEXT: dict[str, str] = {name: spec["text"] for name, spec in _GOALS.items()}

COLOUR_INDEX: dict[str, int] = {name: i for i, name in enumerate(COLOURS)}
PLAYER_INDEX: dict[str, int] = {name: i for i, name in enumerate(PLAYERS)}


@dataclass(frozen=True)
class Rules:
    """Rule options (RULES.md part 2, Variants); the defaults are the printed game.

    `penalty` is the cost of each separate line; `goals` names the development goals in play
    (keys of `data/goals.json`). Custom boards are chosen with `Board.from_hexes`.
    """

    penalty: int = DEFAULT_PENALTY
    goals: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if isinstance(self.penalty, bool) or not isinstance(self.penalty, int):
            raise StreetcarError(f"penalty must be an integer, not {shown(self.penalty, 60)}")
        check_number(
            self.penalty,
            "penalty",
            low=-MAX_PENALTY,
            high=MAX_PENALTY,
            whole=True,
            error=StreetcarError,
        )  # a score must stay a plain, printable number
        goals = _goal_names(self.goals)
        unknown = sorted(goals - GOAL_BONUS.keys())
        if unknown:
            known = ", ".join(GOAL_BONUS)
            raise StreetcarError(f"unknown development goal {shown(unknown[0])} (known: {known})")
        object.__setattr__(self, "goals", goals)

    def sorted_goals(self) -> list[str]:
        """Goals in the data file's order, for stable output."""
        return [name for name in GOAL_BONUS if name in self.goals]


def _goal_names(goals: object) -> frozenset[str]:
    """A set of goal names from any collection of strings, or a StreetcarError naming it."""
    if isinstance(goals, (str, bytes, bytearray, dict)) or not isinstance(goals, Iterable):
        raise StreetcarError(f"goals are a list of goal names, not {shown(goals)}")
    names = list(goals)
    for name in names:
        if not isinstance(name, str):
            raise StreetcarError(f"a goal is a name (a string), not {shown(name)}")
    return frozenset(names)


def colour_index(name: object) -> int:
    """The index of a house/cube colour, or a StreetcarError naming the bad value."""
    if isinstance(name, str) and name in COLOUR_INDEX:
        return COLOUR_INDEX[name]
    raise StreetcarError(f"unknown colour {shown(name)} (known: {', '.join(COLOURS)})")


def player_index(name: object) -> int:
    """The index of a player colour, or a StreetcarError naming the bad value."""
    if isinstance(name, str) and name in PLAYER_INDEX:
        return PLAYER_INDEX[name]
    raise StreetcarError(f"unknown player {shown(name)} (known: {', '.join(PLAYERS)})")

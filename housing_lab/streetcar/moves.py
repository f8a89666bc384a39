"""A Streetcar move: one whole turn, the lines drawn (2, 1 or 0 edges) and the house removed.

A move is a plain value, independent of any board: edges and hexes are coordinates, normalised
(each edge's hexes sorted, the edges sorted) so two spellings of the same turn compare equal.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from housing_lab.streetcar.board import edge_json, hex_json, parse_hex, parse_pair
from housing_lab.streetcar.errors import BoardError
from housing_lab.streetcar.hexgrid import Edge, Hex, make_edge


@dataclass(frozen=True)
class Move:
    """The lines a player draws this turn and the house they remove (None on turn 1)."""

    lines: tuple[Edge, ...] = ()
    remove: Hex | None = None

    def __init__(self, lines: Iterable[object] = (), remove: object | None = None) -> None:
        edges = tuple(sorted(make_edge(*parse_pair(edge)) for edge in lines))
        object.__setattr__(self, "lines", edges)
        object.__setattr__(self, "remove", None if remove is None else parse_hex(remove))

    def to_json(self, player: str) -> dict[str, Any]:
        """The turn as the game record writes it."""
        return {
            "player": player,
            "lines": [edge_json(edge) for edge in self.lines],
            "remove": None if self.remove is None else hex_json(self.remove),
        }

    @staticmethod
    def from_json(turn: object) -> Move:
        """A move from a record's turn object (`player` is checked by the replay)."""
        if not isinstance(turn, dict):
            raise BoardError(f"a turn is an object with player, lines and remove, not {turn!r}")
        lines = turn.get("lines", [])
        if not isinstance(lines, list):
            raise BoardError(f"lines must be a list of edges, not {lines!r}")
        return Move(lines, turn.get("remove"))

    def __str__(self) -> str:
        lines = " + ".join(str(edge_json(edge)) for edge in self.lines) or "no line"
        removal = "" if self.remove is None else f", remove {hex_json(self.remove)}"
        return f"{lines}{removal}"

"""A Streetcar move: one whole turn, the lines drawn (2, 1 or 0 edges) and the house removed.

A move is a plain value, independent of any board: edges and hexes are coordinates, normalised
(each edge's hexes sorted, the edges sorted) so two spellings of the same turn compare equal.
Its JSON-ready form, the *action* (`Game.legal_actions()` / `Game.apply`), is a record's turn
without the player: `{"lines": [[[q1, r1], [q2, r2]], ...], "remove": [q, r] | None}`.

    >>> Move([[[0, 1], [0, 0]]], [2, -1]).to_action()
    {'lines': [[[0, 0], [0, 1]]], 'remove': [2, -1]}
    >>> Move.from_action({"lines": [], "remove": None, "player": "red"}) == Move()
    True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from housing_lab.errors import shown, unknown_key
from housing_lab.streetcar.board import edge_json, hex_json, parse_hex, parse_pair
from housing_lab.streetcar.errors import BoardError
from housing_lab.streetcar.hexgrid import Edge, Hex, make_edge

ACTION_KEYS = frozenset({"lines", "remove", "player"})


@dataclass(frozen=True)
class Move:
    """The lines a player draws this turn and the house they remove (None on turn 1)."""

    lines: tuple[Edge, ...] = ()
    remove: Hex | None = None

    def __init__(self, lines: Iterable[object] = (), remove: object | None = None) -> None:
        if isinstance(lines, (str, bytes, bytearray, dict)) or not isinstance(lines, Iterable):
            raise BoardError(f"a move's lines are a list of edges, not {shown(lines)}")
        edges = tuple(sorted(make_edge(*parse_pair(edge)) for edge in lines))
        object.__setattr__(self, "lines", edges)
        object.__setattr__(self, "remove", None if remove is None else parse_hex(remove))

    def to_action(self) -> dict[str, Any]:
        """The move as a JSON-ready action: the record's turn object without `player`."""
        return {
            "lines": [edge_json(edge) for edge in self.lines],
            "remove": None if self.remove is None else hex_json(self.remove),
        }

    def to_json(self, player: str) -> dict[str, Any]:
        """The turn as the game record writes it."""
        return {"player": player, **self.to_action()}

    @staticmethod
    def from_action(action: object) -> Move:
        """A move from an action; stricter than `from_json`: `lines` is required, no other keys.

        A `player` key (a record's turn) is accepted here and checked by `Game.apply`.
        """
        if not isinstance(action, dict):
            raise BoardError(f"an action is an object with lines and remove, not {shown(action)}")
        unknown = sorted(str(key) for key in action.keys() - ACTION_KEYS)
        if unknown:
            raise BoardError(
                f"unknown action key {shown(unknown[0])} (known: lines, remove, player)"
            )
        if "lines" not in action:
            raise BoardError(f"an action needs lines (a list of edges): {shown(action)}")
        return Move.from_json(action)

    @staticmethod
    def from_json(turn: object) -> Move:
        """A move from a record's turn object (`player` is checked by the replay)."""
        if not isinstance(turn, dict):
            raise BoardError(
                f"a turn is an object with player, lines and remove, not {shown(turn)}"
            )
        unknown = [key for key in turn if key not in ACTION_KEYS]
        if unknown:  # a misspelt "remvoe" would otherwise be a move that removes nothing
            raise BoardError(unknown_key(unknown[0], sorted(ACTION_KEYS), "turn key"))
        lines = turn.get("lines", [])
        if not isinstance(lines, list):
            raise BoardError(f"lines must be a list of edges, not {shown(lines)}")
        return Move(lines, turn.get("remove"))

    def __str__(self) -> str:
        lines = " + ".join(str(edge_json(edge)) for edge in self.lines) or "no line"
        removal = "" if self.remove is None else f", remove {hex_json(self.remove)}"
        return f"{lines}{removal}"

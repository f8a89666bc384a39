"""The Streetcar board widget: SVG hex board, houses, buildings, lines and the turn's controls.

It is a view: Python fills the traits from the engine (`StreetcarLab` does that) and the JS sends
the student's clicks back as `{"action": "edge" | "house" | "pass_lines" | "cancel_lines" |
"undo" | "bot_shown", ...}` messages to `on_action`. It never decides a rule: the legal edges,
the legal second edges and the removable houses arrive as traits, so hovering needs no round
trip, and a click on anything else is explained by the engine.

Hexes are written `"q,r"` and edges `"q1,r1|q2,r2"` (the engine's sorted pair) in traits and in
the DOM (`data-hex`, `data-edge`), so tests can find them without knowing the drawing.

The turn being drawn on the board is held here too (`TurnStager`): the engine takes a whole turn
(`Move(lines, remove)`) at once, but a student does it in two steps, so the lines are checked by
the engine (`Game.lines_error`, the line half of `push`'s check) and held until the house
arrives. Staged lines are never in the engine, so a record never holds half a turn. A click on
an edge goes: this widget's message -> the lab's (or room page's) handler -> `TurnStager` here
-> the engine's answer.
"""

from __future__ import annotations

import pathlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import traitlets

from housing_lab.errors import HousingLabError
from housing_lab.streetcar import PLAYERS, Edge, Game, Hex, Move
from housing_lab.streetcar.board import parse_hex
from housing_lab.streetcar.errors import BoardError
from housing_lab.streetcar.hexgrid import make_edge
from housing_lab.widgets.common import ActionWidget, widget_esm, widget_file
from housing_lab.widgets.streetcar.places import line_refusal

HERE = pathlib.Path(__file__).parent
PHASES = ("lines", "remove", "over", "replay")


def hex_key(h: Hex) -> str:
    return f"{h[0]},{h[1]}"


def edge_key(edge: Edge) -> str:
    a, b = sorted(edge)
    return f"{hex_key(a)}|{hex_key(b)}"


def parse_hex_key(key: object) -> Hex:
    """A hex from `"q,r"` (as the DOM writes it) or from [q, r]."""
    if isinstance(key, str):
        try:
            q, r = (int(part) for part in key.split(","))
        except ValueError:
            raise BoardError(f"a hex is written 'q,r', not {key!r}") from None
        return (q, r)
    return parse_hex(key)


def parse_edge_key(key: object) -> tuple[Hex, Hex]:
    """An edge from `"q1,r1|q2,r2"` or from [[q1, r1], [q2, r2]] (not checked against a board)."""
    if isinstance(key, str):
        parts = key.split("|")
        if len(parts) != 2:
            raise BoardError(f"an edge is written 'q1,r1|q2,r2', not {key!r}")
        return parse_hex_key(parts[0]), parse_hex_key(parts[1])
    if isinstance(key, (list, tuple)) and len(key) == 2:
        return parse_hex_key(key[0]), parse_hex_key(key[1])
    raise BoardError(f"an edge is a pair of hexes [[q1, r1], [q2, r2]], not {key!r}")


def edge_keys(edges: Iterable[Edge]) -> list[str]:
    return [edge_key(edge) for edge in edges]


def position_view(game: Game) -> dict[str, Any]:
    """What the board draws of a position: houses, flipped houses, buildings, lines."""
    return {
        "houses": {hex_key(h): colour for h, colour in game.houses.items()},
        "flipped": [hex_key(h) for h in game.flipped_houses()],
        "buildings": [[hex_key(b.hex), b.colour, b.cubes] for b in game.buildings],
        "lines": {player: edge_keys(edges) for player, edges in game.lines.items()},
        "new_buildings": [hex_key(b.hex) for b in game.last_buildings()],
        "last_move": last_move_view(game),
        "line_turns": line_turns(game),
    }


def line_turns(game: Game) -> dict[str, int]:
    """The turn each drawn line was drawn on (edge -> turn number), so a screen reader can name
    every line uniquely; lines of a constructed starting position have none."""
    first = game.turn - len(game.move_stack)
    return {
        edge_key(edge): first + index
        for index, move in enumerate(game.move_stack)
        for edge in move.lines
    }


def last_move_view(game: Game) -> dict[str, Any]:
    """The last move, for the board to highlight: its player, lines and removed house."""
    move = game.peek()
    if move is None:
        return {}
    return {
        "player": PLAYERS[(len(game.move_stack) - 1) % 2],
        "lines": edge_keys(move.lines),
        "remove": None if move.remove is None else hex_key(move.remove),
    }


class StreetcarBoard(ActionWidget):
    """The board alone; `StreetcarLab` wires it to the engine and to the score panel."""

    _esm = widget_esm(HERE / "board.js")
    _css = widget_file(HERE / "board.css")

    hexes = traitlets.List().tag(sync=True)  # board hexes, "q,r", in board order
    edges = traitlets.List().tag(sync=True)  # every edge on the board, "q1,r1|q2,r2"
    houses = traitlets.Dict().tag(sync=True)  # "q,r" -> colour, houses still standing
    flipped = traitlets.List().tag(sync=True)  # houses next to a building (unremovable)
    buildings = traitlets.List().tag(sync=True)  # ["q,r", colour, cubes] in placement order
    lines = traitlets.Dict().tag(sync=True)  # player -> edges pushed to the engine
    new_buildings = traitlets.List().tag(sync=True)  # placed by the last move (animated)
    position_id = traitlets.Int(0).tag(sync=True)  # bumped on every redraw of the position

    phase = traitlets.Unicode("lines").tag(sync=True)  # one of PHASES
    player = traitlets.Unicode("purple").tag(sync=True)  # whose turn it is
    players = traitlets.Dict().tag(sync=True)  # player -> {"label", "kind": human | bot}
    prompt = traitlets.Unicode("").tag(sync=True)  # what to do now, in words
    legal_edges = traitlets.List().tag(sync=True)  # first edges the player may draw
    first_edge = traitlets.Unicode("").tag(sync=True)  # chosen first edge of this turn
    second_edges = traitlets.List().tag(sync=True)  # legal partners of first_edge
    staged = traitlets.List().tag(sync=True)  # lines chosen this turn, not pushed yet
    removable = traitlets.List().tag(sync=True)  # houses the player may remove now
    can_undo = traitlets.Bool(False).tag(sync=True)
    can_pass = traitlets.Bool(False).tag(sync=True)  # no edge legal: "no line possible"
    bot_move = traitlets.Dict().tag(sync=True)  # the bot's last move, to show after a pause
    last_move = traitlets.Dict().tag(sync=True)  # {"player", "lines", "remove"}: highlighted
    hint = traitlets.Dict().tag(sync=True)  # a suggested move to highlight ({}: none)
    names = traitlets.Dict().tag(sync=True)  # "q,r" -> place name ("E3"), places.py
    rows = traitlets.Dict().tag(sync=True)  # row letter -> [westmost, eastmost] hex "q,r"
    line_turns = traitlets.Dict().tag(sync=True)  # drawn edge -> the turn it was drawn on

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)

    def __repr__(self) -> str:  # stable for nbval: no memory address
        return f"StreetcarBoard({len(self.hexes)} hexes, {len(self.buildings)} buildings)"


@dataclass(frozen=True)
class EdgeChoice:
    """What a click on a grid line leads to: lines to draw now, or a sentence to show.

    `kind` "error" is a refusal (nothing changed); "info" means the choice changed.
    """

    lines: list[Edge] | None = None
    message: str = ""
    kind: str = "info"


class TurnStager:
    """Holds `first` (a chosen line waiting for its partner) and `staged` (lines waiting for a
    house); None when there is none."""

    def __init__(self) -> None:
        self.first: Edge | None = None
        self.staged: tuple[Edge, ...] | None = None

    def clear(self) -> None:
        """Forget the chosen and staged lines (nothing was pushed yet)."""
        self.first = None
        self.staged = None

    def choose_edge(self, game: Game, edge: tuple[Hex, Hex]) -> EdgeChoice:
        """A click on a grid line: first line, second line, deselect, or the engine's reason."""
        if self.staged is not None:
            raise HousingLabError(
                "your lines are drawn: now click a house to remove (or cancel the lines)"
            )
        first = self.first
        if first is None:
            reason = line_refusal(game, edge)
            if reason is not None:
                return EdgeChoice(message=f"Not allowed: {reason}.", kind="error")
            if game.legal_second_edges(edge):
                self.first = make_edge(*edge)
                return EdgeChoice(
                    message="First line chosen. Click a second line that touches it "
                    "(dotted), or the first one again to choose another."
                )
            return EdgeChoice(lines=[edge])  # no partner fits: the line is drawn alone
        if make_edge(*edge) == first:
            self.first = None
            return EdgeChoice(message="First line dropped: choose again.")
        reason = line_refusal(game, edge, first)
        if reason is not None:
            return EdgeChoice(
                message=f"Not allowed: {reason}. (Click the chosen line again to start over.)",
                kind="error",
            )
        return EdgeChoice(lines=[first, edge])

    def stage(self, game: Game, lines: Sequence[object]) -> Move | None:
        """Check this turn's lines with the engine and hold them; returns the move to play at
        once when no house is removed (turn 1, or a game already over), else None."""
        if self.staged is not None:
            raise HousingLabError(
                "lines are already drawn this turn: remove a house, or cancel the lines"
            )
        move = Move(lines)
        if game.turn == 1 or game.is_over():
            return move
        error = game.lines_error(move.lines)
        if error is not None:
            raise error
        self.first = None
        self.staged = move.lines
        return None

    def finish(self, hex: object) -> Move:
        """The staged lines and the house to remove, as one move (the engine checks it)."""
        if self.staged is None:
            raise HousingLabError("draw this turn's lines first, then remove a house")
        return Move(self.staged, hex)

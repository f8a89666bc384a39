"""Places on the Streetcar board in words a student can find: rows A, B, C... and a number.

The board's rows run north to south and are lettered A, B, C... (the standard board has rows
A-I); the hexes of a row are numbered 1, 2, 3... from the west. The board draws each row's
letter at both ends of the row, so "E3" is "row E, third hex from the left". Buildings are named
as the board draws them: a colour letter and the cube count ("the W3 building at E4").
Coordinates stay in the API and the JSON; these names are only for what students read.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping

from housing_lab.streetcar import PLAYERS, Board, Building, Game
from housing_lab.streetcar.hexgrid import Edge, Hex, make_edge, neighbours

COLOUR_LETTERS = {"blue": "B", "black": "K", "white": "W", "yellow": "Y"}
BOARD_EDGE = "the board's edge"


def row_letter(index: int) -> str:
    """A, B, ... Z, then AA, AB, ... for very large custom boards."""
    letters = string.ascii_uppercase
    if index < len(letters):
        return letters[index]
    return row_letter(index // len(letters) - 1) + letters[index % len(letters)]


def place_names(board: Board) -> dict[Hex, str]:
    """Every hex's name: its row's letter (north first) and its number in the row (west first)."""
    rows: dict[int, list[Hex]] = {}
    for h in board.hexes:
        rows.setdefault(h[1], []).append(h)
    names: dict[Hex, str] = {}
    for index, r in enumerate(sorted(rows)):
        for number, h in enumerate(sorted(rows[r]), start=1):
            names[h] = f"{row_letter(index)}{number}"
    return names


def row_labels(board: Board) -> dict[str, list[Hex]]:
    """Each row's letter with its westmost and eastmost hex (where the board draws the letter)."""
    rows: dict[int, list[Hex]] = {}
    for h in board.hexes:
        rows.setdefault(h[1], []).append(h)
    return {row_letter(index): [min(rows[r]), max(rows[r])] for index, r in enumerate(sorted(rows))}


def building_name(building: Building) -> str:
    """The label the board draws beside a building: "W3" (3 white cubes)."""
    return f"{COLOUR_LETTERS[building.colour]}{building.cubes}"


def _join(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def describe_lines(names: Mapping[Hex, str], lines: Iterable[Edge]) -> str:
    """Where this turn's lines are: "2 lines meeting at the corner of D2, D3 and E3"."""
    lines = list(lines)
    if not lines:
        return "no line"
    hexes = sorted({h for edge in lines for h in edge}, key=lambda h: (h[1], h[0]))
    on_board = [names[h] for h in hexes if h in names]
    rim = " on the board's edge" if len(on_board) < len(hexes) else ""
    if len(lines) == 2:
        return f"2 lines meeting at the corner of {_join(on_board)}{rim}"
    if len(lines) == 1:
        if rim:
            return f"1 line along the board's edge by {_join(on_board)}"
        return f"1 line between {_join(on_board)}"
    return f"{len(lines)} lines by {_join(on_board)}"


def buildings_next_to(game: Game, names: Mapping[Hex, str], where: Hex) -> list[str]:
    """The buildings around a hex, named as drawn ("the W3 building at E4")."""
    around = set(neighbours(where))
    return [
        f"the {building_name(b)} building at {names[b.hex]}"
        for b in game.buildings
        if b.hex in around
    ]


def describe_buildings(names: Mapping[Hex, str], buildings: Iterable[Building]) -> str:
    """ "a new W3 building at E4" / "new buildings: W3 at E4, Y1 at E5"."""
    items = [f"{building_name(b)} at {names.get(b.hex, BOARD_EDGE)}" for b in buildings]
    if not items:
        return ""
    if len(items) == 1:
        return f"a new {items[0].replace(' at ', ' building at ', 1)}"
    return f"new buildings: {_join(items)}"


def line_refusal(game: Game, edge: Edge, first: Edge | None = None) -> str | None:
    """Why the player to move may not draw `edge` (after `first`), in places a student can find
    on the board; None when they may. The engine decides (`explain_illegal_line`, its rule id
    from `lines_error`); this only says it without coordinates."""
    reason = game.explain_illegal_line(edge, first)
    if reason is None:
        return None
    edge = make_edge(*(tuple(h) for h in edge))  # type: ignore[misc]  # JSON lists too
    error = game.lines_error([edge] if first is None else [first, edge])
    rule = "" if error is None else error.rule
    names = place_names(game.board)
    where = describe_lines(names, [edge]).removeprefix("1 ")
    owner = game.edge_owner(edge)
    other = PLAYERS[1 - game.player_index].title()
    words = {
        "edge-already-drawn": f"the {where} is already drawn ({(owner or '').title()}'s)",
        "edge-touches-other-colour": (
            f"the {where} touches {other}'s line at a corner: lines of the two colours may not meet"
        ),
        "same-edge-twice": "that is the line you chose first",
        "edges-not-adjacent": (
            f"the {where} does not meet your first line: a turn's two lines share a corner"
        ),
        "game-over": "the game is over",
    }
    return words.get(rule, reason)

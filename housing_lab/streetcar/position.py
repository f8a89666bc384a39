"""Constructed positions: parse a teacher's or a test's description and check it is reachable.

`Game.from_position` uses these to set up a position without playing to it (the rulebook's
scoring example, a lesson's puzzle). The checks refuse what no game could reach, so every
position the engine holds keeps the rules' invariants.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from housing_lab.errors import shown
from housing_lab.streetcar.board import Board, edge_json, hex_json
from housing_lab.streetcar.errors import StreetcarError
from housing_lab.streetcar.rules import COLOURS, CUBES_PER_COLOUR, colour_index, player_index


def houses_from_mapping(board: Board, houses: Mapping[Any, str]) -> dict[int, int]:
    """{hex id: colour index} from {hex: colour name}, naming any bad hex or colour."""
    if not isinstance(houses, Mapping):
        raise StreetcarError(f"houses must map hexes to colours, not {shown(houses)}")
    return {board.hex_id(h): colour_index(colour) for h, colour in houses.items()}


def parse(
    board: Board,
    houses: Mapping[Any, str],
    buildings: Iterable[Sequence[object]],
    lines: Mapping[str, Iterable[object]],
    removed: Mapping[str, Mapping[str, int]],
    turn: int,
) -> dict[str, Any]:
    """The keyword arguments of `Game._reset` for a described position."""
    house_map = houses_from_mapping(board, houses)
    house_list = [house_map.get(i, -1) for i in range(len(board.hexes))]
    placed: dict[int, tuple[int, int]] = {}
    for item in buildings:
        x, colour, cubes = _parse_building(board, item)
        if house_list[x] >= 0 or x in placed:
            raise StreetcarError(f"hex {hex_json(board.hexes[x])} already holds something")
        placed[x] = (colour, cubes)
    edges: dict[int, int] = {}
    for name, drawn in lines.items():
        p = player_index(name)
        for edge in drawn:
            e = board.edge_id(edge)
            if e in edges:
                raise StreetcarError(f"edge {edge_json(board.edges[e])} is drawn twice")
            edges[e] = p
    removed_list = [[0] * len(COLOURS) for _ in range(2)]
    for name, counts in removed.items():
        for colour, count in counts.items():
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise StreetcarError(f"removed count {shown(count)} is not a whole number")
            removed_list[player_index(name)][colour_index(colour)] = count
    if isinstance(turn, bool) or not isinstance(turn, int) or turn < 1:
        raise StreetcarError(f"turn must be a positive integer, not {shown(turn)}")
    return {
        "houses": house_list,
        "buildings": placed,
        "edges": edges,
        "removed": removed_list,
        "turn": turn,
    }


def check_reachable(
    board: Board,
    house: Sequence[int],
    bcol: Sequence[int],
    edge_owner: Sequence[int],
    supply: Sequence[int],
) -> None:
    """Refuse a position no game could reach: touching colours, too many cubes, a missed build."""
    for e, p in enumerate(edge_owner):
        if p < 0:
            continue
        for v in board.edge_vertices[e]:
            for f in board.vertex_edges[v]:
                if edge_owner[f] == 1 - p:
                    raise StreetcarError(
                        f"edges {edge_json(board.edges[e])} and "
                        f"{edge_json(board.edges[f])} of two colours touch"
                    )
    for colour, left in enumerate(supply):
        if left < 0:
            raise StreetcarError(f"more than {CUBES_PER_COLOUR} {COLOURS[colour]} cubes")
    for x in range(len(board.hexes)):
        if house[x] < 0 and bcol[x] < 0:
            near = sum(1 for y in board.hex_neighbours[x] if house[y] >= 0)
            if near == 3:
                raise StreetcarError(
                    f"empty hex {hex_json(board.hexes[x])} is next to exactly 3 houses "
                    "but has no building"
                )


def _parse_building(board: Board, item: Sequence[object]) -> tuple[int, int, int]:
    if not isinstance(item, (list, tuple)) or len(item) != 4:
        raise StreetcarError(f"a building is [q, r, colour, cubes], not {shown(item)}")
    q, r, colour, cubes = item
    x = board.hex_id((q, r))
    if isinstance(cubes, bool) or not isinstance(cubes, int) or not 0 <= cubes <= 3:
        raise StreetcarError(f"a building holds 0 to 3 cubes, not {shown(cubes)}")
    return x, colour_index(colour), cubes

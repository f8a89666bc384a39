"""A board: a set of hexes plus integer tables for its edges and intersections.

Everything the rules ask of the geometry (which edges meet at an intersection, which corners a
hex has, which hexes neighbour which) is computed here once per board, so the game itself works
on small ints and tuples. Boards are immutable and cached by their hex set.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from functools import lru_cache

from housing_lab.errors import shown
from housing_lab.streetcar import hexgrid
from housing_lab.streetcar.errors import BoardError
from housing_lab.streetcar.hexgrid import Edge, Hex, Vertex
from housing_lab.streetcar.rules import COLOURS, STANDARD_BOUNDS

MAX_COORDINATE = 1_000_000  # |q| and |r| of any hex: boards are tens of hexes across


class Board:
    """The geometry of one board (standard or custom); build with `standard()` or `from_hexes`."""

    def __init__(self, hexes: Iterable[Hex]) -> None:
        ordered = hexgrid.board_order({parse_hex(h) for h in _items(hexes, "a board")})
        if not ordered:
            raise BoardError("a board needs at least one hex")
        self.hexes: tuple[Hex, ...] = tuple(ordered)
        self.hex_index: dict[Hex, int] = {h: i for i, h in enumerate(self.hexes)}
        on_board = self.hex_index

        edge_set: set[Edge] = set()
        vertex_set: set[Vertex] = set()
        for h in self.hexes:
            edge_set.update(hexgrid.hex_sides(h))
            vertex_set.update(hexgrid.hex_corners(h))
        self.edges: tuple[Edge, ...] = tuple(sorted(edge_set))
        self.edge_index: dict[Edge, int] = {e: i for i, e in enumerate(self.edges)}
        self.vertices: tuple[Vertex, ...] = tuple(sorted(vertex_set))
        self.vertex_index: dict[Vertex, int] = {v: i for i, v in enumerate(self.vertices)}

        self.hex_neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(on_board[n] for n in hexgrid.neighbours(h) if n in on_board) for h in self.hexes
        )
        self.on_rim: tuple[bool, ...] = tuple(len(n) < 6 for n in self.hex_neighbours)
        self.edge_vertices: tuple[tuple[int, int], ...] = tuple(
            tuple(self.vertex_index[v] for v in hexgrid.edge_endpoints(e))  # type: ignore[misc]
            for e in self.edges
        )
        self.vertex_edges: tuple[tuple[int, ...], ...] = tuple(
            tuple(self.edge_index[e] for e in hexgrid.vertex_edges(v) if e in self.edge_index)
            for v in self.vertices
        )
        self.vertex_hexes: tuple[tuple[int, ...], ...] = tuple(
            tuple(on_board[h] for h in v if h in on_board) for v in self.vertices
        )
        self.edge_neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                sorted({f for v in self.edge_vertices[e] for f in self.vertex_edges[v] if f != e})
            )
            for e in range(len(self.edges))
        )
        # Unordered pairs of edges meeting at an intersection: the line moves of an empty board.
        self.edge_pairs: tuple[tuple[int, int], ...] = tuple(
            (e, f) for e in range(len(self.edges)) for f in self.edge_neighbours[e] if e < f
        )
        self.is_standard = set(self.hexes) == set(hexgrid.standard_hexes(STANDARD_BOUNDS))

    # -- construction -----------------------------------------------------------------------

    @staticmethod
    def standard() -> Board:
        """The printed 52-hex board."""
        return _cached(frozenset(hexgrid.standard_hexes(STANDARD_BOUNDS)))

    @staticmethod
    def from_hexes(hexes: Iterable[object]) -> Board:
        """A custom board (*option*): any non-empty set of hexes given as (q, r) pairs."""
        seen: set[Hex] = set()
        for item in _items(hexes, "a board"):
            h = parse_hex(item)
            if h in seen:
                raise BoardError(f"hex {list(h)} is listed twice")
            seen.add(h)
        return _cached(frozenset(seen))

    # -- lookups ----------------------------------------------------------------------------

    def hex_id(self, value: object) -> int:
        """Index of a hex on this board, or a BoardError naming it."""
        h = parse_hex(value)
        index = self.hex_index.get(h)
        if index is None:
            raise BoardError(f"hex {list(h)} is not on the board")
        return index

    def edge_id(self, value: object) -> int:
        """Index of an edge on this board (either hex order accepted), or a BoardError."""
        a, b = parse_pair(value)
        if not hexgrid.are_neighbours(a, b):
            raise BoardError(f"{[list(a), list(b)]} is not an edge: the hexes are not neighbours")
        edge = hexgrid.make_edge(a, b)
        index = self.edge_index.get(edge)
        if index is None:
            raise BoardError(f"edge {edge_json(edge)} is not on the board")
        return index

    def vertex_id(self, value: object) -> int:
        """Index of an intersection on this board (its 3 hexes in any order), or a BoardError."""
        a, b, c = parse_triple(value)
        if not (
            hexgrid.are_neighbours(a, b)
            and hexgrid.are_neighbours(a, c)
            and hexgrid.are_neighbours(b, c)
        ):
            raise BoardError(
                f"{[list(a), list(b), list(c)]} is not an intersection: "
                "the hexes do not all neighbour each other"
            )
        vertex = hexgrid.make_vertex(a, b, c)
        index = self.vertex_index.get(vertex)
        if index is None:
            raise BoardError(f"intersection {vertex_json(vertex)} is not on the board")
        return index

    def deal_houses(self, seed: int | None) -> list[int]:
        """Colour index of the house on each hex: an even split, shuffled with `seed`.

        With n hexes each colour gets n // 4 houses and the first n % 4 colours (in the order
        blue, black, white, yellow) one more, so the standard board gets 13 of each.
        """
        count = len(self.hexes)
        colours = [c for c in range(len(COLOURS)) for _ in range(count // len(COLOURS))]
        colours += list(range(count % len(COLOURS)))
        try:
            rng = random.Random(seed)
        except TypeError:
            raise BoardError(f"a seed is an integer, not {shown(seed)}") from None
        rng.shuffle(colours)
        return colours

    def counts(self) -> dict[str, int]:
        """Numbers of hexes, edges and intersections (the geometry half of `perft`)."""
        return {
            "hexes": len(self.hexes),
            "edges": len(self.edges),
            "intersections": len(self.vertices),
        }

    def __repr__(self) -> str:
        kind = "standard" if self.is_standard else "custom"
        return f"<Board {kind}: {len(self.hexes)} hexes>"


def _items(value: object, what: str) -> Iterable[object]:
    """`value` when it is a collection of items (not a string), else a BoardError naming it."""
    if isinstance(value, (str, bytes, bytearray, dict)) or not isinstance(value, Iterable):
        raise BoardError(f"{what} is a list of hexes [q, r], not {shown(value)}")
    return value


@lru_cache(maxsize=64)
def _cached(hexes: frozenset[Hex]) -> Board:
    return Board(hexes)


def parse_hex(value: object) -> Hex:
    """A hex from a (q, r) tuple or JSON list of two integers, or a BoardError naming it.

    A coordinate beyond MAX_COORDINATE is on no board (and one of thousands of digits could not
    even be written in a message or an edge id): refused here, in words."""
    if (
        isinstance(value, (list, tuple))
        and len(value) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) for x in value)
    ):
        if all(-MAX_COORDINATE <= x <= MAX_COORDINATE for x in value):
            return (value[0], value[1])
        raise BoardError(
            f"a hex's coordinates are at most {MAX_COORDINATE} from 0, not {shown(value)}"
        )
    raise BoardError(f"a hex is a pair of integers [q, r], not {shown(value)}")


def parse_pair(value: object) -> tuple[Hex, Hex]:
    """Two hexes from an edge written as [[q1, r1], [q2, r2]], or a BoardError naming it."""
    if isinstance(value, (list, tuple)) and len(value) == 2:
        return parse_hex(value[0]), parse_hex(value[1])
    raise BoardError(f"an edge is a pair of hexes [[q1, r1], [q2, r2]], not {shown(value)}")


def parse_triple(value: object) -> tuple[Hex, Hex, Hex]:
    """Three hexes from an intersection written as [[q1, r1], [q2, r2], [q3, r3]]."""
    if isinstance(value, (list, tuple)) and len(value) == 3:
        return parse_hex(value[0]), parse_hex(value[1]), parse_hex(value[2])
    raise BoardError(
        f"an intersection is three hexes [[q1, r1], [q2, r2], [q3, r3]], not {shown(value)}"
    )


def hex_json(h: Hex) -> list[int]:
    """A hex as the record writes it."""
    return [h[0], h[1]]


def edge_json(edge: Edge) -> list[list[int]]:
    """An edge as the record writes it."""
    return [[edge[0][0], edge[0][1]], [edge[1][0], edge[1][1]]]


def vertex_json(vertex: Vertex) -> list[list[int]]:
    """An intersection as the rules name it."""
    return [[h[0], h[1]] for h in vertex]

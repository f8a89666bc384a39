"""Axial hex coordinates and the names of edges and intersections (RULES.md part 2, Board).

Edges and intersections are named by the hexes that meet there, so nothing depends on how the
board is drawn: an edge is the sorted pair of two neighbouring hexes, an intersection the sorted
triple of three mutually neighbouring hexes. These helpers are pure functions on tuples; `Board`
turns them into integer tables once per board.
"""

from __future__ import annotations

from collections.abc import Iterable

Hex = tuple[int, int]
Edge = tuple[Hex, Hex]
Vertex = tuple[Hex, Hex, Hex]

# The six neighbour offsets in turning order, so directions i and i+1 (mod 6) give the two
# neighbours that meet hex h at one corner.
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six neighbours of a hex, on the board or not, in turning order."""
    q, r = h
    return tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)


def are_neighbours(a: Hex, b: Hex) -> bool:
    """True when two hexes share a side (axial distance 1)."""
    dq, dr = b[0] - a[0], b[1] - a[1]
    return (dq, dr) in DIRECTIONS


def make_edge(a: Hex, b: Hex) -> Edge:
    """The canonical name of the side between two neighbouring hexes: the pair sorted ascending."""
    return (a, b) if a <= b else (b, a)


def make_vertex(a: Hex, b: Hex, c: Hex) -> Vertex:
    """The canonical name of a corner: its three hexes sorted ascending."""
    x, y, z = sorted((a, b, c))
    return (x, y, z)


def hex_corners(h: Hex) -> tuple[Vertex, ...]:
    """The six intersections around a hex, in turning order."""
    around = neighbours(h)
    return tuple(make_vertex(h, around[i], around[(i + 1) % 6]) for i in range(6))


def hex_sides(h: Hex) -> tuple[Edge, ...]:
    """The six edges around a hex, in turning order."""
    return tuple(make_edge(h, n) for n in neighbours(h))


def edge_endpoints(edge: Edge) -> tuple[Vertex, Vertex]:
    """The two intersections of an edge: the triples that contain its pair (sorted)."""
    a, b = edge
    common = sorted(set(neighbours(a)) & set(neighbours(b)))
    first, second = (make_vertex(a, b, c) for c in common)
    return (first, second) if first <= second else (second, first)


def vertex_edges(vertex: Vertex) -> tuple[Edge, Edge, Edge]:
    """The three edges (on the board or not) that meet at an intersection."""
    a, b, c = vertex
    return (make_edge(a, b), make_edge(a, c), make_edge(b, c))


def standard_hexes(bounds: dict[str, list[int]]) -> list[Hex]:
    """All hexes within the q, r and s bounds (inclusive), in board order."""
    (q_lo, q_hi), (r_lo, r_hi), (s_lo, s_hi) = bounds["q"], bounds["r"], bounds["s"]
    found = [
        (q, r)
        for r in range(r_lo, r_hi + 1)
        for q in range(q_lo, q_hi + 1)
        if s_lo <= -q - r <= s_hi
    ]
    return board_order(found)


def board_order(hexes: Iterable[Hex]) -> list[Hex]:
    """Reading order, north row first and west to east: sorted by (r, q).

    This order deals the houses, lists the board in records and breaks simultaneous building
    placements when the cube supply runs short.
    """
    return sorted(hexes, key=lambda h: (h[1], h[0]))

"""Golden counts of the geometry and of legal moves (our analogue of chess perft).

The numbers are derived by hand below and re-derived by an independent brute force that uses
only the axial-coordinate definitions of RULES.md, never the engine's tables, so a change that
breaks the board tables or move generation fails here.

Standard board (-4 <= r <= 4, -4 <= q <= 3, -3 <= s <= 4):
- hexes: rows r = -4..4 hold 4, 5, 6, 7, 8, 7, 6, 5, 4 hexes = 52.
- adjacent on-board pairs A: along (1, 0) each row gives len - 1, so 52 - 9 = 43; along (0, 1)
  the 8 columns q = -4..3 hold 5, 6, 7, 8, 8, 7, 6, 5 hexes, so 52 - 8 = 44; along (1, -1) the
  8 lines s = -3..4 hold 5, 6, 7, 8, 8, 7, 6, 5, so 44. A = 131.
- edges: every side of a board hex, shared sides once: E = 6 * 52 - A = 312 - 131 = 181.
- intersections: the board is simply connected, so Euler (V - E + F = 2 with F = 52 + 1) gives
  V = E - H + 1 = 181 - 52 + 1 = 130.
- first-turn line moves: two distinct edges share at most one intersection, so the unordered
  pairs are the sum over intersections of C(degree, 2). An intersection with one board hex has
  2 edges (the third pair is off the board), one with 2 or 3 board hexes has 3. The sum of
  degrees is 2E = 362 = 3V - V1, so V1 = 390 - 362 = 28. Check: the rim has 6 * 52 - 2A = 50
  edges, a closed walk of 50 corners turning +60 degrees at the V1 convex ones and -60 at the
  others, so V1 - (50 - V1) = 6 and V1 = 28. Pairs = 3 * (130 - 28) + 1 * 28 = 334. No edge is alone
  (every edge has a neighbour), so there are no single-edge choices: 334 moves on turn 1.
- red's reply after purple draws two edges at the central intersection v = {(0,0),(1,0),(0,1)}
  (edges {(0,0),(1,0)} and {(0,0),(0,1)}): purple now owns v and the far ends x, y of its two
  edges. Every edge touching v, x or y is illegal for red, so their 3 + 3 + 3 = 9 pairs go;
  the five other neighbours of {v, x, y} (z beyond v's third edge, two beyond x, two beyond y;
  the hex grid has no cycles shorter than 6, so they are distinct) keep 2 of their 3 edges, 1
  pair instead of 3. All of this lies in the radius-3 hexagon, far from the rim, so red has
  334 - 9 - 5 * 2 = 315 line choices, each with any of the 52 houses: 16380 moves.
- one hex alone: 6 edges, 6 intersections of degree 2: 6 pairs.
- the 7-hex flower (radius 1): A = 6 spokes + 6 ring = 12, E = 42 - 12 = 30, V = 30 - 7 + 1 = 24;
  rim edges 42 - 24 = 18, V1 - (18 - V1) = 6 so V1 = 12: pairs = 3 * 12 + 12 = 48.
"""

from __future__ import annotations

import itertools

import pytest

from housing_lab.streetcar import Board, Game, Move

STANDARD = {"hexes": 52, "edges": 181, "intersections": 130}
FLOWER = [(0, 0), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
OFFSETS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]


def brute_geometry(hexes: list[tuple[int, int]]) -> tuple[set, set]:
    """Edges and intersections straight from RULES.md's definitions, without the engine."""
    board = set(hexes)

    def near(h: tuple[int, int]) -> list[tuple[int, int]]:
        return [(h[0] + dq, h[1] + dr) for dq, dr in OFFSETS]

    edges = {tuple(sorted((h, n))) for h in board for n in near(h)}
    vertices = {
        tuple(sorted((h, a, b))) for h in board for a in near(h) for b in near(h) if b in near(a)
    }
    return edges, vertices


def brute_pairs(edges: set, vertices: set, blocked: set = frozenset()) -> int:
    """Unordered pairs of distinct usable edges that share an intersection."""

    def ends(edge: tuple) -> list:
        return [v for v in vertices if edge[0] in v and edge[1] in v]

    usable = [e for e in edges if not any(v in blocked for v in ends(e))]
    return sum(1 for e, f in itertools.combinations(usable, 2) if set(ends(e)) & set(ends(f)))


@pytest.mark.parametrize(
    ("hexes", "expected"),
    [
        (None, (52, 181, 130, 334)),
        ([(0, 0)], (1, 6, 6, 6)),
        (FLOWER, (7, 30, 24, 48)),
    ],
)
def test_golden_counts(hexes: list | None, expected: tuple[int, int, int, int]) -> None:
    board = Board.standard() if hexes is None else Board.from_hexes(hexes)
    game = Game(board, seed=1)
    got = (*board.counts().values(), game.count_legal_moves())
    assert got == expected
    assert len(list(game.legal_moves())) == expected[3]


@pytest.mark.slow
@pytest.mark.parametrize("hexes", [None, [(0, 0)], FLOWER])
def test_golden_counts_match_brute_force(hexes: list | None) -> None:
    board = Board.standard() if hexes is None else Board.from_hexes(hexes)
    edges, vertices = brute_geometry(list(board.hexes))
    assert set(board.edges) == edges
    assert set(board.vertices) == vertices
    assert len(board.edge_pairs) == brute_pairs(edges, vertices)


def test_standard_board_shape() -> None:
    board = Board.standard()
    assert board.counts() == STANDARD
    rows = [sum(1 for q, r in board.hexes if r == row) for row in range(-4, 5)]
    assert rows == [4, 5, 6, 7, 8, 7, 6, 5, 4]
    assert board.hexes[:2] == ((0, -4), (1, -4))  # reading order, as in the record example
    assert board.is_standard


@pytest.mark.slow
def test_red_reply_to_a_central_opening() -> None:
    game = Game(seed=3)
    opening = Move([((0, 0), (1, 0)), ((0, 0), (0, 1))])
    game.push(opening)
    assert len(game.legal_line_choices()) == 315
    assert game.count_legal_moves() == 315 * 52
    edges, vertices = brute_geometry(list(game.board.hexes))
    purple = {v for v in vertices for e in opening.lines if e[0] in v and e[1] in v}
    assert len(purple) == 3
    assert brute_pairs(edges, vertices, blocked=purple) == 315


def test_perft_command_prints_the_golden_counts(cli) -> None:
    code, out, err = cli("streetcar", "perft")
    assert (code, err) == (0, "")
    assert out.strip() == (
        '{"hexes": 52, "edges": 181, "intersections": 130, "first_turn_line_moves": 334}'
    )

"""Line legality (RULES.md part 2, Drawing lines), on a board's integer tables.

An edge is legal for a player when it is undrawn and neither endpoint touches another colour.
A turn draws two legal edges sharing an intersection; one edge only when no legal edge touches
it; none only when no edge is legal anywhere. Drawing the first edge never makes another edge
illegal for the same player, so a legal second edge is simply another legal edge next to it.
Functions here return `(rule, reason)` pairs instead of raising, so the widget can explain.
"""

from __future__ import annotations

from collections.abc import Sequence

from housing_lab.streetcar.board import Board, edge_json, vertex_json
from housing_lab.streetcar.rules import PLAYERS

Problem = tuple[str, str]


def edge_is_legal(
    board: Board, owner: Sequence[int], vowner: Sequence[int], e: int, p: int
) -> bool:
    """True when player `p` may draw edge `e` now."""
    if owner[e] >= 0:
        return False
    v1, v2 = board.edge_vertices[e]
    other = 1 - p
    return vowner[v1] != other and vowner[v2] != other


def legal_edge_ids(board: Board, owner: Sequence[int], vowner: Sequence[int], p: int) -> list[int]:
    """All edges player `p` may draw, in edge order."""
    other = 1 - p
    ends = board.edge_vertices
    return [
        e
        for e in range(len(owner))
        if owner[e] < 0 and vowner[ends[e][0]] != other and vowner[ends[e][1]] != other
    ]


def line_choice_ids(
    board: Board, owner: Sequence[int], vowner: Sequence[int], p: int
) -> list[tuple[int, ...]]:
    """Every legal line part of a turn: pairs (e, f) with e < f, lone edges, or the empty one."""
    legal = legal_edge_ids(board, owner, vowner, p)
    if not legal:
        return [()]
    flag = bytearray(len(owner))
    for e in legal:
        flag[e] = 1
    choices: list[tuple[int, ...]] = []
    nbrs = board.edge_neighbours
    for e in legal:
        partnered = False
        for f in nbrs[e]:
            if flag[f]:
                partnered = True
                if e < f:
                    choices.append((e, f))
        if not partnered:
            choices.append((e,))
    return choices


def edge_problem(
    board: Board, owner: Sequence[int], vowner: Sequence[int], e: int, p: int
) -> Problem | None:
    """Why player `p` may not draw edge `e` (rule id, reason), or None when it is legal."""
    if owner[e] >= 0:
        who = PLAYERS[owner[e]]
        return "edge-already-drawn", f"edge {edge_json(board.edges[e])} is already drawn ({who})"
    other = 1 - p
    for v in board.edge_vertices[e]:
        if vowner[v] == other:
            return (
                "edge-touches-other-colour",
                f"edge {edge_json(board.edges[e])} touches a {PLAYERS[other]} line at "
                f"intersection {vertex_json(board.vertices[v])}",
            )
    return None


def partner_ids(
    board: Board, owner: Sequence[int], vowner: Sequence[int], e: int, p: int
) -> list[int]:
    """Legal second edges after `e`: legal edges sharing an intersection with it."""
    return [f for f in board.edge_neighbours[e] if edge_is_legal(board, owner, vowner, f, p)]


def lines_problem(
    board: Board, owner: Sequence[int], vowner: Sequence[int], edges: Sequence[int], p: int
) -> Problem | None:
    """Why the line part `edges` (edge ids, at most two) is illegal for `p`, or None."""
    for e in edges:
        problem = edge_problem(board, owner, vowner, e, p)
        if problem:
            return problem
    if len(edges) == 2:
        e, f = edges
        if e == f:
            return "same-edge-twice", f"edge {edge_json(board.edges[e])} is drawn twice"
        if f not in board.edge_neighbours[e]:
            return (
                "edges-not-adjacent",
                f"edges {edge_json(board.edges[e])} and {edge_json(board.edges[f])} "
                "do not share an intersection",
            )
    elif len(edges) == 1:
        partners = partner_ids(board, owner, vowner, edges[0], p)
        if partners:
            return (
                "single-edge-with-partner",
                f"a single edge is allowed only when no legal second edge touches it, "
                f"but {edge_json(board.edges[partners[0]])} does",
            )
    elif len(edges) == 0:
        legal = legal_edge_ids(board, owner, vowner, p)
        if legal:
            return (
                "no-edge-while-legal",
                f"drawing no line is allowed only when no edge is legal, "
                f"but {edge_json(board.edges[legal[0]])} is",
            )
    else:
        return "too-many-edges", f"a turn draws at most 2 edges, not {len(edges)}"
    return None

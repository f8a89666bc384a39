"""The public position: `tables()` agrees with the friendly views, and the per-item queries.

The friendly views (`houses`, `buildings`, `lines`, ...) and the id tables are two readings of
one position; these tests check them against each other over random games, and check
`buildings_after` against what a push really places.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from housing_lab.streetcar import (
    COLOURS,
    PLAYERS,
    Board,
    BoardError,
    Game,
    Move,
    StreetcarError,
    make_bot,
)
from housing_lab.streetcar.hexgrid import edge_endpoints

from ..strategies import streetcar_boards

boards = streetcar_boards(20)


def played(seed: int, hexes: set | None, plies: int) -> Game:
    game = Game(Board.standard() if hexes is None else Board.from_hexes(hexes), seed=seed)
    bot = make_bot("random", seed)
    while plies and not game.is_over():
        game.push(bot.choose(game))
        plies -= 1
    return game


def name(table: tuple[int, ...], names: tuple[str, ...], i: int) -> str | None:
    return names[table[i]] if table[i] >= 0 else None


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), hexes=boards, plies=st.integers(0, 40))
def test_tables_agree_with_the_friendly_views(seed: int, hexes: set | None, plies: int) -> None:
    game = played(seed, hexes, plies)
    board, t = game.board, game.tables()
    assert {board.hexes[x]: COLOURS[c] for x, c in enumerate(t.houses) if c >= 0} == game.houses
    assert {(b.hex, b.colour, b.cubes) for b in game.buildings} == {
        (board.hexes[x], COLOURS[c], t.building_cubes[x])
        for x, c in enumerate(t.building_colours)
        if c >= 0
    }
    assert all(t.building_cubes[x] == 0 for x, c in enumerate(t.building_colours) if c < 0)
    assert {
        player: [board.edges[e] for e, p in enumerate(t.edge_owners) if p == index]
        for index, player in enumerate(PLAYERS)
    } == game.lines
    touched = {
        corner: player
        for player, drawn in game.lines.items()
        for edge in drawn
        for corner in edge_endpoints(edge)
    }
    owned = {board.vertices[v]: PLAYERS[p] for v, p in enumerate(t.vertex_owners) if p >= 0}
    assert owned == touched
    assert {
        PLAYERS[p]: dict(zip(COLOURS, counts, strict=True)) for p, counts in enumerate(t.removed)
    } == game.removed
    assert [board.hexes[x] for x in t.removable] == game.removable_houses()
    assert dict(zip(COLOURS, t.supply, strict=True)) == game.supply
    edges = board.edges
    assert [tuple(edges[e] for e in c) for c in game.line_choice_ids()] == (
        game.legal_line_choices()
    )
    assert PLAYERS[game.player_index] == game.current_player
    for x, h in enumerate(board.hexes):
        assert game.house_at(h) == name(t.houses, COLOURS, x)
        building = game.building_at(list(h))
        assert (building and building.colour) == name(t.building_colours, COLOURS, x)
    for e, edge in enumerate(edges):
        assert game.edge_owner(edge[::-1]) == name(t.edge_owners, PLAYERS, e)
    for v, vertex in enumerate(board.vertices):
        assert game.intersection_owner(vertex[::-1]) == name(t.vertex_owners, PLAYERS, v)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), hexes=boards, plies=st.integers(1, 40))
def test_buildings_after_is_what_the_removal_places(
    seed: int, hexes: set | None, plies: int
) -> None:
    game = played(seed, hexes, plies)
    if game.is_over():
        game.pop()
    lines = game.legal_line_choices()[0]
    for h in game.removable_houses():
        predicted = game.buildings_after(h)
        x = game.board.hex_index[h]
        assert [(b.hex, COLOURS.index(b.colour), b.cubes) for b in predicted] == [
            (game.board.hexes[y], c, k) for y, c, k in game.buildings_after_ids(x)
        ]
        game.push(Move(lines, h))
        assert game.last_buildings() == predicted
        game.pop()


def test_tables_are_shared_until_the_position_changes() -> None:
    game = Game(seed=4)
    first = game.tables()
    assert game.tables() is first
    game.push(next(game.legal_moves()))
    second = game.tables()
    assert second != first and sum(p >= 0 for p in second.edge_owners) == 2
    assert first.edge_owners == (-1,) * len(game.board.edges)  # an old table never changes
    game.pop()
    assert game.tables() == first
    twin = game.copy()
    twin.push(next(twin.legal_moves()))
    assert game.tables() == first


def test_turn_one_lists_removable_houses_but_no_buildings() -> None:
    t = Game(seed=2).tables()
    assert len(t.removable) == 52 and t.supply == (16, 16, 16, 16)
    assert set(t.building_colours) == {-1} and set(t.building_cubes) == {0}


@pytest.mark.parametrize(
    ("query", "value", "message"),
    [
        ("house_at", (9, 9), r"hex \[9, 9\] is not on the board"),
        ("building_at", "x", "not 'x'"),
        ("edge_owner", [[0, 0], [2, 0]], "not an edge"),
        ("intersection_owner", [[0, 0], [1, 0]], r"not \[\[0, 0\], \[1, 0\]\]"),
        ("intersection_owner", [[0, 0], [1, 0], [2, 0]], "do not all neighbour"),
        ("intersection_owner", [[9, 9], [10, 9], [9, 10]], "not on the board"),
        ("buildings_after", (9, 9), r"\[9, 9\]"),
    ],
)
def test_queries_name_a_bad_value(query: str, value: object, message: str) -> None:
    with pytest.raises(BoardError, match=message):
        getattr(Game(seed=1), query)(value)


def test_buildings_after_needs_a_house() -> None:
    game = Game(seed=1)
    game.push(next(game.legal_moves()))
    game.push(next(game.legal_moves()))
    taken = game.peek().remove
    with pytest.raises(StreetcarError, match=rf"hex \[{taken[0]}, {taken[1]}\] holds no house"):
        game.buildings_after(taken)
    with pytest.raises(StreetcarError, match="hex id 52 holds no house"):
        game.buildings_after_ids(52)

"""Line legality: other colours at an intersection, the 1-edge and 0-edge cases, errors."""

from __future__ import annotations

import pytest

from housing_lab.streetcar import Board, Game, IllegalMoveError, Move
from housing_lab.streetcar.hexgrid import hex_sides

# Around a lone hex, side i and side i+1 share a corner: the six sides form a ring.
ONE = (0, 0)
S = hex_sides(ONE)


def lone_hex(turn: int, purple: list, red: list) -> Game:
    return Game.from_position(
        Board.from_hexes([ONE]),
        houses={ONE: "blue"},
        lines={"purple": purple, "red": red},
        turn=turn,
    )


def test_single_edge_only_when_no_second_edge_exists() -> None:
    # Purple holds S0, S1 (corners 5, 0, 1); red holds S3 (corners 2, 3). For red, S2 touches
    # purple's corner 1 and S5 purple's corner 5: S4 is red's only legal edge, with no partner.
    game = lone_hex(2, [S[0], S[1]], [S[3]])
    assert game.legal_edges() == [S[4]]
    assert game.legal_second_edges(S[4]) == []
    assert game.legal_line_choices() == [(S[4],)]
    game.push(Move([S[4]], ONE))
    assert game.lines["red"] == sorted([S[3], S[4]])


def test_no_edge_only_when_nothing_is_legal() -> None:
    # Purple's turn: red holds S3, S4 (corners 2, 3, 4), so S2 and S5 touch red; S0 and S1 are
    # purple's already. No legal edge anywhere: the turn draws nothing.
    game = lone_hex(3, [S[0], S[1]], [S[3], S[4]])
    assert game.legal_edges() == []
    assert game.legal_line_choices() == [()]
    assert list(game.legal_moves()) == [Move([], ONE)]
    with pytest.raises(IllegalMoveError) as caught:
        game.push(Move([S[2]], ONE))
    assert caught.value.rule == "edge-touches-other-colour"
    game.push(Move([], ONE))
    assert game.is_over()


def test_single_edge_refused_when_a_partner_exists() -> None:
    game = Game(seed=1)
    with pytest.raises(IllegalMoveError, match="no legal second edge") as caught:
        game.push(Move([((0, 0), (1, 0))]))
    assert caught.value.rule == "single-edge-with-partner"


def test_no_edge_refused_while_an_edge_is_legal() -> None:
    game = Game(seed=1)
    with pytest.raises(IllegalMoveError) as caught:
        game.push(Move([]))
    assert caught.value.rule == "no-edge-while-legal"


def red_nearby() -> Game:
    """Standard board, purple to move; red holds edge {(0,0),(1,0)}."""
    houses = {h: "blue" for h in Board.standard().hexes}
    return Game.from_position(houses=houses, lines={"red": [((0, 0), (1, 0))]}, turn=3)


def test_edge_touching_another_colour_is_illegal() -> None:
    game = red_nearby()
    # {(0,0),(0,1)} ends at {(0,0),(0,1),(1,0)}, an endpoint of red's edge.
    touching = ((0, 0), (0, 1))
    reason = game.explain_illegal_line(touching)
    assert reason is not None and "touches a red line" in reason
    assert "[[0, 0], [0, 1], [1, 0]]" in reason
    before = game.snapshot()
    with pytest.raises(IllegalMoveError, match=r"turn 3 \(purple\)") as caught:
        game.push(Move([touching, ((0, 1), (1, 0))], (3, 0)))
    assert caught.value.rule == "edge-touches-other-colour"
    assert game.snapshot() == before


def test_lines_may_run_close_without_touching() -> None:
    game = red_nearby()
    # {(0,1),(1,1)} shares a hex with red's corner but not the corner itself.
    edge = ((0, 1), (1, 1))
    assert game.explain_illegal_line(edge) is None
    assert edge in game.legal_edges()
    seconds = game.legal_second_edges(edge)
    assert seconds and all(game.explain_illegal_line(f, first=edge) is None for f in seconds)


def test_explanations_for_every_kind_of_bad_edge() -> None:
    game = red_nearby()
    assert "already drawn (red)" in game.explain_illegal_line(((1, 0), (0, 0)))
    assert "not neighbours" in game.explain_illegal_line(((0, 0), (2, 0)))
    assert "not on the board" in game.explain_illegal_line(((9, 9), (9, 10)))
    far = ((-3, 3), (-3, 4))
    assert "do not share an intersection" in game.explain_illegal_line(
        far, first=((3, -3), (3, -2))
    )
    assert "twice" in game.explain_illegal_line(far, first=far)


def test_second_edges_must_share_an_intersection() -> None:
    game = Game(seed=2)
    first = ((0, 0), (1, 0))
    seconds = game.legal_second_edges(first)
    assert len(seconds) == 4  # two more edges at each of its two interior endpoints
    with pytest.raises(IllegalMoveError) as caught:
        game.push(Move([first, ((-3, 3), (-3, 4))]))
    assert caught.value.rule == "edges-not-adjacent"


@pytest.mark.parametrize(
    ("move", "rule"),
    [
        (Move([((0, 0), (1, 0)), ((0, 0), (0, 1))], (0, 0)), "removal-on-turn-1"),
        (Move([((0, 0), (1, 0)), ((0, 0), (1, 0))]), "same-edge-twice"),
        (Move([((0, 0), (1, 0)), ((0, 0), (0, 1)), ((0, 1), (1, 0))]), "too-many-edges"),
        (Move([((20, 0), (21, 0)), ((20, 0), (20, 1))]), "edge-not-on-board"),
    ],
)
def test_illegal_opening_moves(move: Move, rule: str) -> None:
    game = Game(seed=3)
    with pytest.raises(IllegalMoveError) as caught:
        game.push(move)
    assert caught.value.rule == rule
    assert str(caught.value).startswith("illegal move on turn 1 (purple): ")
    assert game.turn == 1 and game.move_stack == []


@pytest.mark.parametrize(
    ("remove", "rule"),
    [(None, "missing-removal"), ((30, 30), "hex-not-on-board"), ((0, 0), "no-house")],
)
def test_illegal_removals(remove: tuple | None, rule: str) -> None:
    game = Game(seed=3)
    game.push(next(game.legal_moves()))
    game.push(Move(game.legal_line_choices()[0], (0, 0)))
    before = game.snapshot()
    with pytest.raises(IllegalMoveError) as caught:
        game.push(Move(game.legal_line_choices()[0], remove))
    assert caught.value.rule == rule
    assert str(caught.value).startswith("illegal move on turn 3 (purple): ")
    assert game.snapshot() == before


def test_move_normalises_edges_and_order() -> None:
    a = Move([((1, 0), (0, 0)), ((0, 1), (0, 0))], [2, -1])
    b = Move([[[0, 0], [0, 1]], [[0, 0], [1, 0]]], (2, -1))
    assert a == b and hash(a) == hash(b)
    assert a.to_json("red") == {
        "player": "red",
        "lines": [[[0, 0], [0, 1]], [[0, 0], [1, 0]]],
        "remove": [2, -1],
    }

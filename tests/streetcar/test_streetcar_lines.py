"""Line legality: other colours at an intersection, the 1-edge and 0-edge cases, errors."""

from __future__ import annotations

import pytest

from housing_lab.streetcar import Board, Game, IllegalMoveError, Move, RandomBot
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


def line_sets(game: Game) -> list[list]:
    """Legal line choices and illegal ones of every kind for the player to move."""
    legal = game.legal_line_choices()
    edges = list(game.board.edges)
    first = legal[0][0]
    return [
        *[list(choice) for choice in legal[:5]],
        [first],  # alone although it has a partner
        [],  # nothing although edges are legal
        [first, first],
        [first, edges[-1]],  # not adjacent
        [*legal[0], edges[-1]],  # three edges
        [((20, 0), (21, 0))],  # off the board
        *[[e] for e in edges if game.edge_owner(e) is not None][:3],  # drawn already
    ]


@pytest.mark.parametrize("turn", [1, 2, 5, 9])
def test_check_lines_gives_pushs_reason_and_changes_nothing(turn: int) -> None:
    game = Game(seed=4)
    bot = RandomBot(4)
    while game.turn < turn:
        game.push(bot.choose(game))
    house = None if turn == 1 else game.removable_houses()[0]
    checked = 0
    for lines in line_sets(game):
        before = game.snapshot()
        reason = game.check_lines(lines)
        error = game.lines_error(lines)
        assert game.snapshot() == before
        try:
            game.push(Move(lines, house))
        except IllegalMoveError as refused:
            assert reason == refused.reason and error is not None
            assert error.rule == refused.rule and error.turn == refused.turn == turn
            assert str(error) == (
                f"illegal lines on turn {turn} ({game.current_player}): {Move(lines)}: {reason}"
            )
            checked += 1
        else:
            game.pop()
            assert reason is None and error is None
    assert checked >= 5


def test_check_lines_after_the_game_and_for_malformed_lines() -> None:
    game = lone_hex(3, [S[0], S[1]], [S[3], S[4]])
    assert game.check_lines([]) is None
    assert game.check_lines([S[2]]).startswith("edge [[0, -1], [0, 0]] touches a red line")
    assert game.check_lines("S2") == "a move's lines are a list of edges, not 'S2'"
    game.push(Move([], ONE))
    assert game.check_lines([]) == "the game is over"
    assert game.lines_error([]).rule == "game-over"

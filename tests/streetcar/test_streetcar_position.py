"""Boards and constructed positions: bad input is refused with a message naming it."""

from __future__ import annotations

import pytest

from housing_lab.errors import HousingLabError
from housing_lab.streetcar import Board, BoardError, Game, StreetcarError

CLUSTER = [(0, 0), (1, 0), (1, -1), (0, -1)]


@pytest.mark.parametrize(
    ("hexes", "message"),
    [
        ([], "at least one hex"),
        ([(0, 0), (0, 0)], r"hex \[0, 0\] is listed twice"),
        ([(0, 0, 1)], "a hex is a pair of integers"),
        ([("a", 1)], "a hex is a pair of integers"),
        ([[True, 0]], "a hex is a pair of integers"),
    ],
)
def test_bad_boards(hexes: list, message: str) -> None:
    with pytest.raises(BoardError, match=message):
        Board.from_hexes(hexes)


def test_errors_are_housing_lab_errors() -> None:
    assert issubclass(BoardError, StreetcarError)
    assert issubclass(StreetcarError, HousingLabError)


def test_boards_are_shared_and_custom_houses_split_evenly() -> None:
    assert Board.from_hexes(Board.standard().hexes) is Board.standard()
    board = Board.from_hexes([(q, 0) for q in range(7)])
    assert not board.is_standard
    houses = Game(board, seed=4).houses
    counts = {c: list(houses.values()).count(c) for c in ("blue", "black", "white", "yellow")}
    assert counts == {"blue": 2, "black": 2, "white": 2, "yellow": 1}


def test_houses_must_cover_the_board() -> None:
    board = Board.from_hexes(CLUSTER)
    with pytest.raises(StreetcarError, match=r"hex \[1, -1\] has no house"):
        Game(board, houses={(0, 0): "blue", (1, 0): "blue", (0, -1): "blue"})
    with pytest.raises(StreetcarError, match="unknown colour 'pink'"):
        Game(board, houses=dict.fromkeys(CLUSTER, "pink"))
    with pytest.raises(BoardError, match=r"hex \[5, 5\] is not on the board"):
        Game(board, houses={**dict.fromkeys(CLUSTER, "blue"), (5, 5): "blue"})


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"lines": {"purple": [((0, 0), (1, 0))], "red": [((0, 0), (0, 1))]}}, "two colours"),
        ({"lines": {"purple": [((0, 0), (1, 0)), ((1, 0), (0, 0))]}}, "drawn twice"),
        ({"lines": {"green": []}}, "unknown player 'green'"),
        (
            {"buildings": [[q, 0, "white", 3] for q in range(5, 11)]},  # 18 cubes
            "more than 16 white cubes",
        ),
        ({"buildings": [[5, 0, "white", 4]]}, "0 to 3 cubes"),
        ({"buildings": [[0, 0, "white", 2]]}, "already holds something"),
        ({"removed": {"red": {"blue": -1}}}, "not a whole number"),
        ({"turn": 0}, "positive integer"),
    ],
)
def test_unreachable_positions_are_refused(kwargs: dict, message: str) -> None:
    board = Board.from_hexes([*CLUSTER, *[(q, 0) for q in range(5, 12)]])
    with pytest.raises(StreetcarError, match=message):
        Game.from_position(board, houses={(0, 0): "blue"}, **kwargs)


def test_missed_building_is_refused() -> None:
    # (0, 0) empty without a building while its three neighbours hold houses.
    houses = {(1, 0): "blue", (1, -1): "blue", (0, -1): "blue"}
    with pytest.raises(StreetcarError, match=r"empty hex \[0, 0\] is next to exactly 3 houses"):
        Game.from_position(Board.from_hexes(CLUSTER), houses=houses)


def test_from_position_game_plays_on() -> None:
    game = Game.from_position(
        Board.from_hexes(CLUSTER), houses=dict.fromkeys(CLUSTER, "white"), turn=5
    )
    assert game.current_player == "purple" and game.turn == 5
    assert game.initial_houses is None
    game.push(next(game.legal_moves()))
    assert game.current_player == "red"
    assert repr(game).startswith("<Game <Board custom: 4 hexes>")


@pytest.mark.parametrize("junk", ["x" * 300_000, 3, [1], {"a": 1}, object()])
@pytest.mark.parametrize(
    ("keyword", "message"), [("board", "a streetcar Board"), ("rules", "Rules")]
)
def test_a_game_refuses_a_board_or_rules_of_the_wrong_type(junk, keyword, message) -> None:
    """Found by the Streetcar hunt: Game('x') raised AttributeError, Game(rules='x') was taken."""
    with pytest.raises(StreetcarError, match=message) as caught:
        Game(**{keyword: junk})
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 300

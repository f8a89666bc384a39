"""Removing houses: the building cases, a short supply, the flip rule and the end condition."""

from __future__ import annotations

import pytest

from housing_lab.streetcar import Board, Building, Game, IllegalMoveError, Move, building_for

# X has exactly three board neighbours A, B, C (which also neighbour each other in a chain).
X, A, B, C = (0, 0), (1, 0), (1, -1), (0, -1)
CLUSTER = [X, A, B, C]
# Far, isolated hexes that only hold buildings, to use up the cube supply.
STORE = [(10 + 3 * i, 0) for i in range(6)]


def open_and_remove(colours: tuple[str, str, str], *, x_colour: str = "blue") -> Game:
    """Purple opens (lines only); red draws and removes X, whose 3 neighbours hold `colours`."""
    houses = dict(zip([A, B, C], colours, strict=True)) | {X: x_colour}
    game = Game(Board.from_hexes(CLUSTER), houses=houses)
    game.push(next(game.legal_moves()))
    choice = game.legal_line_choices()[0]
    game.push(Move(choice, X))
    return game


@pytest.mark.parametrize(
    ("colours", "expected"),
    [
        (("white", "white", "white"), ("white", 3)),  # 3 same: 3 cubes of it
        (("black", "yellow", "black"), ("black", 2)),  # 2 same: 2 cubes of that colour
        (("yellow", "white", "white"), ("white", 2)),
        (("blue", "black", "white"), ("yellow", 1)),  # 3 different: 1 of the fourth
        (("yellow", "white", "blue"), ("black", 1)),
    ],
)
def test_building_cases(colours: tuple[str, str, str], expected: tuple[str, int]) -> None:
    game = open_and_remove(colours)
    assert game.last_buildings() == [Building(X, *expected)]
    assert game.buildings == game.last_buildings()
    assert game.supply[expected[0]] == 16 - expected[1]
    assert game.removed["red"]["blue"] == 1


def test_building_for_covers_every_ordering() -> None:
    assert building_for((2, 2, 2)) == (2, 3)
    for trio in [(1, 1, 3), (1, 3, 1), (3, 1, 1)]:
        assert building_for(trio) == (1, 2)
    for trio in [(0, 1, 2), (2, 0, 1), (1, 3, 0), (3, 2, 1)]:
        assert building_for(trio) == (({0, 1, 2, 3} - set(trio)).pop(), 1)


def test_flip_rule_and_end_condition() -> None:
    game = open_and_remove(("white", "white", "white"))
    # A, B and C are next to the new building: flipped, not removable, so the game ends after
    # this turn (the one that left no removable house).
    assert sorted(game.flipped_houses()) == sorted([A, B, C])
    assert game.removable_houses() == []
    assert game.is_over()
    assert game.outcome() is not None
    assert list(game.legal_moves()) == []
    with pytest.raises(IllegalMoveError, match="game is over") as caught:
        game.push(Move([], A))
    assert caught.value.rule == "game-over"


def test_flipped_house_cannot_be_removed() -> None:
    board = Board.from_hexes([*CLUSTER, (5, 5)])
    game = Game.from_position(
        board,
        houses={A: "white", B: "white", (5, 5): "blue"},
        buildings=[[0, 0, "white", 3], [0, -1, "black", 2]],
        turn=2,
    )
    assert game.removable_houses() == [(5, 5)]
    assert not game.is_over()
    before = game.snapshot()
    move = Move(game.legal_line_choices()[0], A)
    with pytest.raises(IllegalMoveError, match=r"next to the building on \[") as caught:
        game.push(move)
    assert caught.value.rule == "house-next-to-building"
    assert game.snapshot() == before


def supply_game(white_used: int) -> Game:
    """The cluster with X still holding a house, and `white_used` white cubes already built."""
    board = Board.from_hexes(CLUSTER + STORE)
    stored = []
    for h in STORE:
        take = min(3, white_used - sum(b[3] for b in stored))
        if take:
            stored.append([h[0], h[1], "white", take])
    houses = {X: "blue", A: "white", B: "white", C: "white"}
    game = Game.from_position(board, houses=houses, buildings=stored, turn=2)
    assert game.supply["white"] == 16 - white_used
    return game


@pytest.mark.parametrize(("used", "cubes"), [(12, 3), (14, 2), (15, 1), (16, 0)])
def test_short_supply_places_what_is_left(used: int, cubes: int) -> None:
    game = supply_game(used)
    game.push(Move(game.legal_line_choices()[0], X))
    assert game.last_buildings() == [Building(X, "white", cubes)]
    assert game.supply["white"] == 16 - used - cubes
    # A 0-cube building is still a building: its neighbours are flipped all the same.
    assert game.removable_houses() == []


def test_short_supply_goes_to_the_first_building_in_board_order() -> None:
    # Y is empty (no building: it is next to 4 houses). Removing H leaves H next to exactly 3
    # houses (P, D, E) and Y next to exactly 3 (P, Q, S): two white-3 buildings in one turn, but
    # only 4 white cubes left. Y = (0, 0) comes before H = (1, 0) in reading order.
    y, h, p, q, s, d, e = (0, 0), (1, 0), (1, -1), (0, -1), (-1, 0), (2, 0), (2, -1)
    board = Board.from_hexes([y, h, p, q, s, d, e, *STORE])
    houses = {h: "black", p: "white", q: "white", s: "white", d: "white", e: "white"}
    stored = [[*STORE[i], "white", 3] for i in range(4)]
    game = Game.from_position(board, houses=houses, buildings=stored, turn=2)
    game.push(Move(game.legal_line_choices()[0], h))
    assert game.last_buildings() == [Building(y, "white", 3), Building(h, "white", 1)]
    game.pop()
    assert game.supply["white"] == 4 and game.buildings == [
        Building(STORE[i], "white", 3) for i in range(4)
    ]


def test_removed_hex_can_stay_empty() -> None:
    # Removing a house with six neighbouring houses places nothing: the hex stays empty.
    game = Game(seed=5)
    game.push(next(game.legal_moves()))
    game.push(Move(game.legal_line_choices()[0], (0, 0)))
    assert game.last_buildings() == []
    assert (0, 0) not in game.houses
    assert len(game.removable_houses()) == 51

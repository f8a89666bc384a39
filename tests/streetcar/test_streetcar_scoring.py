"""Scoring: the rulebook's Purple 62 example, once-per-player counting, tie-breaks, options."""

from __future__ import annotations

import pytest

from housing_lab.streetcar import Board, Game, Rules, StreetcarError
from housing_lab.streetcar.hexgrid import hex_sides

CENTRE, CORNER, FAR = (0, 0), (-3, 3), (3, -3)


def rulebook_position(penalty: int = 10, goals: frozenset[str] = frozenset()) -> Game:
    """Purple: blue 2 x 5, black 3 x 4, white 6 x 8, yellow 2 x 6 with 2 separate lines.

    Purple's first line circles the centre hex, touching every corner of it and so the centre
    and its 6 neighbours; the second circles (-3, 3). Each building is touched at several
    corners but counts once. Red's single edge reaches only the white 3 on (3, -3), which purple
    does not touch. Every other hex holds a house, so there is no empty space.
    """
    buildings = [
        [0, 0, "white", 3],
        [1, 0, "white", 3],
        [1, -1, "white", 2],
        [0, -1, "yellow", 3],
        [-1, 0, "yellow", 3],
        [-1, 1, "black", 2],
        [0, 1, "black", 2],
        [-3, 3, "blue", 3],
        [-2, 3, "blue", 2],
        [3, -3, "white", 3],
    ]
    taken = {(b[0], b[1]) for b in buildings}
    board = Board.standard()
    houses = {h: "yellow" for h in board.hexes if h not in taken}
    return Game.from_position(
        houses=houses,
        buildings=buildings,
        lines={
            "purple": [*hex_sides(CENTRE), *hex_sides(CORNER)],
            "red": [((3, -4), (3, -3))],
        },
        removed={
            "purple": {"blue": 2, "black": 3, "white": 6, "yellow": 2},
            "red": {"white": 1},
        },
        turn=20,
        rules=Rules(penalty=penalty, goals=goals),
    )


def test_rulebook_example_purple_62() -> None:
    purple = rulebook_position().score_breakdown()["purple"]
    assert purple.removed == {"blue": 2, "black": 3, "white": 6, "yellow": 2}
    assert purple.connected_cubes == {"blue": 5, "black": 4, "white": 8, "yellow": 6}
    assert purple.products == {"blue": 10, "black": 12, "white": 48, "yellow": 12}
    assert (purple.lines, purple.penalty) == (2, 20)
    assert purple.total == 62
    assert purple.best_product == 48


def test_other_player_counts_only_its_own_connections() -> None:
    red = rulebook_position().score_breakdown()["red"]
    assert red.connected_cubes == {"blue": 0, "black": 0, "white": 3, "yellow": 0}
    assert red.total == 1 * 3 - 10
    assert rulebook_position().standings().winners == ("purple",)


def test_penalty_option() -> None:
    assert rulebook_position(penalty=0).scores()["purple"] == 82
    assert rulebook_position(penalty=25).scores()["purple"] == 32


def test_breakdown_to_dict_is_json_ready() -> None:
    item = rulebook_position().score_breakdown()["purple"].to_dict()
    assert item["total"] == 62 and item["penalty"] == 20 and item["goals"] == {}
    assert item["products"]["white"] == 48


def tie_position(purple_removed: dict[str, int], red_removed: dict[str, int]) -> Game:
    """Two mirror-image lines each reaching one white 3 and one blue 2, on a tiny board."""
    hexes = [(0, 0), (1, 0), (5, 0), (6, 0)]
    board = Board.from_hexes(hexes)
    return Game.from_position(
        board,
        houses={},
        buildings=[[0, 0, "white", 3], [1, 0, "blue", 2], [5, 0, "white", 3], [6, 0, "blue", 2]],
        lines={"purple": [((0, 0), (1, 0))], "red": [((5, 0), (6, 0))]},
        removed={"purple": purple_removed, "red": red_removed},
    )


def test_tie_break_on_best_single_colour_product() -> None:
    # Purple: white 4 x 3 = 12, minus 10. Red: white 2 x 3 + blue 3 x 2 = 12, minus 10.
    outcome = tie_position({"white": 4}, {"white": 2, "blue": 3}).standings()
    assert outcome.scores == {"purple": 2, "red": 2}
    assert outcome.best_products == {"purple": 12, "red": 6}
    assert outcome.winners == ("purple",)
    assert outcome.decided_by == "best_product"
    assert "best single-colour product, 12 to red 6" in outcome.explanation


def test_shared_win_when_still_tied() -> None:
    outcome = tie_position({"white": 2}, {"white": 2}).standings()
    assert outcome.winners == ("purple", "red")
    assert outcome.winner is None
    assert outcome.decided_by == "shared"


def test_outcome_is_none_until_the_game_is_over() -> None:
    assert Game(seed=1).outcome() is None


def goals_position(goals: set[str]) -> Game:
    """One purple line along the top of a 6-hex row reaching five buildings.

    (0,0) white 3, (1,0) blue 1, (2,0) black 2, (3,0) yellow 2: a straight run of 4 holding all
    four colours; (4,0) is an empty space; (5,0) white 1 stands alone next to it. Every hex of
    so small a board is on its edge.
    """
    board = Board.from_hexes([(q, 0) for q in range(6)])
    top = [((q, -1), (q, 0)) for q in range(6)] + [((q, 0), (q + 1, -1)) for q in range(6)]
    return Game.from_position(
        board,
        houses={},
        buildings=[
            [0, 0, "white", 3],
            [1, 0, "blue", 1],
            [2, 0, "black", 2],
            [3, 0, "yellow", 2],
            [5, 0, "white", 1],
        ],
        lines={"purple": top},
        rules=Rules(goals=frozenset(goals)),
    )


@pytest.mark.parametrize(
    ("goal", "bonus"),
    [
        ("parks", 2 * 4),  # (3,0) and (5,0) are next to the empty (4,0)
        ("community_centre", 1 * 4),  # only (5,0) has no building beside it
        ("low_rise", 2 * 4),  # the two 1-cube buildings
        ("cycling", 4 * 4),  # the run (0,0)..(3,0)
        ("immigration", 5 * 4),  # all on the rim
        ("arts_district", 4 * 3),  # the run's group holds all four colours
        ("diversity", 3 * 8),  # blue, black, yellow tie for fewest (1 each); white has 2
    ],
)
def test_each_development_goal(goal: str, bonus: int) -> None:
    item = goals_position({goal}).score_breakdown()["purple"]
    assert item.lines == 1
    assert item.goals == {goal: bonus}
    assert item.total == sum(item.products.values()) - 10 + bonus


def cycling_bonus(built: list[tuple[int, int]]) -> int:
    """Purple's cycling bonus with a 1-cube building on each hex of a board of just those hexes.

    Purple draws every side of every building, so all of them are connected; with no houses
    there is nothing else on the board to meet or miss the goal.
    """
    sides = sorted({edge for h in built for edge in hex_sides(h)})
    game = Game.from_position(
        Board.from_hexes(built),
        houses={},
        buildings=[[q, r, "white", 1] for q, r in built],
        lines={"purple": sides},
        rules=Rules(goals=frozenset({"cycling"})),
    )
    return game.score_breakdown()["purple"].goals["cycling"]


@pytest.mark.parametrize(
    ("built", "bonus"),
    [
        ([(q, 0) for q in range(3)], 0),  # a run of 3 is one short
        ([(q, 0) for q in range(4)], 4 * 4),  # a run of 4 along each of the 3 axes
        ([(0, r) for r in range(4)], 4 * 4),
        ([(q, -q) for q in range(4)], 4 * 4),
        ([(q, 0) for q in range(5)], 5 * 4),  # every building of a longer run scores
        ([(0, 0), (1, 0), (2, 0), (2, 1)], 0),  # 4 buildings, but bent after 3
        ([(0, 0), (1, 0), (2, 0), (4, 0)], 0),  # 4 on one axis, but with a gap
        ([(0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (0, 2)], 4 * 4),  # the run of 4 only
    ],
)
def test_cycling_needs_a_straight_run_of_4(built: list[tuple[int, int]], bonus: int) -> None:
    assert cycling_bonus(built) == bonus


def test_goals_add_up_and_need_a_connection() -> None:
    game = goals_position({"parks", "low_rise", "immigration"})
    assert game.score_breakdown()["purple"].goals == {"parks": 8, "low_rise": 8, "immigration": 20}
    assert game.score_breakdown()["red"].goals == {"parks": 0, "low_rise": 0, "immigration": 0}


def test_immigration_on_the_standard_board() -> None:
    game = rulebook_position(goals=frozenset({"immigration"}))
    items = game.score_breakdown()
    assert items["purple"].goals == {"immigration": 0}  # all its buildings are inland
    assert items["red"].goals == {"immigration": 4}  # (3, -3) is on the edge


def test_diversity_scores_the_rarest_colours() -> None:
    # Buildings: blue 2, black 2, yellow 2, white 4 (red's included): purple reaches all six.
    game = rulebook_position(goals=frozenset({"diversity"}))
    assert game.score_breakdown()["purple"].goals == {"diversity": 6 * 8}


def test_diversity_scores_nothing_while_a_colour_has_no_building() -> None:
    game = tie_position({"white": 1}, {"white": 1})  # only white and blue buildings
    game = Game.from_position(
        game.board,
        houses={},
        buildings=[b.to_json() for b in game.buildings],
        lines=game.lines,
        rules=Rules(goals=frozenset({"diversity"})),
    )
    assert game.score_breakdown()["purple"].goals == {"diversity": 0}


def test_goal_options_are_checked() -> None:
    with pytest.raises(StreetcarError, match="'skyscraper'"):
        Rules(goals=frozenset({"skyscraper"}))
    with pytest.raises(StreetcarError, match="penalty"):
        Rules(penalty="10")  # type: ignore[arg-type]

"""The controlled line experiment: the two arms differ only in where the one line goes."""

from __future__ import annotations

import pytest

from housing_lab.streetcar.errors import StreetcarError
from housing_lab.streetcar.play.line_experiment import (
    OneLinePlayer,
    line_experiment,
    play_arm,
    summary,
)

RESULTS = line_experiment(6, seed=0)


def test_both_arms_remove_the_same_houses_and_draw_one_line() -> None:
    for connect, avoid in zip(RESULTS[::2], RESULTS[1::2], strict=True):
        assert (connect.aim, avoid.aim) == ("connect", "avoid")
        assert connect.seed == avoid.seed
        assert connect.removed_order == avoid.removed_order  # same removals, same buildings
        assert connect.houses_removed == avoid.houses_removed
        assert connect.separate_lines == avoid.separate_lines == 1


def test_connecting_the_buildings_scores_more() -> None:
    table = summary(RESULTS)
    assert table["connect"]["connected_cubes"] > table["avoid"]["connected_cubes"]
    assert table["connect"]["score"] > table["avoid"]["score"] + 5
    assert table["connect"]["separate_lines"] == table["avoid"]["separate_lines"]


def test_the_experiment_is_seeded() -> None:
    assert play_arm("connect", 3) == play_arm("connect", 3)
    assert line_experiment(1, seed=4) == [play_arm("connect", 4), play_arm("avoid", 4)]


@pytest.mark.parametrize("games", [0, -1, 2.5, True, "3"])
def test_a_bad_number_of_games_is_refused(games: object) -> None:
    with pytest.raises(StreetcarError, match=repr(games).replace("(", r"\(")):
        line_experiment(games)  # type: ignore[arg-type]


def test_an_unknown_aim_is_refused() -> None:
    with pytest.raises(StreetcarError, match="'sideways'"):
        OneLinePlayer("sideways", 0)

"""Cases left from the second hunt for bad inputs (issue 43 "Left from the second hunt"): each
is one line in words, and nothing is logged or created."""

from __future__ import annotations

import pytest

from housing_lab.cli import main
from housing_lab.errors import HousingLabError
from housing_lab.rooms import ActionRefused, RoomError, open_store
from housing_lab.streetcar import Game, Move
from housing_lab.streetcar.errors import StreetcarError

BIG = 10**5000  # 5,001 digits: Python will not even write it as text


@pytest.fixture
def store(tmp_path):
    with open_store(f"sqlite:///{tmp_path / 'r.sqlite'}") as opened:
        yield opened


@pytest.mark.parametrize("goals", [5, "tunnel", {"a": 1}, [5]])
def test_streetcar_goals_that_are_no_list_of_names_are_one_line(store, goals) -> None:
    with pytest.raises(RoomError, match="Streetcar options") as refused:
        store.create_room(["Red", "Blue"], game="streetcar", options={"goals": goals})
    assert "\n" not in str(refused.value)


def test_a_room_action_nested_100000_lists_deep_is_refused_in_words(store) -> None:
    room = store.create_room(["Red", "Blue"], seed=1)
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    red = room["teams"]["Red"]["token"]
    with pytest.raises(ActionRefused, match="nested too deep") as refused:
        store.act(room["room"], red, deep)
    assert "\n" not in str(refused.value) and len(str(refused.value)) < 300
    assert store.seq(room["room"], red) == 0


@pytest.mark.parametrize(
    "move",
    [
        {"lines": [[[BIG, 0], [0, 1]]], "remove": None},
        {"lines": [[[0, 0], [0, -BIG]]], "remove": None},
        {"lines": [], "remove": [BIG, 0]},
    ],
)
def test_a_streetcar_move_with_a_5000_digit_coordinate_is_one_line(store, move) -> None:
    with pytest.raises(StreetcarError, match="at most 1000000 from 0"):
        Game(seed=0).apply(move)
    with pytest.raises(StreetcarError, match="at most 1000000 from 0"):
        Move.from_action(move)
    room = store.create_room(["Red", "Blue"], seed=1, game="streetcar")
    red = room["teams"]["Red"]["token"]
    with pytest.raises(ActionRefused) as refused:
        store.act(room["room"], red, move)
    words = str(refused.value)
    assert "\n" not in words and "sys.set_int_max_str_digits" not in words
    assert store.seq(room["room"], red) == 0


def test_housing_lab_app_with_a_5000_digit_lesson_number_is_one_line(capsys) -> None:
    assert main(["app", "9" * 5000, "--dry-run"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert "no app or lesson" in captured.err and len(captured.err) < 1000


def test_a_lesson_number_still_finds_its_lesson(capsys) -> None:
    assert main(["app", "01", "--dry-run"]) == 0
    assert "01_" in capsys.readouterr().out
    with pytest.raises(HousingLabError, match="no app or lesson"):
        from housing_lab.commands.lessons import find_lesson, lessons_folder

        find_lesson(lessons_folder(), "\u00b3")  # a superscript 3 is no lesson number

"""GameTable's team names are what a projector can show (issue 25 item 4): printable, 1 to 40
characters, refused in one short line before any game starts."""

from __future__ import annotations

import pytest

from housing_lab.errors import HousingLabError
from housing_lab.widgets import GameTable


@pytest.mark.parametrize("bad", ["Red\nBlue", "Red\x1b[31m", "x" * 41, "x" * 1_000_000, "  "])
def test_unprintable_or_long_names_are_one_short_line(bad) -> None:
    with pytest.raises(HousingLabError, match="a team name is 1 to 40 printable") as caught:
        GameTable(teams=["Green", bad], seed=1)
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 200


def test_start_refuses_a_bad_name_and_keeps_the_game() -> None:
    table = GameTable(teams=["Red", "Blue"], seed=1)
    kept = table.game.to_dict()
    with pytest.raises(HousingLabError):
        table.start(["Red", "B" * 41], 2)
    assert table.game.to_dict() == kept


def test_forty_printable_characters_are_accepted() -> None:
    table = GameTable(teams=["Red", "é" * 40], seed=1)
    assert table.game.players == ["Red", "é" * 40]

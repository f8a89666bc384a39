"""One name check for every door a team's name comes through (issue 25): the engine's `Game`,
the game table and classroom rooms accept and refuse the same names, with the same short line
(`housing_lab.team_names.check_name`)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley.play.state import check_players
from housing_lab.rooms.registry import room_game
from housing_lab.team_names import MAX_NAME, check_name
from housing_lab.widgets.table.checks import check_team_names

NAMES = st.one_of(
    st.text(max_size=45),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=38, max_size=42),
    st.sampled_from(["Red", " Red ", "\t", "Red\nBlue", "Red\x1b[31m", "é" * 40, "x" * 41]),
    st.just("x" * 1_000_000),
)


def verdict(call) -> str | None:
    """None when accepted, else the refusal's words after 'got' (the shown value)."""
    try:
        call()
    except HousingLabError as error:
        message = str(error)
        assert "\n" not in message and len(message) < 300, message[:300]
        return message
    return None


@pytest.mark.slow  # 150 names through four doors (~3 s)
@settings(max_examples=150, deadline=None)
@given(name=NAMES)
def test_hunt_game_table_and_rooms_agree_on_every_name(name: str) -> None:
    """Hunt: a name is accepted everywhere or refused everywhere, in one short line."""
    if "," in name:
        name = name.replace(",", ";")  # rooms also refuse commas (the CLI splits on them)
    one = verdict(lambda: check_name(name))
    engine = verdict(lambda: check_players(["Alpha", name]))
    table = verdict(lambda: check_team_names(["Alpha", name]))
    rooms = verdict(lambda: room_game("north-berkeley").check_teams(["Alpha", name]))
    if one is None:
        assert table is None
        same_as_alpha = name.strip() == "Alpha"
        assert (engine is None) != same_as_alpha and (rooms is None) != same_as_alpha
    else:
        assert None not in (engine, table, rooms)
        shown_value = one.split(", got ", 1)[1]
        for message in (engine, table, rooms):
            assert message.endswith(shown_value)


@pytest.mark.parametrize("bad", ["", "  ", "x" * (MAX_NAME + 1), "a\x00b", "x" * 3_000_000, 7])
def test_the_one_check_refuses_in_one_short_line(bad: object) -> None:
    with pytest.raises(HousingLabError) as caught:
        check_name(bad)
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 200

"""One number check (issue 25 item 3): NaN, infinity, huge integers and wrong types are one
line before anything runs or is stored; no budget or timeout can hang."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from housing_lab.errors import HousingLabError
from housing_lab.numbers import check_number
from housing_lab.rooms import RoomError, open_store
from housing_lab.streetcar.play.mcts import MctsBot

ODD = [math.nan, math.inf, -math.inf, 10**400, -(10**400), "5", None, [5], True]


@pytest.mark.parametrize("value", ODD)
def test_mcts_budgets_refuse_odd_numbers(value) -> None:
    for argument in ("iterations", "seconds", "candidates", "exploration"):
        if value is None and argument in ("iterations", "seconds"):
            continue  # None: no budget of that kind (the default)
        with pytest.raises(HousingLabError) as caught:
            MctsBot(**{argument: value})
        message = str(caught.value)
        assert message.startswith(argument) and "\n" not in message and len(message) < 200


@pytest.mark.parametrize("timeout", [math.nan, math.inf, -1.0, 10**400, "1"])
def test_store_wait_refuses_timeouts_that_never_end(tmp_path, timeout) -> None:
    with open_store(f"sqlite:///{tmp_path / 'r.sqlite'}") as store:
        room = store.create_room(["Red", "Blue"], seed=1)
        with pytest.raises(RoomError, match="timeout must be"):
            store.wait(room["room"], room["teacher"]["token"], after=0, timeout=timeout)
        assert store.wait(room["room"], room["teacher"]["token"], after=0, timeout=0) == 0


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(
        st.floats(allow_nan=True, allow_infinity=True),
        st.integers(min_value=-(10**30), max_value=10**30),
        st.text(max_size=5),
        st.none(),
        st.booleans(),
    )
)
def test_check_number_accepts_or_refuses_in_one_line(value) -> None:
    """Hunt: every value is accepted (then finite, whole and in range) or one short line."""
    try:
        got = check_number(value, "count", low=1, high=10**6, whole=True)
    except HousingLabError as error:
        assert str(error).startswith("count must be") and "\n" not in str(error)
    else:
        assert isinstance(got, int) and not isinstance(got, bool) and 1 <= got <= 10**6


@pytest.mark.parametrize("penalty", [10**400, -(10**400), 10**7, math.nan, "2"])
def test_streetcar_rules_refuse_penalties_no_score_can_hold(penalty) -> None:
    from housing_lab.streetcar.rules import Rules

    with pytest.raises(HousingLabError) as caught:
        Rules(penalty=penalty)
    assert str(caught.value).startswith("penalty must be") and len(str(caught.value)) < 200


@pytest.mark.parametrize("name", [["mcts"], None, 5, "x" * 10_000])
def test_make_bot_refuses_names_that_are_not_bots_in_one_short_line(name) -> None:
    from housing_lab.streetcar.play.bots import make_bot

    with pytest.raises(HousingLabError, match="unknown bot") as caught:
        make_bot(name)  # type: ignore[arg-type]
    assert len(str(caught.value)) < 200

"""Widget constructors at the door (issue 25): a 5,000-digit seed, NaN, infinity, text where a
number belongs, a wrong type: one `HousingLabError` line naming the argument, given by the one
number check (`housing_lab.numbers`), before anything is built."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from housing_lab import numbers
from housing_lab.errors import HousingLabError, shown
from housing_lab.widgets import (
    ChoiceQuestion,
    CoalitionExplorer,
    GameTable,
    NorthBerkeleyLab,
    PredictThenRun,
    ProgressBar,
    StreetcarLab,
    reveal,
)
from housing_lab.widgets.lessons.quiz import NumberQuestion

HUGE = 10**5000 - 1  # 5,000 digits: repr() alone raises ValueError beyond 4,300
ODD_NUMBERS = [HUGE, -HUGE, 2**70, math.nan, math.inf, -math.inf, "5", None, True, 1.5, [5]]
MAX_LINE = 1000


def refused_by_name(call, argument: str) -> str:
    with pytest.raises(HousingLabError) as caught:
        call()
    message = str(caught.value)
    assert "\n" not in message and len(message) <= MAX_LINE, message[:300]
    assert argument in message, message
    return message


CONSTRUCTORS = {
    "NorthBerkeleyLab seed": (lambda v: NorthBerkeleyLab(seed=v), "seed"),
    "StreetcarLab seed": (lambda v: StreetcarLab(seed=v, bot_delay=0), "seed"),
    "StreetcarLab penalty": (lambda v: StreetcarLab(penalty=v, bot_delay=0), "penalty"),
    "StreetcarLab bot_delay": (lambda v: StreetcarLab(bot_delay=v), "bot_delay"),
    "GameTable seed": (lambda v: GameTable(["Red", "Blue"], seed=v), "seed"),
    "GameTable minutes": (
        lambda v: GameTable(["Red", "Blue"], options={"negotiation_minutes": v}),
        "negotiation_minutes",
    ),
    "CoalitionExplorer seed": (lambda v: CoalitionExplorer(seed=v), "seed"),
    "NumberQuestion answer": (lambda v: NumberQuestion("How many?", v, "Because."), "answer"),
}


@pytest.mark.parametrize("value", ODD_NUMBERS, ids=lambda v: shown(v, 20))
@pytest.mark.parametrize("name", CONSTRUCTORS)
def test_odd_numbers_are_refused_naming_the_argument(name: str, value: object) -> None:
    if name == "StreetcarLab bot_delay" and value == 1.5:
        return  # 1.5 seconds is a fine delay
    if name == "GameTable minutes" and value in (1.5, None):
        return  # 1.5 minutes is a fine timer; None is the rulebook's
    call, argument = CONSTRUCTORS[name]
    message = refused_by_name(lambda: call(value), argument)
    assert "an integer of" in message or len(message) < 200


def test_a_seed_up_to_the_clis_largest_is_accepted() -> None:
    assert NorthBerkeleyLab(seed=2**64 - 1).scenario["seed"] == 2**64 - 1
    assert GameTable(["Red", "Blue"], seed=2**64 - 1).game.state.seed == 2**64 - 1


@pytest.mark.parametrize("value", [HUGE, math.nan, "5", 1.5], ids=lambda v: shown(v, 20))
def test_the_refusal_is_the_one_number_checks(value: object) -> None:
    """The words come from `numbers`: a widget has no number check of its own."""

    def words(call) -> str:
        with pytest.raises(HousingLabError) as caught:
            call()
        return str(caught.value)

    seed_words = words(lambda: numbers.check_seed(value))
    assert words(lambda: NorthBerkeleyLab(seed=value)) == seed_words
    assert words(lambda: StreetcarLab(seed=value, bot_delay=0)) == seed_words
    assert words(lambda: GameTable(["A", "B"], seed=value)) == seed_words
    assert words(lambda: CoalitionExplorer(seed=value)) == seed_words
    if value != 1.5:
        assert words(lambda: StreetcarLab(bot_delay=value)) == words(
            lambda: numbers.check_number(value, "bot_delay (seconds)", low=0, high=60)
        )


TEXT_ARGUMENTS = {
    "ChoiceQuestion question": (lambda v: ChoiceQuestion(v), "question"),
    "PredictThenRun question": (lambda v: PredictThenRun(v), "question"),
    "reveal question": (lambda v: reveal(v), "question"),
    "ProgressBar description": (lambda v: ProgressBar(v), "description"),
    "CoalitionExplorer chosen": (lambda v: CoalitionExplorer(chosen=v), "chosen"),
    "GameTable teams": (lambda v: GameTable(v), "teams"),
    "GameTable hidden_hands": (lambda v: GameTable(["A", "B"], hidden_hands=v), "hidden_hands"),
}


@pytest.mark.parametrize("value", [5, None, "ab", b"ab", math.nan, {1: 2}], ids=shown)
@pytest.mark.parametrize("name", TEXT_ARGUMENTS)
def test_wrong_types_are_refused_naming_the_argument(name: str, value: object) -> None:
    if name == "GameTable teams" and value is None:
        return  # None opens the setup screen
    if name == "ProgressBar description" and value == "ab":
        return  # any text is a description
    call, argument = TEXT_ARGUMENTS[name]
    refused_by_name(lambda: call(value), argument)


@pytest.mark.slow  # builds up to 40 widgets
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    value=st.one_of(
        st.integers(),
        st.just(HUGE),
        st.floats(),
        st.text(max_size=5),
        st.none(),
        st.booleans(),
        st.lists(st.integers(), max_size=2),
    ),
    name=st.sampled_from(sorted(CONSTRUCTORS)),
)
def test_hunt_widget_constructors_accept_or_refuse_in_one_line(value, name) -> None:
    """Hunt: any value in any numeric argument: a widget, or one line naming the argument."""
    call, argument = CONSTRUCTORS[name]
    try:
        call(value)
    except HousingLabError as error:
        message = str(error)
        assert "\n" not in message and len(message) <= MAX_LINE and argument in message

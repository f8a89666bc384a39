"""Wrong types at the public Python API of a game (issue 25): every call either is accepted or
raises one `HousingLabError` line that shows the bad value short, and a refused call leaves
the game exactly as it was."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley.coaching.answers import Change
from housing_lab.north_berkeley.coaching.exact import apply_changes, best_change_for_hand, coach
from housing_lab.north_berkeley.errors import UnknownIdError
from housing_lab.north_berkeley.play.game import Game
from housing_lab.north_berkeley.policies import RuleOptions
from housing_lab.north_berkeley.scenario import make_scenario

PLAYERS = ["Red", "Blue"]
HUGE = "x" * 3_000_000  # a 3 MB value must never be printed whole
MAX_LINE = 1000

JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.just(10**400),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=60),
    st.just(HUGE),
    st.binary(max_size=8),
    st.lists(st.one_of(st.text(max_size=8), st.integers()), max_size=4),
    st.dictionaries(st.text(max_size=6), st.integers(), max_size=3),
    st.sets(st.integers(), max_size=3),
    st.tuples(st.integers()),
    st.just(["place"]),
    st.just({"action": ["place"]}),
    st.just(object()),
)


def one_line_refusal(call, game: Game | None = None) -> None:
    """`call()` is accepted, or it raises one short HousingLabError line, state unchanged."""
    before = None if game is None else game.to_dict()
    try:
        call()
    except HousingLabError as error:
        message = str(error)
        assert "\n" not in message and 0 < len(message) <= MAX_LINE, message[:300]
        if game is not None:
            assert game.to_dict() == before


def game_in(phase: str) -> Game:
    game = Game(PLAYERS, 3)
    if phase == "phase1":
        return game
    game.call_state()
    game.advance()
    while game.phase == "extra_draw":
        game.advance()
    if phase == "draft":
        return game
    while game.phase == "draft":
        game.apply(game.legal_actions()[0])
    if phase == "policies":
        return game
    game.enact(game.state.policies_drawn[:1])
    return game


GAMES = {phase: game_in(phase) for phase in ("phase1", "draft", "policies", "phase2")}


def calls(game: Game, value: object) -> list:
    """Every public method of a game, each with `value` in one argument."""
    return [
        lambda: game.place(value, "park"),
        lambda: game.place("B1", value),
        lambda: game.clear(value),
        lambda: game.call_state(value),
        lambda: game.advance(value),
        lambda: game.redraw(value),
        lambda: game.pick(value, "developer"),
        lambda: game.pick(game.draft_turn() or "Red", value),
        lambda: game.enact(value),
        lambda: game.refusal(value, "park"),
        lambda: game.placement_refusal("B1", value),
        lambda: game.clear_refusal(value),
        lambda: game.policy_refusal(value),
        lambda: game.allowed_tiles(value),
        lambda: game.can_redraw(value),
        lambda: game.apply(value),
        lambda: game.apply({"action": value}),
        lambda: game.apply({"action": "place", "square": value, "tile": "park"}),
        lambda: game.apply({"action": "enact", "policies": value}),
        lambda: game.apply({"action": "call_state", "minutes_elapsed": value}),
        lambda: game.apply({"action": "advance", "tie_order": value}),
    ]


@pytest.mark.slow  # about 5 s: 30 values x 21 calls x 4 phases
@settings(max_examples=30, deadline=None)
@given(value=JUNK, phase=st.sampled_from(sorted(GAMES)))
def test_every_game_method_refuses_wrong_types_in_one_line(value: object, phase: str) -> None:
    game = GAMES[phase].clone()
    for call in calls(game, value):
        one_line_refusal(call, game)


@settings(max_examples=15, deadline=None)
@given(value=JUNK)
def test_setting_up_refuses_wrong_types_in_one_line(value: object) -> None:
    for call in (
        lambda: Game(value, 3),
        lambda: Game([value, "Blue"], 3),
        lambda: Game(PLAYERS, value),
        lambda: Game(PLAYERS, 3, options=value),
        lambda: Game(PLAYERS, 3, model=value),
        lambda: Game(PLAYERS, 3, options={"negotiation_minutes": value}),
        lambda: Game.from_actions(PLAYERS, 3, actions=value),
        lambda: Game.from_actions(PLAYERS, 3, actions=[value]),
        lambda: Game.from_dict(value),
        lambda: RuleOptions.from_dict(value),
    ):
        one_line_refusal(call)


@settings(max_examples=15, deadline=None)
@given(value=JUNK)
def test_the_coach_refuses_wrong_types_in_one_line(value: object) -> None:
    scenario = make_scenario({"B1": "park"})
    for call in (
        lambda: coach(scenario, value),
        lambda: coach(scenario, [value]),
        lambda: best_change_for_hand(scenario, value),
        lambda: best_change_for_hand(scenario, [value]),
        lambda: apply_changes(scenario, value),
        lambda: apply_changes(scenario, [value]),
        lambda: apply_changes(scenario, [Change(policy=value, enacted=True)]),
        lambda: apply_changes(scenario, [Change(square=value, tile=None)]),
    ):
        one_line_refusal(call)


# --- the cases the issue names, one by one ----------------------------------------------------
def test_the_issues_cases_are_refused_by_name() -> None:
    game = GAMES["phase1"].clone()
    with pytest.raises(HousingLabError, match="name must be text, got int 1"):
        Game([1, 2], 3)
    with pytest.raises(HousingLabError, match="players must be a list of names, got None"):
        Game(None, 3)
    with pytest.raises(HousingLabError, match=r"minutes_elapsed .* got str '20'"):
        game.call_state("20")
    with pytest.raises(HousingLabError, match="unknown action \\['place'\\]"):
        game.apply({"action": ["place"]})
    with pytest.raises(HousingLabError, match="actions must be a list"):
        Game.from_actions(PLAYERS, 3, actions=None)
    with pytest.raises(HousingLabError, match="minutes_elapsed"):
        game.call_state(math.nan)
    with pytest.raises(HousingLabError, match="minutes_elapsed"):
        game.call_state(10**400)
    draft = GAMES["draft"].clone()
    with pytest.raises(HousingLabError, match="unknown constituent card \\['developer'\\]"):
        draft.pick(draft.draft_turn(), ["developer"])
    policies = GAMES["policies"].clone()
    with pytest.raises(HousingLabError, match=r"policies to enact .* got None"):
        policies.enact(None)


def test_options_as_a_dict_are_read_as_rule_options() -> None:
    game = Game(PLAYERS, 3, options={"negotiation_minutes": 2})
    assert game.state.options == RuleOptions(negotiation_minutes=2)
    with pytest.raises(UnknownIdError, match="unknown rule option 'minutes'"):
        Game(PLAYERS, 3, options={"minutes": 2})


@pytest.mark.parametrize(
    "name", ["Red\x07", "Re\nd", "\x1b[31mRed", "R" * 41, "\u200bRed\u2028", HUGE]
)
def test_names_are_printable_and_at_most_40_characters(name: str) -> None:
    with pytest.raises(HousingLabError) as refused:
        Game([name, "Blue"], 3)
    message = str(refused.value)
    assert "40 printable characters" in message and len(message) < 300
    assert "\n" not in message and "\x07" not in message and "\x1b" not in message


def test_a_name_of_40_characters_is_accepted() -> None:
    assert Game(["R" * 40, " Blue "], 3).players == ["R" * 40, "Blue"]


def test_the_coach_refuses_an_unknown_policy_instead_of_dropping_it() -> None:
    scenario = make_scenario({"B1": "park"})
    with pytest.raises(UnknownIdError, match="unknown policy 'rent_control'"):
        apply_changes(scenario, [Change(policy="rent_control", enacted=True)])
    with pytest.raises(UnknownIdError, match="unknown square 'Z9'"):
        apply_changes(scenario, [Change(square="Z9", tile=None)])
    with pytest.raises(UnknownIdError, match="unknown constituent card \\['urbanists'\\]"):
        coach(scenario, ["urbanists"])
    with pytest.raises(HousingLabError, match="a hand is a list of card ids, got None"):
        best_change_for_hand(scenario, None)
    after = apply_changes(scenario, [Change(policy="adu", enacted=True)])
    assert after.policies == frozenset({"adu"}) or set(after.policies) == {"adu"}

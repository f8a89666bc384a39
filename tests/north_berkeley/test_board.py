"""`Board`, North Berkeley's one front door (issue 42): on random boards with random model
switches, `is_legal`, `refusal` and `legal_actions()` agree with each other and with the rules
(`make_scenario` accepting the board an action leaves); push/pop round-trip; `result()` is
`score_scenario` of the same scenario (and `nb score`'s line); malformed actions are refused in
one line and change nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley import Board, Refusal, make_scenario, score_scenario
from housing_lab.north_berkeley.errors import (
    AffordableOnlyError,
    OverBudgetError,
    ScenarioFormatError,
    UnknownIdError,
)
from housing_lab.north_berkeley.policies import POLICIES
from housing_lab.north_berkeley.scenario import scenario_from_dict
from housing_lab.widgets.lab.changes import machine_ids
from tests.strategies import SQUARES, TILES, models, scalars
from tests.support import Cli

ACTIONS: list[dict[str, Any]] = [
    *({"action": "place", "square": s, "tile": t} for s in SQUARES for t in TILES),
    *({"action": "clear", "square": s} for s in SQUARES),
    *({"action": "set_policy", "policy": p, "enacted": e} for p in POLICIES for e in (True, False)),
]
EXAMPLES = settings(max_examples=25, deadline=None)


@st.composite
def boards(draw: st.DrawFn) -> Board:
    """A board the rules accept, with random switches (a budget may bind)."""
    document = {
        "tiles": draw(st.dictionaries(st.sampled_from(SQUARES), st.sampled_from(TILES))),
        "policies": draw(st.lists(st.sampled_from(POLICIES), unique=True, max_size=4)),
        "seed": draw(st.integers(0, 99)),
        "model": draw(models()),
    }
    try:
        scenario_from_dict(document)
    except HousingLabError:  # affordable_100 broken, over budget: make it valid instead
        document["policies"] = [p for p in document["policies"] if p != "affordable_100"]
        spent = make_scenario(document["tiles"], document["policies"]).to_dict()
        document["model"]["budget"] = score_scenario(make_scenario(**spent)).to_dict()["spending"]
    return Board.from_scenario(document)


def after(board: Board, action: dict[str, Any]) -> dict[str, Any]:
    """The scenario JSON `action` would leave, worked out without the Board."""
    data = board.to_dict()
    if action["action"] == "place":
        data["tiles"] = {**data["tiles"], action["square"]: action["tile"]}
    elif action["action"] == "clear":
        data["tiles"] = {s: t for s, t in data["tiles"].items() if s != action["square"]}
    else:
        kept = [p for p in data["policies"] if p != action["policy"]]
        data["policies"] = kept + [action["policy"]] * action["enacted"]
    return data


def rules_say(board: Board, action: dict[str, Any]) -> tuple[bool, type | None]:
    """(whether the board changes, the error make_scenario raises for the board after)."""
    try:
        scenario = scenario_from_dict(after(board, action))
    except HousingLabError as error:  # the board now is valid: this one differs
        return True, type(error)
    return scenario.to_dict() != board.to_dict(), None


def _valid(data: dict[str, Any]) -> bool:
    try:
        scenario_from_dict(data)
    except HousingLabError:
        return False
    return True


@settings(max_examples=15, deadline=None)  # 152 actions each, asked of make_scenario too
@given(boards())
def test_is_legal_refusal_and_legal_actions_agree_with_the_rules(board: Board) -> None:
    listed = board.legal_actions()
    assert all(action in ACTIONS for action in listed)
    for action in ACTIONS:
        reason = board.refusal(action)
        assert board.is_legal(action) is (reason is None) is (action in listed), action
        changed, error = rules_say(board, action)
        if reason is None:
            assert changed and error is None, action
            continue
        assert isinstance(reason, Refusal) and reason.words and "\n" not in reason.words
        assert machine_ids(reason.words) == [], reason
        expected = {"no_change": None, "affordable_100": AffordableOnlyError}
        expected["budget"] = OverBudgetError
        if reason.rule == "no_change":
            assert not changed and error is None, action
        else:
            assert changed and error is expected[reason.rule], (action, reason, error)


@EXAMPLES
@given(boards(), st.lists(st.sampled_from(ACTIONS), min_size=1, max_size=12), models())
def test_push_pop_round_trip_and_result_is_score_scenario(
    board: Board, actions: list[dict[str, Any]], switch: dict[str, Any]
) -> None:
    played: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for number, action in enumerate(actions):
        if number == len(actions) // 2:  # a model switch in the middle, as the lab makes one
            data = {**board.to_dict(), "model": switch}
            if _valid(data) and data != board.to_dict():
                action = {"action": "set_board", "board": data}
        before = board.to_dict()
        if not board.is_legal(action):
            with pytest.raises(HousingLabError) as refused:
                board.push(action)
            assert str(refused.value).count("\n") == 0
            assert board.to_dict() == before
            continue
        expected = action["board"] if action["action"] == "set_board" else after(board, action)
        board.push(action)
        assert board.to_dict() == scenario_from_dict(expected).to_dict()
        assert board.scenario == scenario_from_dict(board.to_dict())
        result = score_scenario(scenario_from_dict(board.to_dict())).to_dict()
        assert board.result().to_dict() == result
        assert board.result() is board.result()  # kept until the board changes
        played.append((action, before))
    assert board.action_stack == [action for action, _ in played]
    for action, before in reversed(played):
        assert board.pop() == action
        assert board.to_dict() == before
        assert board.result().to_dict() == score_scenario(scenario_from_dict(before)).to_dict()
    with pytest.raises(HousingLabError, match="nothing to undo"):
        board.pop()


@EXAMPLES
@given(boards())
def test_the_palette_is_the_refusal_of_each_tile_and_its_cost_now(board: Board) -> None:
    costs = board.tile_costs()
    for square in SQUARES:
        palette = board.palette(square)
        assert [entry.tile for entry in palette] == TILES
        for entry in palette:
            action = {"action": "place", "square": square, "tile": entry.tile}
            assert entry.refusal == board.refusal(action)
            assert entry.legal is (entry.refusal is None)
            assert entry.cost == costs[entry.tile]
    halved = board.matching_funds_in_effect
    catalogue = board.scenario.catalogue
    assert halved is any(costs[t] != tile.cost for t, tile in catalogue.items())


@settings(max_examples=20, deadline=None)
@given(
    boards(),
    st.sampled_from(ACTIONS),
    st.sampled_from(["action", "square", "tile", "policy", "enacted", "extra"]),
    scalars | st.lists(scalars, max_size=2),
)
def test_malformed_actions_are_one_line_and_change_nothing(
    board: Board, action: dict[str, Any], key: str, value: Any
) -> None:
    bad = {**action, key: value}
    try:
        board.refusal(bad)
    except HousingLabError:
        pass
    else:  # the value happened to be one the action takes (a valid id, a bool)
        return
    before = (board.to_dict(), board.action_stack)
    for ask in (board.refusal, board.is_legal, board.push):
        with pytest.raises(HousingLabError) as refused:
            ask(bad)
        assert "\n" not in str(refused.value)
    assert (board.to_dict(), board.action_stack) == before


@pytest.mark.parametrize(
    ("action", "error", "named"),
    [
        ({"action": "place", "square": "Z9", "tile": "park"}, UnknownIdError, "'Z9'"),
        ({"action": "place", "square": "A1", "tile": "castle"}, UnknownIdError, "'castle'"),
        ({"action": "clear", "square": ["A1"]}, UnknownIdError, "['A1']"),
        ({"action": "set_policy", "policy": "adu", "enacted": "yes"}, ScenarioFormatError, "'yes'"),
        ({"action": "set_policy", "policy": "rent", "enacted": True}, UnknownIdError, "'rent'"),
        ({"action": "clear", "square": "A1", "tile": "park"}, ScenarioFormatError, "'tile'"),
        ({"action": "fly"}, UnknownIdError, "'fly'"),
        ({"action": "clear"}, ScenarioFormatError, "'square'"),
        ("place A1", ScenarioFormatError, "'place A1'"),
        ({"action": "set_board", "board": {"tiles": []}}, ScenarioFormatError, "[]"),
    ],
)
def test_each_malformed_action_names_the_bad_value(action: Any, error: type, named: str) -> None:
    board = Board({"B1": "park"}, seed=2)
    with pytest.raises(error) as refused:
        board.push(action)
    assert named in str(refused.value) and "\n" not in str(refused.value)
    assert board.to_dict() == Board({"B1": "park"}, seed=2).to_dict() and not board.action_stack


def test_refusals_name_the_rule_the_ids_and_words() -> None:
    board = Board({"A1": "tower_market", "B1": "park"}, model={"budget": 3})
    assert board.refusal({"action": "place", "square": "B1", "tile": "park"}) == Refusal(
        "no_change", ("B1", "park"), "the Park already stands on B1"
    )
    assert board.refusal({"action": "clear", "square": "C1"}) == Refusal(
        "no_change", ("C1",), "square C1 is already empty"
    )
    enact = board.refusal({"action": "set_policy", "policy": "affordable_100", "enacted": True})
    assert enact is not None and enact.rule == "affordable_100"
    assert enact.ids == ("affordable_100", "A1")
    assert enact.words.endswith("market homes on A1 (Market Rate Tower)")
    over = board.refusal({"action": "place", "square": "C1", "tile": "tower_public"})
    assert over == Refusal(
        "budget",
        ("C1", "tower_public"),
        "Low Income Public Housing Tower on C1: the board would spend $7, over the city "
        "budget of $3",
    )
    with pytest.raises(OverBudgetError, match="would spend \\$7"):
        board.push({"action": "place", "square": "C1", "tile": "tower_public"})
    repeal = Board(
        {"A1": "tower_public", "A2": "tower_public"}, ["matching_funds"], model={"budget": 6}
    ).refusal({"action": "set_policy", "policy": "matching_funds", "enacted": False})
    assert repeal is not None and repeal.rule == "budget" and repeal.ids == ("matching_funds",)
    assert repeal.words.startswith("repealing Matching Affordable Housing Funds: the board would")


def test_push_names_where_a_tile_is_refused_and_the_board_keeps_its_model() -> None:
    board = Board(policies=["affordable_100"], model={"market_homes_for": ["high", "low"]})
    action = {"action": "place", "square": "A3", "tile": "tower_market"}
    assert board.refusal(action).words == (
        "100% Affordable Housing allows only low/middle income tiles on phase-2 squares"
    )
    with pytest.raises(AffordableOnlyError, match=r"market homes on A3 \(Market Rate Tower\)$"):
        board.push(action)
    board.push({"action": "place", "square": "B1", "tile": "tower_market"})
    assert board.to_dict()["model"]["market_homes_for"] == ["high", "low"]
    two = Board({"A1": "tower_market", "A2": "midrise_market"})
    with pytest.raises(AffordableOnlyError, match=r"A1 \(Market Rate Tower\), A2 \(Market"):
        two.push({"action": "set_policy", "policy": "affordable_100", "enacted": True})
    twin = board.copy()
    twin.pop()
    assert board.to_dict()["tiles"] == {"B1": "tower_market"} and twin.to_dict()["tiles"] == {}


def test_a_board_refuses_options_that_carry_another_model() -> None:
    from housing_lab.north_berkeley import RuleOptions

    with pytest.raises(ScenarioFormatError, match=r"Board\(model=\.\.\.\)"):
        Board(options=RuleOptions(model={"budget": 3}))


def test_result_is_what_nb_score_prints(cli: Cli) -> None:
    board = Board({"A1": "tower_public", "B2": "park"}, ["adu"], seed=5, model={"budget": 12})
    board.push({"action": "set_policy", "policy": "vacancy_control", "enacted": True})
    code, out, err = cli("nb", "score", "-", stdin=json.dumps(board.to_dict()))
    assert code == 0, err
    assert json.loads(out) == board.result().to_dict()


@pytest.mark.parametrize("budget", [None, 3, 7])
def test_a_game_and_a_board_refuse_alike(budget: int | None) -> None:
    """The two front doors ask the same engine.legal questions: in a building phase, on its
    squares, a game's refusal is the board's (but a game lets the same tile go down again)."""
    from housing_lab.north_berkeley import Game

    game = Game(["Red", "Blue"], seed=4, model=None if budget is None else {"budget": budget})
    game.place("B1", "park")
    board = Board.from_scenario(game.scenario())
    for action in ACTIONS:
        if action["action"] == "set_policy" or action["square"] not in game.phase_squares():
            continue
        reason = game.building_refusal(action)
        if action["action"] == "place" and board.tiles.get(action["square"]) == action["tile"]:
            assert reason is None and board.refusal(action).rule == "no_change"
        else:
            assert reason == board.refusal(action), action
    phase = game.building_refusal({"action": "place", "square": "A1", "tile": "park"})
    assert phase is not None and phase.rule == "phase" and phase.ids == ("A1",)


def test_first_refusal_plays_the_actions_in_turn_and_leaves_the_board() -> None:
    board = Board({"A1": "park"}, model={"budget": 7})
    cheap_first = [
        {"action": "place", "square": "A1", "tile": "tower_market"},  # $1 -> $0
        {"action": "place", "square": "B1", "tile": "tower_public"},  # $6 of 7
    ]
    assert board.first_refusal(cheap_first) is None
    dear_first = [
        {"action": "place", "square": "B1", "tile": "tower_public"},  # $1 + $6
        {"action": "place", "square": "B2", "tile": "tower_public"},  # $13: refused
        {"action": "clear", "square": "A1"},
    ]
    reason = board.first_refusal(dear_first)
    assert reason is not None and reason.rule == "budget" and reason.ids == ("B2", "tower_public")
    assert board.to_dict()["tiles"] == {"A1": "park"} and not board.can_pop
    with pytest.raises(ScenarioFormatError, match="list of actions"):
        board.first_refusal({"action": "clear", "square": "A1"})


def test_a_games_palettes_are_its_refusals_and_legal_actions() -> None:
    from housing_lab.north_berkeley import Game

    game = Game(["Red", "Blue"], seed=4, model={"budget": 5})
    game.place("C1", "tower_inclusionary_50")
    listed = game.legal_actions()
    for square, palette in game.palettes().items():
        for entry in palette:
            action = {"action": "place", "square": square, "tile": entry.tile}
            why = game.placement_refusal(square, entry.tile)
            assert entry.legal is (action in listed) is (why is None) is (entry.refusal is None)
            if entry.refusal is not None:
                assert entry.refusal.words == why

"""The engine's errors say tiles, policies, cards and phases as printed, from where they are
raised (issue 42: no view rewrites them), and keep the ids for programs in `error.ids`."""

from __future__ import annotations

import json
import pickle

import pytest

from housing_lab.north_berkeley import Board, Game, make_scenario, scenario_from_dict
from housing_lab.north_berkeley.constituents import cards
from housing_lab.north_berkeley.engine import legal
from housing_lab.north_berkeley.errors import (
    AffordableOnlyError,
    IllegalActionError,
    NorthBerkeleyError,
    OverBudgetError,
    ScenarioFormatError,
    UnknownIdError,
)
from housing_lab.north_berkeley.play import saves
from housing_lab.north_berkeley.play.actions import action_words
from housing_lab.north_berkeley.policies import POLICIES, check_policy
from housing_lab.north_berkeley.tiles import default_catalogue

CATALOGUE = default_catalogue()
AFFORDABLE = (
    "100% Affordable Housing allows only low/middle income tiles on phase-2 squares; market "
    "homes on "
)


def test_an_unknown_tile_is_quoted_and_the_tiles_are_named_as_printed() -> None:
    with pytest.raises(UnknownIdError) as raised:
        legal.check_tile("towr", CATALOGUE)
    names = ", ".join(tile.name for tile in CATALOGUE.values())
    assert str(raised.value) == f"unknown tile 'towr' (tiles: {names})"
    assert "Market Rate Tower, 25% Inclusionary Tower" in str(raised.value)
    assert raised.value.ids == tuple(CATALOGUE)  # the ids a program may give instead


def test_an_unknown_policy_is_quoted_and_the_policies_are_named_as_printed() -> None:
    with pytest.raises(UnknownIdError) as raised:
        check_policy("rent_control")
    assert str(raised.value) == (
        "unknown policy 'rent_control' (known: Vacancy Control, 100% Affordable Housing, "
        "Accessory Dwelling Units, Matching Affordable Housing Funds)"
    )
    assert raised.value.ids == POLICIES


def test_a_scenario_with_market_homes_under_affordable_100_names_the_tiles() -> None:
    tiles = {"A1": "tower_market", "B3": "midrise_market", "A2": "park"}
    with pytest.raises(AffordableOnlyError) as raised:
        make_scenario(tiles, ["affordable_100"])
    said = f"{AFFORDABLE}A1 (Market Rate Tower), B3 (Market Rate Midrise)"
    assert str(raised.value) == said
    assert raised.value.ids == ("affordable_100", "A1", "tower_market", "B3", "midrise_market")
    # the same words as the rules' refusal to enact it on that board
    board = Board(tiles)
    refusal = board.refusal({"action": "set_policy", "policy": "affordable_100", "enacted": True})
    assert refusal is not None and refusal.words == said


def test_a_policy_listed_twice_is_named() -> None:
    with pytest.raises(ScenarioFormatError) as raised:
        scenario_from_dict({"policies": ["matching_funds", "matching_funds"]})
    assert str(raised.value) == "Matching Affordable Housing Funds is listed twice in 'policies'"
    assert raised.value.ids == ("matching_funds",)


def test_a_boards_refusal_keeps_its_ids_on_the_error() -> None:
    board = Board(policies=["affordable_100"], model={"budget": 4})
    with pytest.raises(AffordableOnlyError) as raised:
        board.push({"action": "place", "square": "A3", "tile": "tower_market"})
    assert str(raised.value) == f"{AFFORDABLE}A3 (Market Rate Tower)"
    assert raised.value.ids == ("affordable_100", "A3", "tower_market")
    with pytest.raises(OverBudgetError) as raised:
        board.push({"action": "place", "square": "B1", "tile": "tower_public"})
    assert str(raised.value).startswith("Low Income Public Housing Tower on B1: ")
    assert raised.value.ids == ("B1", "tower_public")


def test_errors_without_ids_have_none_and_ids_survive_a_pickle() -> None:
    assert IllegalActionError("nothing to undo").ids == ()
    error = pickle.loads(pickle.dumps(UnknownIdError("unknown", ids=["park"])))
    assert str(error) == "unknown" and error.ids == ("park",)


# --- the game --------------------------------------------------------------------------------
def extra_draw() -> Game:
    game = Game(["Red", "Blue", "Green"], seed=3)
    game.call_state()
    game.advance()
    assert game.phase == "extra_draw"
    return game


def policy_choice() -> Game:
    """Four players, seed 1: Vacancy Control and 100% Affordable Housing are drawn."""
    game = Game(["A", "B", "C", "D"], seed=1)
    game.call_state()
    game.advance()
    while game.phase == "draft":
        game.pick(game.draft_turn(), game.state.draft_pool[0])
    assert game.state.policies_drawn == ["vacancy_control", "affordable_100"]
    return game


def test_an_action_of_another_phase_names_both_phases_in_words() -> None:
    game = extra_draw()
    with pytest.raises(IllegalActionError) as raised:
        game.place("B1", "park")
    assert str(raised.value) == (
        "that action belongs to phase 1 or phase 2; now it is the extra draw"
    )
    with pytest.raises(IllegalActionError, match=r"^that action belongs to the draft; now it is"):
        game.pick("Red", "urbanists")
    with pytest.raises(IllegalActionError, match=r"^that action belongs to the policy choice;"):
        game.enact(["adu"])


def test_a_redraw_refused_names_the_card() -> None:
    game = extra_draw()
    player = next(p for p in game.players if not game.can_redraw(p))
    card = game.state.extra[player]
    with pytest.raises(IllegalActionError) as raised:
        game.redraw(player)
    assert str(raised.value) == (
        f"{player} may redraw only while {cards()[card].name} scores -1 on the current board"
    )
    assert raised.value.ids == (card,)


def test_a_card_not_face_up_is_named_with_the_face_up_ones() -> None:
    game = extra_draw()
    game.advance()
    pool = game.state.draft_pool
    held = game.state.hands["Red"][0]
    with pytest.raises(IllegalActionError) as raised:
        game.pick(game.draft_turn(), held)
    names = ", ".join(cards()[c].name for c in pool)
    assert str(raised.value) == f"{cards()[held].name} is not among the face-up cards ({names})"
    assert raised.value.ids == (held, *pool)


def test_the_policy_choice_names_the_drawn_policies() -> None:
    game = policy_choice()
    choose = "choose Vacancy Control or 100% Affordable Housing"
    with pytest.raises(IllegalActionError) as raised:
        game.enact(["adu"])
    assert str(raised.value) == f"Accessory Dwelling Units was not drawn; {choose}"
    assert raised.value.ids == ("adu", "vacancy_control", "affordable_100")
    assert game.policy_refusal("adu") == str(raised.value)  # asked or played: the same words
    with pytest.raises(IllegalActionError) as raised:
        game.enact(["rent_control"])
    assert str(raised.value) == f"policy 'rent_control' was not drawn; {choose}"
    assert raised.value.ids == ("vacancy_control", "affordable_100")
    with pytest.raises(IllegalActionError) as raised:
        game.enact([])
    assert str(raised.value) == (
        "enact one or both of Vacancy Control and 100% Affordable Housing, not none"
    )
    with pytest.raises(IllegalActionError) as raised:
        game.advance()
    assert str(raised.value) == (
        "enact one or both of the drawn policies first (Vacancy Control and 100% Affordable "
        "Housing)"
    )


def test_market_homes_in_phase_2_are_named_by_the_game() -> None:
    game = policy_choice()
    game.enact(["affordable_100"])
    with pytest.raises(AffordableOnlyError) as raised:
        game.place("A1", "tower_market")
    assert str(raised.value) == f"{AFFORDABLE}A1 (Market Rate Tower)"
    assert raised.value.ids == ("affordable_100", "A1", "tower_market")


def test_a_replayed_log_names_the_refused_action_in_words_and_keeps_its_error() -> None:
    actions = [
        {"action": "place", "square": "B1", "tile": "park"},
        {"action": "place", "square": "A1", "tile": "tower_market"},
    ]
    with pytest.raises(IllegalActionError) as raised:
        Game.from_actions(["A", "B"], 1, actions=actions)
    assert str(raised.value) == (
        "action 2 (placing a tile on A1): square A1 is not a phase-1 square (B1, C1, B2, C2)"
    )
    data = json.loads(Game(["A", "B"], seed=1).to_json())
    data["log"] = [{"action": "pick", "player": "A", "card": "developer"}]
    game = Game(["A", "B"], seed=1)
    with pytest.raises(IllegalActionError) as raised:
        saves.replay(game, saves.read_save(data))
    assert str(raised.value) == (
        "saved game: action 1 (a draft pick by A) refused: that action belongs to the draft; "
        "now it is phase 1"
    )
    data["log"] = [{"action": "place", "square": "B1", "tile": "towr"}]
    with pytest.raises(UnknownIdError) as raised:
        saves.replay(Game(["A", "B"], seed=1), saves.read_save(data))
    assert raised.value.ids == tuple(CATALOGUE)  # the inner error's ids, kept


@pytest.mark.parametrize(
    ("action", "words"),
    [
        ({"action": "place", "square": "B1", "tile": "tower_market"}, "placing a tile on B1"),
        ({"action": "clear", "square": "C2"}, "clearing square C2"),
        ({"action": "call_state", "minutes_elapsed": 3}, "calling the state"),
        ({"action": "advance", "tie_order": ["A", "B"]}, "moving on to the next step"),
        ({"action": "redraw", "player": "Red"}, "a redraw by Red"),
        ({"action": "pick", "player": "Red", "card": "developer"}, "a draft pick by Red"),
        ({"action": "enact", "policies": ["adu"]}, "enacting policies"),
        ({"action": "place", "square": ["B1"], "tile": "park"}, "placing a tile on ['B1']"),
        ({"action": "pick", "player": "x" * 100}, f"a draft pick by '{'x' * 36}..."),
        ({"action": "place"}, "placing a tile"),
        ({"action": "teleport"}, "{'action': 'teleport'}"),
        ({"action": ["place"]}, "{'action': ['place']}"),
        ("place B1 park", "'place B1 park'"),
    ],
)
def test_action_words_leave_ids_to_the_refusal(action: object, words: str) -> None:
    assert action_words(action) == words


def test_every_north_berkeley_error_takes_ids() -> None:
    for kind in (UnknownIdError, ScenarioFormatError, AffordableOnlyError, OverBudgetError):
        error = kind("words", ids=("park",))
        assert isinstance(error, NorthBerkeleyError) and error.ids == ("park",)

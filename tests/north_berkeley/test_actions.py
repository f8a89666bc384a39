"""Actions as data: `legal_actions()` lists exactly what `apply` accepts, and logs replay."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley import Game
from housing_lab.north_berkeley.constituents import CARD_IDS
from housing_lab.north_berkeley.errors import (
    AffordableOnlyError,
    IllegalActionError,
    ScenarioFormatError,
    UnknownIdError,
)
from housing_lab.north_berkeley.layout import default_layout
from housing_lab.north_berkeley.play.actions import ACTION_KINDS, check_action
from housing_lab.north_berkeley.play.autoplay import play_random_game
from housing_lab.north_berkeley.policies import POLICIES, RuleOptions
from housing_lab.north_berkeley.rules import DRAFT_SIZE
from housing_lab.north_berkeley.tiles import default_catalogue

LAYOUT = default_layout()
TILE_IDS = list(default_catalogue())
AFFORDABLE_TILES = [
    "tower_workforce",
    "tower_public",
    "midrise_workforce",
    "midrise_public",
    "townhouse_middle",
    "townhouse_low",
    "garage",
    "park",
]  # RULES.md, affordable_100


def key(action: Mapping[str, Any]) -> tuple[Any, ...]:
    """An action's identity: enacted policies are a set (order and repeats do not matter)."""
    if action.get("action") == "enact" and isinstance(action.get("policies"), list):
        return ("enact", frozenset(action["policies"]))
    return tuple(sorted((k, json.dumps(v)) for k, v in action.items()))


def random_action(game: Game, rng: random.Random) -> dict[str, Any]:
    """Any action of the vocabulary with plausible (often illegal, sometimes bad) values."""
    kind = rng.choice([*ACTION_KINDS, "fly"])
    values = {
        "square": rng.choice([*LAYOUT.squares, "Z9"]),
        "tile": rng.choice([*TILE_IDS, "castle"]),
        "player": rng.choice([*game.players, "Nobody"]),
        "card": rng.choice([*CARD_IDS, "x"]),
        "policies": rng.choices([*POLICIES, "rent_freeze"], k=rng.randint(0, 3)),
    }
    fields = {
        "place": ("square", "tile"),
        "clear": ("square",),
        "redraw": ("player",),
        "pick": ("player", "card"),
        "enact": ("policies",),
    }.get(kind, ())
    if game.phase == "draft" and kind == "pick" and rng.random() < 0.5:
        values["player"] = str(game.draft_turn())  # make legal picks likely
        values["card"] = rng.choice([*game.state.draft_pool, "x"])
    if game.phase == "policies" and kind == "enact" and rng.random() < 0.5:
        drawn = game.state.policies_drawn
        values["policies"] = rng.sample(drawn, rng.randint(1, len(drawn)))
    return {"action": kind, **{name: values[name] for name in fields}}


def progress_action(game: Game, rng: random.Random) -> dict[str, Any]:
    """A random legal action, leaning towards the ones that move the game on."""
    legal = game.legal_actions()
    onward = [a for a in legal if a["action"] not in ("place", "clear")]
    return rng.choice(onward if onward and rng.random() < 0.4 else legal)


def check_legal_actions_are_exact(game: Game, rng: random.Random, tries: int = 30) -> None:
    """Every listed action applies; random actions apply exactly when they are listed, and a
    refused one changes nothing. Tried on a copy, each accepted action taken back with undo."""
    legal = game.legal_actions()
    listed = {key(a) for a in legal}
    assert len(listed) == len(legal), "an action is listed twice"
    assert json.loads(json.dumps(legal)) == legal  # JSON-ready
    snapshot = copy.deepcopy(game.state)
    trial = game.clone()
    for action in legal:
        trial.apply(action)  # raises if a listed action is refused
        trial.undo()
    for _ in range(tries):
        action = random_action(trial, rng)
        if key(action) in listed:
            trial.apply(action)
            trial.undo()
            continue
        with pytest.raises(HousingLabError) as refused:
            trial.apply(action)
        assert "\n" not in str(refused.value)
        assert trial.state == snapshot, f"{action} was refused but changed the state"
    assert trial.state == snapshot


def play_checking_legal_actions(players: int, seed: int) -> None:
    """A random game in which every position's legal actions are checked against `apply`."""
    rng = random.Random(seed)
    options = RuleOptions(current_score=rng.choice(["as_is", "projected"]))
    game = Game([f"T{i}" for i in range(players)], seed=seed, options=options)
    while game.phase != "over":
        check_legal_actions_are_exact(game, rng)
        game.apply(progress_action(game, rng))
    assert game.legal_actions() == []
    check_legal_actions_are_exact(game, rng)


@pytest.mark.parametrize("players", range(2, 7))
def test_legal_actions_list_exactly_what_apply_accepts(players: int) -> None:
    play_checking_legal_actions(players, seed=players)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6), st.integers(0, 10**6))
def test_legal_actions_are_exact_in_many_random_games(players: int, seed: int) -> None:
    play_checking_legal_actions(players, seed)


@settings(max_examples=20, deadline=None)
@given(st.integers(2, 6), st.integers(0, 10**6), st.integers(0, 60))
def test_a_game_replays_from_its_action_log(players: int, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    game = Game([f"T{i}" for i in range(players)], seed=seed)
    for _ in range(steps):
        if game.phase == "over":
            break
        game.apply(progress_action(game, rng))
    replayed = Game.from_actions(game.players, seed, game.state.options, game.history())
    assert replayed.to_dict() == game.to_dict()


@pytest.mark.parametrize("seed", range(6))
def test_whole_random_games_replay(seed: int) -> None:
    options = RuleOptions(current_score="projected" if seed % 2 else "as_is")
    game = play_random_game(2 + seed % 5, seed=seed, options=options)
    log = json.loads(json.dumps(game.history()))  # as if saved to a file and read back
    replayed = Game.from_actions(game.players, seed, options, log)
    assert replayed.to_dict() == game.to_dict()
    assert replayed.result().to_dict() == game.result().to_dict()


def test_call_state_is_the_same_action_given_the_seed() -> None:
    game = Game(["A", "B", "C"], seed=11)
    game.place("B1", "park")
    first, second = game.clone(), game.clone()
    first.apply({"action": "call_state"})
    second.apply({"action": "call_state"})
    assert first.to_dict() == second.to_dict()
    assert first.state.log[-1] == second.state.log[-1]
    assert set(first.state.log[-1]["tiles"]) == {"C1", "B2", "C2"}


def test_golden_counts_of_legal_actions() -> None:
    game = Game(["A", "B"], seed=5)
    assert len(game.legal_actions()) == 4 * 15 + 1  # place anything on 4 squares; call the state
    assert game.legal_actions()[-1] == {"action": "call_state"}
    game.apply({"action": "call_state"})
    assert len(game.legal_actions()) == 4 * 15 + 4 + 1  # ... clear any of them; advance
    assert game.legal_actions()[-1] == {"action": "advance"}
    game.apply({"action": "advance"})
    assert game.phase == "extra_draw"
    assert game.legal_actions()[-1] == {"action": "advance"}
    game.apply({"action": "advance"})
    turn = game.draft_turn()
    assert game.legal_actions() == [
        {"action": "pick", "player": turn, "card": card} for card in game.state.draft_pool
    ]
    assert len(game.legal_actions()) == DRAFT_SIZE


def test_enact_lists_each_drawn_policy_then_both() -> None:
    game = Game(["A", "B", "C", "D"], seed=2)
    game.call_state()
    game.advance()
    while game.phase == "draft":
        game.apply(game.legal_actions()[0])
    first, second = game.state.policies_drawn
    assert game.legal_actions() == [
        {"action": "enact", "policies": [first]},
        {"action": "enact", "policies": [second]},
        {"action": "enact", "policies": [first, second]},
    ]
    game.apply({"action": "enact", "policies": [second, first, second]})  # a set, in effect
    assert game.state.policies == [first, second]


def _phase_two(policies: list[str], seed: int = 0) -> Game:
    """A 4-player game at phase 2, with the policy deck arranged so `policies` are drawn."""
    game = Game(["A", "B", "C", "D"], seed=seed)
    rest = [p for p in POLICIES if p not in policies]
    game.state.policy_deck = [*policies, *rest][: len(POLICIES)]
    game.call_state()
    game.advance()
    while game.phase == "draft":
        game.apply(game.legal_actions()[0])
    game.enact(policies)
    return game


def test_allowed_tiles_follow_affordable_100_on_phase_two_squares_only() -> None:
    game = Game(["A", "B"], seed=1)
    assert game.allowed_tiles("B1") == tuple(TILE_IDS)
    assert game.allowed_tiles("A1") == ()  # a phase-2 square during phase 1
    with pytest.raises(UnknownIdError, match="'Z9'"):
        game.allowed_tiles("Z9")
    game = _phase_two(["affordable_100"])
    assert game.allowed_tiles("A1") == tuple(AFFORDABLE_TILES)
    assert game.allowed_tiles("B1") == ()  # phase 1 is over
    with pytest.raises(AffordableOnlyError, match=r"market homes on A1 \(Market Rate Tower\)$"):
        game.apply({"action": "place", "square": "A1", "tile": "tower_market"})
    state = game.call_state()
    assert set(state.values()) <= set(AFFORDABLE_TILES)
    assert _phase_two(["adu"]).allowed_tiles("A1") == tuple(TILE_IDS)


def test_redraw_keeps_the_draft_reserve() -> None:
    """The boundary of the extra draw: a -1 card may be redrawn while the deck holds more
    than the 7 cards the draft needs, and not once it is down to them."""
    assert DRAFT_SIZE == 7

    def extra_draw_with_deck(size: int) -> Game:
        """Two players in the extra draw; A's face-up card is Park and Ride, which scores -1
        on a board of parks (no garage); the deck holds `size` cards."""
        game = Game(["A", "B"], seed=1)
        for square in game.phase_squares():
            game.place(square, "park")
        game.advance()
        state = game.state  # arranged in place: no saved game replays to this position
        swap = {"park_and_ride": state.extra["A"], state.extra["A"]: "park_and_ride"}
        for pile in (state.deck, state.discard, *state.hands.values()):
            pile[:] = [swap.get(card, card) for card in pile]
        state.extra = {p: swap.get(card, card) for p, card in state.extra.items()}
        state.discard += state.deck[size:]
        state.deck = state.deck[:size]
        return game

    assert extra_draw_with_deck(DRAFT_SIZE + 1).can_redraw("A")
    assert {"action": "redraw", "player": "A"} in extra_draw_with_deck(
        DRAFT_SIZE + 1
    ).legal_actions()
    game = extra_draw_with_deck(DRAFT_SIZE + 1)
    game.redraw("A")
    assert len(game.state.deck) == DRAFT_SIZE
    at_reserve = extra_draw_with_deck(DRAFT_SIZE)
    assert at_reserve.current_card_scores()["park_and_ride"].minus
    assert not at_reserve.can_redraw("A")
    assert {"action": "redraw", "player": "A"} not in at_reserve.legal_actions()
    with pytest.raises(IllegalActionError, match="keeps 7 for the draft"):
        at_reserve.apply({"action": "redraw", "player": "A"})


def test_advance_with_a_tie_order_is_kept_in_the_log_and_replays() -> None:
    game = Game(["A", "B", "C", "D"], seed=3)
    game.call_state()
    game.apply({"action": "advance", "tie_order": ["D", "C", "B", "A"]})
    assert game.history()[-1] == {"action": "advance", "tie_order": ["D", "C", "B", "A"]}
    replayed = Game.from_actions(game.players, 3, actions=game.history())
    assert replayed.state.draft_order == game.state.draft_order
    assert replayed.to_dict() == game.to_dict()
    seating = Game(["A", "B", "C", "D"], seed=3)
    seating.call_state()
    seating.apply({"action": "advance", "tie_order": ["A", "B", "C", "D"]})  # the default
    assert seating.history()[-1] == {"action": "advance"}


def test_call_state_action_checks_the_timer_but_the_log_does_not_keep_it() -> None:
    game = Game(["A", "B"], seed=3)
    with pytest.raises(IllegalActionError, match="only 4 have passed"):
        game.apply({"action": "call_state", "minutes_elapsed": 4})
    game.apply({"action": "call_state", "minutes_elapsed": 10})
    assert game.history() == [{"action": "call_state"}]


def test_undone_actions_leave_the_history() -> None:
    game = Game(["A", "B"], seed=3)
    game.apply({"action": "place", "square": "B1", "tile": "park"})
    game.apply({"action": "clear", "square": "B1"})
    game.undo()
    assert game.history() == [{"action": "place", "square": "B1", "tile": "park"}]


@pytest.mark.parametrize(
    ("action", "error", "names"),
    [
        ("place B1 park", ScenarioFormatError, "'place B1 park'"),
        ({"square": "B1"}, UnknownIdError, "unknown action None"),
        ({"action": "fly"}, UnknownIdError, "unknown action 'fly'"),
        ({"action": "place", "square": "B1"}, ScenarioFormatError, "needs the field 'tile'"),
        ({"action": "clear", "square": "B1", "tile": "park"}, ScenarioFormatError, "'tile'"),
        ({"action": "place", "square": 5, "tile": "park"}, ScenarioFormatError, "got 5"),
        ({"action": "enact", "policies": "adu"}, ScenarioFormatError, "got 'adu'"),
        ({"action": "enact", "policies": [["adu"]]}, ScenarioFormatError, r"\[\['adu'\]\]"),
        ({"action": "call_state", "minutes_elapsed": "ten"}, ScenarioFormatError, "'ten'"),
        ({"action": "place", "square": "Z9", "tile": "park"}, UnknownIdError, "'Z9'"),
        ({"action": "place", "square": "A1", "tile": "park"}, IllegalActionError, "A1"),
        ({"action": "pick", "player": "A", "card": "developer"}, IllegalActionError, "draft"),
    ],
)
def test_bad_actions_are_refused_in_one_line(action: object, error: type, names: str) -> None:
    game = Game(["A", "B"], seed=1)
    before = game.to_json()
    with pytest.raises(error, match=names) as refused:
        game.apply(action)  # type: ignore[arg-type]
    assert "\n" not in str(refused.value)
    assert game.to_json() == before


def test_check_action_returns_kind_and_fields() -> None:
    assert check_action({"action": "advance", "tie_order": ["B", "A"]}) == (
        "advance",
        {"tie_order": ["B", "A"]},
    )


def test_a_refused_action_in_a_log_is_reported_with_its_number() -> None:
    log = [{"action": "call_state"}, {"action": "place", "square": "A1", "tile": "park"}]
    with pytest.raises(IllegalActionError, match=r"^action 2 .*A1.* not a phase-1 square"):
        Game.from_actions(["A", "B"], 1, actions=log)

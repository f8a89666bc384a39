"""Saved games: version 2 (players, seed, options, action log) replayed through `Game.apply`,
version 1 (the whole state) replayed and compared field by field. Every edit a class could make
to a file is refused in one line; a save loaded and saved again is the same text."""

from __future__ import annotations

import copy
import json
import math
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley.errors import IllegalActionError, ScenarioFormatError
from housing_lab.north_berkeley.play import handouts, saves
from housing_lab.north_berkeley.play.autoplay import play_random_game
from housing_lab.north_berkeley.play.game import Game
from housing_lab.north_berkeley.policies import RuleOptions


def random_walk(players: int, seed: int, steps: int, pick: Callable[[int], int]) -> Game:
    """A game after `steps` random legal actions (`pick(n)` chooses one of n), undo included."""
    game = Game([f"Team {n}" for n in range(1, players + 1)], seed=seed)
    for _ in range(steps):
        legal = game.legal_actions()
        if not legal:
            break
        choice = pick(len(legal) + 1)
        if choice == len(legal):
            if game.can_undo:
                game.undo()
        else:
            game.apply(legal[choice])
    return game


def shuffled_keys(value: Any, rng: random.Random) -> Any:
    """The same JSON value with every object's keys in a random order."""
    if isinstance(value, dict):
        keys = list(value)
        rng.shuffle(keys)
        return {key: shuffled_keys(value[key], rng) for key in keys}
    if isinstance(value, list):
        return [shuffled_keys(item, rng) for item in value]
    return value


def refused(data: Any, *, kind: type[Exception] = HousingLabError) -> str:
    """The one-line message a saved game is refused with (as a dict and as JSON text)."""
    with pytest.raises(kind) as raised:
        Game.from_dict(data)
    message = str(raised.value)
    assert "\n" not in message and len(message) <= 1000, message
    try:
        text = json.dumps(data)
    except (TypeError, ValueError):
        return message
    with pytest.raises(HousingLabError):
        Game.from_json(text)
    return message


def finished(players: int = 3, seed: int = 5) -> Game:
    return play_random_game(players, seed=seed)


# --- round trips ------------------------------------------------------------------------------
@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 6), st.integers(0, 2**40), st.data())
def test_round_trip_of_random_games_and_their_prefixes(players: int, seed: int, data) -> None:
    whole = play_random_game(players, seed=seed)
    cut = data.draw(st.integers(0, len(whole.history())), label="cut")
    game = Game.from_actions(whole.players, seed, actions=whole.history()[:cut])
    text = game.to_json()
    resumed = Game.from_json(text)
    assert resumed.to_dict() == game.to_dict()
    assert resumed.to_json() == text
    assert Game.from_dict(game.to_dict()).to_json() == text  # version 1 reads the same game
    rng = random.Random(seed)
    for source in (json.loads(text), game.to_dict()):
        reordered = json.dumps(shuffled_keys(source, rng), sort_keys=rng.random() < 0.5)
        assert Game.from_json(reordered).to_json() == text


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 6), st.integers(0, 10**6), st.integers(0, 60), st.randoms())
def test_round_trip_of_random_walks_with_undo(players, seed, steps, rng: random.Random) -> None:
    game = random_walk(players, seed, steps, rng.randrange)
    saved = saves.save_dict(game)
    assert saved["log"] == game.history()
    resumed = Game.from_dict(saved)
    assert resumed.to_dict() == game.to_dict()
    assert saves.save_dict(resumed) == saved
    # the resumed game plays on exactly like the original
    for _ in range(5):
        legal = game.legal_actions()
        if not legal:
            break
        action = legal[rng.randrange(len(legal))]
        game.apply(action)
        resumed.apply(action)
    assert resumed.to_dict() == game.to_dict()


def test_version_2_holds_only_what_the_table_decided() -> None:
    game = Game(["Red", "Blue"], seed=3, options=RuleOptions(negotiation_minutes=4))
    game.apply({"action": "place", "square": "B1", "tile": "park"})
    game.apply({"action": "call_state", "minutes_elapsed": 5})
    data = json.loads(game.to_json())
    assert list(data) == ["version", "game", "players", "seed", "options", "log"]
    assert data["version"] == 2 and data["game"] == "north-berkeley"
    assert data["players"] == ["Red", "Blue"] and data["seed"] == 3
    assert data["options"]["negotiation_minutes"] == 4
    assert data["log"] == [
        {"action": "place", "square": "B1", "tile": "park"},
        {"action": "call_state"},  # the tiles the state drew are replayed from the seed
    ]


def test_sorted_keys_keep_seating_order_and_handout_numbers() -> None:
    game = Game(["Zebras", "Aardvarks", "Moles"], seed=11)
    pages = handouts.game_handouts(game)
    for data in (json.loads(game.to_json()), game.to_dict()):
        resumed = Game.from_json(json.dumps(data, sort_keys=True))
        assert resumed.players == ["Zebras", "Aardvarks", "Moles"]
        assert list(resumed.state.hands) == resumed.players
        assert handouts.game_handouts(resumed) == pages
        assert next(iter(pages)) == "north-berkeley-team-1-zebras.html"


def test_handouts_follow_seating_order_whatever_the_hands_order() -> None:
    game = Game(["Zebras", "Aardvarks"], seed=2)
    pages = handouts.game_handouts(game)
    game.state.hands = dict(sorted(game.state.hands.items()))  # Aardvarks first
    assert handouts.game_handouts(game) == pages


def test_a_loaded_game_can_undo_its_replayed_actions() -> None:
    game = Game(["A", "B"], seed=1)
    game.apply({"action": "place", "square": "B1", "tile": "park"})
    resumed = Game.from_json(game.to_json())
    resumed.undo()
    assert resumed.to_dict() == Game(["A", "B"], seed=1).to_dict()


# --- version 2 refused ------------------------------------------------------------------------
def v2(game: Game | None = None) -> dict[str, Any]:
    return json.loads((game or finished()).to_json())


def with_log(log: list[Any]) -> dict[str, Any]:
    data = v2(Game(["A", "B", "C"], seed=5))
    data["log"] = log
    return data


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda d: d["log"].__setitem__(0, dict(d["log"][0], square="A1")), "action 1 "),
        (lambda d: d["log"].__setitem__(0, dict(d["log"][0], square="Z9")), "unknown square"),
        (lambda d: d["log"].__setitem__(0, dict(d["log"][0], tile="castle")), "'castle'"),
        (
            lambda d: d["log"].pop(2),
            "action 3 (moving on to the next step) refused",
        ),  # no call_state
        (lambda d: d["log"].insert(0, {"action": "advance"}), "action 1"),
        (
            lambda d: d["log"].insert(0, {"action": "enact", "policies": ["adu"]}),
            "now it is phase 1",
        ),
        (lambda d: d["log"].__setitem__(7, dict(d["log"][7], player="Player 3")), "action 8"),
        (lambda d: d["log"].__setitem__(7, dict(d["log"][7], player="Nobody")), "'Nobody'"),
        (
            lambda d: d["log"].__setitem__(8, dict(d["log"][8], card=d["log"][7]["card"])),
            "action 9",
        ),
        (lambda d: d["log"].__setitem__(10, {"action": "enact", "policies": []}), "action 11"),
        (lambda d: d["log"].__setitem__(4, {"action": "redraw", "player": "Player 1"}), "-1"),
        (lambda d: d["log"].append({"action": "advance"}), "action 17"),  # after the end
        (lambda d: d["log"].__setitem__(0, dict(d["log"][0], colour="red")), "no field"),
        (lambda d: d["log"].__setitem__(0, {"action": "teleport"}), "entry 1"),
        (lambda d: d["log"].__setitem__(0, "place B1 park"), "entry 1"),
        (lambda d: d["log"].__setitem__(0, {"action": "place", "square": ["B1"]}), "action 1"),
        (
            lambda d: d["log"].__setitem__(2, {"action": "call_state", "minutes_elapsed": 1}),
            "only 1",
        ),
        (lambda d: d["players"].reverse(), "action"),  # another seating: another draft order
        (lambda d: d.update(seed=6), "action"),  # another seed: other cards in the draft
        (lambda d: d.update(seed=1.9), "seed must be a whole number, got 1.9"),
        (lambda d: d.update(seed="7"), "seed must be a whole number, got str '7'"),
        (lambda d: d.update(seed=True), "seed must be a whole number, got bool True"),
        (lambda d: d.update(seed=math.inf), "seed must be a whole number, got inf"),
        (lambda d: d.update(seed=2**70), "between"),
        (lambda d: d.update(seed=None), "seed must be a whole number"),
        (lambda d: d.update(log="place B1 park"), "'log' must be a list of actions, got str"),
        (lambda d: d.update(log={"0": {}}), "'log' must be a list"),
        (lambda d: d.update(log=[{"action": "clear", "square": "B1"}] * 2001), "at most 2000"),
        (lambda d: d.update(version=3), "version 3 is not supported"),
        (lambda d: d.update(version="2"), "version '2'"),
        (lambda d: d.update(version=2.0), "version 2.0"),
        (lambda d: d.update(version=True), "version True"),
        (lambda d: d.update(game="streetcar"), "'streetcar'"),
        (lambda d: d.update(phase="over"), "unknown field 'phase'"),
        (lambda d: d.pop("log"), "missing 'log'"),
        (lambda d: d.update(players="ABC"), "list of names"),
        (lambda d: d.update(players=["A"]), "2 to 6"),
        (lambda d: d.update(players=["A", "A", "B"]), "used twice"),
        (lambda d: d.update(players=[1, 2, 3]), "list of names"),
        (lambda d: d.update(options=[]), "'options' must be an object"),
        (lambda d: d.update(options={"bogus": 1}), "'bogus'"),
        (lambda d: d.update(options={"negotiation_minutes": math.nan}), "not a number"),
        (lambda d: d.update(options={"negotiation_minutes": "10"}), "'10'"),
        (lambda d: d.update(table={"hidden_hands": "yes"}), "true or false"),
        (lambda d: d.update(table={"reveal": "Red"}), "'reveal'"),
        (lambda d: d.update(table=[]), "'table' must be an object"),
    ],
)
def test_version_2_edits_are_refused_in_one_line(change, says: str) -> None:
    data = v2()
    change(data)
    assert says in refused(data)


def test_the_first_illegal_action_is_named_with_the_engines_reason() -> None:
    data = v2(Game(["A", "B"], seed=1))
    data["log"] = [
        {"action": "place", "square": "B1", "tile": "park"},
        {"action": "place", "square": "A1", "tile": "park"},
        {"action": "place", "square": "Q9", "tile": "park"},
    ]
    engine = Game(["A", "B"], seed=1)
    engine.apply(data["log"][0])
    with pytest.raises(IllegalActionError) as reason:
        engine.apply(data["log"][1])
    message = refused(data, kind=IllegalActionError)
    assert message == f"saved game: action 2 (placing a tile on A1) refused: {reason.value}"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('{"version": 2', "not valid JSON"),
        ('{"version": 2, "version": 2}', "appears twice"),
        ('{"version": 2, "seed": NaN}', "NaN"),
        ("[" * 100 + "]" * 100, "nested deeper"),
        (b'{"players": ["\xe9"]}', "not UTF-8"),
        ("[1, 2]", "not list"),
        ('"a save"', "not str"),
        ("", "not valid JSON"),
    ],
)
def test_bad_json_text_is_refused_in_one_line(text, says: str) -> None:
    with pytest.raises(ScenarioFormatError) as raised:
        Game.from_json(text)
    assert says in str(raised.value) and "\n" not in str(raised.value)


@pytest.mark.parametrize("value", [None, 7, ["a"], {"version": 2}.keys(), Game(["A", "B"])])
def test_not_a_save_at_all(value) -> None:
    with pytest.raises(ScenarioFormatError, match="saved game"):
        Game.from_dict(value)
    with pytest.raises(ScenarioFormatError, match="JSON text"):
        Game.from_json(value)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 40), JSON, st.booleans())
def test_any_value_anywhere_is_loaded_or_refused_in_one_line(seed, where, value, old) -> None:
    """Hunt: replace one value of a saved game (a field, an action or an action's field)."""
    game = finished(2, seed % 50)
    data = game.to_dict() if old else v2(game)
    paths: list[tuple[Any, Any]] = [(data, key) for key in data]
    paths += [(data["log"], index) for index in range(len(data["log"]))]
    paths += [(record, key) for record in data["log"] for key in record]
    holder, key = paths[where % len(paths)]
    holder[key] = value
    try:
        loaded = Game.from_dict(data)
    except HousingLabError as error:
        assert "\n" not in str(error) and len(str(error)) <= 1000
    else:  # accepted: the value was harmless, and the result saves as a legal game
        assert Game.from_json(loaded.to_json()).to_dict() == loaded.to_dict()


# --- version 1 --------------------------------------------------------------------------------
def v1(game: Game | None = None) -> dict[str, Any]:
    return json.loads(json.dumps((game or in_the_draft()).to_dict()))


def in_the_draft() -> Game:
    game = Game(["Red", "Blue", "Green", "Orange"], seed=4)
    game.apply({"action": "place", "square": "B1", "tile": "park"})
    game.call_state()
    game.advance()
    game.apply(game.legal_actions()[0])
    assert game.phase == "draft"
    return game


def test_version_1_saves_still_load_and_save_as_version_2() -> None:
    for players in range(2, 7):
        game = play_random_game(players, seed=players + 20)
        data = v1(game)
        assert data["format"] == "housing_lab.north_berkeley.play.game/1"
        resumed = Game.from_dict(data)
        assert resumed.to_dict() == game.to_dict()
        assert json.loads(resumed.to_json())["version"] == 2


def _second_team(data: dict[str, Any]) -> str:
    return data["players"][1]


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda d: d.update(phase="policies"), "phase is 'policies' in the file"),
        (lambda d: d.update(phase="over"), "phase is 'over'"),
        (lambda d: d["hands"]["Red"].append(d["deck"][0]), "hands['Red'][3]"),  # 4 cards
        (lambda d: d["hands"]["Red"].pop(), "hands['Red'][2] is nothing"),  # 2 cards
        (lambda d: d["hands"]["Red"].extend(d["deck"][:2]), "hands['Red'][3]"),  # 5 cards
        (lambda d: d["hands"]["Blue"].__setitem__(0, "developer"), "hands['Blue'][0]"),
        (lambda d: d["draft_order"].__setitem__(0, "Purple"), "draft_order[0] is 'Purple'"),
        (lambda d: d.update(policies=["adu", "adu"]), "policies[0] is 'adu'"),
        (lambda d: d["hands"].pop("Red"), "hands['Red'] is nothing in the file"),
        (lambda d: d["hands"].update(Purple=[]), "hands['Purple']"),
        (lambda d: d["draft_pool"].append("developer"), "draft_pool"),
        (lambda d: d.update(draft_picks=True), "draft_picks is True"),
        (lambda d: d.update(draft_picks=1.0), "draft_picks is 1.0"),
        (lambda d: d.update(state_calls=0), "state_calls is 0"),
        (lambda d: d["tiles"].update(B1="tower_market"), "tiles['B1'] is 'tower_market'"),
        (lambda d: d["existing"].update({"house-1": "high", "house-2": "low"}), "existing"),
        (lambda d: d["log"][2]["tiles"].update(B2="park"), "log[2]"),  # the state's draw
        (lambda d: d["log"].append({"action": "draft_order", "order": []}), "log[6]"),
        (lambda d: d["log"].append({"action": "teleport"}), "entry 7"),
        (lambda d: d.update(seed=1.9), "seed must be a whole number, got 1.9"),
        (lambda d: d.update(seed="7"), "seed must be a whole number, got str '7'"),
        (lambda d: d.update(seed=True), "seed must be a whole number, got bool True"),
        (lambda d: d.update(seed=math.inf), "seed must be a whole number, got inf"),
        (lambda d: d.update(seed=5), "refused"),  # other cards: the picks fail
        (lambda d: d.update(log="setup, place B1 park"), "'log' must be a list of actions"),
        (lambda d: d.update(extra={"Red": "developer"}), "extra['Red']"),
        (lambda d: d.update(format="housing_lab.north_berkeley.play.game/0"), "not a saved"),
        (lambda d: d.update(version=1), "version 1 is not supported"),
        (lambda d: d.update(notes="hi"), "unknown field 'notes'"),
        (lambda d: d.pop("discard"), "missing 'discard'"),
    ],
)
def test_version_1_edits_are_refused_in_one_line(change, says: str) -> None:
    data = v1()
    assert Game.from_dict(copy.deepcopy(data)).to_dict() == data  # the untouched file loads
    change(data)
    assert says in refused(data)


def test_version_1_extra_card_not_in_the_hand_is_refused() -> None:
    game = Game(["A", "B"], seed=1)
    game.call_state()
    game.advance()
    assert game.phase == "extra_draw"
    data = v1(game)
    data["extra"]["A"] = data["deck"][0]
    assert "extra['A'] is" in refused(data)

"""GameTable at its edges: loading is all or nothing, every argument of the wrong type is one
`HousingLabError` line, and hidden hands stay hidden across a save and a resume."""

from __future__ import annotations

import json
import math
import pathlib
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from housing_lab.errors import HousingLabError, WriteError
from housing_lab.north_berkeley.play import saves as saves
from housing_lab.north_berkeley.play.autoplay import play_random_game
from housing_lab.north_berkeley.play.game import Game
from housing_lab.widgets import GameTable

from .test_game_table import snapshot


def table_in_the_draft() -> GameTable:
    table = GameTable(teams=["Red", "Blue", "Green", "Orange"], seed=4, hidden_hands=True)
    table.place("B1", "park")
    table.call_state()
    table.next_phase()
    table.reveal("Blue")
    assert table.stage == "draft"
    return table


def one_line(error: BaseException) -> str:
    message = str(error)
    assert "\n" not in message and 0 < len(message) <= 1000, message
    return message


def finished_save() -> dict[str, Any]:
    return json.loads(play_random_game(3, seed=5).to_json())


def _edit(change: Callable[[dict[str, Any]], Any], version: int = 2) -> dict[str, Any]:
    data = finished_save() if version == 2 else play_random_game(3, seed=5).to_dict()
    data = json.loads(json.dumps(data))
    change(data)
    return data


BAD_SAVES = {
    "illegal action": _edit(lambda d: d["log"].__setitem__(0, dict(d["log"][0], square="A1"))),
    "action after the end": _edit(lambda d: d["log"].append({"action": "advance"})),
    "seed 1.9": _edit(lambda d: d.update(seed=1.9)),
    "seed '7'": _edit(lambda d: d.update(seed="7")),
    "seed true": _edit(lambda d: d.update(seed=True)),
    "seed Infinity": '{"version": 2, "seed": Infinity}',
    "log as text": _edit(lambda d: d.update(log="place B1 park")),
    "version 1 phase jumped": dict(Game(["A", "B", "C"], seed=5).to_dict(), phase="draft"),
    "version 1 four cards": _edit(lambda d: d["hands"]["Player 1"].append("developer"), 1),
    "version 1 draft order": _edit(lambda d: d.update(draft_order=["Nobody"]), version=1),
    "version 1 duplicate policies": _edit(lambda d: d.update(policies=["adu", "adu"]), 1),
    "malformed JSON": '{"version": 2',
    "deep nesting": "[" * 5000 + "]" * 5000,
    "duplicate key": '{"version": 2, "version": 2}',
    "a list": "[1, 2, 3]",
    "no such file": "no-such-file.json",
    "a folder": ".",
    "NUL in a path": "bad\0name.json",
    "a number": 5,
    "None": None,
    "bytes not UTF-8": b'{"players": ["\xff"]}',
}


@pytest.mark.parametrize("kind", list(BAD_SAVES))
def test_a_bad_save_leaves_the_table_exactly_as_it_was(kind: str, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    table = table_in_the_draft()
    before = snapshot(table)
    kept = (table.hidden_hands, table.view["teams"], table.board.tiles, table.tie_order)
    with pytest.raises(HousingLabError) as raised:
        table.load(BAD_SAVES[kind])
    message = one_line(raised.value)
    assert snapshot(table) == before
    assert (table.hidden_hands, table.view["teams"], table.board.tiles, table.tie_order) == kept
    assert table.panel.message == message
    assert table.panel.message_kind == "error"
    table.pick(table.game.draft_turn(), table.game.state.draft_pool[0])  # the game plays on
    with pytest.raises(HousingLabError):
        GameTable.from_json(BAD_SAVES[kind])


def test_an_uploaded_file_is_read_as_json_never_as_a_path(tmp_path) -> None:
    secret = tmp_path / "elsewhere.json"
    secret.write_text(json.dumps(finished_save()))
    table = table_in_the_draft()
    before = snapshot(table)
    for text in (str(secret), 7, None, "[]", '{"version": 2'):
        table.panel._handle_message(table.panel, {"action": "load", "text": text}, [])
        assert snapshot(table) == before and table.panel.message_kind == "error"
    table.panel._handle_message(table.panel, {"action": "load", "text": secret.read_text()}, [])
    assert table.stage == "movein" and table.state["log"] == finished_save()["log"]


def test_hidden_hands_stay_hidden_across_save_and_resume(tmp_path) -> None:
    table = table_in_the_draft()
    path = tmp_path / "game.json"
    saved = table.save(path)
    assert saved["table"] == {"hidden_hands": True}
    assert json.loads(path.read_text()) == saved
    resumed = GameTable.from_json(path)
    assert resumed.hidden_hands and resumed.state == saved
    assert all(team["secret_count"] for team in resumed.view["teams"])
    assert not GameTable.from_json(path, hidden_hands=False).hidden_hands
    open_table = GameTable(teams=["A", "B"], seed=1)
    open_table.load(saved)  # the file says hidden: the class must not see the hands
    assert open_table.hidden_hands
    engine_file = Game.from_dict(saved).to_json()  # no table settings: the table's own
    open_table = GameTable(teams=["A", "B"], seed=1)
    open_table.load(engine_file)
    assert not open_table.hidden_hands and "open hands" in open_table.panel.message


def test_a_save_loaded_and_saved_again_is_identical_whatever_the_key_order(tmp_path) -> None:
    table = table_in_the_draft()
    first = tmp_path / "first.json"
    table.save(first)
    reordered = json.dumps(json.loads(first.read_text()), sort_keys=True)
    resumed = GameTable.from_json(reordered)
    second = tmp_path / "second.json"
    resumed.save(second)
    assert second.read_text() == first.read_text()
    assert resumed.handouts() == table.handouts()  # numbered in seating order
    assert [t["name"] for t in resumed.view["teams"]] == ["Red", "Blue", "Green", "Orange"]


@pytest.mark.slow
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 6), st.integers(0, 10**6))
def test_random_games_round_trip_through_the_table(players: int, seed: int) -> None:
    game = play_random_game(players, seed=seed)
    table = GameTable.from_json(game.to_json())
    assert table.stage == "movein" and table.game.to_dict() == game.to_dict()
    again = GameTable.from_json(json.dumps(table.state))
    assert again.state == table.state


WRONG_CALLS: dict[str, Callable[[GameTable], Any]] = {
    "place square 1": lambda t: t.place(1, "park"),  # type: ignore[arg-type]
    "place tile None": lambda t: t.place("B1", None),  # type: ignore[arg-type]
    "place tile list": lambda t: t.place("B1", ["park"]),  # type: ignore[arg-type]
    "clear list": lambda t: t.clear(["B1"]),  # type: ignore[arg-type]
    "call_state text": lambda t: t.call_state("10"),  # type: ignore[arg-type]
    "call_state NaN": lambda t: t.call_state(math.nan),
    "call_state inf": lambda t: t.call_state(math.inf),
    "call_state True": lambda t: t.call_state(True),
    "call_state negative": lambda t: t.call_state(-1),
    "next_phase text": lambda t: t.next_phase("RBGO"),  # type: ignore[arg-type]
    "next_phase numbers": lambda t: t.next_phase([1, 2, 3, 4]),  # type: ignore[list-item]
    "redraw 5": lambda t: t.redraw(5),  # type: ignore[arg-type]
    "pick None": lambda t: t.pick(None, "developer"),  # type: ignore[arg-type]
    "pick card dict": lambda t: t.pick("Red", {"id": "developer"}),  # type: ignore[arg-type]
    "enact 5": lambda t: t.enact(5),  # type: ignore[arg-type]
    "enact numbers": lambda t: t.enact([1]),  # type: ignore[list-item]
    "tie order text": lambda t: t.set_tie_order("RBGO"),  # type: ignore[arg-type]
    "tie order mixed": lambda t: t.set_tie_order(["Red", 2, "Green", "Orange"]),  # type: ignore[list-item]
    "reveal 3": lambda t: t.reveal(3),  # type: ignore[arg-type]
    "handout list": lambda t: t.offer_handout(["Red"]),  # type: ignore[arg-type]
    "save to 5": lambda t: t.save(5),  # type: ignore[arg-type]
    "save NUL": lambda t: t.save("bad\0name.json"),
    "save no folder": lambda t: t.save("no/such/folder/game.json"),
    "handouts to 5": lambda t: t.write_handouts(5),  # type: ignore[arg-type]
    "handouts into a file": lambda t: t.write_handouts("a-file.txt"),
    "load hidden text": lambda t: t.load(t.state, hidden_hands="yes"),  # type: ignore[arg-type]
}


@pytest.mark.parametrize("kind", list(WRONG_CALLS))
def test_wrong_types_are_one_line_and_change_nothing(kind: str, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    pathlib.Path("a-file.txt").write_text("not a folder")
    table = table_in_the_draft()
    before = snapshot(table)
    with pytest.raises(HousingLabError) as raised:
        WRONG_CALLS[kind](table)
    one_line(raised.value)
    assert snapshot(table) == before
    if kind.startswith(("save no", "handouts into")):
        assert isinstance(raised.value, WriteError) and "cannot write" in str(raised.value)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"teams": "RBG"},
        {"teams": ["Red", 2]},
        {"teams": 3},
        {"seed": 1.9},
        {"seed": "7"},
        {"seed": True},
        {"seed": math.inf},
        {"seed": 2**80},
        {"options": 5},
        {"options": {"negotiation_minutes": math.nan}},
        {"options": {1: 2}},
        {"options": {"negotiation_minutes": "ten"}},
        {"hidden_hands": "yes"},
        {"hidden_hands": 1},
    ],
)
def test_wrong_setup_types_are_one_line(kwargs: dict[str, Any]) -> None:
    for make in (
        lambda: GameTable(**kwargs),
        lambda: GameTable(**{"teams": ["A", "B"], **kwargs}),
        lambda: GameTable(teams=["A", "B"]).start(**{"teams": ["A", "B"], **kwargs}),
    ):
        with pytest.raises(HousingLabError) as raised:
            make()
        one_line(raised.value)
    table = GameTable(teams=["A", "B"], seed=2)
    before = snapshot(table)
    with pytest.raises(HousingLabError):
        table.start(**{"teams": ["A", "B"], **kwargs})
    assert snapshot(table) == before


def test_browser_messages_of_the_wrong_shape_only_say_why() -> None:
    table = table_in_the_draft()
    before = snapshot(table)
    for message in (
        {"action": ["next"]},
        {"action": "pick", "team": 3, "card": None},
        {"action": "enact", "policies": "adu"},
        {"action": "redraw"},
        {"action": "tie_up", "team": ["Red"]},
        {"action": "reveal", "team": 4},
        {"action": "handout", "team": {}},
    ):
        table.panel._handle_message(table.panel, message, [])
        assert snapshot(table) == before, message
        assert table.panel.message_kind == "error" and "\n" not in table.panel.message
    setup = GameTable()
    for seed in ("1.9", 1.9, "", "Infinity", 1e400, True):
        start = {"action": "start", "teams": ["A", "B"], "seed": seed, "options": {}}
        setup.panel._handle_message(setup.panel, start, [])
        assert setup.stage == "setup" and "seed must be" in setup.panel.message, seed
    setup.panel._handle_message(setup.panel, dict(start, seed="12", teams="AB"), [])
    assert setup.stage == "setup" and "teams must be a list" in setup.panel.message
    setup.panel._handle_message(setup.panel, dict(start, seed=" 12 "), [])
    assert setup.stage == "phase1" and setup.game.state.seed == 12


def test_saves_module_is_what_the_table_writes() -> None:
    table = table_in_the_draft()
    assert table.state == saves.save_dict(table.game, {"hidden_hands": True})


ANY_VALUE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**80), 2**80),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["Red", "Blue", "B1", "A1", "park", "developer", "adu", "."]),
    st.lists(st.sampled_from(["Red", "Blue", "Green", "Orange", "adu", 3, None]), max_size=5),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
    st.builds(object),
)
METHODS: dict[str, Callable[[GameTable, Any, Any], Any]] = {
    "place": lambda t, a, b: t.place(a, b),
    "clear": lambda t, a, b: t.clear(a),
    "call_state": lambda t, a, b: t.call_state(a),
    "next_phase": lambda t, a, b: t.next_phase(a),
    "redraw": lambda t, a, b: t.redraw(a),
    "pick": lambda t, a, b: t.pick(a, b),
    "enact": lambda t, a, b: t.enact(a),
    "set_tie_order": lambda t, a, b: t.set_tie_order(a),
    "reveal": lambda t, a, b: t.reveal(a),
    "offer_handout": lambda t, a, b: t.offer_handout(a),
    "load": lambda t, a, b: t.load(a),
    "start": lambda t, a, b: t.start(a, b),
    "coach": lambda t, a, b: t.coach(a, b),
    "coach_goal": lambda t, a, b: t.coach("Red", a, b),
}


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(list(METHODS)), ANY_VALUE, ANY_VALUE, st.booleans())
def test_any_argument_is_accepted_or_refused_in_one_line(name, first, second, drafting) -> None:
    """Hunt: arbitrary values for every public method; a refusal is one line and changes
    nothing (the message line aside)."""
    table = table_in_the_draft() if drafting else GameTable(teams=["Red", "Blue"], seed=3)
    before = snapshot(table)
    try:
        METHODS[name](table, first, second)
    except HousingLabError as error:
        one_line(error)
        assert snapshot(table) == before

"""StreetcarLab records: nothing lost while replaying, all-or-nothing loads, one-line refusals.

Every refusal is checked the same way: a `HousingLabError` whose message is one line, and the
lab exactly as it was (board traits, record, score panel, replay position).
"""

from __future__ import annotations

import copy
import functools
import json
import math
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from housing_lab.errors import HousingLabError
from housing_lab.streetcar import Board, Game, Move, Rules, make_bot, to_record
from housing_lab.widgets import StreetcarLab

BOARD_TRAITS = (
    "hexes",
    "houses",
    "flipped",
    "buildings",
    "lines",
    "phase",
    "prompt",
    "legal_edges",
    "staged",
    "removable",
    "last_move",
)


def state(lab: StreetcarLab) -> dict[str, Any]:
    """Everything a refused call must leave as it was."""
    return {
        **{name: getattr(lab.board, name) for name in BOARD_TRAITS},
        "record": lab.record,
        "replay_index": lab.replay_index,
        "seed": lab.seed,
        "opponent": lab.opponent,
        "rows": lab.score.rows,
        "options": lab.options.values(),
    }


def refused(lab: StreetcarLab, call: Any, match: str | None = None) -> str:
    """`call()` raises a one-line HousingLabError and changes nothing; returns the message."""
    before = state(lab)
    with pytest.raises(HousingLabError) as raised:
        call()
    message = str(raised.value)
    assert "\n" not in message and 0 < len(message) <= 1000, message
    if match is not None:
        assert match in message, message
    assert state(lab) == before
    return message


def finished_record(seed: int = 5, bots: tuple[str, str] = ("greedy", "random")) -> dict:
    """A whole bot game's record (a fresh copy: tests may change it)."""
    return copy.deepcopy(_finished(seed, bots))


@functools.cache
def _finished(seed: int, bots: tuple[str, str]) -> dict:
    game = Game(seed=seed)
    players = [make_bot(bots[0], seed), make_bot(bots[1], seed + 1)]
    while not game.is_over():
        game.push(players[(game.turn - 1) % 2].choose(game))
    return json.loads(json.dumps(to_record(game)))


def partial_record(seed: int, plies: int) -> dict:
    game = Game(seed=seed)
    bot = make_bot("random", seed)
    for _ in range(plies):
        if game.is_over():
            break
        game.push(bot.choose(game))
    record = json.loads(json.dumps(to_record(game)))
    if not game.is_over():
        del record["final"]
    return record


def lab_of(seed: int = 0, opponent: str | None = None) -> StreetcarLab:
    return StreetcarLab(seed=seed, opponent=opponent, bot_delay=0)


# --- issue 12: load then save gives the whole record back -----------------------------------
def test_load_then_save_is_the_whole_record_wherever_the_replay_stands(tmp_path: Path) -> None:
    record = finished_record()
    total = len(record["turns"])
    lab = lab_of(opponent="greedy")
    lab.load_record(record)
    assert lab.replay_index == 0 and lab.save() == record
    for index in (1, 7, total // 2, total, 0):
        lab.replay_to(index)
        assert lab.replay_index == index
        assert lab.save() == record and lab.record == record
    lab.replay_step()
    lab.replay_step()
    path = tmp_path / "again.json"
    lab.save(path)
    assert json.loads(path.read_text(encoding="utf-8")) == record
    lab.toolbar.on_save()  # the Save button offers the same whole record
    assert json.loads(lab.board.download["content"]) == record


def test_only_play_from_here_cuts_the_future_off() -> None:
    record = finished_record(seed=8)
    lab = lab_of()
    lab.load_record(record)
    lab.replay_to(9)
    lab.start_replay()  # replaying again from the start keeps every move too
    assert lab.replay_index == 0 and lab.record == record
    lab.replay_to(9)
    lab.replay_bar.buttons["resume"].click()  # "Play on from here"
    assert lab.phase == "lines" and lab.record["turns"] == record["turns"][:9]
    refused(lab, lab.play_from_here, "not replaying")


@pytest.mark.slow
def test_records_carry_version_1_and_records_without_it_are_version_1() -> None:
    record = finished_record(seed=4)
    assert record["version"] == 1 and next(iter(record)) == "version"
    old = {key: value for key, value in record.items() if key != "version"}
    lab = lab_of()
    lab.load_record(old)
    assert lab.save() == record  # written back in today's format
    for version in (2, 0, "1", 1.0, True, None, [1]):
        other = lab_of()
        bad = {**record, "version": version}
        refused(other, lambda o=other, b=bad: o.load_record(b), "version")


def test_a_loaded_and_resaved_record_is_identical_whatever_the_key_order() -> None:
    record = finished_record(seed=12)
    shuffled = dict(reversed(list(record.items())))
    shuffled["turns"] = [dict(reversed(list(turn.items()))) for turn in record["turns"]]
    lab = lab_of()
    lab.load_record(json.dumps(shuffled, sort_keys=True))
    assert json.dumps(lab.save()) == json.dumps(record)


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), plies=st.integers(0, 60), at=st.floats(0, 1))
def test_save_load_save_round_trips_over_random_games(seed: int, plies: int, at: float) -> None:
    record = partial_record(seed, plies)
    lab = lab_of(seed=seed % 7)
    lab.load_record(json.dumps(record))
    lab.replay_to(round(at * len(record["turns"])))
    saved = lab.save()
    assert saved == record
    again = lab_of()
    again.load_record(saved)
    assert json.dumps(again.save()) == json.dumps(saved)


# --- all or nothing: a bad record changes nothing ---------------------------------------
def test_an_all_blue_record_and_other_wrong_kits_are_refused_in_one_line() -> None:
    record = finished_record(seed=2)
    blue = {**record, "houses": [[q, r, "blue"] for q, r, _ in record["houses"]]}
    lab = lab_of(seed=3, opponent="greedy")
    lab.draw_lines([[[0, 0], [1, 0]], [[0, 0], [0, 1]]])
    message = refused(lab, lambda: lab.load_record(blue), "not the game's kit")
    assert "52 blue" in message and "13" in message
    lopsided = [list(house) for house in record["houses"]]
    first_white = next(h for h in lopsided if h[2] == "white")
    first_white[2] = "black"  # 14 black, 12 white
    refused(lab, lambda: lab.load_record({**record, "houses": lopsided}), "14 black")
    small = Board.from_hexes([(0, 0), (1, 0), (0, 1), (1, -1), (-1, 1)])
    game = Game(small, seed=1)
    small_record = to_record(game)
    assert lab_of().load_record(small_record) is None  # an even split of 5: accepted
    three = {**small_record, "houses": [[q, r, "yellow"] for q, r, _ in small_record["houses"]]}
    refused(lab, lambda: lab.load_record(three), "5 hexes take 1 or 2 houses of each colour")


def test_a_record_refused_midway_leaves_a_replaying_lab_where_it_was() -> None:
    lab = lab_of()
    lab.load_record(finished_record(seed=6))
    lab.replay_to(5)
    bad = finished_record(seed=7)
    bad["turns"][10]["remove"] = bad["turns"][3]["remove"]  # a house removed twice
    refused(lab, lambda: lab.load_record(bad), "turn 11")
    assert lab.replay_index == 5


@pytest.mark.parametrize("index", [1.5, "3", True, None, -1, 10**6, [2], math.nan, 3.0], ids=repr)
def test_replay_to_refuses_wrong_types_and_ranges_without_moving(index: object) -> None:
    lab = lab_of()
    lab.load_record(finished_record(seed=9))
    lab.replay_to(4)
    refused(lab, lambda: lab.replay_to(index))
    assert lab.replay_index == 4


# --- about thirty wrong Python types at the boundaries ----------------------------------------
LAB_CALLS = {
    "new_game seed 1.5": lambda lab: lab.new_game(seed=1.5),
    "new_game seed '7'": lambda lab: lab.new_game(seed="7"),
    "new_game unknown option": lambda lab: lab.new_game(colour="red"),
    "new_game opponent list": lambda lab: lab.new_game(opponent=[]),
    "new_game opponent int": lambda lab: lab.new_game(opponent=5),
    "new_game human list": lambda lab: lab.new_game(human=["red"]),
    "new_game goals int": lambda lab: lab.new_game(goals=5),
    "new_game goals str": lambda lab: lab.new_game(goals="parks"),
    "new_game goals nested": lambda lab: lab.new_game(goals=[["parks"]]),
    "new_game practice str": lambda lab: lab.new_game(practice="no"),
    "new_game board int": lambda lab: lab.new_game(board=5),
    "new_game board None hexes": lambda lab: lab.new_game(board=[None]),
    "new_game penalty str": lambda lab: lab.new_game(penalty="10"),
    "new_game penalty float": lambda lab: lab.new_game(penalty=2.5),
    "bot_delay str": lambda lab: setattr(lab, "bot_delay", "1"),
    "bot_delay nan": lambda lab: setattr(lab, "bot_delay", math.nan),
    "bot_delay negative": lambda lab: setattr(lab, "bot_delay", -1),
    "draw_lines int": lambda lab: lab.draw_lines(5),
    "draw_lines None": lambda lab: lab.draw_lines(None),
    "draw_lines str": lambda lab: lab.draw_lines("0,0|1,0"),
    "draw_lines bad edge": lambda lab: lab.draw_lines([[0, 0]]),
    "play lines dict": lambda lab: lab.play({"lines": []}),
    "play remove str": lambda lab: lab.play([], remove="e5"),
    "save path int": lambda lab: lab.save(5),
    "save path list": lambda lab: lab.save(["a.json"]),
    "load int": lambda lab: lab.load_record(5),
    "load bytes": lambda lab: lab.load_record(b"{}"),
    "load list": lambda lab: lab.load_record([1, 2]),
    "load deep JSON": lambda lab: lab.load_record('{"board": ' + "[" * 5000 + "]" * 5000 + "}"),
    "load stdin": lambda lab: lab.load_record("-"),
    "load turns str": lambda lab: lab.load_record({**finished_record(), "turns": "all"}),
    "replay_to without a replay": lambda lab: lab.replay_to(1),
    "hint bot list": lambda lab: lab.hint(bot=["greedy"]),
    "hint bot unknown": lambda lab: lab.hint(bot="wizard"),
}


@pytest.mark.parametrize("call", LAB_CALLS.values(), ids=LAB_CALLS.keys())
def test_wrong_types_at_the_lab_are_one_line_and_change_nothing(call: Any) -> None:
    lab = lab_of(seed=2, opponent="greedy")
    lab.draw_lines([[[0, 0], [1, 0]], [[0, 0], [0, 1]]])
    refused(lab, lambda: call(lab))


@pytest.mark.parametrize(
    "make",
    [
        lambda: StreetcarLab(bot_delay="fast"),
        lambda: StreetcarLab(bot_delay=None),
        lambda: StreetcarLab(bot_delay=math.inf),
        lambda: StreetcarLab(opponent=["greedy"]),
        lambda: StreetcarLab(goals=None),
        lambda: StreetcarLab(hint_bot=3),
        lambda: StreetcarLab(seed=None),
    ],
)
def test_wrong_types_in_the_constructor_are_one_line(make: Any) -> None:
    with pytest.raises(HousingLabError) as raised:
        make()
    assert "\n" not in str(raised.value)


ENGINE_CALLS = {
    "Board(5)": lambda: Board(5),  # type: ignore[arg-type]
    "Board(None)": lambda: Board(None),  # type: ignore[arg-type]
    "Board([[0.5, 0]])": lambda: Board([[0.5, 0]]),  # type: ignore[list-item]
    "Board.from_hexes(5)": lambda: Board.from_hexes(5),  # type: ignore[arg-type]
    "Board.from_hexes(None)": lambda: Board.from_hexes(None),  # type: ignore[arg-type]
    "Board.from_hexes('0,0')": lambda: Board.from_hexes("0,0"),
    "Board.from_hexes({})": lambda: Board.from_hexes({(0, 0): 1}),
    "deal_houses([1])": lambda: Board.standard().deal_houses([1]),  # type: ignore[arg-type]
    "Rules(goals=5)": lambda: Rules(goals=5),  # type: ignore[arg-type]
    "Rules(goals=None)": lambda: Rules(goals=None),  # type: ignore[arg-type]
    "Rules(goals='parks')": lambda: Rules(goals="parks"),  # type: ignore[arg-type]
    "Rules(goals=[['parks']])": lambda: Rules(goals=[["parks"]]),  # type: ignore[list-item]
    "Rules(penalty=None)": lambda: Rules(penalty=None),  # type: ignore[arg-type]
    "Move(5)": lambda: Move(5),  # type: ignore[arg-type]
    "Move(None)": lambda: Move(None),  # type: ignore[arg-type]
    "Move({})": lambda: Move({"lines": []}),
    "Move([], 5)": lambda: Move([], 5),
    "Move([5])": lambda: Move([5]),
}


@pytest.mark.parametrize("call", ENGINE_CALLS.values(), ids=ENGINE_CALLS.keys())
def test_wrong_types_at_board_rules_and_move_are_one_line(call: Any) -> None:
    with pytest.raises(HousingLabError) as raised:
        call()
    assert "\n" not in str(raised.value)


def test_browser_messages_of_the_wrong_shape_are_ignored() -> None:
    lab = lab_of(seed=2)
    before = state(lab)
    for content in (None, [], "edge", {"action": []}, {"action": "edge", "edge": None}):
        lab._on_board_action(content)
        lab._on_replay_action(content)
    assert {k: v for k, v in state(lab).items() if k != "prompt"} == {
        k: v for k, v in before.items() if k != "prompt"
    }
    assert lab.record == before["record"]


def test_random_games_keep_their_record_through_replay_and_play_on() -> None:
    rng = random.Random(3)
    for seed in range(3):
        record = finished_record(seed=seed, bots=("random", "greedy"))
        lab = lab_of(seed=seed)
        lab.load_record(record)
        cut = rng.randrange(len(record["turns"]))
        lab.replay_to(cut)
        assert lab.record == record
        lab.play_from_here()
        assert lab.record["turns"] == record["turns"][:cut]

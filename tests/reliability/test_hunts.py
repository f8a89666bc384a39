"""Hypothesis hunts for what the earlier hunts left alone (issue 25 item 8): damaged room
stores, tampered rows, and odd numbers or wrong types at the public methods of the Streetcar
engine, the bots, the rooms API and the two labs; and (issue 43) disks and signals (a full
disk, Ctrl-C or SIGTERM at any moment of writing files) and files as people save them (a
byte-order mark, other encodings, look-alike letters, misspelt keys). Each asserts the one
contract: the call is accepted, or it is one `HousingLabError` line, and the state (and every
file) is unchanged."""

from __future__ import annotations

import errno
import io
import json
import math
import os
import shutil
import signal
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from housing_lab import outputs
from housing_lab.errors import HousingLabError
from housing_lab.rooms import open_store
from housing_lab.rooms.stores.base import MAX_WAIT_S
from housing_lab.streetcar import Game, Rules, make_bot, to_record
from housing_lab.streetcar.play.bots import RandomBot
from housing_lab.streetcar.play.mcts import MctsBot
from tests.rooms.stores.test_faults import made_room

MAX_LINE = 1000
HUGE_TEXT = "x" * 300_000  # messages must shorten it (a 3 MB value makes shrinking slow)
JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([10**400, -(10**400), 2**64, 2**63, -1, 0, 1]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.just(HUGE_TEXT),
    st.binary(max_size=6),
    st.lists(st.one_of(st.integers(-3, 3), st.text(max_size=3)), max_size=3),
    st.lists(st.lists(st.integers(-3, 3), max_size=2), max_size=2),
    st.dictionaries(st.text(max_size=6), st.one_of(st.integers(), st.text(max_size=4)), max_size=3),
    st.tuples(st.integers(-3, 3), st.integers(-3, 3)),
    st.just(object()),
)
HUNT = settings(
    max_examples=int(os.environ.get("HUNT_EXAMPLES", "60")),  # more: see tests/conftest.py
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def accepted_or_one_line(call: Callable[[], object], *states: Callable[[], object]) -> bool:
    """Run `call`; True if accepted. A refusal must be one short HousingLabError line and leave
    every `states()` as it was."""
    before = [state() for state in states]
    try:
        call()
    except HousingLabError as error:
        message = str(error)
        assert "\n" not in message and 0 < len(message) <= MAX_LINE, message[:300]
        assert [state() for state in states] == before
        return False
    return True


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


# --- 1-3: damaged stores ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> tuple[Path, str, str]:
    """A real SQLite room store with one room and two actions (made once; copied per example)."""
    path = tmp_path_factory.mktemp("pristine") / "rooms.sqlite"
    code, teacher, _url = made_room(path)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # everything in the one file
    return path, code, teacher


def read_the_damaged(tmp_path: Path, damaged: bytes, code: str, teacher: str) -> None:
    """Open a store holding `damaged` and read it every way a view does: accepted or one line,
    and reading never changes the file."""
    folder = tmp_path / f"s{len(list(tmp_path.iterdir()))}"
    folder.mkdir()
    path = folder / "rooms.sqlite"
    path.write_bytes(damaged)

    def read() -> None:
        with open_store(f"sqlite:///{path}") as store:
            store.view(code, teacher)
            store.export(code, teacher)

    accepted_or_one_line(read)
    assert path.read_bytes() == damaged
    shutil.rmtree(folder, ignore_errors=True)  # SQLite may still be removing its -wal file


@pytest.mark.slow  # a hunt of 60 examples
@HUNT
@given(
    damage=st.lists(
        st.tuples(st.integers(0, 10**6), st.binary(min_size=1, max_size=16)), min_size=1, max_size=6
    )
)
def test_hunt_random_byte_damage_to_a_store(tmp_path, pristine, damage) -> None:
    path, code, teacher = pristine
    data = bytearray(path.read_bytes())
    for offset, junk in damage:
        start = offset % len(data)
        data[start : start + len(junk)] = junk[: len(data) - start]
    read_the_damaged(tmp_path, bytes(data), code, teacher)


@pytest.mark.slow  # a hunt of 60 examples
@HUNT
@given(keep=st.floats(0, 1, exclude_max=True))
def test_hunt_a_truncated_store(tmp_path, pristine, keep) -> None:
    path, code, teacher = pristine
    data = path.read_bytes()
    kept = max(1, int(len(data) * keep))  # an empty file is a new store (docs/rooms.md)
    read_the_damaged(tmp_path, data[:kept], code, teacher)


TAMPERABLE = {
    "rooms": ["seed", "teams", "options", "game", "created_at"],
    "room_actions": ["seq", "action", "actor", "at"],
    "room_tokens": ["holder", "token_hash"],
}
ROW_VALUES = st.one_of(
    st.none(),
    st.integers(-(2**63), 2**63 - 1),  # what a SQLite INTEGER holds
    st.sampled_from([2**63 - 1, -(2**63), 1.5, math.inf, -math.inf]),
    st.text(max_size=20),
    st.sampled_from(
        ['{"action": "place"}', "[1, 2]", "null", "NaN", "Infinity", "[" * 5000, '"Red"', "{}"]
    ),
    st.binary(max_size=8),
)


@pytest.mark.slow  # a hunt of 60 examples
@HUNT
@given(
    table=st.sampled_from(sorted(TAMPERABLE)),
    data=st.data(),
    value=ROW_VALUES,
)
def test_hunt_tampered_rows(tmp_path, pristine, table, data, value) -> None:
    """Another program edits a row of a real store: a view is the game or one line."""
    path, code, teacher = pristine
    folder = tmp_path / f"t{len(list(tmp_path.iterdir()))}"
    folder.mkdir()
    copy = folder / "rooms.sqlite"
    shutil.copyfile(path, copy)
    with sqlite3.connect(copy) as db:
        columns = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        column = data.draw(st.sampled_from(sorted(columns & set(TAMPERABLE[table]))))
        try:
            db.execute(f"UPDATE {table} SET {column} = ? WHERE rowid = 1", (value,))
        except sqlite3.IntegrityError:
            return  # SQLite itself refused the edit: nothing tampered
    read_the_damaged(tmp_path, copy.read_bytes(), code, teacher)
    shutil.rmtree(folder)


# --- 4: the rooms API -------------------------------------------------------------------------


def short_wait(value: object) -> object:
    """`value`, or 0.01 where it is a timeout the store accepts (so nothing blocks for long)."""
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    return 0.01 if number and 0.01 < value <= MAX_WAIT_S else value


ROOM_CALLS: dict[str, Callable[[Any, str, dict[str, str], Any, Any], object]] = {
    "create teams": lambda s, c, t, a, b: s.create_room(a, seed=1),
    "create seed": lambda s, c, t, a, b: s.create_room(["Red", "Blue"], seed=a),
    "create game": lambda s, c, t, a, b: s.create_room(["Red", "Blue"], seed=1, game=a),
    "create options": lambda s, c, t, a, b: s.create_room(["Red", "Blue"], seed=1, options=a),
    "view room": lambda s, c, t, a, b: s.view(a, t["teacher"]),
    "view token": lambda s, c, t, a, b: s.view(c, a),
    "act action": lambda s, c, t, a, b: s.act(c, t["Red"], a),
    "act place": lambda s, c, t, a, b: s.act(
        c, t["Red"], {"action": "place", "square": a, "tile": b}
    ),
    "act call_state": lambda s, c, t, a, b: s.act(
        c, t["teacher"], {"action": "call_state", "minutes_elapsed": a}
    ),
    "export token": lambda s, c, t, a, b: s.export(c, a),
    "wait after": lambda s, c, t, a, b: s.wait(c, t["teacher"], a, timeout=0),
    # a valid timeout really waits (up to an hour): the hunt waits 10 ms instead
    "wait timeout": lambda s, c, t, a, b: s.wait(c, t["teacher"], 0, timeout=short_wait(a)),
    "info token": lambda s, c, t, a, b: s.info(c, a),
}


@pytest.mark.slow  # 60 calls on a real store
@HUNT
@given(name=st.sampled_from(sorted(ROOM_CALLS)), first=JUNK, second=JUNK)
def test_hunt_the_rooms_api(tmp_path, name, first, second) -> None:
    url = f"sqlite:///{tmp_path / 'rooms.sqlite'}"
    with open_store(url) as store:
        room = store.create_room(["Red", "Blue"], seed=3)
        code = room["room"]
        tokens = {"teacher": room["teacher"]["token"], "Red": room["teams"]["Red"]["token"]}
        exported = lambda: store.export(code, tokens["teacher"])  # noqa: E731
        accepted_or_one_line(lambda: ROOM_CALLS[name](store, code, tokens, first, second), exported)


# --- 5-6: the Streetcar engine and its bots ---------------------------------------------------

GAME_CALLS: dict[str, Callable[[Game, Any, Any], object]] = {
    "new game board": lambda g, a, b: Game(a),
    "new game seed": lambda g, a, b: Game(seed=a),
    "new game rules": lambda g, a, b: Game(rules=a),
    "rules penalty": lambda g, a, b: Rules(penalty=a),
    "rules goals": lambda g, a, b: Rules(goals=a),
    "house_at": lambda g, a, b: g.house_at(a),
    "building_at": lambda g, a, b: g.building_at(a),
    "edge_owner": lambda g, a, b: g.edge_owner(a),
    "intersection_owner": lambda g, a, b: g.intersection_owner(a),
    "buildings_after": lambda g, a, b: g.buildings_after(a),
    "legal_second_edges": lambda g, a, b: g.legal_second_edges(a),
    "explain_illegal_line": lambda g, a, b: g.explain_illegal_line(a, b),
    "check_lines": lambda g, a, b: g.check_lines(a),
    "lines_error": lambda g, a, b: g.lines_error(a),
    "is_legal": lambda g, a, b: g.is_legal(a),
    "push": lambda g, a, b: g.push(a),
    "apply": lambda g, a, b: g.apply(a),
    "apply lines": lambda g, a, b: g.apply({"action": "lines", "lines": a}),
}


@pytest.mark.slow  # a hunt of 60 examples
@HUNT
@given(name=st.sampled_from(sorted(GAME_CALLS)), first=JUNK, second=JUNK, plies=st.integers(0, 3))
def test_hunt_the_streetcar_engine(name, first, second, plies) -> None:
    game = Game(seed=5)
    bot = make_bot("random", 5)
    for _ in range(plies):
        game.push(bot.choose(game))
    record = lambda: json.dumps(to_record(game))  # noqa: E731
    accepted_or_one_line(lambda: GAME_CALLS[name](game, first, second), record)


BOT_CALLS: dict[str, Callable[[Any], object]] = {
    "make_bot name": lambda a: make_bot(a),
    "make_bot seed": lambda a: make_bot("greedy", a),
    "make_bot iterations": lambda a: make_bot("mcts", 1, iterations=a),
    "make_bot seconds": lambda a: make_bot("mcts", 1, seconds=a),
    "random seed": lambda a: RandomBot(a),
    "mcts seed": lambda a: MctsBot(a),
    "mcts iterations": lambda a: MctsBot(iterations=a),
    "mcts seconds": lambda a: MctsBot(seconds=a),
    "mcts candidates": lambda a: MctsBot(candidates=a),
    "mcts depth": lambda a: MctsBot(depth=a),
    "mcts exploration": lambda a: MctsBot(exploration=a),
}


@pytest.mark.slow  # a hunt of 60 examples
@HUNT
@given(name=st.sampled_from(sorted(BOT_CALLS)), value=JUNK)
def test_hunt_the_bots(name, value) -> None:
    """A bot is made, or one line: never a TypeError, an OverflowError or a hang later."""
    if accepted_or_one_line(lambda: BOT_CALLS[name](value)) and name.endswith("seconds"):
        assert value is None or (math.isfinite(value) and value <= 3600)


# --- 7-8: the two labs ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def nb_lab():
    from housing_lab.widgets import NorthBerkeleyLab

    return NorthBerkeleyLab(seed=2)


LAB_CALLS: dict[str, Callable[[Any, Any, Any], object]] = {
    "place square": lambda lab, a, b: lab.place(a, "park"),
    "place tile": lambda lab, a, b: lab.place("B1", a),
    "clear": lambda lab, a, b: lab.clear(a),
    "set_policy": lambda lab, a, b: lab.set_policy(a, b),
    "set_policy enabled": lambda lab, a, b: lab.set_policy("rent_control", a),
    "reshuffle": lambda lab, a, b: lab.reshuffle(a),
    "set_model": lambda lab, a, b: lab.set_model(a),
    "load_scenario": lambda lab, a, b: lab.load_scenario(a),
    "keep_snapshot": lambda lab, a, b: lab.keep_snapshot(a),
    "coach": lambda lab, a, b: lab.coach(a, b),
    "apply_coach": lambda lab, a, b: lab.apply_coach(a),
}


@pytest.mark.slow  # a lab scores every accepted change
@HUNT
@given(name=st.sampled_from(sorted(LAB_CALLS)), first=JUNK, second=JUNK)
def test_hunt_the_north_berkeley_lab(nb_lab, name, first, second) -> None:
    scenario = lambda: json.dumps(nb_lab.scenario, sort_keys=True)  # noqa: E731
    accepted_or_one_line(lambda: LAB_CALLS[name](nb_lab, first, second), scenario)


@pytest.fixture(scope="module")
def sc_lab():
    from housing_lab.widgets import StreetcarLab

    return StreetcarLab(seed=4, opponent=None, bot_delay=0)


SC_CALLS: dict[str, Callable[[Any, Any, Any], object]] = {
    "bot_delay": lambda lab, a, b: setattr(lab, "bot_delay", a),
    "draw_lines": lambda lab, a, b: lab.draw_lines(a),
    "remove_house": lambda lab, a, b: lab.remove_house(a),
    "play": lambda lab, a, b: lab.play(a, b),
    "hint": lambda lab, a, b: lab.hint(a),
    "click_edge": lambda lab, a, b: lab.click_edge(a),
    "click_house": lambda lab, a, b: lab.click_house(a),
    "new_game seed": lambda lab, a, b: lab.new_game(a),
    "new_game opponent": lambda lab, a, b: lab.new_game(1, a),
    "new_game penalty": lambda lab, a, b: lab.new_game(1, None, penalty=a),
    "load_record": lambda lab, a, b: lab.load_record(a),
    "replay_to": lambda lab, a, b: lab.replay_to(a),
}


@pytest.mark.slow  # a lab redraws after every accepted call
@HUNT
@given(name=st.sampled_from(sorted(SC_CALLS)), first=JUNK, second=JUNK)
def test_hunt_the_streetcar_lab(sc_lab, name, first, second) -> None:
    if name in ("hint", "new_game opponent") and first in (None, "mcts"):
        first = "random"  # a search bot thinks for seconds: not what is hunted here
    record = lambda: json.dumps(sc_lab.record, sort_keys=True)  # noqa: E731
    accepted_or_one_line(lambda: SC_CALLS[name](sc_lab, first, second), record)


# --- 9: disks and signals (issue 43) ----------------------------------------------------------

STOPS = {  # what can go wrong while files are written: a full disk, Ctrl-C, SIGTERM
    "full disk": lambda: OSError(errno.ENOSPC, "No space left on device"),
    "ctrl-c": KeyboardInterrupt,
    "sigterm": lambda: outputs.Stopped(signum=signal.SIGTERM),
}


@pytest.mark.slow  # a hunt of 60 examples
@HUNT
@given(
    existing=st.lists(st.sampled_from("abcd"), unique=True, max_size=4),
    stop=st.sampled_from(sorted(STOPS)),
    at=st.integers(0, 11),
    overwrite=st.booleans(),
)
def test_hunt_a_failure_at_any_moment_of_writing_files(tmp_path, existing, stop, at, overwrite):
    """Four pages written with a full disk, Ctrl-C or SIGTERM at any write, flush or rename:
    all four written, or every file exactly as before, no temporary file left, and one line
    (a `WriteError`) or a stop saying nothing was written."""
    folder = tmp_path / f"f{len(list(tmp_path.iterdir()))}"
    folder.mkdir()
    for name in existing:
        (folder / f"{name}.html").write_text(f"old {name}", encoding="utf-8")
    before = files(folder)
    pages = {f"{name}.html": f"new {name}" for name in "abcd"}
    moments = {"n": 0}

    def maybe_fail(real: Callable[..., Any]) -> Callable[..., Any]:
        def step(*args: Any, **kwargs: Any) -> Any:
            moments["n"] += 1
            if moments["n"] == at + 1:
                raise STOPS[stop]()
            return real(*args, **kwargs)

        return step

    with (
        mock.patch.object(outputs.os, "replace", maybe_fail(os.replace)),
        mock.patch.object(outputs.os, "fsync", maybe_fail(os.fsync)),
    ):
        try:
            outputs.write_files(folder, pages, overwrite)
        except HousingLabError as error:
            assert "\n" not in str(error) and files(folder) == before
        except KeyboardInterrupt as error:
            assert isinstance(error, outputs.Stopped) and error.report.startswith("nothing")
            assert files(folder) == before
        else:
            assert files(folder) == {n: t.encode() for n, t in pages.items()}
    assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")]


# --- 10: files people really have (issue 43) --------------------------------------------------

LOOKALIKES = {"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441"}
ENCODINGS = ["utf-8", "utf-8-sig", "latin-1", "utf-16"]


@pytest.mark.slow  # a hunt of 60 examples
@HUNT
@given(
    encoding=st.sampled_from(ENCODINGS),
    lookalike=st.booleans(),
    misspelt=st.sampled_from([None, "tiels", "polices", "sed", "exisitng"]),
    crlf=st.booleans(),
)
def test_hunt_scenario_files_as_people_save_them(tmp_path, encoding, lookalike, misspelt, crlf):
    """A scenario saved by another editor: with a byte-order mark, in Latin-1 or UTF-16, with
    Windows line ends, a look-alike letter in a tile id or a misspelt key: scored like the
    plain file, or one line naming what is wrong."""
    from housing_lab.cli import main

    scenario: dict[str, Any] = {"tiles": {"B1": "park", "C2": "townhouse_market"}, "seed": 3}
    if lookalike:
        scenario["tiles"]["B1"] = "".join(LOOKALIKES.get(c, c) for c in "park")
    if misspelt is not None:
        scenario[misspelt] = scenario.pop("tiles")
    text = json.dumps(scenario, indent=1, ensure_ascii=False)
    if crlf:
        text = text.replace("\n", "\r\n")
    path = tmp_path / f"s{len(list(tmp_path.iterdir()))}.json"
    try:
        data = text.encode(encoding)
    except UnicodeEncodeError:  # Latin-1 has no Cyrillic: an editor would refuse to save it
        return
    path.write_bytes(data)
    out, err = io.StringIO(), io.StringIO()
    with mock.patch.object(sys, "stdout", out), mock.patch.object(sys, "stderr", err):
        code = main(["nb", "score", str(path)])
    try:
        data.decode("utf-8")
        utf8 = True  # Latin-1 of ASCII text is UTF-8 too
    except UnicodeDecodeError:
        utf8 = False
    if utf8 and not lookalike and misspelt is None:
        assert code == 0 and json.loads(out.getvalue())["spending"] > 0
        return
    assert code == 2 and out.getvalue() == "" and err.getvalue().count("\n") == 1
    if not utf8:
        assert "not UTF-8" in err.getvalue()
    elif misspelt is not None:
        assert repr(misspelt) in err.getvalue()
    else:
        assert "CYRILLIC" in err.getvalue()


@pytest.fixture(scope="module")
def a_record() -> dict[str, Any]:
    game = Game()
    bot = make_bot("random", seed=5)
    while not game.is_over():
        game.push(bot.choose(game))
    return to_record(game)


@pytest.mark.slow  # a hunt of 60 examples (each replays a whole game)
@HUNT
@given(data=st.data(), typo=st.sampled_from(["swap", "drop", "double", "case"]))
def test_hunt_misspelt_keys_in_a_streetcar_record(a_record, data, typo) -> None:
    """Any key of a record, of its final block or of a turn, misspelt: refused naming it."""
    from housing_lab.streetcar.record import replay

    record = json.loads(json.dumps(a_record))
    where = data.draw(st.sampled_from(["record", "final", "turn"]))
    holder = record if where == "record" else record["final"] if where == "final" else None
    if holder is None:
        holder = record["turns"][data.draw(st.integers(0, len(record["turns"]) - 1))]
    key = data.draw(st.sampled_from(sorted(holder)))
    if typo == "swap" and len(key) > 2:
        wrong = key[:1] + key[2] + key[1] + key[3:]
    elif typo == "drop":
        wrong = key[:-1]
    elif typo == "double":
        wrong = key + key[-1]
    else:
        wrong = key.title() if key != key.title() else key.upper()
    if wrong == key:
        return
    holder[wrong] = holder.pop(key)
    with pytest.raises(HousingLabError) as caught:
        replay(record)
    assert repr(wrong) in str(caught.value) and "\n" not in str(caught.value)

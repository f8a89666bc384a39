"""Hypothesis hunts over rooms and their stores (issue 43 item 6, the third hunt's stores): what
`test_hunts.py`'s damaged stores left alone.

- Two processes acting in one room at the same moment, with actions legal, illegal and junk.
- Acts interleaved with every read (view, seq, wait, log, export) on two connections to one
  store, each keeping its own replay of the room.
- Odd store URLs given to `housing-lab room create`: devices, a folder, a FIFO, links, a
  folder on the way that is a file, a missing folder, a FIFO or folder where SQLite keeps its
  own files, random relative names.

The contract: an act is accepted (logged once, under the next number) or refused in one line
with nothing logged; every reading of a room agrees with its log and with a bare engine replay
of it; an odd store is a store or one line (exit 2), at once, and leaves what it named as it
was."""

from __future__ import annotations

import json
import os
import signal
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley.play.game import Game
from housing_lab.rooms import ActionRefused, RoomStore, open_store
from housing_lab.rooms.nb_room import engine_actions
from tests.rooms.helpers import tokens_of
from tests.support import run_cli

from .test_hunts import JUNK, MAX_LINE

HUNT = settings(
    max_examples=int(os.environ.get("HUNT_EXAMPLES", "60")),  # more: see tests/conftest.py
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
TEAMS = ["Red", "Blue"]
SEED = 3
HOLDERS = [*TEAMS, "teacher"]  # Hypothesis leans to the first: a team, a phase-1 square
SQUARES = ["B1", "C1", "B2", "C2", "A1", "Z9"]
TILES = ["park", "tower_market", "townhouse_low", "garage", "adu", "cafe"]
PLACE = st.builds(
    lambda square, tile: {"action": "place", "square": square, "tile": tile},
    st.sampled_from(SQUARES),
    st.sampled_from(TILES),
)
CLEAR = st.builds(lambda square: {"action": "clear", "square": square}, st.sampled_from(SQUARES))
TEACHER = st.sampled_from(
    [{"action": a} for a in ("start_timer", "call_state", "advance", "draft", "pass")]
)
KINDS = {"place": PLACE, "clear": CLEAR, "teacher": TEACHER, "junk": JUNK}
# Mostly the game's actions (one_of would flatten JUNK's thirteen kinds beside these three).
ACTIONS = st.sampled_from(["place", "place", "clear", "teacher", "junk"]).flatmap(KINDS.get)
STEPS = st.lists(st.tuples(st.sampled_from(HOLDERS), ACTIONS), max_size=8)


def one_line(message: str) -> None:
    assert "\n" not in message and 0 < len(message) <= MAX_LINE, message[:300]


def new_room(folder: Path) -> tuple[str, str, dict[str, str]]:
    """A fresh store in `folder` with one two-team room: (url, code, holder -> token)."""
    folder.mkdir()
    url = f"sqlite:///{folder / 'rooms.sqlite'}"
    with open_store(url) as store:
        room = store.create_room(TEAMS, seed=SEED)
    return url, room["room"], tokens_of(room)


def fresh(tmp_path: Path) -> Path:
    """A new folder for one example (Hypothesis reuses a test's tmp_path for every example)."""
    return tmp_path / f"e{len(list(tmp_path.iterdir()))}"


def agreeing(stores: list[RoomStore], code: str, tokens: dict[str, str]) -> list[Any]:
    """The room's log, checked: numbered 1..n; every holder's view and seq on every store say
    n; every store's export is a bare engine replay of the log (without the room's own
    actions, such as starting the timer, which the engine never sees)."""
    log = stores[0].log(code, tokens["teacher"])
    assert [entry.seq for entry in log] == list(range(1, len(log) + 1))
    bare = bare_replay(log)
    for store in stores:
        for token in tokens.values():
            assert store.view(code, token)["seq"] == len(log)
            assert store.seq(code, token) == len(log)
        assert store.export(code, tokens["teacher"]) == bare
    return log


def bare_replay(log: list[Any]) -> dict[str, Any]:
    """The engine's own game for a room's log: `Game.to_dict()`, as an export is."""
    actions = engine_actions([entry.action for entry in log])
    return Game.from_actions(TEAMS, SEED, actions=actions).to_dict()


# --- 1: two processes acting at once ----------------------------------------------------------


def forked(work: Callable[[], list[Any]], go: int) -> tuple[int, int]:
    """Run `work` in a forked process once `go` is readable; (pid, the read end of the JSON
    lines it reports). A crash is reported as a line too, never raised into pytest."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read)
            os.read(go, 1)
            lines = work()
        except BaseException as error:
            lines = [["crash", f"{type(error).__name__}: {error}"]]
        os.write(write, "".join(json.dumps(line) + "\n" for line in lines).encode())
        os._exit(0)
    os.close(write)
    return pid, read


def acting(url: str, code: str, tokens: dict[str, str], steps: list) -> Callable[[], list]:
    """A device's work: each step acted through its own connection, reported as
    ["ok", seq, actor] or ["refused", message]."""

    def work() -> list[Any]:
        lines: list[Any] = []
        with open_store(url) as store:
            for holder, action in steps:
                try:
                    seq = store.act(code, tokens[holder], action)["seq"]
                    lines.append(["ok", seq, "teacher" if holder == "teacher" else holder])
                except ActionRefused as error:
                    lines.append(["refused", str(error)])
        return lines

    return work


@pytest.mark.slow  # a hunt of 30 examples (half the others'), two processes each
@settings(HUNT, max_examples=max(1, HUNT.max_examples // 2))
@given(first=STEPS, second=STEPS)
def test_hunt_two_processes_acting_at_once(tmp_path, first, second) -> None:
    url, code, tokens = new_room(fresh(tmp_path))
    go_read, go_write = os.pipe()
    children = [forked(acting(url, code, tokens, steps), go_read) for steps in (first, second)]
    os.write(go_write, b"gg")  # both start at the same moment
    reports: list[Any] = []
    for pid, read in children:
        with os.fdopen(read) as lines:
            reports += [json.loads(line) for line in lines]
        os.waitpid(pid, 0)
    os.close(go_read), os.close(go_write)
    assert len(reports) == len(first) + len(second), reports  # each child reported every step
    assert [r for r in reports if r[0] == "crash"] == []
    for report in reports:
        if report[0] == "refused":
            one_line(report[1])
    accepted = {seq: actor for kind, seq, *actor in [r for r in reports if r[0] == "ok"]}
    assert len(accepted) == sum(r[0] == "ok" for r in reports)  # no number handed out twice
    with open_store(url) as store:
        log = agreeing([store], code, tokens)
    assert len(log) == len(accepted)  # every accepted act logged, nothing else
    for entry in log:
        actor = accepted[entry.seq][0]
        assert entry.actor == ("teacher" if actor == "teacher" else f"team:{actor}")


# --- 2: acts interleaved with reads on two connections ----------------------------------------

OPERATIONS = st.lists(
    st.one_of(
        st.tuples(st.just("act"), st.integers(0, 1), st.sampled_from(HOLDERS), ACTIONS),
        st.tuples(
            st.sampled_from(["view", "seq", "wait", "log", "export"]),
            st.integers(0, 1),
            st.sampled_from(HOLDERS),
        ),
    ),
    max_size=25,
)


@pytest.mark.slow  # a hunt of 60 examples
@HUNT
@given(operations=OPERATIONS)
def test_hunt_acts_interleaved_with_reads_on_two_connections(tmp_path, operations) -> None:
    """Each connection keeps its own replay of the room and catches up on what the other
    logged: whichever connection reads, it reads the log as it is."""
    url, code, tokens = new_room(fresh(tmp_path))
    with open_store(url) as one, open_store(url) as two:
        stores = [one, two]
        logged = 0
        for name, which, *rest in operations:
            store, token = stores[which], tokens[rest[0]]
            if name == "act":
                try:
                    result = store.act(code, token, rest[1])
                except ActionRefused as error:
                    one_line(str(error))
                else:
                    logged += 1
                    assert result["seq"] == result["view"]["seq"] == logged
            elif name == "view":
                assert store.view(code, token)["seq"] == logged
            elif name == "seq":
                assert store.seq(code, token) == logged
            elif name == "wait":
                assert store.wait(code, token, after=max(0, logged - 1), timeout=0) == logged
            elif rest[0] != "teacher":  # log and export are the teacher's
                with pytest.raises(HousingLabError, match="only the teacher may"):
                    (store.log if name == "log" else store.export)(code, token)
            elif name == "log":
                assert len(store.log(code, token)) == logged
            else:
                assert store.export(code, token) == bare_replay(store.log(code, token))
        assert len(agreeing(stores, code, tokens)) == logged


# --- 3: odd store URLs ------------------------------------------------------------------------


class Hung(Exception):
    """A command that did not end within its seconds (a FIFO opened, a device read)."""


@contextmanager
def bounded(seconds: int) -> Iterator[None]:
    """Raise `Hung` in this (the main) thread if the block runs longer than `seconds`."""

    def hang(signum: int, frame: object) -> None:
        raise Hung(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, hang)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def odd_things(folder: Path) -> dict[str, Path]:
    """Things a store URL can name by mistake, made in `folder`."""
    made = {
        "folder": folder / "a-folder",
        "fifo": folder / "a-fifo",
        "text": folder / "notes.txt",
        "empty": folder / "empty.sqlite",
        "link to folder": folder / "to-folder",
        "link to fifo": folder / "to-fifo",
        "link to null": folder / "to-null",
        "link to nowhere": folder / "to-nowhere",
        "link loop": folder / "loop",
        "missing": folder / "missing" / "deeper",
        "beside a fifo": folder / "journal-fifo.sqlite",  # SQLite's journal there is a FIFO
        "beside a folder": folder / "wal-folder.sqlite",  # and its WAL file a folder
    }
    made["folder"].mkdir()
    os.mkfifo(made["fifo"])
    made["text"].write_text("a teacher's notes\n", encoding="utf-8")
    made["empty"].touch()
    made["link to folder"].symlink_to(made["folder"])
    made["link to fifo"].symlink_to(made["fifo"])
    made["link to null"].symlink_to("/dev/null")
    made["link to nowhere"].symlink_to(folder / "gone" / "rooms.sqlite")
    made["link loop"].symlink_to(made["link loop"])
    made["beside a fifo"].touch()
    os.mkfifo(f"{made['beside a fifo']}-journal")
    made["beside a folder"].touch()
    os.mkdir(f"{made['beside a folder']}-wal")
    return made | {name: Path(f"/dev/{name}") for name in ("null", "zero", "full", "stdin")}


def state_of(path: Path) -> tuple[Any, ...]:
    """What a thing and SQLite's files beside it are and hold (nothing but regular files is
    opened)."""
    return tuple(one_state(Path(f"{path}{side}")) for side in ("", "-journal", "-wal"))


def one_state(path: Path) -> tuple[Any, ...]:
    try:
        info = os.lstat(path)
    except OSError:
        return ("missing",)
    if stat.S_ISREG(info.st_mode):
        return ("file", path.read_bytes())
    if stat.S_ISDIR(info.st_mode):
        return ("folder", sorted(os.listdir(path)))
    if stat.S_ISLNK(info.st_mode):
        return ("link", os.readlink(path))
    return ("other", stat.S_IFMT(info.st_mode), info.st_rdev)


ODD = [
    "folder", "fifo", "text", "empty", "link to folder", "link to fifo", "link to null",
    "link to nowhere", "link loop", "missing", "beside a fifo", "beside a folder", "null",
    "zero", "full", "stdin",
]  # fmt: skip
GROWS = {"folder", "missing", "empty"}  # where an accepted store may be made
SUFFIXES = ["", "/", "/rooms.sqlite", "/a/rooms.sqlite", "/.", "//"]
RELATIVE = st.text(alphabet="ab/ %?#:é\t*-~", min_size=1, max_size=12).filter(
    lambda name: not name.startswith(("/", "~"))  # stays in the example's folder
)


@pytest.mark.slow  # a hunt of 60 examples
@HUNT
@given(
    target=st.one_of(
        st.tuples(st.sampled_from(ODD), st.sampled_from(SUFFIXES)),
        st.tuples(st.just("relative"), RELATIVE),
    )
)
def test_hunt_odd_store_urls(tmp_path, target) -> None:
    folder = fresh(tmp_path)
    folder.mkdir()
    things = odd_things(folder)
    kind, rest = target
    url = f"sqlite:///{rest}" if kind == "relative" else f"sqlite:///{things[kind]}{rest}"
    before = {name: state_of(path) for name, path in things.items()}
    with bounded(20):
        code, out, err = run_cli("room", "create", "--teams", "A,B", "--store", url, cwd=folder)
    if code == 0:
        room = json.loads(out)
        teacher = room["teacher"]["token"]
        with bounded(20):
            view = run_cli(
                "room", "view", room["room"], "--token", teacher, "--store", url, cwd=folder
            )
        assert view[0] == 0 and json.loads(view[1])["seq"] == 0, (url, view)
    else:
        assert code == 2 and out == "" and err.startswith("housing-lab: error: "), (url, err)
        one_line(err.removesuffix("\n"))
    changed = {name for name, path in things.items() if state_of(path) != before[name]}
    assert changed <= (GROWS if code == 0 else set()), (url, err, changed)

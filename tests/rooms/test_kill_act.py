"""`housing-lab room act` killed with SIGKILL at random moments, many times (issue 43 item 3): the
room's view, its log and its export always agree, and every act that printed its result is in
the log.

Each act runs in a real process of its own, killed at a random moment of its life. The
processes are forked from this one with the command's modules already imported and run
`housing_lab.cli.main` (the console script's whole code path from its arguments on): a fresh
interpreter spends about 0.2 s starting and importing and 10 ms on the store, so kills timed
over its life would nearly all land before the store is touched, and 150 of them would take
30 s; forked, the store work is most of the process's life, and 150 kills take a few seconds.
Eight real `python -m housing_lab.cli room act` processes are killed too (the third test), each
at a random moment after it opened the store file, and forty `room create`s (the last test).
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import statistics
import subprocess
import sys
import time
from typing import Any

import pytest

from housing_lab.cli import build_parser, main
from housing_lab.north_berkeley.play.game import Game
from housing_lab.rooms import open_store

from .helpers import tokens_of

TEAMS = ["Red", "Blue"]


def forked_cli(argv: list[str]) -> tuple[int, int]:
    """Run `housing-lab ARGV` in a forked process; (its pid, the read end of its stdout)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 1
        try:
            os.close(read)
            sys.stdout = os.fdopen(write, "w")
            sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (the process ends below)
            code = main(argv)
            sys.stdout.flush()
        except BaseException:
            pass
        finally:
            os._exit(code)
    os.close(write)
    return pid, read


def output_of(read: int) -> str:
    """All the (dead) child wrote to its stdout."""
    chunks = []
    while chunk := os.read(read, 65536):
        chunks.append(chunk)
    os.close(read)
    return b"".join(chunks).decode()


def next_action(url: str, code: str, token: str, square: str) -> dict[str, Any]:
    """Place a park on `square`, or clear it when it has a tile: always legal for a team."""
    with open_store(url) as store:
        view = store.view(code, token)
    if square in view["empty_squares"]:
        return {"action": "place", "square": square, "tile": "park"}
    return {"action": "clear", "square": square}


def agreed(url: str, code: str, tokens: dict[str, str]) -> list[dict[str, Any]]:
    """The room's logged actions, after checking that every way of reading the room agrees:
    each holder's view, `seq`, the log, the export (whose log begins with the deal) and a bare
    engine replay of the log."""
    with open_store(url) as store:
        log = store.log(code, tokens["teacher"])
        seqs = {store.view(code, token)["seq"] for token in tokens.values()}
        seqs.add(store.seq(code, tokens["teacher"]))
        export = store.export(code, tokens["teacher"])
    actions = [entry.action for entry in log]
    assert [entry.seq for entry in log] == list(range(1, len(log) + 1))
    assert seqs == {len(log)}, (seqs, len(log))
    assert export["log"][0]["action"] == "setup" and export["log"][1:] == actions
    assert Game.from_actions(TEAMS, 5, actions=actions).to_dict() == export
    return actions


class Room:
    """A two-team room on a store, with what its killed acts left: the tally of where the
    kills landed and the acts that completed (they must stay in the log)."""

    def __init__(self, url: str) -> None:
        self.url = url
        with open_store(url) as store:
            room = store.create_room(TEAMS, seed=5)
            red = room["teams"]["Red"]["token"]
            self.square = store.view(room["room"], red)["phase_squares"][0]
        self.code, self.tokens = room["room"], tokens_of(room)
        self.logged = 0
        self.completed: dict[int, Any] = {}
        self.landed = {"before": 0, "logged, not printed": 0, "completed": 0}

    def argv(self) -> list[str]:
        """`room act` with the next action, for Red."""
        action = json.dumps(next_action(self.url, self.code, self.tokens["Red"], self.square))
        room = [self.code, "--token", self.tokens["Red"], "--store", self.url]
        return ["room", "act", *room, "--action", action]

    def check(self, out: str) -> None:
        """After an act ended (`out`: what it printed): the room agrees, it holds one action
        more or none, and every completed act is still there."""
        actions = agreed(self.url, self.code, self.tokens)
        if out.endswith("\n"):  # printed in full: the act completed
            assert json.loads(out)["seq"] == len(actions) == self.logged + 1
            self.completed[len(actions)] = actions[-1]
            self.landed["completed"] += 1
        else:
            assert len(actions) in (self.logged, self.logged + 1)  # never half an act
            self.landed["before" if len(actions) == self.logged else "logged, not printed"] += 1
        self.logged = len(actions)
        for seq, action in self.completed.items():
            assert actions[seq - 1] == action


def forked_act(room: Room, delay: float | None) -> float:
    """One forked `room act`, killed after `delay` seconds (None: left to finish); checks the
    room and returns how long the process lived."""
    started = time.monotonic()
    pid, read = forked_cli(room.argv())
    if delay is not None:
        time.sleep(delay)
        os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    lived = time.monotonic() - started
    room.check(output_of(read))
    return lived


@pytest.mark.slow  # 150 processes (SQLite) or 50 (PostgreSQL): 3-4 s each (idle machine)
def test_a_killed_act_leaves_view_log_and_export_agreeing(store_url) -> None:
    room = Room(store_url)
    build_parser()  # built once, here: the children share it, as they share the imports
    span = 1.3 * statistics.median(forked_act(room, None) for _ in range(3))
    rng = random.Random(43)
    for _ in range(150 if store_url.startswith("sqlite") else 50):
        forked_act(room, rng.uniform(0, span))
    print(room.landed, f"over {span * 1000:.1f} ms")
    assert room.landed["before"] and room.landed["completed"], room.landed  # kills spanned it


def has_open(pid: int, path: str) -> bool:
    """Whether process `pid` has `path` open (Linux's /proc/PID/fd)."""
    try:
        folder = f"/proc/{pid}/fd"
        return any(os.readlink(f"{folder}/{fd}") == path for fd in os.listdir(folder))
    except OSError:  # the process ended, or a descriptor closed while looking
        return False


@pytest.mark.slow  # 8 real `housing-lab` processes: about 2 s (idle machine)
@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs Linux's /proc")
def test_a_real_housing_lab_room_act_killed_while_it_uses_the_store(tmp_path) -> None:
    """The command itself, in a fresh interpreter, killed at a random moment after it opened
    the store file (its act takes about 10 ms from there)."""
    path = str(tmp_path / "rooms.sqlite")
    room = Room("sqlite:///" + path)
    rng = random.Random(4)
    for _ in range(8):
        process = subprocess.Popen(
            [sys.executable, "-m", "housing_lab.cli", *room.argv()],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while not has_open(process.pid, path) and process.poll() is None:
            assert time.monotonic() < deadline, "the act never opened the store"
        time.sleep(rng.uniform(0, 0.015))
        process.kill()
        room.check(process.communicate()[0].decode())
    print(room.landed)


@pytest.mark.slow  # 40 forked processes: about 1 s
def test_a_killed_room_create_leaves_no_room_without_its_tokens(tmp_path) -> None:
    """`room create` killed at random moments, on a new store and on one with rooms: the store
    opens; every room in it has its row and all its tokens, or does not exist; a room whose
    links were printed opens with them."""
    build_parser()
    rng = random.Random(7)
    printed = []
    for number in range(40):
        url = f"sqlite:///{tmp_path / f'rooms{number % 4}.sqlite'}"  # new, then with rooms
        pid, read = forked_cli(["room", "create", "--teams", "Red,Blue", "--store", url])
        time.sleep(rng.uniform(0, 0.03))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        out = output_of(read)
        if out.endswith("\n"):
            printed.append((url, json.loads(out)))
        with sqlite3.connect(url.removeprefix("sqlite:///")) as db:
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
            if "rooms" in tables:
                holders = db.execute(
                    "SELECT rooms.code, COUNT(room_tokens.holder) FROM rooms "
                    "LEFT JOIN room_tokens ON room_tokens.room = rooms.code GROUP BY rooms.code"
                ).fetchall()
                assert all(count == 3 for _, count in holders), holders
        with open_store(url) as store:
            store.create_room(TEAMS, seed=1)
    assert 0 < len(printed) < 40  # kills came both before and after the links were printed
    for url, room in printed:
        with open_store(url) as store:
            for token in tokens_of(room).values():
                assert store.view(room["room"], token)["seq"] == 0

"""A bounded soak of one room: team, teacher and viewer processes acting and polling at once.

    python -m housing_lab.rooms.soak --store URL [--seconds 20] [--viewers 6]

Six team processes place and clear tiles in phase 1 of a 6-team North Berkeley room (each
with a short random think time), the teacher calls the state now and then (so tiles appear
under the teams' feet), and viewer processes poll the room's sequence number as a page would.
Afterwards it checks that every accepted act is in the log exactly once under the number it was
given, that the log has no gap, and that the room's saved game equals a bare engine game fed
the log; it reports actions, refusals, conflicts (acts whose holder's view was out of date, each
judged on the newer state) and the propagation latency from an action's log time to each
viewer seeing its number. Processes only: loopback or local files, bounded in time.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import time
from dataclasses import asdict, dataclass
from typing import Any

from housing_lab.north_berkeley.play.game import Game
from housing_lab.rooms import ActionRefused, open_store
from housing_lab.rooms.nb_room import engine_actions

TEAMS = ("Red", "Blue", "Green", "Gold", "Teal", "Plum")
VIEWER_POLL_S = 0.05
THINK_S = 0.05  # a team's pause between acts, at most


@dataclass
class SoakResult:
    backend: str
    seconds: float
    processes: int
    actions: int
    refused: int
    conflicts: int
    polls: int
    p50_ms: float
    p95_ms: float
    max_ms: float
    log_ok: bool
    replay_ok: bool

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _team(url, code, token, seed, start, seconds, out) -> None:
    rng = random.Random(seed)
    accepted, refused, conflicts = [], 0, 0
    with open_store(url) as store:
        start.wait()
        deadline = time.time() + seconds
        while time.time() < deadline:
            view = store.view(code, token)
            places = [a for a in view["legal_actions"] if a["action"] == "place"]
            if not places:
                break
            if rng.random() < 0.4:
                action = {"action": "clear", "square": rng.choice(view["phase_squares"])}
            else:
                action = rng.choice(places)
            try:
                seq = store.act(code, token, action)["seq"]
                accepted.append((seq, action))
                conflicts += seq > view["seq"] + 1
            except ActionRefused:
                refused += 1
                conflicts += store.seq(code, token) > view["seq"]
            time.sleep(rng.uniform(0, THINK_S))
    out.put(("actor", token, accepted, refused, conflicts))


def _teacher(url, code, token, seed, start, seconds, out) -> None:
    rng = random.Random(seed)
    accepted, refused = [], 0
    with open_store(url) as store:
        start.wait()
        deadline = time.time() + seconds
        while time.time() < deadline:
            time.sleep(rng.uniform(0.5, 1.5))
            view = store.view(code, token)
            if view["empty_squares"]:
                try:
                    accepted.append((store.act(code, token, {"action": "call_state"})["seq"],))
                except ActionRefused:  # the teams filled the squares first
                    refused += 1
    out.put(("teacher", token, accepted, refused, refused))


def _viewer(url, code, token, start, seconds, out) -> None:
    seen: dict[int, float] = {}
    polls = 0
    with open_store(url) as store:
        start.wait()
        last = store.seq(code, token)
        deadline = time.time() + seconds + 1  # see the last actions too
        while time.time() < deadline:
            seq = store.seq(code, token)
            polls += 1
            now = time.time()
            for number in range(last + 1, seq + 1):
                seen[number] = now
            last = seq
            time.sleep(VIEWER_POLL_S)
    out.put(("viewer", token, seen, polls, 0))


def run_soak(url: str, *, seconds: float = 20, viewers: int = 6, seed: int = 1) -> SoakResult:
    """Run the soak against the store at `url` and check the log afterwards."""
    with open_store(url) as store:
        room = store.create_room(list(TEAMS), seed=seed, options={"negotiation_minutes": 0})
        backend = store.backend
    code, teacher = room["room"], room["teacher"]["token"]
    team_tokens = [room["teams"][t]["token"] for t in TEAMS]
    # forkserver: workers fork from a server that imported this module once (quick to start)
    # and never held a database connection (unlike a fork of this process)
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__, "housing_lab.rooms.stores.sqlite"])
    start, out = context.Event(), context.Queue()
    workers = [
        context.Process(target=_team, args=(url, code, token, seed + i, start, seconds, out))
        for i, token in enumerate(team_tokens)
    ]
    workers.append(
        context.Process(target=_teacher, args=(url, code, teacher, seed, start, seconds, out))
    )
    holders = [teacher, *team_tokens]
    workers += [
        context.Process(
            target=_viewer, args=(url, code, holders[i % len(holders)], start, seconds, out)
        )
        for i in range(viewers)
    ]
    for worker in workers:
        worker.start()
    time.sleep(0.5)
    start.set()  # workers import and connect first; the clock starts for all at once
    reports = [out.get(timeout=seconds + 300) for _ in workers]
    for worker in workers:
        worker.join(timeout=30)

    with open_store(url) as store:
        log = store.log(code, teacher)
        export = store.export(code, teacher)
    at = {entry.seq: entry.at for entry in log}
    accepted = [
        (seq, kind) for kind, _, items, _, _ in reports if kind != "viewer" for seq, *_ in items
    ]
    numbers = sorted(seq for seq, _ in accepted)
    team_actions = {
        seq: action for kind, _, items, _, _ in reports if kind == "actor" for seq, action in items
    }
    log_ok = numbers == [entry.seq for entry in log] == list(range(1, len(log) + 1)) and all(
        entry.action == team_actions[entry.seq] for entry in log if entry.seq in team_actions
    )
    bare_options = Game.from_dict(export).state.options
    logged = engine_actions([e.action for e in log])
    bare = Game.from_actions(list(TEAMS), seed, bare_options, logged)
    latencies = [
        (seen - at[seq]) * 1000
        for kind, _, items, _, _ in reports
        if kind == "viewer"
        for seq, seen in items.items()
        if seq in at
    ]
    latencies.sort()
    return SoakResult(
        backend=backend,
        seconds=seconds,
        processes=len(workers),
        actions=len(log),
        refused=sum(r for kind, _, _, r, _ in reports if kind != "viewer"),
        conflicts=sum(c for kind, _, _, _, c in reports if kind != "viewer"),
        polls=sum(p for kind, _, _, p, _ in reports if kind == "viewer"),
        p50_ms=round(statistics.median(latencies), 1) if latencies else float("nan"),
        p95_ms=round(latencies[int(0.95 * (len(latencies) - 1))], 1) if latencies else float("nan"),
        max_ms=round(latencies[-1], 1) if latencies else float("nan"),
        log_ok=log_ok,
        replay_ok=bare.to_dict() == export,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--store", required=True, help="sqlite:///path or postgresql://...")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--viewers", type=int, default=6)
    args = parser.parse_args()
    print(json.dumps(run_soak(args.store, seconds=args.seconds, viewers=args.viewers).to_dict()))


if __name__ == "__main__":
    main()

"""Room store propagation latency and view cost, on SQLite and a throwaway PostgreSQL.

    python benchmarks/bench_rooms.py [--seconds 30] [--viewers 30] [--backends sqlite,postgresql]

For each backend: the soak (`housing_lab.rooms.soak`: 6 team processes acting, the teacher,
VIEWERS processes polling every 50 ms) prints actions, refusals, conflicts and the propagation
latency from an action's log time to a viewer seeing it (p50 / p95 / max). Then the cost of one
team view on a room with 40 logged actions, cached replay (what a page's poll costs) against a
cold replay from the log (a fresh store: what the first poll after a restart costs), and their
ratio in the same run.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

from housing_lab.rooms import open_store
from housing_lab.rooms.soak import run_soak
from housing_lab.rooms.stores.pg_server import temporary_server


def view_costs(url: str, actions: int = 40, repeats: int = 50) -> dict[str, float]:
    with open_store(url) as store:
        room = store.create_room(["Red", "Blue", "Green"], seed=1)
        red = room["teams"]["Red"]["token"]
        rng = random.Random(1)
        for _ in range(actions):
            store.act(room["room"], red, rng.choice(store.view(room["room"], red)["legal_actions"]))
        warm = []
        for _ in range(repeats):
            started = time.perf_counter()
            store.view(room["room"], red)
            warm.append(time.perf_counter() - started)
    cold = []
    for _ in range(max(5, repeats // 10)):
        with open_store(url) as fresh:
            started = time.perf_counter()
            fresh.view(room["room"], red)
            cold.append(time.perf_counter() - started)
    warm_ms, cold_ms = statistics.median(warm) * 1000, statistics.median(cold) * 1000
    return {
        "view_cached_ms": round(warm_ms, 2),
        "view_cold_ms": round(cold_ms, 2),
        "cold_over_cached": round(cold_ms / warm_ms, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--viewers", type=int, default=30)
    parser.add_argument("--backends", default="sqlite,postgresql")
    args = parser.parse_args()
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        for backend in args.backends.split(","):
            if backend == "sqlite":
                url = "sqlite:///" + str(folder / "rooms.sqlite")
            else:
                url = stack.enter_context(temporary_server())
            result = run_soak(url, seconds=args.seconds, viewers=args.viewers).to_dict()
            result.update(view_costs(url))
            print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()

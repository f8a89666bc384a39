"""North Berkeley lab: the Python side of one update (a benchmark, not a test).

    python benchmarks/bench_nb_lab.py [--repeats 200]

An update = the engine's move-in and scoring, the chart data, the scoreboard, and the board's
traits, as `NorthBerkeleyLab.set_policy` does after a click. Target: under 10 ms median.
Printed next to the baseline "engine only" (`score_scenario(...).to_dict()`) measured in the same
run, so the ratio says what the widget layer adds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any
from unittest import mock

from housing_lab.north_berkeley import make_scenario, score_scenario

BOARD = {
    "B1": "tower_inclusionary_50",
    "C1": "tower_social",
    "B2": "tower_market",
    "C2": "midrise_inclusionary_50",
    "A1": "townhouse_middle",
    "A2": "midrise_workforce",
    "A3": "tower_workforce",
    "B3": "midrise_public",
    "C3": "garage",
}


def timings(action: Callable[[int], Any], repeats: int) -> list[float]:
    times = []
    for i in range(repeats):
        start = time.perf_counter()
        action(i)
        times.append(time.perf_counter() - start)
    return times


class _Comm:
    """Stands in for the kernel's comm so that messages are built but go nowhere."""

    comm_id = "bench"
    kernel = "Truthy"

    def send(self, *args: Any, **kwargs: Any) -> None: ...

    def on_msg(self, *args: Any, **kwargs: Any) -> None: ...

    def close(self, *args: Any, **kwargs: Any) -> None: ...


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=200)
    args = parser.parse_args()

    import ipywidgets.widgets.widget as widget_module

    with mock.patch.object(widget_module.comm, "create_comm", lambda **_: _Comm()):
        from housing_lab.widgets import NorthBerkeleyLab

        lab = NorthBerkeleyLab(seed=3)
        lab.load_scenario({"tiles": BOARD, "seed": 3})
        policies = ["vacancy_control", "adu", "matching_funds"]

        def engine_only(i: int) -> None:
            on = [policies[i % 3]] if i % 2 else []
            score_scenario(make_scenario(BOARD, on, seed=3)).to_dict()

        def lab_update(i: int) -> None:
            lab.set_policy(policies[i % 3], bool(i % 2))

        engine_only(0)
        lab_update(0)
        engine = timings(engine_only, args.repeats)
        widget = timings(lab_update, args.repeats)

    engine_ms = statistics.median(engine) * 1000
    widget_ms = statistics.median(widget) * 1000
    print(
        json.dumps(
            {
                "repeats": args.repeats,
                "engine_only_median_ms": round(engine_ms, 3),
                "lab_update_median_ms": round(widget_ms, 3),
                "lab_update_p90_ms": round(sorted(widget)[int(0.9 * len(widget))] * 1000, 3),
                "ratio_lab_to_engine": round(widget_ms / engine_ms, 2),
                "target_ms": 10,
                "meets_target": widget_ms < 10,
            }
        )
    )


if __name__ == "__main__":
    main()

"""A bounded soak on each backend: 6 team processes, the teacher and 3 viewers for 5 s.

benchmarks/bench_rooms.py runs the long one (30 s, 30 viewers)."""

from __future__ import annotations

import pytest

from housing_lab.rooms.soak import run_soak


@pytest.mark.slow
def test_soak_loses_nothing_and_propagates_within_a_second(store_url) -> None:
    result = run_soak(store_url, seconds=5, viewers=3)
    print(result.to_dict())  # the figures, for the run's log (pytest -s)
    assert result.log_ok and result.replay_ok
    assert result.actions > 20 and result.conflicts > 0  # real contention happened
    assert result.p95_ms < 1000

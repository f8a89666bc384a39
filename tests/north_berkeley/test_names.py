"""Words for students: every move-in event and outcome is said without machine ids."""

from __future__ import annotations

import random
import re

import pytest

from housing_lab.north_berkeley import make_scenario, score_scenario
from housing_lab.north_berkeley.layout import default_layout
from housing_lab.north_berkeley.names import (
    EVENT_COLUMNS,
    describe_home,
    describe_step,
    event_rows,
    outcome_rows,
)
from housing_lab.north_berkeley.policies import POLICIES
from housing_lab.north_berkeley.tiles import load_catalogue

# What a student must never read: snake_case ids, home and resident ids, "x:y" step ids.
MACHINE_ID = re.compile(
    r"[a-z]+_[a-z_]+|\b(?:house|apartment|adu|high|middle|low)-\d|[A-C][1-3]-\d|\w:\w"
)


def random_scenario(rng: random.Random):
    catalogue = list(load_catalogue())
    squares = default_layout().squares
    policies = [p for p in POLICIES if p != "affordable_100" and rng.random() < 0.5]
    tiles = {s: rng.choice(catalogue) for s in squares if rng.random() < 0.7}
    return make_scenario(tiles, policies, seed=rng.randrange(1000))


@pytest.mark.parametrize("seed", range(40))
def test_every_event_reads_without_machine_ids(seed: int) -> None:
    scenario = random_scenario(random.Random(seed))
    result = score_scenario(scenario)
    rows = event_rows(result.move_in, scenario)
    assert len(rows) == len(result.move_in.events)
    for row in rows:
        assert tuple(row) == EVENT_COLUMNS
        for text in row.values():
            assert not MACHINE_ID.search(text), text


def test_homes_are_described_by_place() -> None:
    scenario = make_scenario({"C1": "tower_market"}, ["adu"], seed=1)
    assert describe_home("house-2", scenario) == "house 2 on Acton Street"
    assert describe_home("apartment-1", scenario) == "apartment 1 on Virginia Street"
    assert describe_home("adu-5", scenario) == "the ADU at house 5"
    assert describe_home("C1-3", scenario) == "home 3 of the Market Rate Tower on C1"


def test_steps_and_outcomes_have_words() -> None:
    assert describe_step("high:new_market") == "High income: new market rate homes"
    result = score_scenario(make_scenario({"B1": "tower_public"}, seed=2)).to_dict()
    rows = outcome_rows(result["outcomes"])
    assert set(rows) == {"high income", "middle income", "low income"}
    assert rows["low income"]["stayed in their home"] == result["outcomes"]["low"]["stayed"]
    for counts in rows.values():
        assert sum(counts.values()) == 12


def test_policy_sets_and_measures_have_names() -> None:
    from housing_lab.north_berkeley.batch.sweep import random_boards, sweep
    from housing_lab.north_berkeley.names import MEASURE_NAMES, measure_name, policy_set_name

    assert policy_set_name("none") == "No policy"
    assert policy_set_name("vacancy_control+adu") == "Vacancy Control + ADUs"
    assert policy_set_name(["adu"], short=False) == "Accessory Dwelling Units"
    frame = sweep(random_boards(50, seed=1))
    for key in frame["policies"].unique():
        assert not MACHINE_ID.search(policy_set_name(key))
    measures = [c for c in frame.columns if c.split("_")[0] in {"housed", "unhoused", "displaced"}]
    assert {*measures, "spending", "new_total"} <= set(MEASURE_NAMES)
    assert measure_name("housed_low") == "Low income housed"

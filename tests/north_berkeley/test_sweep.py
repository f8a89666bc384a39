"""Sweeps: random boards, state fills and policy combinations as DataFrames for the lessons."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from housing_lab.north_berkeley.batch.evaluator import ALL_POLICY_SETS, default_evaluator
from housing_lab.north_berkeley.batch.sweep import (
    policy_combinations,
    random_boards,
    state_fills,
    sweep,
    sweep_chunks,
)
from housing_lab.north_berkeley.constituents import CARD_IDS
from housing_lab.north_berkeley.engine.movein import OUTCOMES
from housing_lab.north_berkeley.engine.scoring import score_scenario
from housing_lab.north_berkeley.errors import AffordableOnlyError, UnknownIdError
from housing_lab.north_berkeley.policies import INCOMES, POLICIES
from housing_lab.north_berkeley.scenario import make_scenario

from .helpers import PLACEMENT

EVALUATOR = default_evaluator()
BOARD = {"A1": "park", "B1": "tower_market", "C1": "midrise_public", "B3": "townhouse_low"}


def test_every_policy_combination_of_a_board_matches_the_scalar_engine() -> None:
    frame = sweep(policy_combinations(BOARD, existing=PLACEMENT))
    assert len(frame) == 16 and frame["policies"].is_unique
    for _, row in frame.iterrows():
        policies = [p for p in POLICIES if row[p]]
        out = score_scenario(make_scenario(BOARD, policies, PLACEMENT)).to_dict()
        assert row["spending"] == out["spending"]
        assert row["new_total"] == out["new_homes"]["total"]
        for income in INCOMES:
            assert row[f"housed_{income}"] == out["housed"][income]
            assert row[f"unhoused_{income}"] == out["unhoused"][income]
            assert row[f"displaced_{income}"] == out["displaced"][income]
            for outcome in OUTCOMES:
                assert row[f"{income}_{outcome}"] == out["outcomes"][income][outcome]
        for card in CARD_IDS:
            assert row[card] == out["constituents"][card]["score"]
        assert row["policies"] == ("+".join(policies) or "none")
        assert [row[s] for s in BOARD] == list(BOARD.values())
        assert pd.isna(row["C3"])  # an empty square


def test_columns_for_every_measure_and_card() -> None:
    frame = sweep(random_boards(100, seed=1), coalition={"developer": 2, "urbanists": 1})
    expected = {
        *EVALUATOR.squares,
        "policies",
        *POLICIES,
        *EVALUATOR.homes,
        "spending",
        "new_market",
        "new_middle",
        "new_low",
        "new_total",
        *CARD_IDS,
        "score",
        "nonnegative",
    }
    assert expected <= set(frame.columns)
    assert (frame["score"] == 2 * frame["developer"] + frame["urbanists"]).all()
    assert (frame["nonnegative"] == ((frame["developer"] >= 0) & (frame["urbanists"] >= 0))).all()


def test_progress_callback_and_chunks() -> None:
    calls: list[tuple[int, int]] = []
    boards = random_boards(1_000, seed=2)
    frame = sweep(boards, progress=lambda done, total: calls.append((done, total)), chunk_rows=300)
    assert calls == [(300, 1000), (600, 1000), (900, 1000), (1000, 1000)]
    assert list(frame.index) == list(range(1000))
    chunks = list(sweep_chunks(boards, chunk_rows=400))
    assert [len(c) for c in chunks] == [400, 400, 200]
    pd.testing.assert_frame_equal(pd.concat(chunks), frame)


def test_random_boards_are_seeded_and_follow_the_rules() -> None:
    first, again, other = (random_boards(5_000, seed=s) for s in (7, 7, 8))
    assert np.array_equal(first.tiles, again.tiles)
    assert np.array_equal(first.existing, again.existing)
    assert not np.array_equal(first.tiles, other.tiles)
    assert (np.sort(first.existing, axis=1) == np.repeat([0, 1, 2], 4)).all()  # 4 + 4 + 4
    sizes = np.array(
        [
            len(s)
            for s in (
                frozenset(p for i, p in enumerate(POLICIES) if m >> i & 1) for m in first.policies
            )
        ]
    )
    assert ((sizes >= 1) & (sizes <= 2)).all()  # the game's policy sets
    affordable = first.policies & (1 << POLICIES.index("affordable_100")) > 0
    phase_two = [EVALUATOR.squares.index(s) for s in EVALUATOR.layout.phases[2]]
    allowed = [
        t for t, tile in enumerate(EVALUATOR.tile_ids) if EVALUATOR.catalogue[tile].affordable_only
    ]
    assert affordable.any()
    assert np.isin(first.tiles[affordable][:, phase_two], allowed).all()
    assert (first.tiles < EVALUATOR.empty).all()  # every square filled


def test_state_fills_keep_the_placed_tiles() -> None:
    boards = state_fills(
        {"B1": "tower_market", "A3": "park"}, 500, seed=3, policies=["adu"], existing=PLACEMENT
    )
    frame = sweep(boards)
    assert (frame["B1"] == "tower_market").all() and (frame["A3"] == "park").all()
    assert frame["C2"].nunique() > 5 and (frame["policies"] == "adu").all()
    assert (frame["house-1"] == PLACEMENT["house-1"]).all()


def test_policy_combinations_refuse_what_affordable_100_forbids() -> None:
    with pytest.raises(AffordableOnlyError, match="A3"):
        policy_combinations({"A3": "tower_market"})
    assert (
        len(
            policy_combinations(
                {"A3": "tower_market"}, [s for s in ALL_POLICY_SETS if "affordable_100" not in s]
            )
        )
        == 8
    )
    with pytest.raises(AffordableOnlyError, match="A3"):
        state_fills({"A3": "tower_market"}, 10, policies=["affordable_100"])


def test_bad_input_is_a_one_line_error() -> None:
    with pytest.raises(UnknownIdError, match="'castle'"):
        random_boards(10, tiles={"A1": "castle"})
    with pytest.raises(UnknownIdError, match="'rent_control'"):
        random_boards(10, policy_sets=[["rent_control"]])
    with pytest.raises(UnknownIdError, match="'nobody'"):
        sweep(random_boards(10), coalition=["nobody"])


def test_scenario_dicts_and_empty_sweeps() -> None:
    frame = sweep([{"tiles": BOARD, "policies": ["adu"], "existing": PLACEMENT}])
    assert frame.loc[0, "adu"] and frame.loc[0, "B1"] == "tower_market"
    assert sweep(random_boards(0)).empty

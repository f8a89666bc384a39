"""Lesson 5's state fill explorer: the state's fills of phase 2 without code, as the engine
scores them."""

from __future__ import annotations

import pytest

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley import default_catalogue, state_fills, sweep
from housing_lab.widgets.lessons.state_fill import StateFillExplorer

PHASE_1 = {
    "B1": "tower_inclusionary_50",
    "C1": "tower_market",
    "B2": "midrise_workforce",
    "C2": "park",
}
PUBLIC = dict.fromkeys(PHASE_1, "tower_public")


def test_the_fills_are_the_engines() -> None:
    explorer = StateFillExplorer(PHASE_1, fills=300, seed=5)
    fills = explorer.run()
    direct = sweep(state_fills(PHASE_1, 300, seed=5))
    assert fills["housed_low"].tolist() == direct["housed_low"].tolist()
    average = f"{direct['housed_low'].mean():.1f}"
    assert average in explorer.summary.value
    assert len(explorer.chart.children) == 1


def test_a_student_changes_phase_1_and_the_policy_by_name() -> None:
    explorer = StateFillExplorer(PHASE_1, fills=300, seed=5)
    names = dict(explorer.squares["B1"].options)
    assert "Low Income Public Housing Tower" in names  # tiles by name, not by id
    for square, box in explorer.squares.items():
        box.value = PUBLIC[square]
    explorer.policy.value = "affordable_100"
    explorer.button.click()
    fills = explorer.fills
    assert fills is not None
    assert (
        fills["housed_low"].tolist()
        == sweep(state_fills(PUBLIC, 300, seed=5, policies=["affordable_100"]))[
            "housed_low"
        ].tolist()
    )
    catalogue = default_catalogue()
    phase_2 = ["A1", "A2", "A3", "B3", "C3"]
    tiles = {t for square in phase_2 for t in fills[square].dropna().astype(str)}
    assert tiles and not any(catalogue[t].count("market") for t in tiles)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"phase_1": {"A3": "park"}}, "phase 1 is the squares B1, C1, B2, C2, not 'A3'"),
        ({"phase_1": {"B1": "castle"}}, "unknown tile 'castle' on B1"),
        ({"policy": "rent_strike"}, "unknown policy 'rent_strike'"),
        ({"fills": 0}, "fills must be from 1 to 100,000, got 0"),
    ],
)
def test_bad_input_is_one_line(kwargs: dict, message: str) -> None:
    with pytest.raises(HousingLabError) as error:
        StateFillExplorer(**kwargs)
    assert str(error.value) == message

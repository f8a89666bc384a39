"""The game table on a projector (issues 26, 27): a dimmed square says why it is not in play,
the move-in chart's segments are told apart without colour."""

from __future__ import annotations

import pytest

from housing_lab.errors import HousingLabError
from housing_lab.widgets import GameTable
from housing_lab.widgets.lab.charts import SEPARATOR
from housing_lab.widgets.table.charts import CATEGORIES, COLORS, MoveInChart
from tests.support import contrast


def test_a_square_of_the_other_phase_says_why() -> None:
    table = GameTable(teams=["Red", "Blue", "Green"], seed=7)
    phase2 = next(s for s in table.game.layout.squares if s not in table.game.phase_squares())
    before = table.state
    said = table.explain_square(phase2)
    reason = table.game.refusal(phase2, next(iter(table.game.catalogue)))
    assert reason and said == f"S{reason[1:]}: it is built in phase 2."
    assert table.panel.message == said and table.panel.message_kind == "error"
    assert table.state == before  # nothing changed
    table._on_panel_action({"action": "locked_square", "square": phase2})
    assert table.panel.message == said
    with pytest.raises(HousingLabError, match="Z9"):
        table.explain_square("Z9")


def test_chart_segments_are_told_apart_without_colour() -> None:
    chart = MoveInChart()
    assert chart.bars.stroke == SEPARATOR and chart.bars.stroke_width >= 2
    for colour in COLORS:  # the separator is at least 3:1 against every segment
        assert contrast(colour, SEPARATOR) >= 3.0, colour
    colour = dict(zip(CATEGORIES, COLORS, strict=True))
    assert contrast(colour["stayed"], colour["displaced_left"]) >= 2.0

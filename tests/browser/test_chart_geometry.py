"""The chart legibility check finds what it is meant to find: a crowded bqplot chart fails it,
the lessons' own bar chart passes it (so the lessons' browser test can trust a clean result)."""

from __future__ import annotations

import pytest

from .chart_geometry import chart_problems
from .harness import settle

pytestmark = pytest.mark.browser

CROWDED = """
import bqplot as bq
labels = [f"a long category name {i}" for i in range(30)]
x, y = bq.OrdinalScale(), bq.LinearScale()
bars = bq.Bars(x=labels, y=list(range(30)), scales={"x": x, "y": y})
bq.Figure(marks=[bars], axes=[bq.Axis(scale=x), bq.Axis(scale=y, orientation="vertical")],
          title="crowded", layout={"width": "500px", "height": "300px"})
"""
OURS = """
from housing_lab.widgets.lessons.charts import bar_chart
bar_chart(["Vacancy Control", "Accessory Dwelling Units", "No policy"],
          {"High income": [3, 1, 0], "Middle income": [2, 2, 1], "Low income": [0, 4, 2]},
          title="Residents who had to leave", value_label="residents")
"""


@pytest.mark.parametrize(
    ("source", "clean"), [(CROWDED, False), (OURS, True)], ids=["crowded", "ours"]
)
def test_chart_check_tells_crowded_from_legible(open_page, source: str, clean: bool) -> None:
    page, _ = open_page([source], ready=".bqplot.figure .tick text")
    settle(page)  # bqplot lays out its axes after the first frame
    found = chart_problems(page)
    assert found["charts"] == 1
    assert (found["problems"] == []) is clean, found["problems"]

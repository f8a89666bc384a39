"""The lessons' bar charts: legible by construction (checked here in Python, seen in Chromium)."""

from __future__ import annotations

import math

import bqplot
import ipywidgets
import numpy as np
import pytest

from housing_lab.widgets.lessons.charts import INCOME_COLOURS, bar_chart


def test_grouped_bars_have_an_html_title_and_legend_outside_the_figure() -> None:
    box = bar_chart(
        ["No policy", "Vacancy Control"],
        {"high income": [12, 4], "middle income": [0, 4], "low income": [12, 12]},
        title="Residents housed",
        value_label="residents housed",
        value_max=12,
    )
    title, legend, figure = box.children
    assert isinstance(title, ipywidgets.HTML) and "Residents housed" in title.value
    assert all(name in legend.value for name in INCOME_COLOURS)
    assert isinstance(figure, bqplot.Figure) and figure is box.figure
    assert figure.display_toolbar is False and figure.title == ""
    (bars,) = figure.marks
    assert bars.orientation == "horizontal" and bars.label_display
    assert list(bars.colors) == list(INCOME_COLOURS.values())
    value_axis = next(a for a in figure.axes if a.orientation == "horizontal")
    assert value_axis.label == "residents housed"
    assert list(value_axis.tick_values) == [0, 2, 4, 6, 8, 10, 12]
    assert value_axis.scale.max > 12  # room for the largest value's label


def test_one_series_needs_no_legend_and_labels_get_room() -> None:
    long = "Matching Affordable Housing Funds"
    box = bar_chart(["No policy", long], {"low": [3, 7]}, title="t", value_label="v")
    assert len(box.children) == 2
    assert box.figure.fig_margin["left"] > len(long) * 6


def test_missing_values_and_a_bad_shape_are_refused() -> None:
    with pytest.raises(ValueError, match="every value must be a number"):
        bar_chart(["a", "b"], {"x": [1, math.nan], "y": [2, 3]}, title="t", value_label="v")
    with pytest.raises(ValueError, match="2 values"):
        bar_chart(["a", "b"], {"x": [1]}, title="t", value_label="v")


def test_heat_table_writes_every_label_and_number() -> None:
    from housing_lab.widgets.lessons.charts import heat_table

    names = ["Developer", "Labor Unions", "Save Our Views"]
    values = np.array([[50, 0, 10], [0, 30, 2], [10, 2, 40]])
    table = heat_table(values, names, names, title="Both win", unit="% of boards").value
    assert table.count("<tr>") == 1 + len(names)
    for name in names:
        assert table.count(f">{name}</th>") == 2  # once as a row, once as a column
    assert ">50</td>" in table and "rgb(0,109,44)" in table  # the largest is the darkest
    with pytest.raises(ValueError, match="3 x 3"):
        heat_table(values[:2], names, names, title="t")

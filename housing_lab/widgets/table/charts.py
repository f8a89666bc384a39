"""The move-in chart of the game table: stacked bars per income that grow wave by wave.

The lab's `OutcomeChart` shows the end of move-in; on the table the class watches it happen, so
this chart shows the engine's `outcomes_after` part-way through, including residents who have
been displaced and are still looking for a home. After the last event it equals the lab's chart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import bqplot
import ipywidgets

from housing_lab.north_berkeley.engine.movein import DISPLACED_WAITING, MoveInResult
from housing_lab.north_berkeley.policies import INCOMES, RESIDENTS_PER_INCOME
from housing_lab.widgets.lab.charts import (
    CHART_CATEGORIES,
    CHART_COLORS,
    CHART_LABELS,
    housed_bars,
    outcome_table,
)

WAITING = DISPLACED_WAITING
CATEGORIES = CHART_CATEGORIES
LABELS = CHART_LABELS
COLORS = CHART_COLORS


def outcomes_so_far(move_in: MoveInResult, count: int | None = None) -> dict[str, dict[str, int]]:
    """Per income, how many residents are in each chart category after the first `count`
    events (None: all): the engine's `outcomes_after`, without the newcomers still waiting
    for their turn (the bars grow to 12 as they arrive)."""
    progress = move_in.outcomes_after(count)
    return {income: {c: progress[income][c] for c in CATEGORIES} for income in INCOMES}


def chart_rows(table: dict[str, dict[str, int]]) -> list[list[int]]:
    """Rows = categories, columns = high, middle, low: the stacked bars' y."""
    return [[table[income][category] for income in INCOMES] for category in CATEGORIES]


def legend() -> ipywidgets.HTML:
    items = "".join(
        f"<span class='hl-gt-legend-item'><span class='hl-gt-swatch' "
        f"style='background:{color}'></span>{LABELS[category]}</span>"
        for category, color in zip(reversed(CATEGORIES), reversed(COLORS), strict=True)
    )
    return ipywidgets.HTML(f"<div class='hl-gt-chart-legend'>{items}</div>")


class MoveInChart(ipywidgets.VBox):
    """Who has found a home so far, per income group (12 residents each when all are in)."""

    def __init__(self, **kwargs: Any) -> None:
        self.x_scale, self.y_scale, self.bars = housed_bars()  # the lab's bars, one palette
        axis_style = {"font-size": "16px"}
        self.figure = bqplot.Figure(
            marks=[self.bars],
            axes=[
                bqplot.Axis(scale=self.x_scale, tick_style=axis_style),
                bqplot.Axis(
                    scale=self.y_scale,
                    side="left",
                    label="residents",
                    tick_values=list(range(0, RESIDENTS_PER_INCOME + 1, 2)),
                    tick_style=axis_style,
                ),
            ],
            title="Before move-in",
            title_style={"font-size": "20px"},
            fig_margin={"top": 50, "bottom": 40, "left": 60, "right": 20},
            layout=ipywidgets.Layout(width="560px", height="400px"),
        )
        self.figure.add_class("hl-movein-chart")
        self.rows: list[list[int]] = chart_rows({i: dict.fromkeys(CATEGORIES, 0) for i in INCOMES})
        # the bars' numbers for screen readers, redrawn with them: a hidden table inside the
        # legend's widget (it takes no place on the screen)
        self.words = outcome_table(
            {i: dict.fromkeys(CATEGORIES, 0) for i in INCOMES}, LABELS, "Before move-in"
        )
        self.legend = legend()
        self._legend_html = self.legend.value
        self.legend.value = self._legend_html + self.words
        super().__init__([self.figure, self.legend], **kwargs)
        self.add_class("hl-gt-chart")

    def __repr__(self) -> str:
        return "MoveInChart()"

    def show(self, move_in: MoveInResult, count: int | None, title: str) -> None:
        table = outcomes_so_far(move_in, count)
        self.rows = chart_rows(table)
        self.bars.y = self.rows
        self.figure.title = title
        self.words = outcome_table(table, LABELS, title)
        self.legend.value = self._legend_html + self.words


def totals(rows: Sequence[Sequence[int]]) -> list[int]:
    """Residents counted per income column (grows to 12 each)."""
    return [sum(row[column] for row in rows) for column in range(len(INCOMES))]

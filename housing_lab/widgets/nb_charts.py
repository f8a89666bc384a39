"""bqplot charts of a move-in result: who is housed and displaced, and what was built."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import bqplot
import ipywidgets

from housing_lab.north_berkeley.movein import OUTCOMES
from housing_lab.north_berkeley.policies import INCOMES

OUTCOME_LABELS = {
    "stayed": "stayed",
    "newcomer_housed": "newcomers housed",
    "rehoused": "displaced but rehoused",
    "displaced_left": "displaced and left",
    "newcomer_left": "could not move in",
}
# Greens for housed, reds/greys for not housed; ordered so the stack reads bottom-up.
OUTCOME_COLORS = ["#1b7837", "#7fbf7b", "#c2a5cf", "#b2182b", "#9e9e9e"]
INCOME_LABELS = {"high": "High income", "middle": "Middle income", "low": "Low income"}
HOME_COLORS = {"market": "#8da0cb", "middle": "#f2c14e", "low": "#c0392b"}


def outcome_chart_data(result: Mapping[str, Any]) -> list[list[int]]:
    """Rows = the five outcomes, columns = high, middle, low (the stacked bars)."""
    outcomes = result["outcomes"]
    return [[outcomes[income][outcome] for income in INCOMES] for outcome in OUTCOMES]


def homes_chart_data(result: Mapping[str, Any]) -> list[int]:
    return [result["new_homes"][kind] for kind in ("market", "middle", "low")]


def outcome_legend() -> ipywidgets.HTML:
    """An HTML legend under the chart (bqplot's own legend covers the bars)."""
    items = "".join(
        f"<span style='display:inline-flex;align-items:center;gap:4px;margin-right:12px'>"
        f"<span style='width:14px;height:14px;background:{color};display:inline-block;"
        f"border:1px solid #52606d'></span>{OUTCOME_LABELS[outcome]}</span>"
        for outcome, color in zip(reversed(OUTCOMES), reversed(OUTCOME_COLORS), strict=True)
    )
    return ipywidgets.HTML(f"<div style='font-size:13px;max-width:440px'>{items}</div>")


def _money(value: float) -> str:
    return f"${value:g}"


class OutcomeChart(ipywidgets.VBox):
    """Stacked bars per income group: stayed, newcomers housed, rehoused, left, turned away."""

    def __init__(self, title: str = "Who is housed?", **kwargs: Any) -> None:
        self.x_scale = bqplot.OrdinalScale(domain=[INCOME_LABELS[i] for i in INCOMES])
        self.y_scale = bqplot.LinearScale(min=0, max=12)
        self.bars = bqplot.Bars(
            x=[INCOME_LABELS[i] for i in INCOMES],
            y=[[0, 0, 0] for _ in OUTCOMES],
            scales={"x": self.x_scale, "y": self.y_scale},
            type="stacked",
            colors=OUTCOME_COLORS,
            labels=[OUTCOME_LABELS[o] for o in OUTCOMES],
            tooltip=bqplot.Tooltip(fields=["x", "y"], labels=["group", "residents"]),
        )
        self.figure = bqplot.Figure(
            marks=[self.bars],
            axes=[
                bqplot.Axis(scale=self.x_scale),
                bqplot.Axis(
                    scale=self.y_scale,
                    side="left",
                    label="residents",
                    tick_values=[0, 2, 4, 6, 8, 10, 12],
                ),
            ],
            title=title,
            fig_margin={"top": 50, "bottom": 40, "left": 50, "right": 20},
            layout=ipywidgets.Layout(width="440px", height="340px"),
        )
        self.figure.add_class("hl-outcome-chart")
        super().__init__([self.figure, outcome_legend()], **kwargs)

    def update(self, result: Mapping[str, Any], title: str | None = None) -> None:
        self.bars.y = outcome_chart_data(result)
        if title is not None:
            self.figure.title = title


class HomesChart(ipywidgets.VBox):
    """New homes by type, with spending in the title."""

    def __init__(self, **kwargs: Any) -> None:
        self.x_scale = bqplot.OrdinalScale(domain=["market", "middle", "low"])
        self.y_scale = bqplot.LinearScale(min=0, max=36)
        self.bars = bqplot.Bars(
            x=["market", "middle", "low"],
            y=[0, 0, 0],
            scales={"x": self.x_scale, "y": self.y_scale},
            colors=[HOME_COLORS["market"], HOME_COLORS["middle"], HOME_COLORS["low"]],
            color_mode="element",
            label_display=True,
            label_display_format=".0f",
            tooltip=bqplot.Tooltip(fields=["x", "y"], labels=["homes", "new"]),
        )
        self.figure = bqplot.Figure(
            marks=[self.bars],
            axes=[
                bqplot.Axis(scale=self.x_scale, label="new homes by type"),
                bqplot.Axis(scale=self.y_scale, side="left", label="homes"),
            ],
            title="New homes",
            fig_margin={"top": 50, "bottom": 45, "left": 50, "right": 20},
            layout=ipywidgets.Layout(width="330px", height="340px"),
        )
        self.figure.add_class("hl-homes-chart")
        super().__init__([self.figure], **kwargs)

    def update(self, result: Mapping[str, Any]) -> None:
        data = homes_chart_data(result)
        with self.bars.hold_sync():
            self.bars.y = data
            self.y_scale.max = max(12, max(data) + 2)
        self.figure.title = (
            f"{result['new_homes']['total']} new homes, spending {_money(result['spending'])}"
        )

"""bqplot charts of a move-in result: who is housed and displaced, and what was built."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import bqplot
import ipywidgets

from housing_lab.north_berkeley.engine.movein import OUTCOMES
from housing_lab.north_berkeley.policies import INCOMES, RESIDENTS_PER_INCOME
from housing_lab.widgets.common import signed
from housing_lab.widgets.lab.spoken import homes_table, outcome_table

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
HOME_TYPE_LABELS = {"market": "market rate", "middle": "middle income", "low": "low income"}
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


def housed_totals(result: Mapping[str, Any]) -> list[int]:
    """Residents housed per income (high, middle, low): the top of the green part of a bar."""
    return [result["housed"][income] for income in INCOMES]


def delta_cells(
    result: Mapping[str, Any], previous: Mapping[str, Any] | None, plot_width: int = 370
) -> str:
    """One cell per bar under the chart: "9 housed (+2)" so the change is read, not guessed."""
    cells = []
    for income in INCOMES:
        now = result["housed"][income]
        text = f"{now} housed"
        kind = "same"
        if previous is not None:
            delta = now - previous["housed"][income]
            kind = "up" if delta > 0 else ("down" if delta < 0 else "same")
            text += f" ({signed(delta, plus=True)})" if delta else " (no change)"
        cells.append(f"<span class='hl-delta hl-delta-{kind}' data-income='{income}'>{text}</span>")
    return (
        f"<div class='hl-outcome-deltas' style='display:flex;margin-left:50px;"
        f"width:calc(100% - 70px);max-width:{plot_width + 220}px;"
        "font-size:13px;font-weight:600;text-align:center'>"
        + "".join(f"<div style='flex:1'>{cell}</div>" for cell in cells)
        + "</div>"
        + (
            "<div style='font-size:12px;margin-left:50px'>Black outline: housed before the last"
            " change.</div>"
            if previous is not None and housed_totals(previous) != housed_totals(result)
            else ""
        )
        + "<style>.hl-delta-up{color:#1b7837}.hl-delta-down{color:#b2182b}"
        ".hl-delta-same{color:#3e4c59}</style>"
    )


_NO_HOMES = {"new_homes": {"market": 0, "middle": 0, "low": 0, "total": 0}, "spending": 0}


def _no_outcomes() -> dict[str, dict[str, int]]:
    return {income: dict.fromkeys(OUTCOMES, 0) for income in INCOMES}


class OutcomeChart(ipywidgets.VBox):
    """Stacked bars per income group: stayed, newcomers housed, rehoused, left, turned away.

    With `previous` (the result before the last change), a black outline ("ghost") marks how
    many were housed before and the line under the chart says by how much it moved.
    """

    def __init__(
        self, title: str = "Who is housed?", width: int = 440, height: int = 340, **kwargs: Any
    ) -> None:
        labels = [INCOME_LABELS[i] for i in INCOMES]
        self.x_scale = bqplot.OrdinalScale(domain=labels)
        self.y_scale = bqplot.LinearScale(min=0, max=RESIDENTS_PER_INCOME)
        self.bars = bqplot.Bars(
            x=labels,
            y=[[0, 0, 0] for _ in OUTCOMES],
            scales={"x": self.x_scale, "y": self.y_scale},
            type="stacked",
            colors=OUTCOME_COLORS,
            labels=[OUTCOME_LABELS[o] for o in OUTCOMES],
            tooltip=bqplot.Tooltip(fields=["x", "y"], labels=["group", "residents"]),
        )
        # the housed count before the last change: an unfilled box over the bar
        self.ghost = bqplot.Bars(
            x=labels,
            y=[0, 0, 0],
            scales={"x": self.x_scale, "y": self.y_scale},
            fill=False,
            stroke="#111111",
            stroke_width=2.5,
            padding=0.05,
            visible=False,
            enable_hover=False,
        )
        self.figure = bqplot.Figure(
            marks=[self.bars, self.ghost],
            axes=[
                bqplot.Axis(scale=self.x_scale, label="income group", label_offset="32px"),
                bqplot.Axis(
                    scale=self.y_scale,
                    side="left",
                    label="residents",
                    tick_values=list(range(0, RESIDENTS_PER_INCOME + 1, 2)),
                    tick_format="d",
                ),
            ],
            title=title,
            fig_margin={"top": 36, "bottom": 48, "left": 50, "right": 20},
            layout=ipywidgets.Layout(width=f"{width}px", height=f"{height}px"),
            display_toolbar=False,
        )
        self.figure.add_class("hl-outcome-chart")
        self.plot_width = width - 70  # fig_margin left + right
        # the chart's numbers for screen readers: a hidden table, redrawn with the bars; it
        # rides in the delta line's widget so that it takes no place on the screen
        self.words = outcome_table(_no_outcomes(), OUTCOME_LABELS, title)
        self.deltas = ipywidgets.HTML(
            delta_cells({"housed": dict.fromkeys(INCOMES, 0)}, None, self.plot_width) + self.words
        )
        self.deltas.add_class("hl-outcome-delta-line")
        super().__init__([self.figure, self.deltas, outcome_legend()], **kwargs)

    def update(
        self,
        result: Mapping[str, Any],
        title: str | None = None,
        previous: Mapping[str, Any] | None = None,
    ) -> None:
        """Draw `result`; with `previous`, mark the housed counts it had (ghost and deltas)."""
        with self.figure.hold_sync():
            self.bars.y = outcome_chart_data(result)
            moved = previous is not None and housed_totals(previous) != housed_totals(result)
            if previous is not None:
                self.ghost.y = housed_totals(previous)
            self.ghost.visible = moved
            if title is not None:
                self.figure.title = title
        self.words = outcome_table(
            result["outcomes"], OUTCOME_LABELS, title or str(self.figure.title)
        )
        self.deltas.value = delta_cells(result, previous, self.plot_width) + self.words


class HomesChart(ipywidgets.VBox):
    """New homes by type, with spending in the title."""

    def __init__(self, **kwargs: Any) -> None:
        kinds = [HOME_TYPE_LABELS[kind] for kind in ("market", "middle", "low")]
        self.x_scale = bqplot.OrdinalScale(domain=kinds)
        self.y_scale = bqplot.LinearScale(min=0, max=36)
        self.bars = bqplot.Bars(
            x=kinds,
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
                bqplot.Axis(scale=self.x_scale, label="new homes by type", label_offset="32px"),
                bqplot.Axis(
                    scale=self.y_scale, side="left", label="homes", tick_format="d", num_ticks=6
                ),
            ],
            title="New homes",
            fig_margin={"top": 40, "bottom": 48, "left": 50, "right": 20},
            layout=ipywidgets.Layout(width="360px", height="320px"),
            display_toolbar=False,
        )
        self.figure.add_class("hl-homes-chart")
        self.words = homes_table(_NO_HOMES)  # the bars in words: a hidden table
        self._words_box = ipywidgets.HTML(self.words)
        self._words_box.add_class("hl-chart-words")
        super().__init__([self.figure, self._words_box], **kwargs)

    def update(self, result: Mapping[str, Any]) -> None:
        data = homes_chart_data(result)
        with self.bars.hold_sync():
            self.bars.y = data
            self.y_scale.max = max(12, max(data) + 2)
        self.figure.title = (
            f"{result['new_homes']['total']} new homes, spending {_money(result['spending'])}"
        )
        self.words = homes_table(result)
        self._words_box.value = self.words

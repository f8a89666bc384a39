"""bqplot charts of a move-in result: who is housed and displaced, and what was built.

Charts are pictures; each one also carries a visually hidden table of the numbers it draws,
rebuilt with the chart (issue 27), so a student who cannot see it hears the same numbers."""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

import bqplot
import ipywidgets

from housing_lab.north_berkeley.engine.movein import DISPLACED_WAITING, OUTCOMES
from housing_lab.north_berkeley.model import Model
from housing_lab.north_berkeley.names import INCOME_NAMES
from housing_lab.north_berkeley.policies import INCOMES, RESIDENTS_PER_INCOME
from housing_lab.widgets.common import hidden_table, signed

OUTCOME_LABELS = {
    "stayed": "stayed",
    "newcomer_housed": "newcomers housed",
    "rehoused": "displaced but rehoused",
    "displaced_left": "displaced and left",
    "newcomer_left": "could not move in",
}
INCOME_LABELS = {"high": "High income", "middle": "Middle income", "low": "Low income"}
# the bars: the five outcomes, plus (only part-way through move-in, when the board steps
# through it) the displaced residents still looking for a home, stacked between housed and left
CHART_CATEGORIES = (*OUTCOMES[:3], DISPLACED_WAITING, *OUTCOMES[3:])
CHART_LABELS = {**OUTCOME_LABELS, DISPLACED_WAITING: "displaced, looking for a home"}
# One palette for every "Who is housed?" chart (the lab's and the game table's). Told apart
# without colour (issue 27): every segment is at least 3:1 against white, so the white
# separators between segments stand out against both neighbours, and "stayed" (darkest) and
# "displaced and left" (lightest) differ most in lightness; the hidden table gives the numbers.
SEGMENT_COLORS = {
    "stayed": "#14532d",
    "newcomer_housed": "#2e8540",
    "rehoused": "#6a3d9a",
    DISPLACED_WAITING: "#a85400",
    "displaced_left": "#e64980",
    "newcomer_left": "#616e7c",
}
CHART_COLORS = [SEGMENT_COLORS[c] for c in CHART_CATEGORIES]
SEPARATOR = "#ffffff"
HOME_TYPE_LABELS = {"market": "market rate", "middle": "middle income", "low": "low income"}
HOME_COLORS = {"market": "#8da0cb", "middle": "#f2c14e", "low": "#c0392b"}


HOME_KINDS = {"market": "market rate", "middle": "middle income", "low": "low income"}


def outcome_table(
    outcomes: Mapping[str, Mapping[str, int]],
    labels: Mapping[str, str],
    caption: str = "Who is housed: residents per income group",
) -> str:
    """The stacked outcome bars as a table: a row per outcome, a column per income group."""
    columns = [INCOME_NAMES[i] for i in INCOMES]
    rows = [
        (labels[outcome], [outcomes[income][outcome] for income in INCOMES]) for outcome in labels
    ]
    return hidden_table(caption, "outcome", columns, rows, "hl-chart-table hl-outcome-table")


def homes_table(result: Mapping[str, Any]) -> str:
    """The new-homes bars as a table (one row per kind of home) with the spending."""
    new = result["new_homes"]
    rows = [(HOME_KINDS[kind], [new[kind]]) for kind in HOME_KINDS]
    caption = f"New homes by type: {new['total']} in all, spending ${result['spending']:g}"
    return hidden_table(caption, "type", ["new homes"], rows, "hl-chart-table hl-homes-table")


def outcome_chart_data(result: Mapping[str, Any]) -> list[list[int]]:
    """Rows = the chart's categories (the five outcomes and, after move-in always 0, the
    displaced still looking), columns = high, middle, low (the stacked bars)."""
    return category_rows(result["outcomes"])


def category_rows(table: Mapping[str, Mapping[str, int]]) -> list[list[int]]:
    """Rows = `CHART_CATEGORIES` (a category a table lacks counts 0), columns = incomes."""
    return [[table[income].get(c, 0) for income in INCOMES] for c in CHART_CATEGORIES]


def residents_per_income(result: Mapping[str, Any]) -> int:
    """The most residents any income has (12 under the rulebook; 4 + newcomers otherwise):
    the top of the chart's count axis."""
    return max(sum(result["outcomes"][income].values()) for income in INCOMES)


def count_ticks(top: int) -> list[int]:
    """Whole-number ticks from 0 to `top` (every 1, 2 or 5, at most about 7 ticks)."""
    top = int(top)
    step = next(s for s in (1, 2, 5, 10, 20, 50) if top / s <= 7)
    return list(range(0, top + 1, step))


def step_title(index: int, total: int) -> str:
    """The chart's title while the board shows move-in after `index` of `total` events."""
    if index == 0:
        return "Who is housed? Before move-in"
    return f"Who is housed? Step {index} of {total}"


def model_line(model: Model) -> str:
    """The line beside the chart when the model is not the rulebook (empty otherwise), so a
    screenshot of the chart never hides the assumptions it was drawn under."""
    if model.is_rulebook:
        return ""
    return (
        "<div class='hl-not-rulebook' style='font-size:14px;line-height:1.3;padding:3px 8px;"
        "margin:4px 0 0;background:#f3e8ff;border-left:4px solid #6a3d9a;border-radius:4px;"
        f"color:#1f2933'><b>{html.escape(model.describe())}</b></div>"
    )


def homes_chart_data(result: Mapping[str, Any]) -> list[int]:
    return [result["new_homes"][kind] for kind in ("market", "middle", "low")]


def outcome_legend(waiting: bool = False) -> str:
    """An HTML legend under the chart (bqplot's own legend covers the bars); `waiting`: with
    the displaced still looking for a home (only part-way through move-in)."""
    items = "".join(
        f"<span style='display:inline-flex;align-items:center;gap:4px;margin-right:12px'>"
        f"<span style='width:14px;height:14px;background:{color};display:inline-block;"
        f"border:1px solid #52606d'></span>{CHART_LABELS[category]}</span>"
        for category, color in zip(reversed(CHART_CATEGORIES), reversed(CHART_COLORS), strict=True)
        if waiting or category != DISPLACED_WAITING
    )
    return f"<div style='font-size:13px;max-width:440px'>{items}</div>"


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
            # an unchanged count says only "12 housed": "(no change)" did not fit under a bar
            text += f" ({signed(delta, plus=True)})" if delta else ""
        cells.append(f"<span class='hl-delta hl-delta-{kind}' data-income='{income}'>{text}</span>")
    return (
        f"<div class='hl-outcome-deltas' style='display:flex;margin-left:50px;"
        f"width:calc(100% - 70px);max-width:{plot_width + 220}px;gap:4px;"
        "font-size:12px;font-weight:600;text-align:center'>"
        + "".join(f"<div style='flex:1;white-space:nowrap'>{cell}</div>" for cell in cells)
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


def housed_bars() -> tuple[bqplot.OrdinalScale, bqplot.LinearScale, bqplot.Bars]:
    """The scales and stacked bars of every "Who is housed?" chart (the lab's and the game
    table's): one palette, white separators between segments, a tooltip in words."""
    labels = [INCOME_LABELS[i] for i in INCOMES]
    x_scale = bqplot.OrdinalScale(domain=labels)
    y_scale = bqplot.LinearScale(min=0, max=RESIDENTS_PER_INCOME)
    bars = bqplot.Bars(
        x=labels,
        y=[[0, 0, 0] for _ in CHART_CATEGORIES],
        scales={"x": x_scale, "y": y_scale},
        type="stacked",
        colors=CHART_COLORS,
        stroke=SEPARATOR,  # a white line between stacked segments
        stroke_width=2.5,
        labels=[CHART_LABELS[c] for c in CHART_CATEGORIES],
        tooltip=bqplot.Tooltip(fields=["x", "y"], labels=["group", "residents"]),
    )
    return x_scale, y_scale, bars


class OutcomeChart(ipywidgets.VBox):
    """Stacked bars per income group: stayed, newcomers housed, rehoused, left, turned away.

    With `previous` (the result before the last change), a black outline ("ghost") marks how
    many were housed before and the line under the chart says by how much it moved.
    """

    def __init__(
        self, title: str = "Who is housed?", width: int = 440, height: int = 340, **kwargs: Any
    ) -> None:
        labels = [INCOME_LABELS[i] for i in INCOMES]
        self.x_scale, self.y_scale, self.bars = housed_bars()
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
        self.count_axis = bqplot.Axis(
            scale=self.y_scale,
            side="left",
            label="residents",
            tick_values=count_ticks(RESIDENTS_PER_INCOME),
            tick_format="d",
        )
        self.figure = bqplot.Figure(
            marks=[self.bars, self.ghost],
            axes=[
                bqplot.Axis(scale=self.x_scale, label="income group", label_offset="32px"),
                self.count_axis,
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
        self.legend = ipywidgets.HTML(outcome_legend())
        self._title = title
        super().__init__([self.figure, self.deltas, self.legend], **kwargs)

    def update(
        self,
        result: Mapping[str, Any],
        title: str | None = None,
        previous: Mapping[str, Any] | None = None,
    ) -> None:
        """Draw `result`; with `previous`, mark the housed counts it had (ghost and deltas)."""
        if title is not None:
            self._title = title
        with self.figure.hold_sync():
            self._scale_to(residents_per_income(result))
            self.bars.y = outcome_chart_data(result)
            moved = previous is not None and housed_totals(previous) != housed_totals(result)
            if previous is not None:
                self.ghost.y = housed_totals(previous)
            self.ghost.visible = moved
            self.figure.title = self._title
        self.words = outcome_table(result["outcomes"], OUTCOME_LABELS, self._title)
        self.deltas.value = delta_cells(result, previous, self.plot_width) + self.words
        self.legend.value = outcome_legend()

    def show_step(self, progress: Mapping[str, Mapping[str, int]], title: str) -> None:
        """Draw move-in part-way (`MoveInResult.outcomes_after(k)`): the newcomers still
        waiting for their turn are not drawn yet, the displaced still looking are."""
        table = {i: {c: progress[i].get(c, 0) for c in CHART_CATEGORIES} for i in INCOMES}
        housed = {i: sum(table[i][c] for c in OUTCOMES[:3]) for i in INCOMES}
        with self.figure.hold_sync():
            self.bars.y = category_rows(table)
            self.ghost.visible = False
            self.figure.title = title
        self.words = outcome_table(table, CHART_LABELS, title)
        cells = "".join(
            f"<div style='flex:1;white-space:nowrap'><span class='hl-delta hl-delta-same' "
            f"data-income='{i}'>{housed[i]} housed so far</span></div>"
            for i in INCOMES
        )
        self.deltas.value = (
            "<div class='hl-outcome-deltas' style='display:flex;margin-left:50px;"
            "width:calc(100% - 70px);gap:4px;font-size:12px;font-weight:600;text-align:center'>"
            f"{cells}</div>{self.words}"
        )
        self.legend.value = outcome_legend(waiting=True)

    def _scale_to(self, top: int) -> None:
        """The count axis from 0 to `top` residents, whole-number ticks."""
        if self.y_scale.max != top:
            self.y_scale.max = top
            self.count_axis.tick_values = count_ticks(top)


class HomesChart(ipywidgets.VBox):
    """New homes by type, with spending in the title."""

    def __init__(self, **kwargs: Any) -> None:
        kinds = [HOME_TYPE_LABELS[kind] for kind in ("market", "middle", "low")]
        self.x_scale = bqplot.OrdinalScale(domain=kinds)
        self.y_scale = bqplot.LinearScale(min=0, max=12)
        # whole-number ticks set with the scale (bqplot's own made 0, 2, 5, 7, 10, 12)
        self._homes_axis = bqplot.Axis(
            scale=self.y_scale,
            side="left",
            label="homes",
            tick_format="d",
            tick_values=count_ticks(12),
        )
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
                self._homes_axis,
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
            top = int(max(12, max(data) + 2))
            self.y_scale.max = top
            self._homes_axis.tick_values = count_ticks(top)
        self.figure.title = (
            f"{result['new_homes']['total']} new homes, spending {_money(result['spending'])}"
        )
        self.words = homes_table(result)
        self._words_box.value = self.words

"""Snapshot vs now for the North Berkeley lab: two outcome charts and a table of differences.

The panel keeps the snapshot itself (a label and the engine's result); the lab tells it what
the board shows now. It can be placed anywhere on the screen.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import ipywidgets

from housing_lab.north_berkeley.engine.scoring import ScenarioResult
from housing_lab.north_berkeley.policies import INCOMES
from housing_lab.widgets.lab.charts import OutcomeChart


def comparison_table(before: Mapping[str, Any], now: Mapping[str, Any]) -> str:
    rows = [
        ("Spending", f"${before['spending']:g}", f"${now['spending']:g}"),
        ("New homes", before["new_homes"]["total"], now["new_homes"]["total"]),
    ]
    rows += [(f"{i.title()} income housed", before["housed"][i], now["housed"][i]) for i in INCOMES]
    rows += [
        (f"{i.title()} income displaced", before["displaced"][i], now["displaced"][i])
        for i in INCOMES
    ]
    cells = "".join(
        f"<tr><td style='padding-right:16px'>{name}</td><td style='padding-right:16px'>{a}</td>"
        f"<td>{b}</td></tr>"
        for name, a, b in rows
    )
    return (
        "<table class='hl-compare-table' style='font-size:14px;border-collapse:collapse'>"
        "<tr><th></th><th style='padding-right:16px'>Snapshot</th><th>Now</th></tr>"
        f"{cells}</table>"
    )


class ComparePanel(ipywidgets.VBox):
    """ "Keep a snapshot" and "Stop comparing" buttons; with a snapshot, the comparison.

    The buttons call `on_keep` / `on_clear` (the lab knows what the board shows). The charts
    are created on the first snapshot: a bqplot figure drawn while hidden has no size and makes
    the browser complain.
    """

    def __init__(self) -> None:
        self.on_keep: Callable[[], None] | None = None
        self.on_clear: Callable[[], None] | None = None
        self.snapshot: tuple[str, ScenarioResult] | None = None
        self.keep = ipywidgets.Button(
            description="Keep a snapshot to compare",
            icon="camera",
            layout=ipywidgets.Layout(width="260px"),
        )
        self.keep.add_class("hl-keep-snapshot")
        self.keep.on_click(lambda _: self.on_keep and self.on_keep())
        self.drop = ipywidgets.Button(description="Stop comparing", icon="times")
        self.drop.on_click(lambda _: self.on_clear and self.on_clear())
        self.buttons = ipywidgets.HBox([self.keep, self.drop])
        self.before_chart: OutcomeChart | None = None
        self.now_chart: OutcomeChart | None = None
        self.table = ipywidgets.HTML()
        super().__init__([self.buttons])
        self.add_class("hl-compare")

    def __repr__(self) -> str:
        return "ComparePanel()"

    def keep_snapshot(self, label: str, result: ScenarioResult) -> None:
        self.snapshot = (label, result)

    def clear_snapshot(self) -> None:
        self.snapshot = None

    def show(self, now: Mapping[str, Any], now_label: str) -> None:
        """Compare the snapshot with `now` (the engine's result dict), described by `now_label`."""
        self.drop.disabled = self.snapshot is None
        if self.snapshot is None:
            self.children = (self.buttons,)
            return
        if self.before_chart is None or self.now_chart is None:
            self.before_chart = OutcomeChart(title="Snapshot")
            self.now_chart = OutcomeChart(title="Now")
        label, before = self.snapshot
        before_out = before.to_dict()
        self.before_chart.update(before_out, title=f"Snapshot: {label}")
        self.now_chart.update(now, title=f"Now: {now_label}")
        self.table.value = comparison_table(before_out, now)
        self.children = (
            self.buttons,
            ipywidgets.HBox([self.before_chart, self.now_chart]),
            self.table,
        )

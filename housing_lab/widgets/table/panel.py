"""The game table's front end: one anywidget drawn twice (the decision panel and the teams).

It draws the `view` dict that `GameTable` builds from the engine and sends every click back as
an `{"action": ...}` message. The negotiation timer runs here, in the browser; its state is
synced so that Python can reset it when a building phase starts and tests can set it.
"""

from __future__ import annotations

import pathlib
from typing import Any

import traitlets

from housing_lab.widgets.common import ActionWidget, widget_esm, widget_file

HERE = pathlib.Path(__file__).parent
PARTS = ("top", "teams")


class TablePanel(ActionWidget):
    """`part="top"`: title, steps, message and the decision of the stage; `"teams"`: hands."""

    _esm = widget_esm(HERE / "panel.js")
    _css = widget_file(HERE / "panel.css")

    part = traitlets.Unicode("top").tag(sync=True)
    view = traitlets.Dict().tag(sync=True)
    timer_elapsed = traitlets.Float(0.0).tag(sync=True)  # seconds counted while paused
    timer_started = traitlets.Float(0.0).tag(sync=True)  # browser clock (ms) at start; 0: paused

    def __init__(self, part: str = "top", **kwargs: Any) -> None:
        if part not in PARTS:
            raise ValueError(f"part must be one of {PARTS}, got {part!r}")
        super().__init__(part=part, **kwargs)

    def __repr__(self) -> str:  # stable for nbval: no memory address
        return f"TablePanel(part={self.part!r}, stage={self.view.get('stage', '')!r})"

    def reset_timer(self) -> None:
        with self.hold_sync():
            self.timer_elapsed = 0.0
            self.timer_started = 0.0

    def stop_timer(self, seconds: float) -> None:
        """Stop the countdown at `seconds` elapsed (the state was called: negotiation is over)."""
        with self.hold_sync():
            self.timer_elapsed = float(seconds)
            self.timer_started = 0.0

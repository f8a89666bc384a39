"""A notebook progress bar for long computations in the engines (which take a callback)."""

from __future__ import annotations

import ipywidgets

from housing_lab.widgets.table.checks import check_text


class ProgressBar(ipywidgets.HBox):
    """Call it as `progress(done, total)`; shows a bar and "done / total".

    >>> bar = ProgressBar("Boards")
    >>> bar(50, 100)
    """

    def __init__(self, description: str = "Working") -> None:
        check_text(description, "description")
        self.bar = ipywidgets.IntProgress(
            value=0, min=0, max=1, description=description, style={"description_width": "initial"}
        )
        self.label = ipywidgets.Label("")
        super().__init__([self.bar, self.label])
        self.add_class("hl-progress")

    def __repr__(self) -> str:
        return f"ProgressBar({self.bar.value}/{self.bar.max})"

    def __call__(self, done: int, total: int) -> None:
        with self.hold_sync():
            self.bar.max = max(total, 1)
            self.bar.value = min(done, self.bar.max)
            self.bar.bar_style = "success" if done >= total else ""
            self.label.value = f"{done:,} / {total:,}"

"""The North Berkeley lab's toolbar: residents seed, reshuffle, reset, save and load.

It holds no board state: each control calls back (`on_seed`, `on_reshuffle`, `on_reset`,
`on_save`, `on_upload` with the file's text), and the lab shows the seed back (`show_seed`)
without that counting as a change.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets

from housing_lab.widgets.common import uploaded_text
from housing_lab.widgets.lab.load_button import LoadButton


class LabToolbar(ipywidgets.HBox):
    def __init__(self, seed: int, **kwargs: Any) -> None:
        self.on_seed: Callable[[int], None] | None = None
        self.on_reshuffle: Callable[[], None] | None = None
        self.on_reset: Callable[[], None] | None = None
        self.on_save: Callable[[], None] | None = None
        self.on_upload: Callable[[str], None] | None = None
        self._quiet = False
        self.seed_box = ipywidgets.IntText(  # unbounded: it must show any seed a file holds
            value=seed,
            description="Residents seed",
            style={"description_width": "initial"},
            layout=ipywidgets.Layout(width="190px"),
        )
        self.seed_box.observe(self._seed_changed, names="value")

        def fit() -> ipywidgets.Layout:  # the default 148 px cut "Reshuffle reside..."
            return ipywidgets.Layout(width="auto", flex="0 0 auto", overflow="visible")

        reshuffle = ipywidgets.Button(
            description="Reshuffle residents", icon="random", layout=fit()
        )
        reshuffle.on_click(lambda _: self.on_reshuffle and self.on_reshuffle())
        reset = ipywidgets.Button(description="Reset board", icon="undo", layout=fit())
        reset.on_click(lambda _: self.on_reset and self.on_reset())
        save = ipywidgets.Button(description="Save board", icon="download", layout=fit())
        save.on_click(lambda _: self.on_save and self.on_save())
        self.upload = LoadButton(description="Load board…")
        self.upload.observe(self._uploaded, names="value")
        for widget, name in ((reshuffle, "reshuffle"), (reset, "reset"), (save, "save")):
            widget.add_class(f"hl-{name}")
        kwargs.setdefault(  # on a narrow screen the buttons wrap rather than shrink
            "layout", ipywidgets.Layout(flex_flow="row wrap", align_items="center")
        )
        super().__init__([self.seed_box, reshuffle, reset, save, self.upload], **kwargs)

    def __repr__(self) -> str:
        return f"LabToolbar(seed={self.seed_box.value})"

    def show_seed(self, seed: int) -> None:
        """Show the lab's seed without calling `on_seed`."""
        if self.seed_box.value != seed:
            self._quiet = True
            try:
                self.seed_box.value = seed
            finally:
                self._quiet = False

    def _seed_changed(self, change: dict[str, Any]) -> None:
        if not self._quiet and self.on_seed is not None:
            self.on_seed(int(change["new"]))

    def _uploaded(self, change: dict[str, Any]) -> None:
        text = uploaded_text(change)
        if text is not None and self.on_upload is not None:
            self.on_upload(text)

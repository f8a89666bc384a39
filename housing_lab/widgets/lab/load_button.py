"""A "Load board…" button: choose a JSON file, Python gets its text.

`ipywidgets.FileUpload` labels itself with a file count ("Load board (0)"), which reads as a
mistake to students. This button says only what it does; its `value` has FileUpload's shape
(a tuple of one file dict with `name` and `content`), so `common.uploaded_text` reads both.
"""

from __future__ import annotations

import datetime
import pathlib
from typing import Any

import anywidget
import traitlets

from housing_lab.widgets.common import widget_file

HERE = pathlib.Path(__file__).parent


class LoadButton(anywidget.AnyWidget):
    """Observe `value` (names="value") for the chosen file, as with a FileUpload."""

    _esm = widget_file(HERE / "load_button.js")
    _css = widget_file(HERE / "load_button.css")

    description = traitlets.Unicode("Load board…").tag(sync=True)
    accept = traitlets.Unicode(".json,application/json").tag(sync=True)
    value = traitlets.Tuple()  # Python only: the file's text arrives as a message

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.on_msg(self._chosen)

    def __repr__(self) -> str:
        return f"LoadButton({self.description!r})"

    def _chosen(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict) or content.get("action") != "upload":
            return
        data = str(content.get("text", "")).encode("utf-8")
        self.value = (
            {
                "name": str(content.get("name", "board.json")),
                "type": "application/json",
                "size": len(data),
                "content": memoryview(data),
                "last_modified": datetime.datetime.now(datetime.timezone.utc),
            },
        )

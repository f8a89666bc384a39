"""Plumbing every housing_lab widget shares, written once.

- `widget_file`: a widget's `.js` or `.css` as text (never a Path: see its docstring).
- `ActionWidget`: the base of each anywidget. Its front end is the widget's own `.js` with
  `common.js` in front (`widget_esm`); it shows the engine's messages (`say`), offers files to
  the browser (`offer_download`, `offer_json`) and hands the browser's `{"action": ...}`
  messages to `on_action`.
- `read_json_object` / `parse_json_object`: one loader for "a dict, JSON text or a file path";
  `uploaded_text`: the text of a file chosen in an `ipywidgets.FileUpload`.
- `save_json`: the `save(path)` every widget offers.
- `signed`: numbers with a real minus sign, legible on a projector.
- `hidden_table`: a chart's numbers as a table only screen readers see (issue 27).
- `MadeWhenOpened`: a part of a screen made the first time it is opened or asked for.
"""

from __future__ import annotations

import html
import json
import os
import pathlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar

import anywidget
import ipywidgets
import traitlets

from housing_lab import jsonio
from housing_lab.errors import HousingLabError, shown
from housing_lab.outputs import write_text

HERE = pathlib.Path(__file__).parent
COMMON_JS = HERE / "common.js"
MESSAGE_KINDS = ("info", "error")

JsonSource = Mapping[str, Any] | str | pathlib.Path
PartT = TypeVar("PartT", bound=ipywidgets.Widget)


def widget_file(path: str | pathlib.Path) -> str:
    """The text of a widget's `.js` or `.css` file (a path, or a name relative to this folder),
    read when the widget class is defined.

    Text, never a Path: anywidget turns a Path into a watched file whose change signal holds a
    strong reference to every widget of the class ever made (anywidget issue #929), so no lab,
    board or room page could be freed; a kernel re-running a lesson's cells grew without end.
    """
    return (HERE / path).read_text(encoding="utf-8")  # an absolute path stays as it is


def widget_esm(js_file: str | pathlib.Path) -> str:
    """The front-end module of a widget: `common.js` followed by the widget's own file (a path,
    or a name relative to this folder).

    Read when the widget class is defined, so the browser gets one self-contained module
    (anywidget loads it from a `blob:` URL; nothing is fetched).
    """
    path = HERE / js_file  # an absolute path stays as it is
    return f"{widget_file(COMMON_JS)}\n// --- {path.relative_to(HERE)} ---\n{widget_file(path)}"


class ActionWidget(anywidget.AnyWidget):
    """An anywidget with a message line, file downloads and click messages.

    JS side (helpers in `common.js`): show `message` with class `hl-<message_kind>`
    (`showMessage`); on `change:download`, save `download.content` as `download.name`
    (`saveDownload`); send clicks as `{"action": ...}` with `model.send`; read `announcement`
    out through the widget's one live region (`announcer`), which `say` and `announce` fill.
    """

    message = traitlets.Unicode("").tag(sync=True)
    message_kind = traitlets.Unicode("info").tag(sync=True)
    download = traitlets.Dict().tag(sync=True)
    # what the widget's one live region reads out next: {"text", "n"} (n makes repeats new)
    announcement = traitlets.Dict().tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.on_action: Callable[[dict[str, Any]], None] | None = None
        self.on_msg(self._handle_message)

    def say(self, text: str, kind: str = "info", announce: bool = True) -> None:
        """Show `text` on the message line and (unless `announce` is False: another part of
        the screen reads it out) have a screen reader read it."""
        if kind not in MESSAGE_KINDS:
            raise ValueError(f"message kind must be one of {MESSAGE_KINDS}, got {kind!r}")
        with self.hold_sync():  # one comm message
            self.message = text
            self.message_kind = kind
            if announce:
                self.announce(text)

    def announce(self, text: str) -> None:
        """Have a screen reader read `text` (the widget's live region; the screen unchanged)."""
        if text:
            count = int(self.announcement.get("n", 0)) + 1
            self.announcement = {"text": text, "n": count}

    def offer_download(self, name: str, content: str) -> None:
        """Ask the browser to save `content` as `name` (a counter makes repeats distinct)."""
        count = int(self.download.get("n", 0)) + 1
        self.download = {"name": name, "content": content, "n": count}

    def offer_json(self, name: str, data: Mapping[str, Any], indent: int = 2) -> None:
        """Offer `data` as a JSON file named `name`."""
        self.offer_download(name, json.dumps(data, indent=indent))

    def _handle_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict) and self.on_action is not None:
            self.on_action(content)


def parse_json_object(
    text: str, what: str, error: type[HousingLabError] = HousingLabError
) -> dict[str, Any]:
    """A JSON object from text, or `error` saying what is wrong with it."""
    try:
        data = jsonio.loads(text, source="")  # the limits of every loader; a BOM is dropped
    except jsonio.JsonInputError as bad:
        raise error(f"not {what}: {bad}") from None
    if not isinstance(data, dict):
        raise error(f"{what} is a JSON object, not {type(data).__name__}")
    return data


def read_json_object(
    source: JsonSource, what: str, error: type[HousingLabError] = HousingLabError
) -> dict[str, Any]:
    """A JSON object from a dict, JSON text (starting with "{") or a file path.

    A missing file, malformed JSON or another JSON value is `error` naming the problem.
    """
    if isinstance(source, Mapping):
        return dict(source)
    if isinstance(source, str) and source.lstrip().startswith("{"):
        return parse_json_object(source, what, error)
    if not isinstance(source, (str, os.PathLike)):  # an int would be read as a descriptor
        raise error(f"{what} is a dict, JSON text or a file path, not {shown(source)}")
    try:  # jsonio: a FIFO or a device refused, a byte-order mark dropped, at most 64 MiB
        text = jsonio.read_text(source)
    except jsonio.JsonInputError as bad:
        raise error(str(bad)) from None
    return parse_json_object(text, what, error)


def uploaded_text(change: Mapping[str, Any]) -> str | None:
    """The text of the file a `FileUpload` observer was told about (None: no file)."""
    files = change["new"]
    if not files:
        return None
    return bytes(files[0]["content"]).decode("utf-8", errors="replace")


def save_json(
    data: dict[str, Any], path: str | pathlib.Path | None, indent: int = 2
) -> dict[str, Any]:
    """Return `data`; also write it as JSON to `path` when given (what `save(path)` does),
    whole or not at all (`outputs.write_text`: a full disk, a folder or a device is one
    `WriteError` line)."""
    if path is not None:
        if not isinstance(path, (str, os.PathLike)):
            raise HousingLabError(f"a file path is a string or a Path, not {shown(path)}")
        write_text(path, json.dumps(data, indent=indent) + "\n")
    return data


def signed(value: int, plus: bool = False) -> str:
    """A number with a real minus sign (legible on a projector); `plus` writes +1 for 1."""
    if value < 0:
        return f"−{-value}"
    return f"+{value}" if plus and value > 0 else str(value)


# Read by screen readers, not drawn (the clip pattern; inline so no stylesheet is needed).
SR_ONLY = (
    "position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;"
    "clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap;border:0"
)


def hidden_table(
    caption: str,
    corner: str,
    columns: Sequence[str],
    rows: Sequence[tuple[str, Sequence[object]]],
    css: str,
) -> str:
    """A visually hidden HTML table: a caption, column headings (`corner` heads the row names),
    one headed row per line."""
    head = "".join(f"<th scope='col'>{html.escape(c)}</th>" for c in (corner, *columns))
    body = "".join(
        f"<tr><th scope='row'>{html.escape(name)}</th>"
        + "".join(f"<td>{html.escape(str(v))}</td>" for v in values)
        + "</tr>"
        for name, values in rows
    )
    # the clip is on a wrapper (a table is never shorter than its rows), scaled down so that
    # its rows' boxes stay inside the widget too (layout checks read those boxes)
    return (
        f"<div class='hl-sr-only' style='{SR_ONLY};transform:scale(0.01);transform-origin:0 0'>"
        f"<table class='{css}'>"
        f"<caption>{html.escape(caption)}</caption>"
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>"
    )


class MadeWhenOpened(Generic[PartT]):
    """A part of a screen made the first time it is opened (or asked for), inside `box`,
    which stays empty until then: most visits never open it, and every widget costs the
    kernel its making and the page its drawing.

    `make` builds the part; `show` draws the state as it stands into it (it reads `made`).
    Until the part is made, `made` is None and a screen has nothing to redraw there.
    """

    def __init__(self, make: Callable[[], PartT], show: Callable[[], None]) -> None:
        self.box = ipywidgets.VBox([])
        self.made: PartT | None = None
        self._make = make
        self._show = show

    def get(self) -> PartT:
        """The part, made, put in its box and shown if this is the first time."""
        if self.made is None:
            self.made = self._make()
            self.box.children = (self.made,)
            self._show()
        return self.made

"""A closed widget is freed: nothing of ours keeps every lab, board or room page alive.

anywidget turns an `_esm` or `_css` given as a Path into a watched file whose change signal
holds each widget of the class for the life of the process (anywidget issue #929). A kernel
that re-runs a lesson's cells then grows without end, and the test suite held tens of
thousands of widgets, which made every garbage collection, and its own exit, seconds slower.
"""

from __future__ import annotations

import gc
import importlib
import pkgutil
import sys
import weakref
from collections.abc import Callable
from typing import Any

import anywidget

import housing_lab.widgets
from housing_lab.widgets import GameTable, NorthBerkeleyLab, StreetcarLab
from housing_lab.widgets.classroom.key import KeyReader
from housing_lab.widgets.lab.load_button import LoadButton

from ..support import close_widgets_made_since, open_widgets

MADE: dict[str, Callable[[], Any]] = {
    "lab": lambda: NorthBerkeleyLab(seed=1),
    "streetcar": lambda: StreetcarLab(seed=1, opponent=None, bot_delay=0),
    "table": lambda: GameTable(teams=["Red", "Blue"], seed=1),
    "key reader": lambda: KeyReader("K7M2QX", lambda key: None),
    "load button": lambda: LoadButton(),
}


def anywidget_classes() -> list[type]:
    """Every anywidget class housing_lab defines (each widgets module imported), without the
    per-widget subclasses traitlets' `add_traits` makes (anywidget adds its traits so)."""
    for module in pkgutil.walk_packages(housing_lab.widgets.__path__, "housing_lab.widgets."):
        importlib.import_module(module.name)
    found, todo = [], [anywidget.AnyWidget]
    while todo:
        for cls in todo.pop().__subclasses__():
            todo.append(cls)
            module = sys.modules.get(cls.__module__)
            if cls.__module__.startswith("housing_lab.") and vars(module).get(cls.__name__) is cls:
                found.append(cls)
    return found


def test_every_anywidget_front_end_is_text_not_a_watched_file() -> None:
    classes = anywidget_classes()
    assert len(classes) >= 5
    watched = [
        f"{cls.__qualname__}.{key}"
        for cls in classes
        for key in ("_esm", "_css")
        if key in cls.__dict__ and not isinstance(cls.__dict__[key], str)
    ]
    assert watched == [], f"give anywidget the file's text (common.widget_file): {watched}"


def test_a_closed_widget_is_freed() -> None:
    before = set(open_widgets())
    refs = {kind: weakref.ref(make()) for kind, make in MADE.items()}
    close_widgets_made_since(before)
    gc.collect()  # once for all five: a full collection of a long test run takes ~0.3 s
    kept = sorted(kind for kind, ref in refs.items() if ref() is not None)
    assert kept == [], f"still referenced after close: {kept}"

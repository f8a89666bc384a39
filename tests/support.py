"""Helpers shared by test folders that are not fixtures (fixtures live in conftest.py)."""

from __future__ import annotations

import contextlib
import io
import os
import pathlib
import sys
from typing import Protocol


class Cli(Protocol):
    def __call__(
        self, *args: str, stdin: str | bytes | None = None, cwd: str | pathlib.Path | None = None
    ) -> tuple[int, str, str]: ...


def run_cli(
    *args: str, stdin: str | bytes | None = None, cwd: str | pathlib.Path | None = None
) -> tuple[int, str, str]:
    """`housing-lab ARGS` in-process: (exit code, stdout, stderr).

    `stdin` (text or bytes) is what the command reads from standard input, behind a byte
    buffer as a real stdin is; None leaves pytest's own. `cwd` is where relative paths land.
    argparse's refusals (SystemExit) come back as their exit code, a message exit as 2.
    """
    from housing_lab.cli import main

    out, err = io.StringIO(), io.StringIO()
    saved, folder = sys.stdin, os.getcwd()
    if stdin is not None:
        raw = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
        sys.stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8")
    if cwd is not None:
        os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as stop:
                code = 2 if isinstance(stop.code, str) else int(stop.code or 0)
    finally:
        sys.stdin = saved
        os.chdir(folder)
    return code, out.getvalue(), err.getvalue()


def luminance(colour: str) -> float:
    """WCAG relative luminance of a '#rrggbb' colour."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two '#rrggbb' colours (1 to 21)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def open_widgets() -> dict:
    """ipywidgets' registry of open widgets, by model id (empty while no test has imported
    ipywidgets): a widget stays in it, and alive, until it is closed."""
    module = sys.modules.get("ipywidgets.widgets.widget")
    return module._instances if module is not None else {}


def close_widgets_made_since(before: set[str]) -> None:
    """Close every open widget whose model id is not in `before` (the ids open earlier)."""
    for model_id, widget in list(open_widgets().items()):
        if model_id not in before:
            widget.close()

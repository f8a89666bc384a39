"""Fixtures for browser tests: Chromium via Playwright (skipped, not failed, off CI when Chromium
is missing; failed on CI so a missing install step cannot hide), one Jupyter server and one Voila
per session (started at first use), and `open_page`: a notebook or app opened at a viewport,
run, with its console errors and outside requests collected."""

from __future__ import annotations

import contextlib
import itertools
import os
import pathlib
import re
import shutil
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

import pytest

from .harness import (
    CHROMIUM,
    CHROMIUM_ARGS,
    LAB_CLOSE_NOTEBOOKS,
    LAB_OPEN,
    LAB_OPENED,
    LAB_READY,
    SCREENSHOTS,
    PageWatch,
    chromium_available,
    run_all_cells_in_lab,
    screenshot,
    write_notebook,
)
from .servers import (
    JupyterServer,
    RoomServer,
    VoilaServer,
    jupyter_server,
    room_server,
    voila_server,
)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not chromium_available():
        if os.environ.get("CI"):
            pytest.fail(f"browser tests need {CHROMIUM} and jupyter on CI")
        pytest.skip(f"{CHROMIUM} not installed (apt-get install -y chromium-headless-shell)")
    from playwright.sync_api import sync_playwright

    print(f"browser: {CHROMIUM}; screenshots go to {SCREENSHOTS}")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def shared_context(browser: Any) -> Iterator[Any]:
    """One browser context (one profile: its HTTP and compiled-script caches) for the pages
    `open_page` opens without a context of their own. A Voila page then loads about 1 s of
    CPU faster than in a fresh context; tests that stand for separate devices (the rooms'
    teams) make their own contexts."""
    context = browser.new_context()
    yield context
    context.close()


@pytest.fixture(scope="session")
def jupyter(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[JupyterServer]:
    """One JupyterLab (and Notebook 7) for the session, rooted at a session folder."""
    work = tmp_path_factory.mktemp("jupyter")
    root = work / "root"
    root.mkdir()
    with jupyter_server(root, work) as running:
        yield running


@pytest.fixture(scope="session")
def voila(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    """One Voila for the session: every app and test notebook renders under its root."""
    work = tmp_path_factory.mktemp("voila")
    root = work / "root"
    root.mkdir()
    with voila_server(root, work) as running:
        yield running


@pytest.fixture(scope="session")
def rooms(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RoomServer]:
    """One classroom room page (Voila on one SQLite store) for the session."""
    with room_server(tmp_path_factory.mktemp("rooms")) as running:
        yield running


class Opened(NamedTuple):
    page: Any
    watch: PageWatch


Notebook = pathlib.Path | Sequence[str] | str
_serial = itertools.count(1)


def _place(notebook: Notebook, root: pathlib.Path, test: str, name: str | None) -> str:
    """Put a notebook under a server's root, in a folder of its own; its path from the root.
    A str is a path already under the root; a Path is copied; a list of cells is written."""
    if isinstance(notebook, str):
        return notebook
    folder = root / f"{re.sub(r'[^A-Za-z0-9_-]+', '-', test)[:60]}-{next(_serial)}"
    folder.mkdir(parents=True)
    if isinstance(notebook, pathlib.Path):
        target = folder / (name or notebook.name)
        shutil.copyfile(notebook, target)
    else:
        target = write_notebook(folder / (name or "notebook.ipynb"), list(notebook))
    return target.relative_to(root).as_posix()


class LabPage:
    """One JupyterLab page per process, in which `open_page(app="lab")` opens each notebook in
    turn, as a student opens a file: loading JupyterLab costs about 7 s of CPU, and a page per
    notebook was most of what the JupyterLab tests cost. Opening a notebook first closes the
    previous ones with their kernels, so only one lab or game is on the page."""

    def __init__(self, context: Any, jupyter: JupyterServer) -> None:
        self.context, self.jupyter = context, jupyter
        self.page: Any = None

    def open(
        self, path: str, size: tuple[int, int], ready: str, timeout: float, watch: PageWatch
    ) -> Any:
        """Open `path` (under the server's root) at `size`, watched by `watch`, run it all.

        If the page cannot open or run it, the notebook is opened once more on a new
        JupyterLab page, and the old page's screenshot kept. Seen twice on 2026-12-03, each
        time with a lesson as the first notebook of a fresh server: Run All ran one cell, and
        that page then opened no other notebook (eight lessons failed in a row)."""
        try:
            return self._open(path, size, ready, timeout, watch)
        except Exception as error:  # Playwright's TimeoutError, or a run that never started
            first_line = str(error).strip().splitlines()[0] if str(error).strip() else ""
            print(f"the JupyterLab page failed on {path} ({first_line}): a new page")
            print(f"its console errors: {watch.console_errors}")
            watch.detach()  # the new page is watched afresh
            watch.console_errors.clear()
            watch.blocked.clear()
            if self.page is not None and not self.page.is_closed():
                with contextlib.suppress(Exception):
                    screenshot(self.page, "jupyterlab-page-that-failed")
                self.page.close()
            return self._open(path, size, ready, timeout, watch)

    def _open(
        self, path: str, size: tuple[int, int], ready: str, timeout: float, watch: PageWatch
    ) -> Any:
        fresh = self.page is None or self.page.is_closed()
        if fresh:
            self.page = self.context.new_page()
        else:
            self.close_notebooks()
        self.page.set_viewport_size({"width": size[0], "height": size[1]})
        watch.attach(self.page)
        if fresh:
            self.page.goto(self.jupyter.home(), timeout=timeout)
            self.page.wait_for_function(LAB_READY, timeout=timeout)
            self.page.evaluate("() => window.jupyterapp.restored.then(() => 1)")
        self.page.evaluate(LAB_OPEN, path)
        self.page.wait_for_function(LAB_OPENED, arg=path, timeout=timeout)
        run_all_cells_in_lab(self.page, ready)
        return self.page

    def close_notebooks(self) -> None:
        if self.page is not None and not self.page.is_closed():
            self.page.evaluate(LAB_CLOSE_NOTEBOOKS)


@pytest.fixture(scope="session")
def lab_page(shared_context: Any, jupyter: JupyterServer) -> Iterator[LabPage]:
    lab = LabPage(shared_context, jupyter)
    yield lab
    if lab.page is not None:
        lab.page.close()


@pytest.fixture
def open_page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Callable[..., Opened]]:
    """`open_page(notebook, app=..., size=(w, h), ready=SELECTOR)`: the notebook (a Path to
    copy, a list of cells, or a path already under the server's root) opened at `size`,
    watched (console errors, blocked requests), and run; returns once `ready` shows.

    "voila": a new page of `context` (default: the session's `shared_context`), run by
    opening. "lab": opened in the process's one JupyterLab page (`LabPage`) and run by Run
    All. Pages close, notebooks close and kernels stop when the test ends."""
    pages: list[Any] = []
    lab_watches: list[PageWatch] = []
    servers: set[str] = set()

    def open_(
        notebook: Notebook,
        *,
        app: str = "voila",
        size: tuple[int, int] = (1366, 768),
        ready: str,
        name: str | None = None,
        context: Any = None,
        timeout: float = 120_000,
    ) -> Opened:
        kind = "voila" if app == "voila" else "jupyter"
        running = request.getfixturevalue(kind)
        servers.add(kind)
        path = _place(notebook, running.root, request.node.name, name)
        watch = PageWatch()
        if app == "lab" and context is None:
            lab_watches.append(watch)  # the page lives on: stop watching it after the test
            lab = request.getfixturevalue("lab_page")
            return Opened(lab.open(path, size, ready, timeout, watch), watch)
        page = (context or request.getfixturevalue("shared_context")).new_page()
        page.set_viewport_size({"width": size[0], "height": size[1]})
        pages.append(page)
        watch.attach(page)
        if app == "voila":
            page.goto(running.url(path), timeout=timeout)  # Voila runs the notebook first
            page.wait_for_selector(ready, timeout=timeout)
        else:
            page.goto(running.url(path, app), timeout=timeout)
            run_all_cells_in_lab(page, ready)
        return Opened(page, watch)

    yield open_
    for watch in lab_watches:
        watch.detach()
    for page in pages:
        if not page.is_closed():
            try:  # leaving the page sends Voila's kernel-shutdown beacon
                page.goto("about:blank", timeout=10_000)
            finally:
                page.close()
    if lab_watches:
        request.getfixturevalue("lab_page").close_notebooks()
    if "jupyter" in servers:
        request.getfixturevalue("jupyter").stop_kernels()

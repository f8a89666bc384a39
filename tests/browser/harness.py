"""Start JupyterLab / Voila on 127.0.0.1 and drive Debian's Chromium with Playwright.

Follows shared/BROWSER_TESTING.md: servers are started by the test and stopped by PID, every
request that leaves 127.0.0.1 is blocked and recorded, console errors are collected.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import json
import os
import pathlib
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

# Debian's Chromium in its headless shell (package chromium-headless-shell, built from the same
# sources as /usr/bin/chromium; Playwright's own default for headless runs). Six Voila pages cost
# it under half the CPU of the full browser run headless (5.3 against 11.5 CPU-s, 2026-12-03),
# with the same drawing; over whole runs Chromium used 5-28% less (docs/testing.md). Without
# it, or with HOUSING_LAB_CHROMIUM set, the tests drive that browser instead
# (`HOUSING_LAB_CHROMIUM=/usr/bin/chromium`: the full one).
CHROMIUM_CHOICES = ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium")


def _chromium() -> str:
    chosen = os.environ.get("HOUSING_LAB_CHROMIUM")
    if chosen:
        return chosen
    return next((path for path in CHROMIUM_CHOICES if os.path.exists(path)), CHROMIUM_CHOICES[0])


CHROMIUM = _chromium()
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # Offline but for this machine: no name resolves, so a request for another host fails in
    # Chromium itself. (Intercepting every request with `page.route` did this before: it sent
    # each request through Playwright and Python and turned off the HTTP cache, about 0.3 s of
    # CPU per Voila page.)
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
]
# Every Jupyter server a test starts talks to its kernels over Unix sockets. Over TCP a kernel
# binds ports its server chose a moment before, which another process (Chromium's many
# connections, the other test process's kernels) can take first: the kernel dies with "Address
# already in use", and the page that asked for it never loads (seen 2026-12-03: a room page
# timed out after 180 s; the lessons' "Run All ran one cell" of that day fits it too).
KERNELS_OVER_IPC = "--KernelManager.transport=ipc"
ROOT = pathlib.Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
LOCAL_PREFIXES = ("http://127.0.0.1", "ws://127.0.0.1", "blob:", "data:", "about:")
# Console errors from other projects' bundles, not ours: Voila loads every installed lab
# extension, and Notebook 7's own one cannot start outside Notebook (its module-federation
# loader logs these two).
FOREIGN_ERRORS = ("@jupyter-notebook/lab-extension", "getter for the shared module")
# Voila's lab template links two Font Awesome stylesheets from a CDN; they fail (the browser
# resolves no other host, so they never leave the machine) and the page works without them.
TEMPLATE_CDN = ("font-awesome", "fontawesome")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def write_notebook(path: pathlib.Path, cells: list[str]) -> pathlib.Path:
    notebook = {
        "cells": [
            {
                "cell_type": "code",
                "execution_count": None,
                "metadata": {},
                "outputs": [],
                "source": source,
            }
            for source in cells
        ],
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(notebook), encoding="utf-8")
    return path


def wait_for(url: str, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except Exception:
            time.sleep(0.25)
    raise RuntimeError(f"server at {url} did not answer within {seconds} s")


# The servers this process started and has not yet sent SIGTERM, by PID. Each gets it once
# only: a Jupyter server sent it twice may stop before its kernels have.
_NOT_YET_ASKED: dict[int, subprocess.Popen] = {}
_SESSION_ENDING = False


def _ask_to_stop(process: subprocess.Popen) -> None:
    if _NOT_YET_ASKED.pop(process.pid, None) is not None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)


@contextlib.contextmanager
def server(
    command: list[str], ready_url: str, env: dict[str, str], log: pathlib.Path
) -> Iterator[subprocess.Popen]:
    if KERNELS_OVER_IPC in command:
        env = {**env, **kernel_sockets_env()}
    with open(log, "w") as out:
        process = subprocess.Popen(
            command, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    _NOT_YET_ASKED[process.pid] = process
    try:
        wait_for(ready_url)
        yield process
    finally:
        # At the session's end the first server to stop asks them all to stop at once.
        for each in list(_NOT_YET_ASKED.values()) if _SESSION_ENDING else [process]:
            _ask_to_stop(each)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


def session_ending() -> None:
    """The last test's teardown has begun: the servers stop together, not in turn. Each
    shuts down the kernels it still holds (room pages keep theirs), and one after another the
    room server, Voila and JupyterLab made the end of every run 4-6 s longer."""
    global _SESSION_ENDING
    _SESSION_ENDING = True


@functools.cache
def kernel_sockets_env() -> dict[str, str]:
    """The environment of a server whose kernels talk over Unix sockets (KERNELS_OVER_IPC):
    their socket files go in a short folder, as a socket's path must stay under 108 bytes (a
    hub user's home under pytest's temporary folder is longer). One folder per process."""
    folder = tempfile.mkdtemp(prefix="hl-kernels-", dir="/tmp")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return {"JUPYTER_RUNTIME_DIR": folder}


def quiet_lab_settings(folder: pathlib.Path) -> pathlib.Path:
    """JupyterLab settings that suppress the 'news' pop-up over the page."""
    target = folder / "@jupyterlab" / "apputils-extension"
    target.mkdir(parents=True, exist_ok=True)
    (target / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False})
    )
    # Render every cell, not only those in view, so a test can read all outputs.
    notebook = folder / "@jupyterlab" / "notebook-extension"
    notebook.mkdir(parents=True, exist_ok=True)
    (notebook / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}))
    return folder


@contextlib.contextmanager
def _jupyter_server(
    app: str, root: pathlib.Path, workdir: pathlib.Path, env: dict[str, str], page_path: str
) -> Iterator[str]:
    """Start `jupyter <app>` on 127.0.0.1 with a token; yield a URL template with {path}."""
    port, token = free_port(), secrets.token_hex(16)
    command = [
        sys.executable,
        "-m",
        "jupyter",
        app,
        "--no-browser",
        "--allow-root",
        "--ip=127.0.0.1",
        f"--port={port}",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
        KERNELS_OVER_IPC,
    ]
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(workdir / "config"), **env)
    with server(command, f"{base}/api/status?token={token}", env, workdir / f"{app}.log"):
        separator = "&" if "?" in page_path else "?"
        yield f"{base}/{page_path}{separator}token={token}"


def jupyter_lab(root: pathlib.Path, workdir: pathlib.Path) -> contextlib.AbstractContextManager:
    """JupyterLab, without its news pop-up, rendering every cell; `?reset` starts each page
    from a clean workspace."""
    settings = {"JUPYTERLAB_SETTINGS_DIR": str(quiet_lab_settings(workdir / "settings"))}
    return _jupyter_server("lab", root, workdir, settings, "lab/tree/{path}?reset")


def notebook7(root: pathlib.Path, workdir: pathlib.Path) -> contextlib.AbstractContextManager:
    """Jupyter Notebook 7 (the classic-looking interface built on JupyterLab)."""
    return _jupyter_server("notebook", root, workdir, {}, "notebooks/{path}")


@contextlib.contextmanager
def voila(notebook: pathlib.Path, workdir: pathlib.Path) -> Iterator[str]:
    """Voila on 127.0.0.1 serving `notebook` (a file, or a folder of them in tree mode)."""
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "voila",
        str(notebook),
        "--no-browser",
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
        KERNELS_OVER_IPC,
    ]
    base = f"http://127.0.0.1:{port}/"
    with server(command, base, dict(os.environ), workdir / "voila.log"):
        yield base


@dataclass
class PageWatch:
    """What a page did that a test must check: console errors and requests for another host
    (`blocked`: the browser resolves no host but 127.0.0.1, see CHROMIUM_ARGS)."""

    console_errors: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    _detach: Callable[[], object] | None = field(default=None, repr=False)

    def attach(self, page: Any) -> None:
        def on_console(message: Any) -> None:
            if message.type == "error":
                self.console_errors.append(message.text)

        def on_error(error: Any) -> None:
            self.console_errors.append(f"pageerror: {error} {getattr(error, 'stack', '')}")

        def on_request(request: Any) -> None:
            if not request.url.startswith(LOCAL_PREFIXES):
                self.blocked.append(request.url)

        page.on("console", on_console)
        page.on("pageerror", on_error)
        page.on("request", on_request)

        def detach() -> None:
            if not page.is_closed():
                page.remove_listener("console", on_console)
                page.remove_listener("pageerror", on_error)
                page.remove_listener("request", on_request)

        self._detach = detach

    def detach(self) -> None:
        """Stop watching a page that lives on (the shared JupyterLab page): what it does
        after belongs to the next test."""
        if self._detach is not None:
            self._detach()
            self._detach = None

    def our_errors(self, ignore: tuple[str, ...] = ()) -> list[str]:
        """Console errors, minus the failed loads of other hosts (`check` names those)."""
        return [
            e
            for e in self.console_errors
            if "net::ERR_NAME_NOT_RESOLVED" not in e and not any(i in e for i in ignore)
        ]

    def check(self, ignore: tuple[str, ...] = FOREIGN_ERRORS) -> None:
        """No console error of ours, and no request that tried to leave 127.0.0.1 (but the
        Voila template's Font Awesome links)."""
        assert self.our_errors(ignore=ignore) == [], self.console_errors
        strays = [url for url in self.blocked if not any(t in url for t in TEMPLATE_CDN)]
        assert strays == [], f"requests tried to leave 127.0.0.1: {strays}"


def axe() -> Any:
    """axe-playwright-python's sync module; off CI a skip when it is not installed (on CI,
    where `CI` is set, a failure, as for Chromium)."""
    if os.environ.get("CI"):
        from axe_playwright_python import sync_playwright

        return sync_playwright
    import pytest

    return pytest.importorskip("axe_playwright_python.sync_playwright")


def chromium_available() -> bool:
    import importlib.util

    needed = ("playwright", "jupyterlab", "voila")
    return pathlib.Path(CHROMIUM).exists() and all(
        importlib.util.find_spec(name) is not None for name in needed
    )


NOTEBOOK_PROGRESS = """() => {
  const prompts = Array.from(document.querySelectorAll(
    '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputArea-prompt'));
  const texts = prompts.map((p) => p.textContent.trim());
  return {cells: texts.length, running: texts.filter((t) => t.includes('*')).length,
          done: texts.filter((t) => /\\[\\d+\\]/.test(t)).length};
}"""


# JupyterLab's own commands, through `window.jupyterapp` (the server runs with
# --LabApp.expose_app_in_browser): open a notebook in a page already showing JupyterLab, and
# close every notebook with its kernel (outputs are not saved: nothing asks "Save changes?").
LAB_READY = "() => !!window.jupyterapp && window.jupyterapp.commands.hasCommand('docmanager:open')"
LAB_OPEN = "(path) => window.jupyterapp.commands.execute('docmanager:open', {path}).then(() => 1)"
LAB_OPENED = """(path) => { const panel = window.jupyterapp.shell.currentWidget;
  return !!(panel && panel.context && panel.context.path === path && panel.sessionContext); }"""
LAB_CLOSE_NOTEBOOKS = """async () => {
  for (const panel of Array.from(window.jupyterapp.shell.widgets('main'))) {
    if (!panel.sessionContext || !panel.context) continue;
    await panel.sessionContext.shutdown();
    panel.context.model.dirty = false;
    panel.dispose();
  }
}"""


def run_all_cells_in_lab(page: Any, wait_for: str, tries: int = 3) -> None:
    """Clear outputs and run all, then wait for `wait_for` (a selector) to appear.

    The first notebook of a fresh server sometimes ignores a menu command sent while its kernel
    is still connecting. Each attempt first waits until the clear has taken (no execution count
    left: a lesson is saved with its outputs, whose counts would pass for cells that ran), then
    sends Run All; if no cell has started after a short wait, it tries again. Once cells run,
    the wait for `wait_for` is long (lessons compute for a while).
    """
    page.wait_for_selector('.jp-Notebook-ExecutionIndicator[data-status="idle"]', timeout=90_000)
    menu_bar = page.locator("#jp-menu-panel, .lm-MenuBar").first
    for attempt in range(tries):
        no_dialog_in_the_way(page)
        menu_bar.get_by_role("menuitem", name="Edit", exact=True).click()
        page.locator(".lm-Menu").get_by_role("menuitem", name="Clear Outputs of All Cells").click()
        if not _cleared(page) and attempt < tries - 1:
            continue
        menu_bar.get_by_role("menuitem", name="Run", exact=True).click()
        page.locator(".lm-Menu").get_by_role("menuitem", name="Run All Cells", exact=True).click()
        deadline = time.monotonic() + 15
        started = False
        while time.monotonic() < deadline and not started:
            progress = page.evaluate(NOTEBOOK_PROGRESS)
            started = progress["running"] > 0 or progress["done"] > 0
            if not started:
                time.sleep(0.25)
        if started or attempt == tries - 1:
            wait_while_cells_run(page, wait_for)
            return


def wait_while_cells_run(
    page: Any, selector: str, timeout: float = 180.0, stalled_after: float = 20.0
) -> None:
    """Wait for `selector` while the notebook's cells run; fail early if the run has stalled.

    A fresh JupyterLab once (2026-12-03) took a Run All, showed the first cell queued, then put
    it back to `[ ]` with the kernel idle: the old wait sat out its whole 180 s before the
    caller's retry on a new page passed. Now, once no cell runs or waits and some have not run
    for `stalled_after` seconds, this fails at once and the caller retries. A run whose cells
    have all finished still gets the whole `timeout` (widgets may render late)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    deadline = time.monotonic() + timeout
    stalled_since: float | None = None
    while time.monotonic() < deadline:
        with contextlib.suppress(PlaywrightTimeout):
            page.wait_for_selector(selector, timeout=2_000)
            return
        progress = page.evaluate(NOTEBOOK_PROGRESS)
        if progress["running"] or progress["done"] >= progress["cells"]:
            stalled_since = None
        elif stalled_since is None:
            stalled_since = time.monotonic()
        elif time.monotonic() - stalled_since > stalled_after:
            raise AssertionError(f"Run All stalled for {stalled_after:.0f} s at {progress}")
    raise AssertionError(f"{selector!r} did not show in {timeout:.0f} s")


def no_dialog_in_the_way(page: Any, seconds: float = 10.0) -> None:
    """Wait for JupyterLab's dialogs to close (one that opens for a moment, while a kernel
    starts, would take the menu's click); fail with its words if one stays.

    One dialog is answered as a student would: "Select Kernel" offering the notebook's own
    Python 3 is accepted. Notebook 7 showed it once (2026-12-03) over a notebook whose kernel
    had started and connected, as its server's log said; the cause is inside Notebook 7."""
    dialog = page.locator(".jp-Dialog")
    deadline = time.monotonic() + seconds
    while dialog.count() and time.monotonic() < deadline:
        time.sleep(0.25)
    if dialog.count():
        words = dialog.first.inner_text()
        if words.startswith("Select Kernel") and "Python 3 (ipykernel)" in words:
            print(f"accepted JupyterLab's dialog: {words!r}")
            dialog.first.locator(".jp-mod-accept").click()
            dialog.first.wait_for(state="detached", timeout=10_000)
            return
        raise AssertionError(f"a JupyterLab dialog is open: {words!r}")


def _cleared(page: Any, seconds: float = 10.0) -> bool:
    """True once no cell of the open notebook shows an execution count or runs."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        progress = page.evaluate(NOTEBOOK_PROGRESS)
        if progress["done"] == 0 and progress["running"] == 0:
            return True
        time.sleep(0.25)
    return False


RUN_ALL = "() => window.jupyterapp.commands.execute('notebook:run-all-cells')"


def wait_for_all_cells(
    page: Any, timeout: float = 240.0, stalled_after: float = 15.0
) -> dict[str, int]:
    """Wait until every code cell of the open notebook has run (an execution count).

    On a fresh server JupyterLab once ran the first cell of a Run All and dropped the rest
    (nothing queued, 1 of 4 cells done, for 240 s): a run that stalls like that for
    `stalled_after` seconds is sent Run All once more, and said so on the test's output."""
    deadline = time.monotonic() + timeout
    progress: dict[str, int] = {}
    stalled_since: float | None = None
    rerun = False
    while time.monotonic() < deadline:
        progress = page.evaluate(NOTEBOOK_PROGRESS)
        if progress["cells"] and progress["done"] == progress["cells"]:
            return progress
        if progress["running"] or rerun:
            stalled_since = None
        elif stalled_since is None:
            stalled_since = time.monotonic()
        elif time.monotonic() - stalled_since > stalled_after:
            print(f"Run All stalled at {progress}: sent again")
            page.evaluate(RUN_ALL)
            rerun = True
        time.sleep(0.5)
    raise AssertionError(f"cells did not all run in {timeout} s: {progress}")


ERROR_OUTPUTS = """() => Array.from(document.querySelectorAll(
  '.jp-NotebookPanel:not(.lm-mod-hidden) [data-mime-type="application/vnd.jupyter.stderr"],'
  + ' .jp-NotebookPanel:not(.lm-mod-hidden) [data-mime-type="application/vnd.jupyter.error"]'))
  .map((node) => node.textContent.slice(0, 500))"""


def error_outputs(page: Any) -> list[str]:
    """Tracebacks and stderr shown in the open notebook, plus widgets that failed to render."""
    errors = page.evaluate(ERROR_OUTPUTS)
    if "Error displaying widget" in page.inner_text("body"):
        errors.append("Error displaying widget")
    return errors


SETTLE = """async ([selector, quietMs, timeoutMs]) => {
  const signature = () => {
    const root = document.querySelector(selector) || document.body;
    const nodes = root.querySelectorAll('*');
    let hash = nodes.length;
    for (const node of nodes) {
      const r = node.getBoundingClientRect();
      hash = (Math.imul(hash, 31) + Math.round(r.x) * 7 + Math.round(r.y) * 13
              + Math.round(r.width) * 17 + Math.round(r.height)) | 0;
    }
    return hash;
  };
  const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
  const start = performance.now();
  let last = signature(), since = start;
  while (performance.now() - start < timeoutMs) {
    await frame();
    const now = signature();
    if (now !== last) { last = now; since = performance.now(); }
    else if (performance.now() - since >= quietMs) return true;
  }
  return false;
}"""


def settle(page: Any, selector: str = "body", quiet_ms: int = 300, at_most_ms: int = 4000) -> bool:
    """Wait until nothing under `selector` has moved or changed size for `quiet_ms`: the page
    has finished drawing after a click or a resize (bqplot lays out its axes a frame after its
    chart, a panel draws after the board). It replaces fixed pauses sized for the slowest
    machine. False after `at_most_ms` (something still moving: a clock, say): the caller's own
    checks then decide."""
    return page.evaluate(SETTLE, [selector, quiet_ms, at_most_ms])


def screenshot(target: Any, name: str) -> pathlib.Path:
    """Save a screenshot of a page or of one element (a Playwright Locator)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    if hasattr(target, "goto"):
        target.screenshot(path=str(path), full_page=True)
    else:
        target.screenshot(path=str(path))
    print(f"screenshot saved: {path}")
    return path

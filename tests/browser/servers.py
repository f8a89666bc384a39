"""The servers a browser test session shares: one Jupyter server (JupyterLab and Notebook 7),
one Voila serving every notebook under its root, one Voila for classroom rooms.

Starting a server costs seconds of CPU on a 2-core machine; a kernel per page is the part
that cannot be shared. Each server's root is a session folder that tests copy their notebooks
into (a folder per page), so running cells never edits a shipped notebook.
"""

from __future__ import annotations

import contextlib
import json
import os
import pathlib
import secrets
import sys
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from housing_lab.commands.classroom import voila_command
from housing_lab.rooms import open_store
from housing_lab.rooms.links import page_base, room_links, save_links

from .harness import KERNELS_OVER_IPC, free_port, quiet_lab_settings, server, voila


@dataclass
class JupyterServer:
    """`jupyter lab` on 127.0.0.1 with a token; Notebook 7 is served by the same server."""

    base: str
    token: str
    root: pathlib.Path

    def url(self, path: str, app: str = "lab") -> str:
        """The page of a notebook (a path under `root`) in JupyterLab or Notebook 7. `?reset`
        starts each JupyterLab page from a clean workspace."""
        if app == "lab":
            return f"{self.base}/lab/tree/{path}?reset&token={self.token}"
        if app == "notebook":
            return f"{self.base}/notebooks/{path}?token={self.token}"
        raise ValueError(f"unknown Jupyter app {app!r}: lab or notebook")

    def home(self) -> str:
        """JupyterLab itself, on a clean workspace, with no notebook open."""
        return f"{self.base}/lab?reset&token={self.token}"

    def _call(self, method: str, path: str) -> Any:
        request = urllib.request.Request(
            f"{self.base}/{path}?token={self.token}", method=method, data=b"" if method else None
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            body = answer.read()
        return json.loads(body) if body else None

    def stop_kernels(self) -> None:
        """Shut down every session's kernel (pages closed: their kernels would idle on)."""
        for session in self._call("GET", "api/sessions"):
            with contextlib.suppress(Exception):
                self._call("DELETE", f"api/sessions/{session['id']}")


@contextlib.contextmanager
def jupyter_server(root: pathlib.Path, workdir: pathlib.Path) -> Iterator[JupyterServer]:
    """JupyterLab without its news pop-up, rendering every cell (a test reads all outputs)."""
    port, token = free_port(), secrets.token_hex(16)
    command = [
        sys.executable,
        "-m",
        "jupyter",
        "lab",
        "--no-browser",
        "--allow-root",
        "--ip=127.0.0.1",
        f"--port={port}",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
        "--LabApp.expose_app_in_browser=True",  # window.jupyterapp: open a file in a page
        KERNELS_OVER_IPC,
    ]
    env = dict(
        os.environ,
        JUPYTER_CONFIG_DIR=str(workdir / "config"),
        JUPYTERLAB_SETTINGS_DIR=str(quiet_lab_settings(workdir / "settings")),
    )
    base = f"http://127.0.0.1:{port}"
    with server(command, f"{base}/api/status?token={token}", env, workdir / "jupyter.log"):
        yield JupyterServer(base, token, root)


@dataclass
class VoilaServer:
    """Voila in tree mode: any notebook under `root` renders at /voila/render/PATH."""

    base: str
    root: pathlib.Path

    def url(self, path: str) -> str:
        return f"{self.base}voila/render/{path}"


@contextlib.contextmanager
def voila_server(root: pathlib.Path, workdir: pathlib.Path) -> Iterator[VoilaServer]:
    """Voila in tree mode: `harness.voila` on a folder serves every notebook under it."""
    with voila(root, workdir) as base:
        yield VoilaServer(base, root)


# A closed page's kernel lives this long in the tests (40 s by default): long enough for a page
# on a loaded machine to connect after Voila has sent it.
CULL_AFTER = 8
ROOM_CULLING = [f"--RoomKernels.cull_after={CULL_AFTER}", "--RoomKernels.sweep_every=1"]


@dataclass
class RoomServer:
    """Voila serving the classroom room page, as `housing-lab classroom` starts it, on one
    SQLite store: each test creates its own rooms (rooms never share codes)."""

    base: str
    store_url: str
    links: pathlib.Path
    pid: int  # the server's process: its children are the pages' kernels
    log: pathlib.Path  # what the server printed (the teacher's terminal)

    def kernels(self, room: str) -> list[int]:
        """The running kernels of one room's pages (each kernel's QUERY_STRING names its
        room), by process id."""
        import psutil

        found = []
        for child in psutil.Process(self.pid).children(recursive=True):
            try:
                if child.status() == psutil.STATUS_ZOMBIE:
                    continue
                if f"room={room}" in child.environ().get("QUERY_STRING", ""):
                    found.append(child.pid)
            except psutil.Error:  # ended while we looked
                continue
        return found

    def create(self, teams: list[str], seed: int, **options: Any) -> tuple[Any, dict, dict]:
        """A new room (`options` as `create_room` takes them, `game=` for one) with its links
        file saved: (open store, created room, links by holder). The caller closes the store."""
        store = open_store(self.store_url)
        created = store.create_room(teams, seed=seed, join_base=self.base, **options)
        links = room_links(created, self.base)
        save_links(links, self.links)
        return store, created, {"teacher": links["teacher"], **links["teams"]}


@contextlib.contextmanager
def room_server(workdir: pathlib.Path) -> Iterator[RoomServer]:
    port = free_port()
    store_url = "sqlite:///" + str(workdir / "rooms.sqlite")
    base = page_base("127.0.0.1", port)
    open_store(store_url).close()  # the schema exists before the page first reads it
    env = dict(
        os.environ,
        HOUSING_LAB_ROOMS=store_url,
        HOUSING_LAB_ROOM_LINKS=str(workdir / "links"),
        JUPYTER_CONFIG_DIR=str(workdir / "config"),
    )
    # Ready when a static file answers. (The page itself no longer starts a kernel without a
    # key, but a static file is the cheaper probe.) The room server runs its kernels over IPC
    # itself; a page's kernel is shut down CULL_AFTER s after its page is gone.
    ready = f"{base}voila/static/voila.js"
    command = [*voila_command("127.0.0.1", port), *ROOM_CULLING]
    log = workdir / "voila.log"
    with server(command, ready, env, log) as process:
        yield RoomServer(base, store_url, workdir / "links", process.pid, log)

"""The Voila server behind `housing-lab app`: one lesson or app, and every page its links name.

Plain `voila NOTEBOOK` serves that notebook only, so "How to play", "Next: Lesson 2" and the
docs answered 403. This server runs Voila on the whole lessons folder (so the next lesson
opens), renders the rules page and the docs as readable pages (housing_lab/apps/pages.py), opens
the chosen notebook at "/", and keeps the page offline and the terminal quiet: the Font Awesome
stylesheets Voila's template asks a CDN for are dropped (Voila's own bundle carries the icons),
the served notebooks are trusted (they are ours), and only the address is printed.

With `class_polls` on (`housing-lab app` and `housing-lab class`), it also serves the class
poll's pages and API (housing_lab/server/class_poll.py) and each lesson page shown on this
computer carries a "Start a class poll" link to the projector page; a class's join link then
opens the lesson here as an app in class mode (housing_lab/server/lesson_apps.py). With
`gate_lessons` on (a server the Wi-Fi reaches) a lesson page starts a kernel only for a device
of an open class, few per device and `LessonKernels.max_pages` in all
(housing_lab/server/lesson_gate.py).

    python -m housing_lab.apps.server FOLDER --HousingLabVoila.start_page=01_start_here.ipynb
"""

from __future__ import annotations

import os
import pathlib
import re
import sys
import tempfile
from typing import Any, ClassVar

import nbformat
import tornado.web
from traitlets import Bool, Unicode
from voila.app import Voila
from voila.tornado.handler import TornadoVoilaHandler

from housing_lab.apps.class_start import StartControl
from housing_lab.apps.pages import IMAGE_TYPES, Folders, docs_beside, file_for, render_markdown
from housing_lab.server.class_poll import (
    LESSON_APPS_SETTING,
    LINK_HOST_SETTING,
    LOOPBACK,
    STORE_SETTING,
    voila_routes,
)
from housing_lab.server.lesson_apps import render_paths
from housing_lab.server.lesson_gate import LESSON_KERNELS_KEY, GatedLessonPage, LessonKernels
from housing_lab.server.room_kernels import STORE_ENV, quiet_tornado_notices

# A temporary folder's longest path that still leaves room for Voila's kernel sockets in it
# ("/voila_XXXXXXXX/kernel-<uuid>-ipc-1" adds 65 bytes; a Unix socket's path stays under 104).
SHORT_TEMP = 36
# Voila's lab template links two Font Awesome stylesheets on a CDN (an offline school network
# waits for them); the icons are already in Voila's own bundle (static/1807.voila.js).
_CDN_STYLESHEET = re.compile(rb"<link[^>]+href=\"https://cdn\.jsdelivr\.net/[^\"]*\"[^>]*>\s*")


class _DropCdnLinks(tornado.web.OutputTransform):
    """Removes the CDN stylesheet links from every HTML page the server sends."""

    def transform_first_chunk(self, status_code, headers, chunk, finishing):  # type: ignore[no-untyped-def]
        self._html = headers.get("Content-Type", "").startswith("text/html")
        if self._html:
            chunk = _CDN_STYLESHEET.sub(b"", chunk)
            headers.pop("Content-Length", None)
        return status_code, headers, chunk

    def transform_chunk(self, chunk: bytes, finishing: bool) -> bytes:
        return _CDN_STYLESHEET.sub(b"", chunk) if self._html else chunk


TRUST_LOOPBACK_SETTING = "housing_lab_trust_loopback"


class _StartHandler(tornado.web.RequestHandler):
    """ "/" opens the chosen lesson or app (instead of Voila's list of files)."""

    def initialize(self, target: str) -> None:
        self.target = target

    def get(self) -> None:
        self.redirect(self.target)


class _PageHandler(tornado.web.RequestHandler):
    """The rules page and the docs: Markdown rendered as HTML, images as they are."""

    def initialize(self, folders: Folders) -> None:
        self.folders = folders

    def get(self, path: str) -> None:
        source = file_for(self.request.path, self.folders)
        if source is None:
            raise tornado.web.HTTPError(404, f"no page {path!r}")
        if source.suffix == ".md":
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.finish(render_markdown(source))
        else:
            self.set_header("Content-Type", IMAGE_TYPES[source.suffix])
            self.finish(source.read_bytes())


class QuietVoila(Voila):
    """Voila that keeps the page offline and the terminal quiet: the CDN stylesheets dropped,
    the served notebooks trusted (they are ours), the address printed once by `listen` (or
    nothing, when `say_address` is off: the caller prints its own links)."""

    say_address = Bool(True, config=True, help="print the address once the port is taken")

    def initialize(self, argv: list[str] | None = None) -> None:
        self.config.NotebookNotary.db_file = ":memory:"  # see _trust_served_notebooks
        quiet_tornado_notices()
        super().initialize(argv)

    def init_settings(self) -> dict[str, Any]:
        settings = super().init_settings()
        settings["transforms"] = [_DropCdnLinks]
        self._trust_served_notebooks()
        return settings

    def _trust_served_notebooks(self) -> None:
        """Sign the notebooks we ship in this server's own (in-memory) trust database, so Voila
        does not warn that they are untrusted; the user's trust database is not touched."""
        notary = self.contents_manager.notary
        for path in pathlib.Path(self.root_dir).glob("*.ipynb"):
            try:
                notary.sign(nbformat.read(path, as_version=4))
            except (OSError, ValueError):  # an unreadable notebook: Voila reports it on opening
                continue

    def listen(self) -> None:
        """Print the one line a teacher needs, the address, once the port is taken."""
        listen = self.app.listen

        def listen_and_say(port: int, address: str = "", **kwargs: Any) -> Any:
            server = listen(port, address, **kwargs)
            if self.say_address:
                print(f"Open http://{address or 'localhost'}:{port}{self.base_url}", flush=True)
            return server

        self.app.listen = listen_and_say
        super().listen()


class HousingLabVoila(QuietVoila):
    """Voila on a folder, opening `start_page`, with the lessons' linked pages rendered."""

    name = "housing-lab-app"
    start_page = Unicode("", config=True, help="the notebook opened at '/' (in the folder)")
    lessons_dir = Unicode(
        "", config=True, help="the lessons folder (for the rules page; default: the folder)"
    )
    docs_dir = Unicode("", config=True, help="the docs folder (default: beside the lessons)")
    class_polls = Bool(
        False, config=True, help="serve class polls and a Start control on each lesson page"
    )
    gate_lessons = Bool(
        False, config=True, help="a lesson page's kernel only for a device of an open class"
    )
    trust_loopback = Bool(
        True, config=True, help="with gate_lessons: this computer's own pages are not gated"
    )
    link_host = Unicode("", config=True, help="the host class links name (the LAN address)")
    classes: ClassVar[list] = [*QuietVoila.classes, LessonKernels]

    def init_settings(self) -> dict[str, Any]:
        settings = super().init_settings()
        if self.class_polls:
            lessons = self.folders().lessons
            settings["transforms"] = [*settings["transforms"], StartControl]
            settings[STORE_SETTING] = os.environ.get(STORE_ENV) or None
            settings[LESSON_APPS_SETTING] = render_paths(
                lessons, pathlib.Path(self.root_dir), self.base_url
            )
            settings[LINK_HOST_SETTING] = self.link_host
        if self.gate_lessons:
            settings[LESSON_KERNELS_KEY] = LessonKernels(self.kernel_manager, parent=self)
            settings[TRUST_LOOPBACK_SETTING] = self.trust_loopback
        return settings

    def folders(self) -> Folders:
        lessons = pathlib.Path(self.lessons_dir or self.root_dir).resolve()
        docs = pathlib.Path(self.docs_dir).resolve() if self.docs_dir else docs_beside(lessons)
        return Folders(lessons=lessons, docs=docs)

    def init_handlers(self) -> list:
        folders = self.folders()
        ours: list = [
            (r"/voila/(?:render|docs)/(.+\.(?:md|png|jpg|svg))", _PageHandler, {"folders": folders})
        ]
        if self.start_page:
            target = f"{self.base_url.rstrip('/')}/voila/render/{self.start_page}"
            ours.append((self.base_url, _StartHandler, {"target": target}))
        if self.class_polls:
            ours += voila_routes(self.base_url)
        theirs = super().init_handlers()
        if self.gate_lessons:
            gated = TornadoVoilaHandler, LessonPageHandler
            theirs = [
                (route, gated[1] if handler is gated[0] else handler, *rest)
                for route, handler, *rest in theirs
            ]
        return ours + theirs


class LessonPageHandler(GatedLessonPage, TornadoVoilaHandler):
    """Voila's lesson page behind the class's gate (this computer's own pages pass, when
    `trust_loopback` is on)."""

    async def get(self, path: str | None = None) -> None:
        trusted = self.settings.get(TRUST_LOOPBACK_SETTING)
        if trusted and self.request.remote_ip in LOOPBACK:
            await TornadoVoilaHandler.get(self, path)
            return
        await super().get(path)


def quiet_arguments() -> list[str]:
    """Voila's startup log is for developers: a teacher sees the address and real problems
    (warnings and errors), and kernels talk over local files rather than TCP where they can
    (no "running over TCP without encryption" warning per kernel). Voila keeps their socket
    files in the temporary folder; a Unix socket's path must stay under 104 bytes, so a long
    temporary folder (macOS's) is replaced by /tmp."""
    quiet = ["--Voila.log_level=WARN"]
    if sys.platform != "win32":
        quiet.append("--KernelManager.transport=ipc")
        if len(tempfile.gettempdir()) > SHORT_TEMP and pathlib.Path("/tmp").is_dir():
            quiet.append("--Voila.connection_dir_root=/tmp")
    return quiet


def main(argv: list[str] | None = None) -> None:
    HousingLabVoila.launch_instance(
        [*quiet_arguments(), *(argv if argv is not None else sys.argv[1:])]
    )


if __name__ == "__main__":
    main()

"""The class poll's pages and JSON API as light Tornado handlers: no kernel for a device.

Routes, under ``{base_url}housing-lab/class``:

- ``""`` the projector page (``?class=CODE#key=TOKEN``; without a class, a form that starts
  one, ``?lesson=N`` chosen: for a Jupyter server's user, or in the apps' Voila for a page on
  the computer it runs on) and ``/join`` the devices' page (``?class=CODE``), which sends a
  device on to its lesson's app page when the server has one (`LESSON_APPS_SETTING`), or
  stays (``&light=1``) as the light answer page;
- ``/static/NAME`` their JavaScript and CSS (housing_lab/server/class_page/), nothing from a
  CDN;
- ``/api/teacher`` GET the tally, POST ``{"class", "action": "show" | "hide" | "reveal" |
  "vote-again" | "close", "question"}``; ``/api/qr`` GET the join link's QR code (SVG);
  ``/api/device`` GET what a device may see, POST ``{"class", "action": "join" | "answer",
  "question", "choice"}``; ``/api/create`` POST ``{"lesson", "page"}`` (as the start form).

The teacher's token travels in the ``X-Housing-Lab-Key`` header and a device's key in
``X-Housing-Lab-Device``, never in a URL, so no access log holds them; the pages read them from
the link's ``#fragment`` and the browser's storage. A refusal is ``{"error": one line}`` with
status 400 (403 for a wrong token). The store calls run on a small thread pool, so a slow
database never stalls the server's event loop.

The same mixins make three handler sets: one for a Jupyter server (`login_routes`: the
server's login guards every route, JupyterHub's included), one inside the apps' Voila of
`housing-lab class` and `housing-lab app` (`voila_routes`, housing_lab/apps/server.py) and one
for the light pages' own server (`standalone_routes`, in `class_app`).
"""

from __future__ import annotations

import html
import json
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from tornado import web
from tornado.ioloop import IOLoop

from housing_lab.errors import HousingLabError
from housing_lab.rooms.errors import AccessDenied

ROUTE = "housing-lab/class"
PAGE_FOLDER = Path(__file__).resolve().parent / "class_page"
# page.js: what both pages' scripts share, loaded before class.js (projector) or join.js (device)
STATIC = {
    "page.js": "text/javascript",
    "class.js": "text/javascript",
    "join.js": "text/javascript",
    "class.css": "text/css",
}
TEACHER_HEADER = "X-Housing-Lab-Key"
DEVICE_HEADER = "X-Housing-Lab-Device"
STORE_SETTING = "housing_lab_class_store"  # the store URL (None: the default one)
# each lesson's app address on this server ({3: "/voila/render/03_policies.ipynb"}): the join
# page sends a device on to its class's lesson (server/lesson_apps.py); none: the light page
LESSON_APPS_SETTING = "housing_lab_lesson_apps"
# the host links made from a page name (the laptop's LAN address), if not the page's own
LINK_HOST_SETTING = "housing_lab_link_host"
LOOPBACK = ("127.0.0.1", "::1")
MAX_BODY = 10_000  # bytes of one API request: real ones are under 200
WORKERS = 4
_EXECUTOR = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="housing-lab-class")
_POLLS: dict[str | None, Any] = {}
_POLLS_LOCK = threading.Lock()
TEACHER_ACTIONS = ("show", "hide", "reveal", "vote-again", "close")
DEVICE_ACTIONS = ("join", "answer")


def polls_for(url: str | None) -> Any:
    """The process's `ClassStore` for a store URL, opened once (its tables made once)."""
    from housing_lab.rooms.class_poll import ClassStore

    with _POLLS_LOCK:
        if url not in _POLLS:
            _POLLS[url] = ClassStore(url)
        return _POLLS[url]


def hub_join_path(default: str) -> str:
    """Where devices open the class on a JupyterHub: the hub's user-redirect, so each student
    lands on their own server (`JUPYTERHUB_BASE_URL` is set in a hub's servers); else
    `default`, this server's own path."""
    if os.environ.get("JUPYTERHUB_SERVICE_PREFIX") and os.environ.get("JUPYTERHUB_BASE_URL"):
        return os.environ["JUPYTERHUB_BASE_URL"].rstrip("/") + "/hub/user-redirect/" + ROUTE
    return default


PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="stylesheet" href="{static}class.css">
</head>
<body class="{kind}" data-api="{api}" data-xsrf="{xsrf}" data-join-path="{join_path}"
 data-can-create="{can_create}" data-lesson-apps="{lesson_apps}" data-link-origin="{origin}">
<main id="app" aria-live="polite"><p>Loading...</p></main>
<script src="{static}page.js"></script>
<script src="{static}{script}"></script>
</body>
</html>
"""


class _ClassHandler:
    """What every class handler shares: the store on a worker thread, JSON in and out."""

    # with tornado's RequestHandler (or Jupyter's JupyterHandler) after it in the class's bases
    route_base: str = "/"
    can_create: bool = False
    loopback_create: bool = False  # a class may be started from this computer only

    def may_create(self) -> bool:
        """Whether this request may start a class: a logged-in user of a Jupyter server, or
        (a server without a login) a page on the computer the server runs on."""
        remote = str(self.request.remote_ip or "")  # type: ignore[attr-defined]
        return self.can_create or (self.loopback_create and remote in LOOPBACK)

    async def _call(self, work: Callable[[Any], Any]) -> Any:
        """`work(polls)` on a worker thread; a refusal becomes one JSON line (400 or 403)."""
        url = self.settings.get(STORE_SETTING)  # type: ignore[attr-defined]
        loop = IOLoop.current()
        try:
            polls = await loop.run_in_executor(_EXECUTOR, polls_for, url)
            return await loop.run_in_executor(_EXECUTOR, partial(work, polls))
        except AccessDenied as error:
            self._json({"error": str(error)}, 403)
        except HousingLabError as error:
            self._json({"error": str(error)}, 400)
        return None

    def _json(self, document: Any, status: int = 200) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-store")
        self.finish(json.dumps(document))

    def _body(self) -> dict[str, Any] | None:
        body = self.request.body or b""
        try:
            data = json.loads(body) if len(body) <= MAX_BODY else None
        except ValueError:
            data = None
        if not isinstance(data, dict):
            self._json({"error": "the request must be a JSON object"}, 400)
            return None
        return data

    def _header(self, name: str) -> str:
        return str(self.request.headers.get(name, ""))


class _PageHandler(_ClassHandler):
    """The projector's page, or the devices' page (`kind`)."""

    kind = "projector"

    def get(self) -> None:
        xsrf = self.xsrf_token.decode()  # type: ignore[attr-defined]  # sets the _xsrf cookie
        base = self.route_base
        own_path = base + ROUTE
        page = PAGE.format(
            title="Class poll" if self.kind == "projector" else "Join the class",
            kind=self.kind,
            static=html.escape(base + ROUTE + "/static/"),
            api=html.escape(base + ROUTE + "/api/"),
            xsrf=html.escape(xsrf),
            join_path=html.escape(hub_join_path(own_path)),
            can_create="yes" if self.may_create() else "no",
            script="class.js" if self.kind == "projector" else "join.js",
            lesson_apps=html.escape(json.dumps(self.settings.get(LESSON_APPS_SETTING) or {})),
            origin=html.escape(self._link_origin()),
        )
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.set_header("Referrer-Policy", "no-referrer")
        self.finish(page)

    def _link_origin(self) -> str:
        """The origin links started from this page name: the server's LAN host (a setting) on
        the port this page came through; "" for the page's own origin."""
        host = self.settings.get(LINK_HOST_SETTING)
        if not host:
            return ""
        port = urlsplit("//" + self.request.host).port
        named = f"[{host}]" if ":" in host and not host.startswith("[") else host
        return f"{self.request.protocol}://{named}" + (f":{port}" if port else "")


class _JoinPageHandler(_PageHandler):
    kind = "device"


class _StaticHandler(_ClassHandler):
    """The pages' own JavaScript and CSS (the files in `STATIC`: nothing else is served)."""

    def get(self, name: str) -> None:
        if name not in STATIC:
            raise web.HTTPError(404)
        self.set_header("Content-Type", STATIC[name] + "; charset=utf-8")
        self.set_header("Cache-Control", "no-cache")
        self.finish((PAGE_FOLDER / name).read_bytes())


class _TeacherHandler(_ClassHandler):
    """The tally (GET) and the teacher's buttons (POST), by the token in the header."""

    async def get(self) -> None:
        code, token = self.get_argument("class", ""), self._header(TEACHER_HEADER)
        tally = await self._call(lambda polls: polls.tally(code, token))
        if tally is not None:
            self._json(tally)

    async def post(self) -> None:
        data = self._body()
        if data is None:
            return
        action, code, question = data.get("action"), data.get("class"), data.get("question")
        token = self._header(TEACHER_HEADER)
        if action not in TEACHER_ACTIONS:
            self._json({"error": f"unknown action {action!r}: one of {TEACHER_ACTIONS}"}, 400)
            return

        def work(polls: Any) -> Any:
            if action == "close":
                return polls.close_class(code, token)
            if action in ("show", "hide"):
                return polls.show(code, token, question, action == "show")
            if action == "reveal":
                return polls.reveal(code, token, question)
            return polls.vote_again(code, token, question)

        done = await self._call(work)
        if done is not None:
            self._json(done)


class _QRHandler(_ClassHandler):
    """The join link's QR code for the projector (teacher's token: the page asks once)."""

    async def get(self) -> None:
        import segno  # the projector's code only: nothing else pays for the import

        code, token = self.get_argument("class", ""), self._header(TEACHER_HEADER)
        tally = await self._call(lambda polls: polls.tally(code, token))
        if tally is None:
            return
        # a viewBox and no fixed size, so the page scales the code to the projector
        title = f"Join class {tally['class']}"
        svg = segno.make(tally["join"], error="m").svg_inline(scale=6, omitsize=True, title=title)
        self.set_header("Content-Type", "image/svg+xml")
        self.set_header("Cache-Control", "no-store")
        self.finish(svg)


class _DeviceHandler(_ClassHandler):
    """A device's view (GET) and its join and answers (POST), by the key in the header."""

    async def get(self) -> None:
        code, key = self.get_argument("class", ""), self._header(DEVICE_HEADER)
        view = await self._call(lambda polls: polls.device_view(code, key))
        if view is not None:
            self._json(view)

    async def post(self) -> None:
        data = self._body()
        if data is None:
            return
        action, code, key = data.get("action"), data.get("class"), self._header(DEVICE_HEADER)
        if action not in DEVICE_ACTIONS:
            self._json({"error": f"unknown action {action!r}: one of {DEVICE_ACTIONS}"}, 400)
            return

        def work(polls: Any) -> Any:
            if action == "join":
                return polls.join(code, key)
            return polls.answer(code, key, data.get("question"), data.get("choice"))

        done = await self._call(work)
        if done is not None:
            self._json(done)


NOT_HERE = "a class poll is started on the computer that serves it (the teacher's)"


class _CreateHandler(_ClassHandler):
    """Start a class from the projector page (a Jupyter server's logged-in user only)."""

    async def post(self) -> None:
        if not self.may_create():
            self._json({"error": NOT_HERE}, 403)
            return
        data = self._body()
        if data is None:
            return
        lesson, page = data.get("lesson"), data.get("page")
        made = await self._call(lambda polls: polls.create_class(lesson, page=page))
        if made is not None:
            self._json(made)


HANDLERS: tuple[tuple[str, type], ...] = (
    ("/?", _PageHandler),
    ("/join/?", _JoinPageHandler),
    ("/static/([a-z]+\\.(?:js|css))", _StaticHandler),
    ("/api/teacher", _TeacherHandler),
    ("/api/qr", _QRHandler),
    ("/api/device", _DeviceHandler),
)


def _routes(base: str, root: type, login: bool, loopback_create: bool = False) -> list[tuple]:
    """The handlers on `root` (tornado's or Jupyter's); with `login`, every method needs the
    server's logged-in user (a Jupyter server lets undecorated handlers through) and a class
    can be started from the page; with `loopback_create`, from a page on this computer."""
    made = []
    creating = login or loopback_create
    handlers = HANDLERS + ((("/api/create", _CreateHandler),) if creating else ())
    for suffix, mixin in handlers:
        extra: dict[str, Any] = {
            "route_base": base,
            "can_create": login,
            "loopback_create": loopback_create,
        }
        if login:
            for method in ("get", "post"):
                if hasattr(mixin, method):
                    extra[method] = web.authenticated(getattr(mixin, method))
        handler = type(mixin.__name__.lstrip("_"), (mixin, root), extra)
        made.append((base + ROUTE + suffix, handler))
    return made


def standalone_routes() -> list[tuple]:
    """The routes of `housing-lab class`'s own server (no login: devices join by the code;
    the teacher's actions need the token; no class can be created from a page)."""
    return _routes("/", web.RequestHandler, False)


class _XsrfChecked(web.RequestHandler):
    """A handler that checks the XSRF cookie and header of every POST itself, for a server
    (Voila) whose application leaves `xsrf_cookies` off."""

    def prepare(self) -> None:
        if self.request.method == "POST":
            self.check_xsrf_cookie()


def voila_routes(base: str) -> list[tuple]:
    """The routes inside `housing-lab class`'s and `app`'s Voila (no login: devices join by the
    code; the teacher's actions need the token; a class is started from this computer only)."""
    return _routes(base, _XsrfChecked, False, loopback_create=True)


def login_routes(base: str, root: type) -> list[tuple]:
    """The routes on `root`, a handler class with a login (Jupyter's `JupyterHandler`)."""
    return _routes(base, root, True)


def add_class_poll(server_app: Any) -> None:
    """Add the class poll's routes to a running Jupyter server (its base URL, its login)."""
    from jupyter_server.base.handlers import JupyterHandler

    from housing_lab.server.lesson_apps import jupyter_lesson_apps

    base = server_app.web_app.settings["base_url"]
    server_app.web_app.settings[LESSON_APPS_SETTING] = jupyter_lesson_apps(server_app)
    server_app.web_app.add_handlers(".*$", login_routes(base, JupyterHandler))
    server_app.log.info("housing-lab: the class poll is at %s%s", base, ROUTE)

"""`housing-lab class`'s light server: the class poll's handlers (`class_poll`) on Tornado alone,
when it serves no lesson app (`--lesson-pages 0`, no Voila, no lessons folder; otherwise the
lessons' Voila serves the same handlers: housing_lab/apps/server.py).

Phones join without any login, so this server opens nothing but the class pages and their
API (no Jupyter contents, kernels or terminals), as `housing-lab classroom` serves its room
page with a standalone Voila. It runs until Ctrl-C or SIGTERM; the class stays in the store.
"""

from __future__ import annotations

import asyncio
import secrets
import signal
from typing import Any

from tornado import web
from tornado.httpserver import HTTPServer

from housing_lab.server.class_poll import STORE_SETTING, standalone_routes


def make_app(store: str | None) -> web.Application:
    """The Tornado application: the class routes, XSRF-checked POSTs, the store URL."""
    settings: dict[str, Any] = {
        STORE_SETTING: store,
        "xsrf_cookies": True,
        "cookie_secret": secrets.token_urlsafe(32),
    }
    return web.Application(standalone_routes(), **settings)


async def _serve(host: str, port: int, store: str | None) -> None:
    server = HTTPServer(make_app(store), xheaders=False)
    server.listen(port, address=host or None)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for name in ("SIGINT", "SIGTERM"):
        if hasattr(signal, name):
            loop.add_signal_handler(getattr(signal, name), stop.set)
    try:
        await stop.wait()
    finally:
        server.stop()


def serve(host: str, port: int, store: str | None) -> int:
    """Serve the class pages on `host`:`port` until Ctrl-C or SIGTERM; returns 0."""
    asyncio.run(_serve(host, port, store))
    return 0

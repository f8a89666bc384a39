"""The "Start a class poll" link at the top of a lesson page shown on the teacher's computer.

`housing-lab app N` and `housing-lab class` (housing_lab/apps/server.py) put it after the
lesson page's ``<body>`` tag, as a transform of the page they send: a link that opens the class
poll's projector page (housing_lab/server/class_poll.py) ready to start a poll of this
lesson, which one click starts, as `housing-lab class --lesson N` does. Only pages asked for
from the computer the server runs on get it (a device on the Wi-Fi never does), and a page in
class mode (``#class=`` in its address) removes it. No Voila import: the tests check it alone.
"""

from __future__ import annotations

import html
import re
from typing import Any

import tornado.web

from housing_lab.server.class_poll import LOOPBACK, ROUTE
from housing_lab.server.lesson_apps import lesson_number

START_LINK = "Start a class poll"
_BODY_TAG = re.compile(rb"<body[^>]*>")
HOLD_BYTES = 256_000  # a page with no <body> tag in its first this many bytes is sent as it is


def start_control(base_url: str, lesson: int) -> bytes:
    """The "Start a class poll" bar put at the top of a lesson page shown on the teacher's
    computer: a link to the projector page, ready to start a poll of this lesson. A page
    already in class mode (``#class=`` in its address: a device) removes it."""
    href = html.escape(f"{base_url.rstrip('/')}/{ROUTE}?lesson={lesson}")
    return (
        '<div class="hl-class-start-bar" style="display:flex;justify-content:flex-end;'
        'padding:6px 16px;background:#f5f7fa;border-bottom:1px solid #d0d7de">'
        f'<a class="hl-class-start-link" href="{href}" target="_blank" rel="noopener" '
        'style="font:600 16px system-ui,sans-serif;color:#0a58ca;padding:6px 10px">'
        f"{START_LINK}</a></div><script>"
        "if (/(^#|&)class=/.test(window.location.hash)) "
        "document.currentScript.previousElementSibling.remove();</script>"
    ).encode()


class StartControl(tornado.web.OutputTransform):
    """Puts `start_control` after the <body> tag of a lesson page this computer asked for.

    Voila sends its page in small pieces (a tag may be cut in two), so the page is held back
    until its <body> tag has come whole (at most `HOLD_BYTES`), then sent with the link."""

    def __init__(self, request: Any) -> None:
        super().__init__(request)
        path = request.path.split("/voila/render/", 1)
        lesson = lesson_number(path[1]) if len(path) == 2 else None
        base = path[0] + "/"
        self._control = start_control(base, lesson) if lesson else b""
        if request.remote_ip not in LOOPBACK:
            self._control = b""
        self._held = b""

    def transform_first_chunk(self, status_code, headers, chunk, finishing):  # type: ignore[no-untyped-def]
        if not headers.get("Content-Type", "").startswith("text/html") or status_code != 200:
            self._control = b""
        if self._control:
            headers.pop("Content-Length", None)
        return status_code, headers, self.transform_chunk(chunk, finishing)

    def transform_chunk(self, chunk: bytes, finishing: bool) -> bytes:
        if not self._control:
            return chunk
        self._held += chunk
        found = _BODY_TAG.search(self._held)
        if found is None and not finishing and len(self._held) < HOLD_BYTES:
            return b""
        held, self._held = self._held, b""
        control, self._control = self._control, b""
        if found is None:
            return held
        return held[: found.end()] + control + held[found.end() :]

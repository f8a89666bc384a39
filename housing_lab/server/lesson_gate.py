"""Lesson app pages for a class poll's devices: a kernel only for a device of an open class,
a cap on how many, and none left behind by a closed page.

`housing-lab class --lesson N` serves the lesson as an app (Voila, housing_lab/apps/server.py)
to every phone and laptop in the room, and each lesson page is a Python kernel (111 MB for
lesson 3). Anyone on the Wi-Fi can request a page, so the lesson pages are gated as the
room pages are (`room_kernels.GatedRoomPage`): a plain request gets a small page whose script
sends the class code and the device's anonymous key (the join link's ``#fragment``, or this
tab's storage) to the server, which joins the device to the class (refused for an unknown or
closed class, or a malformed key) and answers a one-use ticket; only the page opened with the
ticket starts a kernel. `LessonKernels` keeps at most `per_key` pages per device and
`max_pages` in all: beyond that the device is sent to the class's light answer page (no
kernel), where it still answers every question. Pages that close or vanish lose their kernel
(`RoomKernels`' culling).
"""

from __future__ import annotations

import asyncio
import html
import json
import os
from typing import Any
from urllib.parse import urlencode

from tornado.web import authenticated
from traitlets import Int

from housing_lab.errors import HousingLabError
from housing_lab.rooms.tokens import hash_token
from housing_lab.server.lesson_apps import MAX_PAGES
from housing_lab.server.room_kernels import (
    SERVER_FAILED,
    STORE_ENV,
    Admission,
    GatedRoomPage,
    RoomKernels,
)

LESSON_KERNELS_KEY = "housing_lab_lesson_kernels"  # where a web app's LessonKernels is kept
CLASS_JOIN_ROUTE = "housing-lab/class/join"
OPENING = "Opening the lesson..."
NO_CLASS = (
    "This lesson page is opened from the class's join link: scan the QR code on the projector "
    "(or type the link printed under it)."
)


class LessonKernels(RoomKernels):
    """The lesson pages' tickets and kernels: `RoomKernels`, one page per device by default, and
    at most `max_pages` in all (0: no lesson pages, every device gets the light page)."""

    per_key = Int(2, config=True, help="lesson pages (kernels) one device may hold open at once")
    max_pages = Int(
        MAX_PAGES, config=True, help="lesson pages (kernels) open at once; beyond: light pages"
    )

    def full(self, admission: Admission) -> bool:
        """Whether a new page for `admission` would pass `max_pages`. A device already holding
        a page may reload it (its old kernel goes: `per_key`)."""
        running = self.room_kernel_ids()
        if any(self.holder_of(kid) == admission for kid in running):
            return False
        return len(running) >= self.max_pages

    def holder_of(self, kernel_id: str) -> Admission | None:
        """Whose page a kernel is (None for a kernel that is not a lesson page's)."""
        kernel = self._kernels.get(kernel_id)
        return kernel.admission if kernel is not None else None


def light_page(base_url: str, code: str) -> str:
    """The class's light answer page for a device (no kernel): the join page, told to stay."""
    query = urlencode({"class": code, "light": "1"})
    return f"{base_url.rstrip('/')}/{CLASS_JOIN_ROUTE}?{query}"


def admit(code: object, device: object, store_url: str | None) -> Admission:
    """Join the device to the class (the store's one line for an unknown or closed class or a
    malformed key) and say whose page a ticket is for: the class and the device's hash."""
    from housing_lab.server.class_poll import polls_for

    view = polls_for(store_url or None).join(code, device)  # the server's one store
    return Admission(room=view["class"], holder=hash_token(str(device)))


class GatedLessonPage(GatedRoomPage):
    """Put before Voila's page handler: GET without a ticket is the gate page (no kernel), POST
    ``{class, device}`` answers a ticket (or the light page when the lesson pages are full), GET
    with a good ticket is Voila's lesson page."""

    @property
    def room_kernels(self) -> LessonKernels:
        return self.settings[LESSON_KERNELS_KEY]  # type: ignore[attr-defined]

    @authenticated
    async def get(self, path: str | None = None) -> None:
        handler: Any = self
        if not path or not path.endswith(".ipynb"):  # Voila's other files: no kernel
            await super(GatedRoomPage, self).get(path)  # type: ignore[misc]
            return
        self.admission = self.room_kernels.redeem(handler.get_query_argument("ticket", ""))
        if self.admission is None:
            handler.set_header("Content-Type", "text/html; charset=utf-8")
            handler.set_header("Cache-Control", "no-cache, no-store, must-revalidate")
            handler.finish(lesson_gate_page(handler.xsrf_token.decode("ascii")))
            return
        await super(GatedRoomPage, self).get(path)  # type: ignore[misc]

    @authenticated
    async def post(self, path: str | None = None) -> None:
        handler: Any = self
        try:
            asked = json.loads(handler.request.body or b"{}")
            code, device = asked.get("class"), asked.get("device")
            if not isinstance(code, str) or not isinstance(device, str) or not code:
                raise ValueError
        except (ValueError, AttributeError):
            handler.set_status(400)
            handler.finish({"error": NO_CLASS})
            return
        loop = asyncio.get_running_loop()
        try:
            admission = await loop.run_in_executor(
                None, admit, code, device, os.environ.get(STORE_ENV)
            )
        except HousingLabError as error:  # an answer, not a server fault
            handler.finish({"error": str(error)})
            return
        if self.room_kernels.full(admission):
            base = handler.settings.get("base_url", "/")
            handler.finish({"light": light_page(base, admission.room)})
            return
        handler.finish({"ticket": self.room_kernels.issue(admission)})


def lesson_gate_page(xsrf: str) -> str:
    """The lesson page before any kernel: it sends the class code and the device's key to the
    server, then opens the lesson with the ticket it gets back (or the light page, or says in
    one line why not)."""
    words = {"noClass": NO_CLASS, "failed": SERVER_FAILED, "xsrf": xsrf}
    data = html.escape(json.dumps(words), quote=True)
    return _GATE.replace("{words}", data).replace("{opening}", html.escape(OPENING))


_GATE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Class lesson</title>
<style>body{font:18px/1.5 system-ui,sans-serif;margin:24px;color:#1a1a1a}
.hl-class-denied{color:#a40000;font-weight:600}</style></head>
<body><p id="hl-lesson-gate" role="status" data-words="{words}">{opening}</p>
<script>
(function () {
  const note = document.getElementById("hl-lesson-gate");
  const words = JSON.parse(note.dataset.words);
  const say = (text) => { note.textContent = text; note.className = "hl-class-denied"; };
  const query = new URLSearchParams(window.location.search);
  query.delete("ticket");
  // the class and the device: the join link's fragment, else (a link to the next lesson, a
  // reload that lost it) the class this tab last opened a lesson for
  const slot = "housing-lab-class-lesson";
  const fragment = new URLSearchParams(window.location.hash.replace(/^#/, ""));
  let code = fragment.get("class") || "";
  let device = fragment.get("device") || "";
  if (!code) {
    try {
      const kept = JSON.parse(window.sessionStorage.getItem(slot) || "{}");
      code = kept.class || ""; device = kept.device || "";
    } catch (error) { code = ""; device = ""; }
  }
  if (!code) { say(words.noClass); return; }
  if (!device) {
    // a lesson address with #class=CODE only: this browser's key for the class (the join
    // page's slot), else a new random one
    const deviceSlot = "housing-lab-class-device:" + code.trim().toUpperCase();
    try { device = window.localStorage.getItem(deviceSlot) || ""; } catch (error) { device = ""; }
    if (!/^[A-Za-z0-9_-]{16,100}$/.test(device)) {
      const bytes = new Uint8Array(24);
      window.crypto.getRandomValues(bytes);
      device = btoa(String.fromCharCode(...bytes)).replace(/[+]/g, "-").replace(/[/]/g, "_")
        .replace(/=+$/, "");
    }
    try { window.localStorage.setItem(deviceSlot, device); } catch (error) { /* this tab */ }
  }
  fetch(window.location.pathname + "?" + query.toString(), {
    method: "POST",
    credentials: "same-origin",
    headers: {"Content-Type": "application/json", "X-XSRFToken": words.xsrf},
    body: JSON.stringify({class: code, device: device}),
  }).then((answer) => answer.json().catch(() => ({})).then((body) => {
    if (body.light) { window.location.replace(body.light + "#device=" + device); return; }
    if (!answer.ok || !body.ticket) { say(body.error || words.failed); return; }
    try { window.sessionStorage.setItem(slot, JSON.stringify({class: code, device: device})); }
    catch (error) { /* no storage: the fragment still carries them */ }
    query.set("ticket", body.ticket);
    const kept = new URLSearchParams({class: code, device: device});
    window.location.replace(window.location.pathname + "?" + query.toString() + "#" + kept);
  })).catch(() => say(words.failed));
})();
</script></body></html>
"""

"""Room-page kernels: started only for a page that holds a valid key, few per key, and shut
down soon after their page is gone.

A Voila page starts its kernel when the page is requested, and a room link's key is in its
``#fragment``, which no server ever sees. So a plain GET of the room page (anyone on the
Wi-Fi, any number of times) gets a small page without a kernel (`gate_page`): its script reads
the key from the fragment (after a reload, from the tab's sessionStorage, where the room page
keeps it; from an older link's query) and POSTs it to the same address. The server asks the
store whose key it is; for a good key it answers a one-use ticket (valid `TICKET_SECONDS`), and
the script opens the page again with ``&ticket=``: only that request runs Voila and starts a
kernel.

`RoomKernels` then keeps each room's kernels bounded: at most `per_key` pages per key (a
reload or a second tab shuts down that key's oldest kernel, one with no page first), and
every `sweep_every` seconds it shuts down a kernel whose page has had no connection for
`cull_after` seconds (closed, reloaded, or its phone asleep: reopening the link brings the
page back). Jupyter's own idle culler cannot do this: the page's kernel sends a heartbeat to
its page every few seconds, which Jupyter counts as activity, so it is never idle.
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from jupyter_core.utils import ensure_async
from tornado.ioloop import PeriodicCallback
from tornado.web import HTTPError, authenticated
from traitlets import Float, Int, List, Unicode
from traitlets.config import LoggingConfigurable

from housing_lab.errors import HousingLabError
from housing_lab.rooms.links import KEY_IN_QUERY, NO_KEY

SETTINGS_KEY = "housing_lab_room_kernels"  # where a web app's RoomKernels is kept
STORE_ENV = "HOUSING_LAB_ROOMS"  # the store the page's kernels read (as the command sets it)
TICKET_SECONDS = 60.0
SENDING_LIMIT = 300.0  # a page still being sent after this long counts as gone
MAX_TICKETS = 256  # tickets waiting to be used; the oldest are dropped beyond this
# The kernel's warnings are for developers: "running over TCP without encryption" on every
# page open reads like an attack to a teacher.
QUIET_KERNEL = ["--IPKernelApp.log_level=ERROR"]
OPENING = "Opening the room..."
SERVER_FAILED = "The room's server could not open this page; the teacher's terminal says why."


@dataclass
class Admission:
    """Whose page a ticket (and then a kernel) is for: the room and the key's holder."""

    room: str
    holder: str


@dataclass
class _Kernel:
    admission: Admission
    started: float
    seen: float  # the last time a page was connected, or its page was sent
    sending: bool = True  # Voila is still running the page for its request


@dataclass
class _Ticket:
    admission: Admission
    expires: float


@dataclass
class Sweep:
    """What one sweep shut down (kernel ids), for the log and tests."""

    culled: list[str] = field(default_factory=list)


class RoomKernels(LoggingConfigurable):
    """The room pages' tickets and kernels of one web server (Voila or a Jupyter server)."""

    per_key = Int(2, config=True, help="pages (kernels) one key may hold open at once")
    cull_after = Float(
        40.0, config=True, help="seconds a room page's kernel lives on with no page connected"
    )
    sweep_every = Float(
        5.0, config=True, help="seconds between looks for pageless kernels (0: only on call)"
    )
    kernel_arguments = List(
        Unicode(), QUIET_KERNEL, config=True, help="added to a room page's kernel command"
    )

    def __init__(
        self, manager: Any, clock: Callable[[], float] = time.monotonic, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.manager = manager  # the server's kernel manager (Jupyter's MappingKernelManager)
        self._clock = clock
        self._tickets: dict[str, _Ticket] = {}
        self._kernels: dict[str, _Kernel] = {}
        self._sweeper: PeriodicCallback | None = None

    # --- tickets -----------------------------------------------------------------------------
    def issue(self, admission: Admission) -> str:
        """A one-use ticket that lets one request of this page start a kernel."""
        now = self._clock()
        self._tickets = {t: v for t, v in self._tickets.items() if v.expires > now}
        while len(self._tickets) >= MAX_TICKETS:
            self._tickets.pop(next(iter(self._tickets)))
        ticket = secrets.token_urlsafe(24)
        self._tickets[ticket] = _Ticket(admission, now + TICKET_SECONDS)
        return ticket

    def redeem(self, ticket: str) -> Admission | None:
        """The admission a ticket was issued for, once and before it expires; else None."""
        found = self._tickets.pop(ticket, None) if ticket else None
        if found is None or found.expires <= self._clock():
            return None
        return found.admission

    # --- kernels -----------------------------------------------------------------------------
    def room_kernel_ids(self, room: str | None = None) -> list[str]:
        """The running room-page kernels (of one room, or all)."""
        return [k for k, v in self._kernels.items() if room is None or v.admission.room == room]

    async def started(self, kernel_id: str, admission: Admission) -> list[str]:
        """Record a page's new kernel; shut down the same key's kernels beyond `per_key` (pages
        with no connection first, then the oldest). Returns the ids shut down."""
        now = self._clock()
        self._kernels[kernel_id] = _Kernel(admission, started=now, seen=now)
        self._start_sweeping()
        same = [
            (kid, kernel)
            for kid, kernel in self._kernels.items()
            if kid != kernel_id and kernel.admission == admission
        ]
        excess = len(same) + 1 - max(1, self.per_key)
        if excess <= 0:
            return []
        same.sort(key=lambda item: (self._in_use(item[0], now), item[1].started))
        gone = [kid for kid, _ in same[:excess]]
        for kid in gone:
            self.log.info("housing-lab: a room page's older kernel (%s) shut down", kid)
            await self._shut_down(kid)
        return gone

    def sent(self, kernel_id: str) -> None:
        """The page of this kernel has been sent: count its grace from now."""
        if kernel_id in self._kernels:
            self._kernels[kernel_id].seen = self._clock()
            self._kernels[kernel_id].sending = False

    async def sweep(self) -> Sweep:
        """Forget kernels that are gone; shut down those with no page for `cull_after` s."""
        now, done = self._clock(), Sweep()
        running = set(self.manager.list_kernel_ids())
        for kid, kernel in list(self._kernels.items()):
            if kid not in running:
                self._kernels.pop(kid, None)
            elif self._in_use(kid, now):
                kernel.seen = now
            elif now - kernel.seen > self.cull_after:
                self.log.info("housing-lab: a closed room page's kernel (%s) shut down", kid)
                await self._shut_down(kid)
                done.culled.append(kid)
        return done

    def _in_use(self, kernel_id: str, now: float) -> bool:
        """A page is connected to the kernel, or Voila is still sending its page."""
        kernel = self._kernels.get(kernel_id)
        if kernel is not None and kernel.sending and now - kernel.started < SENDING_LIMIT:
            return True
        try:
            return int(self.manager.kernel_model(kernel_id).get("connections", 0)) > 0
        except (KeyError, HTTPError):  # gone between the listing and this look: nobody there
            return False

    async def _shut_down(self, kernel_id: str) -> None:
        """Shut a kernel down; a failure is one line in the log (the sweep goes on)."""
        self._kernels.pop(kernel_id, None)
        if kernel_id not in set(self.manager.list_kernel_ids()):
            return
        try:
            await ensure_async(self.manager.shutdown_kernel(kernel_id))
        except Exception as error:  # whatever the kernel's end raised: the others still go
            self.log.warning("housing-lab: a room page's kernel did not stop: %s", error)

    def _start_sweeping(self) -> None:
        if self._sweeper is None and self.sweep_every > 0:
            self._sweeper = PeriodicCallback(self.sweep, self.sweep_every * 1000)
            self._sweeper.start()


# Lines tornado's general log writes that are a developer's matter: Jupyter's websocket handler
# gives tornado 6.5 its ping times in milliseconds where tornado reads seconds (said once per
# server), and a kernel shut down while its page's sockets still had events (said per kernel).
TORNADO_NOTICES = ("websocket_ping_timeout", "Got events for closed stream")


def _not_a_notice(record: logging.LogRecord) -> bool:
    return not any(notice in record.getMessage() for notice in TORNADO_NOTICES)


def quiet_tornado_notices() -> None:
    """Keep `TORNADO_NOTICES` out of the server's log (its other lines stay)."""
    logger = logging.getLogger("tornado.general")
    if _not_a_notice not in logger.filters:
        logger.addFilter(_not_a_notice)


def holder_of(room: str, key: str, store_url: str | None) -> Admission:
    """Who holds `key` in `room` (the store's one-line refusal when nobody does)."""
    from housing_lab.rooms import open_store

    try:
        store = open_store(store_url or None)
    except HousingLabError as error:  # a hub's setting, not the link: say whose it is
        if not store_url:
            raise
        raise HousingLabError(f"this server's ${STORE_ENV} is wrong: {error}") from None
    with store:
        role = store.role(room, key)
    return Admission(room=room.strip().upper(), holder=role.actor)


class _RecordingManager:
    """The server's kernel manager as one admitted page request sees it: the kernel it starts
    is recorded (and quiet)."""

    def __init__(self, kernels: RoomKernels, admission: Admission, handler: Any) -> None:
        self._kernels, self._admission, self._handler = kernels, admission, handler

    def __getattr__(self, name: str) -> Any:
        return getattr(self._kernels.manager, name)

    async def start_kernel(self, **kwargs: Any) -> str:
        arguments = [*kwargs.pop("extra_arguments", []), *self._kernels.kernel_arguments]
        kernel_id = await ensure_async(
            self._kernels.manager.start_kernel(extra_arguments=arguments, **kwargs)
        )
        self._handler.room_kernel_id = kernel_id
        await self._kernels.started(kernel_id, self._admission)
        return kernel_id


class GatedRoomPage:
    """Put before Voila's page handler: GET without a ticket is the gate page (no kernel),
    POST {room, key} answers a ticket, GET with a good ticket is Voila's page."""

    admission: Admission | None = None
    room_kernel_id: str | None = None

    @property
    def room_kernels(self) -> RoomKernels:
        return self.settings[SETTINGS_KEY]  # type: ignore[attr-defined]

    @property
    def kernel_manager(self) -> Any:
        manager = self.settings["kernel_manager"]  # type: ignore[attr-defined]
        if self.admission is None:
            return manager
        return _RecordingManager(self.room_kernels, self.admission, self)

    @authenticated
    async def get(self, path: str | None = None) -> None:
        handler: Any = self
        if path:  # Voila sends other paths to its files route: no kernel either way
            await super().get(path)  # type: ignore[misc]
            return
        ticket = handler.get_query_argument("ticket", "")
        self.admission = self.room_kernels.redeem(ticket)
        if self.admission is None:
            handler.set_header("Content-Type", "text/html; charset=utf-8")
            handler.set_header("Cache-Control", "no-cache, no-store, must-revalidate")
            handler.finish(gate_page(handler.xsrf_token.decode("ascii")))
            return
        await super().get(path)  # type: ignore[misc]

    @authenticated
    async def post(self, path: str | None = None) -> None:
        handler: Any = self
        try:
            asked = json.loads(handler.request.body or b"{}")
            room, key = asked.get("room"), asked.get("key")
            if not isinstance(room, str) or not isinstance(key, str) or not room or not key:
                raise ValueError
        except (ValueError, AttributeError):
            handler.set_status(400)
            handler.finish({"error": NO_KEY})
            return
        loop = asyncio.get_running_loop()
        try:
            admission = await loop.run_in_executor(
                None, holder_of, room, key, os.environ.get(STORE_ENV)
            )
        except HousingLabError as error:  # an answer, not a server fault: no log line for
            handler.finish({"error": str(error)})  # every mistyped or stale link
            return
        handler.finish({"ticket": self.room_kernels.issue(admission)})

    def on_finish(self) -> None:
        if self.room_kernel_id is not None:
            self.room_kernels.sent(self.room_kernel_id)
        super().on_finish()  # type: ignore[misc]


def gate_page(xsrf: str) -> str:
    """The room page before any kernel: it sends the link's key to the server, then opens the
    page with the ticket it gets back (or says, in one line, why not)."""
    words = {
        "opening": OPENING,
        "noKey": NO_KEY,
        "keyInQuery": KEY_IN_QUERY,
        "failed": SERVER_FAILED,
        "xsrf": xsrf,
    }
    data = html.escape(json.dumps(words), quote=True)
    return _GATE.replace("{words}", data).replace("{opening}", html.escape(OPENING))


_GATE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Classroom room</title>
<style>body{font:18px/1.5 system-ui,sans-serif;margin:24px;color:#1a1a1a}
.hl-classroom-denied{color:#a40000;font-weight:600}</style></head>
<body><p id="hl-room-gate" role="status" data-words="{words}">{opening}</p>
<script>
(function () {
  const note = document.getElementById("hl-room-gate");
  const words = JSON.parse(note.dataset.words);
  const say = (text) => { note.textContent = text; note.className = "hl-classroom-denied"; };
  const query = new URLSearchParams(window.location.search);
  query.delete("ticket");
  const room = query.get("room") || "";
  // the key: the link's fragment, or after a reload this tab's sessionStorage (where the
  // room page keeps it). An older link's key in the query opens nothing, and no kernel: the
  // servers on its way logged it (`?token=` alone is a Jupyter server's own login).
  let key = new URLSearchParams(window.location.hash.replace(/^#/, "")).get("key") || "";
  if (!key && query.get("key")) { say(words.keyInQuery); return; }
  if (!key) {
    try { key = window.sessionStorage.getItem("housing-lab-room-key:" + room) || ""; }
    catch (error) { key = ""; }
  }
  if (!key) { say(words.noKey); return; }
  fetch(window.location.pathname + "?" + query.toString(), {
    method: "POST",
    credentials: "same-origin",
    headers: {"Content-Type": "application/json", "X-XSRFToken": words.xsrf},
    body: JSON.stringify({room: room, key: key}),
  }).then((answer) => answer.json().catch(() => ({})).then((body) => {
    if (!answer.ok || !body.ticket) { say(body.error || words.failed); return; }
    query.set("ticket", body.ticket);
    window.location.replace(window.location.pathname + "?" + query.toString() +
      window.location.hash);
  })).catch(() => say(words.failed));
})();
</script></body></html>
"""

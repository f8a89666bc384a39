"""`KeyReader`: the browser hands the page's kernel the key from the link's `#fragment`.

Links look like ``.../housing-lab/room?room=K7M2QX#key=SECRET``. Browsers never send the
fragment to a server, so the key is in no server's, proxy's or hub's log; the room code in the
query is no secret (it opens nothing without a key). The kernel starts without the key, and
this widget's front end sends it over the page's own widget connection.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from housing_lab.widgets.common import widget_file

KeyHandler = Callable[[str], None]
BEAT_SECONDS = 5.0  # the kernel tells the page it is alive this often
LOST_AFTER = 20.0  # no beat for this long: "Connection lost" (well within 30 s)
LOST_TEXT = (
    "Connection lost: this page cannot reach its server. Reopen your link (or scan your QR "
    "code again); nothing played is lost."
)


class KeyReader(anywidget.AnyWidget):
    """Calls `on_key(key)` once with the fragment's key ("" when the link has none)."""

    _esm = widget_file(Path(__file__).with_name("key.js"))
    room = traitlets.Unicode("").tag(sync=True)
    lost_after = traitlets.Float(LOST_AFTER).tag(sync=True)  # seconds without a beat
    lost_text = traitlets.Unicode(LOST_TEXT).tag(sync=True)

    def __init__(self, room: str, on_key: KeyHandler) -> None:
        super().__init__(room=room)
        self._on_key = on_key
        self.received = False
        self.on_msg(self._message)

    def beat(self) -> None:
        """Tell the page its kernel is alive (the page shows "Connection lost" without)."""
        self.send({"beat": True})

    async def beat_forever(self, seconds: float = BEAT_SECONDS) -> None:
        while True:
            self.beat()
            await asyncio.sleep(seconds)

    def _message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if self.received or not isinstance(content, dict):
            return  # a second view of the same page (or a stray message) changes nothing
        key = content.get("key")
        self.received = True
        self._on_key(key if isinstance(key, str) else "")

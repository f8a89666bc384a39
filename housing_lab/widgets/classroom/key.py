"""`KeyReader`: the browser hands the page's kernel the key from the link's `#fragment`.

Links look like ``.../housing-lab/room?room=K7M2QX#key=SECRET``. Browsers never send the
fragment to a server, so the key is in no server's, proxy's or hub's log; the room code in the
query is no secret (it opens nothing without a key). The kernel starts without the key, and
this widget's front end sends it over the page's own widget connection.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import anywidget
import traitlets

KeyHandler = Callable[[str], None]


class KeyReader(anywidget.AnyWidget):
    """Calls `on_key(key)` once with the fragment's key ("" when the link has none)."""

    _esm = Path(__file__).with_name("key.js")
    room = traitlets.Unicode("").tag(sync=True)

    def __init__(self, room: str, on_key: KeyHandler) -> None:
        super().__init__(room=room)
        self._on_key = on_key
        self.received = False
        self.on_msg(self._message)

    def _message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if self.received or not isinstance(content, dict):
            return  # a second view of the same page (or a stray message) changes nothing
        key = content.get("key")
        self.received = True
        self._on_key(key if isinstance(key, str) else "")

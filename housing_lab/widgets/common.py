"""Pieces every housing_lab anywidget shares: a message line and file downloads.

Both games' boards show the engine's messages (refusals in red, news in blue) and let a student
save a JSON file from the browser; the traits and the JS contract are the same for both.
"""

from __future__ import annotations

import traitlets

MESSAGE_KINDS = ("info", "error")


class MessagesAndDownloads(traitlets.HasTraits):
    """Mix into an AnyWidget. JS side: show `message` with class `hl-<message_kind>`;
    on `change:download`, save `download.content` as a file named `download.name`."""

    message = traitlets.Unicode("").tag(sync=True)
    message_kind = traitlets.Unicode("info").tag(sync=True)
    download = traitlets.Dict().tag(sync=True)

    def say(self, text: str, kind: str = "info") -> None:
        if kind not in MESSAGE_KINDS:
            raise ValueError(f"message kind must be one of {MESSAGE_KINDS}, got {kind!r}")
        batch = getattr(self, "hold_sync", self.hold_trait_notifications)  # one comm message
        with batch():
            self.message = text
            self.message_kind = kind

    def offer_download(self, name: str, content: str) -> None:
        """Ask the browser to save `content` as `name` (a counter makes repeats distinct)."""
        count = int(self.download.get("n", 0)) + 1
        self.download = {"name": name, "content": content, "n": count}

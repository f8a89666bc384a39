"""`ClassLink`: a lesson's question joins the class poll its page was opened for.

A lesson opened as an app with ``#class=CODE`` in its address (the class poll's join page links
to it so) is in class mode: each `PredictThenRun` and `ChoiceQuestion` of the poll's lesson
sends the device's choice to the class's store (`rooms.class_poll.ClassStore`, the store URL of
`$HOUSING_LAB_ROOMS` or the default file: where `housing-lab class` and the hub's pages keep
it), and unlocks the answer when the teacher reveals it. The browser side (class_link.js) reads
the code and the device's anonymous key from the page's ``#fragment`` or localStorage, which no
server sees, and asks the kernel every few seconds to look for the reveal. Without
``#class=...`` nothing is sent and the question works alone, as before.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from housing_lab.errors import HousingLabError
from housing_lab.rooms.class_poll import ClassStore
from housing_lab.widgets.common import widget_file

TICK_SECONDS = 2.0  # how often a page in class mode looks for the teacher's reveal
# The question's entry of the device's view (`ClassStore.device_view`), or None when the page
# is not in class mode or the class does not ask this question; and a line for a refusal.
StateHandler = Callable[[dict[str, Any] | None, str], None]


@functools.cache
def class_store(url: str | None = None) -> ClassStore:
    """This kernel's class store (one per kernel: every question of the lesson shares it)."""
    return ClassStore(url)


class ClassLink(anywidget.AnyWidget):
    """Calls `on_state(entry, problem)` when the page says whether it is in class mode, and
    again after each tick and each answer sent; `on_state(None, "")` once the class is closed
    (or does not ask this question): the question works alone."""

    _esm = widget_file(Path(__file__).with_name("class_link.js"))
    tick_seconds = traitlets.Float(TICK_SECONDS).tag(sync=True)

    def __init__(self, question_id: str, on_state: StateHandler) -> None:
        super().__init__()
        self.question_id = question_id
        self.code = ""
        self.device = ""
        self._on_state = on_state
        self._joined = False
        self.on_msg(self._message)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    @property
    def active(self) -> bool:
        """Whether the page was opened for a class poll."""
        return bool(self.code)

    def _message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict):
            return
        if "class" in content and not self.code:
            code, device = content.get("class"), content.get("device")
            if isinstance(code, str) and code and isinstance(device, str):
                self.connect(code, device)
        elif content.get("tick") and self.code:
            self.refresh()

    def connect(self, code: str, device: str) -> None:
        """Enter class mode for `code` as the device `device` (what the page's fragment says)."""
        self.code, self.device = code, device
        self.refresh()

    def refresh(self) -> None:
        """Ask the store what this device may see of this question now."""
        try:
            polls = class_store()
            view = (
                polls.device_view(self.code, self.device)
                if self._joined
                else polls.join(self.code, self.device)
            )
        except HousingLabError as error:
            self._on_state(None, str(error))
            return
        self._joined = True
        if view["closed"]:
            self.code = ""  # the teacher closed the class: the question works alone again
            self._on_state(None, "")
            return
        entry = next((q for q in view["questions"] if q["id"] == self.question_id), None)
        self._on_state(entry, "")

    def answer(self, choice_id: str) -> None:
        """Send this device's choice for the question (refused after the reveal, or once the
        class is closed: the refusal's line, then the class's state)."""
        try:
            class_store().answer(self.code, self.device, self.question_id, choice_id)
        except HousingLabError as error:
            self._on_state(None, str(error))
        self.refresh()


def waiting_words(sent: str | None, round_number: int, send: str) -> str:
    """What a question in a class poll says before the reveal: the answer this device sent
    (it may change until the reveal), a second vote, or what to do (`send`: "send your answer")."""
    if sent is not None:
        return (
            f"Sent to your teacher: <b>{html.escape(sent)}</b>. You may change it until "
            "your teacher reveals the answer."
        )
    if round_number > 1:
        return "<i>Vote again: talk it over, then send your answer.</i>"
    return f"<i>Class poll: choose, then {send}.</i>"

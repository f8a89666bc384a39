"""`after_prediction(ID, table)`: what answers a prediction stays hidden until it is made.

A lesson shows a prediction, then the experiment's result: a table, a chart, a note. In a
notebook or an app every cell runs (Shift+Enter past the prediction, or Voila running the page
on load), so the result would sit under the question before the student chose. `AfterPrediction`
shows "Make your prediction above first" and puts the outputs on the page only once the
`PredictThenRun` with that id has been committed in this kernel (locked in, or revealed by the
class poll), or the `ChoiceQuestion` with that id has been checked. Nothing of the outputs is in the
widget's state before then, and the saved notebook
holds only the widget's repr: the question id and a short digest of what it hides, so that nbval
still checks that the hidden output does not change.
"""

from __future__ import annotations

import hashlib
import weakref
from collections.abc import Iterable
from typing import Any

import ipywidgets
from IPython.display import Markdown

from housing_lab.errors import HousingLabError
from housing_lab.questions import question as lesson_question
from housing_lab.questions.notes import note as lesson_note
from housing_lab.widgets.lessons.commitments import when_committed
from housing_lab.widgets.table.checks import check_text

WAITING = (
    "<div style='padding:6px 10px;border-left:4px solid #bcccdc;color:#486581'>"
    "<b>Make your prediction above first.</b> What is here answers it: it opens "
    "when you lock your prediction in or check your answer (in a class poll, when your teacher "
    "reveals the answer)."
    "</div>"
)


def _digest(outputs: Iterable[Any]) -> str:
    """A short digest of the outputs' text (widgets by their type: their ids change per run)."""
    parts = []
    for shown in outputs:
        if isinstance(shown, ipywidgets.Widget):
            parts.append(type(shown).__name__)
        elif isinstance(shown, Markdown):
            parts.append(str(shown.data))
        else:
            parts.append(repr(shown))
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()[:12]


class AfterPrediction(ipywidgets.VBox):
    """Outputs (widgets, tables, anything Jupyter displays; a str is Markdown) shown only once
    the prediction `question_id` is committed in this kernel (a tuple of ids: all of them)."""

    def __init__(self, question_id: str | tuple[str, ...], *outputs: Any) -> None:
        self.question_ids = _predictions(question_id)
        self.outputs = tuple(Markdown(o) if isinstance(o, str) else o for o in outputs)
        self.opened = False
        self._waiting = set(self.question_ids)
        # no margin of its own: a wide table inside keeps the width it has outside a gate
        super().__init__([ipywidgets.HTML(WAITING)], layout=ipywidgets.Layout(margin="0"))
        self.add_class("hl-after")
        gate = weakref.ref(self)  # the kernel's registry must not keep a re-run cell's gate

        for asked in self.question_ids:

            def committed(asked: str = asked) -> None:
                alive = gate()
                if alive is not None:
                    alive._committed(asked)

            when_committed(asked, committed)

    def __repr__(self) -> str:
        ids = ", ".join(repr(asked) for asked in self.question_ids)
        return f"{type(self).__name__}({ids}, {_digest(self.outputs)})"

    def _committed(self, question_id: str) -> None:
        self._waiting.discard(question_id)
        if not self._waiting:
            self.unlock()

    def unlock(self) -> None:
        """Show the outputs (once)."""
        if self.opened:
            return
        self.opened = True
        shown: list[ipywidgets.Widget] = []
        for output in self.outputs:
            if isinstance(output, ipywidgets.Widget):
                shown.append(output)
            elif hasattr(output, "_repr_html_") and not isinstance(output, Markdown):
                table = ipywidgets.HTML(output._repr_html_(), layout=ipywidgets.Layout(margin="0"))
                shown.append(table)
            else:
                area = ipywidgets.Output()
                area.append_display_data(output)
                shown.append(area)
        self.children = tuple(shown)


def _predictions(question_id: object) -> tuple[str, ...]:
    """The prediction ids a gate waits for (one id or a tuple of them), each checked."""
    ids = question_id if isinstance(question_id, tuple) and question_id else (question_id,)
    for one in ids:
        check_text(one, "question")
        asked = lesson_question(one)
        if asked.kind not in ("predict", "choice"):
            raise HousingLabError(
                f"question {one!r} is an {asked.kind} question: only a prediction or a choice "
                "question can open a gate"
            )
    return ids


def after_prediction(
    question_id: str | tuple[str, ...], *outputs: Any, note: int | None = None
) -> AfterPrediction:
    """`outputs` hidden until the prediction `question_id` (or every one of a tuple of ids) is
    committed; `note=N` adds the N-th gated note for those ids (Markdown that the lesson build
    keeps out of the notebook: housing_lab/questions/notes.py) after them."""
    ids = _predictions(question_id)
    extra = () if note is None else (lesson_note("+".join(ids), note),)
    return AfterPrediction(ids, *outputs, *extra)

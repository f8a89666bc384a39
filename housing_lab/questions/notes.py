"""The lessons' gated notes: Markdown that answers a prediction, kept out of the notebook.

A lesson source marks such a Markdown cell `("after:QUESTION_ID", text)`; the build fills its
claims and writes it here (`gated/lesson_N.json`: question id -> its notes, in order), and
the notebook gets a code cell `after_prediction("QUESTION_ID", note=N)` that shows the note
only once the prediction is committed. So neither the saved notebook nor a cell's source
holds the answer.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from housing_lab.errors import HousingLabError, shown


@cache
def lesson_notes(lesson: int) -> dict[str, tuple[str, ...]]:
    """A lesson's gated notes by question id ({} for a lesson with none)."""
    entry = resources.files("housing_lab.questions").joinpath("gated", f"lesson_{lesson}.json")
    if not entry.is_file():
        return {}
    return {qid: tuple(texts) for qid, texts in json.loads(entry.read_text("utf-8")).items()}


def note(question_id: str, number: int) -> str:
    """The `number`-th (from 1) gated note of a question, as Markdown; one line if none.
    A note shown after several predictions is keyed by their ids joined with "+"."""
    lesson = question_id[1 : question_id.index("-")] if "-" in question_id else ""
    notes = lesson_notes(int(lesson)).get(question_id, ()) if lesson.isdigit() else ()
    if not isinstance(number, int) or not 1 <= number <= len(notes):
        raise HousingLabError(
            f"question {question_id!r} has no note {shown(number)} ({len(notes)} notes)"
        )
    return notes[number - 1]

"""Which questions a student has committed to in this kernel, and what waits for each.

A prediction is committed when it is locked in or revealed by the class poll (predict.py), a
choice question when an answer is checked or revealed (quiz.py); an `AfterPrediction`
(after.py) waits here to show what answers the question. One small registry that both question
widgets and the gate import, so none of them imports another.
"""

from __future__ import annotations

from collections.abc import Callable

# question ids committed in this kernel, and what waits for each (see `when_committed`)
_COMMITTED: set[str] = set()
_WAITING: dict[str, list[Callable[[], None]]] = {}


def is_committed(question_id: str) -> bool:
    """Whether a prediction for this question was locked in (or revealed) in this kernel."""
    return question_id in _COMMITTED


def when_committed(question_id: str, then: Callable[[], None]) -> None:
    """Call `then` once this question's prediction is committed: now, if it already is."""
    if question_id in _COMMITTED:
        then()
    else:
        _WAITING.setdefault(question_id, []).append(then)


def commit(question_id: str) -> None:
    """Mark the question committed and run what waited for it (once each)."""
    _COMMITTED.add(question_id)
    for then in _WAITING.pop(question_id, []):
        then()


def forget_commitments() -> None:
    """Forget every commitment (a fresh kernel's state; for tests)."""
    _COMMITTED.clear()
    _WAITING.clear()

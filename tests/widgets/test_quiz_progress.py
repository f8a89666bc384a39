"""Quiz questions and the progress bar, without a browser."""

from __future__ import annotations

import pytest

from housing_lab.widgets.lessons.progress import ProgressBar
from housing_lab.widgets.lessons.quiz import ChoiceQuestion, NumberQuestion, reveal


def test_choice_question_feedback() -> None:
    question = ChoiceQuestion(
        "Who moves in first?",
        ["high", "middle", "low"],
        "high",
        explanation="High income residents move in first.",
    )
    assert not question.submit() and "Not quite" in question.feedback.value
    question.choice.value = "low"
    assert not question.submit()
    question.choice.value = "high"
    assert question.submit() and "High income residents move in first." in question.feedback.value
    assert question.attempts == 3
    with pytest.raises(ValueError, match="'nobody'"):
        ChoiceQuestion("?", ["a"], "nobody", "")


def test_number_question() -> None:
    question = NumberQuestion("How many?", 7, explanation="Seven.", hint="Count the L homes.")
    question.number.value = 6
    assert not question.submit() and "Count the L homes." in question.feedback.value
    question.number.value = 7
    assert question.submit() and "Seven." in question.feedback.value


def test_reveal_starts_folded() -> None:
    accordion = reveal("Why?", "Because.")
    assert accordion.selected_index is None and "Why?" in accordion.get_title(0)


def test_progress_bar() -> None:
    bar = ProgressBar("Boards")
    bar(25, 100)
    assert (bar.bar.value, bar.bar.max, bar.label.value) == (25, 100, "25 / 100")
    bar(100, 100)
    assert bar.bar.bar_style == "success"

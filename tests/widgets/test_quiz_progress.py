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


@pytest.mark.parametrize(
    ("args", "prompt", "answer"),
    [
        (("Why?", "Because."), "Why?", "Because."),
        (("l4-all-22",), "coalition of all 22", "Some pairs can never both score +1"),
    ],
)
def test_reveal_starts_folded_and_writes_the_answer_only_when_opened(args, prompt, answer) -> None:
    accordion = reveal(*args)
    assert accordion.selected_index is None and prompt in accordion.get_title(0)
    assert answer not in repr(accordion.children[0].get_state())  # nothing saved with the page
    accordion.selected_index = 0
    assert answer in accordion.children[0].value


def test_progress_bar() -> None:
    bar = ProgressBar("Boards")
    bar(25, 100)
    assert (bar.bar.value, bar.bar.max, bar.label.value) == (25, 100, "25 / 100")
    bar(100, 100)
    assert bar.bar.bar_style == "success"

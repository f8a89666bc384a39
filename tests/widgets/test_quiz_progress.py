"""Quiz questions and the progress bar, without a browser."""

from __future__ import annotations

from housing_lab.widgets.lessons.progress import ProgressBar
from housing_lab.widgets.lessons.quiz import ChoiceQuestion, NumberQuestion, reveal


def test_choice_question_feedback() -> None:
    question = ChoiceQuestion("l2-workforce-midrise")
    assert question.choice.options == (
        "Only middle income residents",
        "Middle or low income residents",
        "Anyone",
    )
    assert not question.submit() and "Not quite" in question.feedback.value
    question.choice.value = "Anyone"
    assert not question.submit() and "income-restricted" in question.feedback.value
    question.choice.value = "Middle or low income residents"
    assert question.submit() and question.question.explanation in question.feedback.value
    assert question.attempts == 3


def test_number_question() -> None:
    question = NumberQuestion("How many?", 7, explanation="Seven.", hint="Count the L homes.")
    question.number.value = 6
    assert not question.submit() and "Count the L homes." in question.feedback.value
    question.number.value = 7
    assert question.submit() and "Seven." in question.feedback.value


def test_reveal_starts_folded_and_writes_the_answer_only_when_opened() -> None:
    accordion = reveal("l4-all-22")
    answer = "Some pairs can never both score +1"
    assert accordion.selected_index is None and "coalition of all 22" in accordion.get_title(0)
    assert answer not in repr(accordion.children[0].get_state())  # nothing saved with the page
    accordion.selected_index = 0
    assert answer in accordion.children[0].value


def test_progress_bar() -> None:
    bar = ProgressBar("Boards")
    bar(25, 100)
    assert (bar.bar.value, bar.bar.max, bar.label.value) == (25, 100, "25 / 100")
    bar(100, 100)
    assert bar.bar.bar_style == "success"

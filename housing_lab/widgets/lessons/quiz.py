"""Questions students can check on the spot: multiple choice, a number, or an answer to reveal.

Lessons are self-guided, so each question gives feedback at once and explains the answer.
A lesson names a question of its data file by id (`ChoiceQuestion("l2-workforce-midrise")`,
`reveal("l1-why-low-income")`); the answer and its explanation stay on the Python side until the
student checks or opens it, so neither the cell's code nor the saved widget state holds them.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets

from housing_lab.errors import HousingLabError
from housing_lab.numbers import check_number
from housing_lab.questions import Question
from housing_lab.questions import question as lesson_question
from housing_lab.widgets.lessons.class_link import ClassLink, waiting_words
from housing_lab.widgets.lessons.commitments import commit
from housing_lab.widgets.table.checks import check_text

RIGHT = "<span style='color:#1b7837;font-weight:700'>&#10004; Right.</span> "
WRONG = "<span style='color:#b2182b;font-weight:700'>&#10008; Not quite.</span> "


class _Question(ipywidgets.VBox):
    def __init__(
        self, question: str, answer_widget: ipywidgets.Widget, explanation: str, hint: str = ""
    ) -> None:
        check_text(question, "question")
        self.explanation = check_text(explanation, "explanation")
        self.hint = check_text(hint, "hint")
        self.attempts = 0
        self.feedback = ipywidgets.HTML()
        self.feedback.add_class("hl-quiz-feedback")
        self.check = ipywidgets.Button(
            description="Check my answer",
            button_style="primary",
            layout=ipywidgets.Layout(width="max-content", padding="0 14px"),  # never cut
        )
        self.check.add_class("hl-quiz-check")
        self.check.on_click(lambda _: self.submit())
        super().__init__(
            [
                ipywidgets.HTML(f"<div style='font-size:16px;font-weight:600'>{question}</div>"),
                answer_widget,
                self.check,
                self.feedback,
            ],
            layout=ipywidgets.Layout(border="1px solid #bcccdc", padding="8px", margin="6px 0"),
        )
        self.add_class("hl-quiz")

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def is_correct(self) -> bool:
        raise NotImplementedError

    def submit(self) -> bool:
        """Check the current answer and show feedback; returns whether it is right."""
        self.attempts += 1
        correct = self.is_correct()
        if correct:
            self.feedback.value = RIGHT + self.explanation
        else:
            hint = self.hint or "Look again at the board or the table above."
            why = self.why_wrong()
            self.feedback.value = WRONG + (f"{why} {hint}" if why else hint)
        return correct

    def why_wrong(self) -> str:
        """Why the current (wrong) answer fails, when the question says so; else ""."""
        return ""


class ChoiceQuestion(_Question):
    """Pick one option of a lesson's question (`ChoiceQuestion("l2-workforce-midrise")`);
    feedback explains the answer, and a wrong option's `why_not` says why it fails
    (self-guided learners need more than "not quite")."""

    def __init__(self, question: str) -> None:
        check_text(question, "question")
        self.question = _asked(question, "choice")
        options = [choice.text for choice in self.question.choices]
        self.why_not = {c.text: c.why_not for c in self.question.choices if c.why_not}
        self.answer = self.question.answer_text
        self.choice = ipywidgets.RadioButtons(
            options=options, value=None, layout=ipywidgets.Layout(width="max-content")
        )
        super().__init__(self.question.prompt, self.choice, self.question.explanation)
        # class mode (a class poll's page): None until the page says which class, if any
        self.class_entry: dict[str, Any] | None = None
        self.class_link = None
        if self.question is not None:
            self.class_link = ClassLink(self.question.id, self._class_state)
            self.children = (*self.children, self.class_link)

    @property
    def in_class(self) -> bool:
        """Whether the choice goes to a class poll now (class mode, before the reveal): the
        answer stays hidden until the teacher reveals it."""
        return self.class_entry is not None and not self.class_entry["revealed"]

    def submit(self) -> bool:
        """Check the answer; in class mode (before the reveal) send it to the class instead
        (returns False: nothing is checked yet). A checked answer commits the question, so
        what a lesson gates behind it (`after_prediction`) opens."""
        if not self.in_class:
            correct = super().submit()
            if self.choice.value is not None:
                commit(self.question.id)
            return correct
        if self.choice.value is None or self.question is None or self.class_link is None:
            self.feedback.value = "<i>Choose an answer before sending it.</i>"
            return False
        self.class_link.answer(self.question.choice_for_text(str(self.choice.value)).id)
        return False

    def _class_state(self, entry: dict[str, Any] | None, problem: str) -> None:
        """The class poll's word on this question: wait, vote again, or show the answer."""
        if problem:
            self.feedback.value = f"<i>{html.escape(problem)}</i>"
            return
        if entry is None and self.in_class:  # the teacher closed the class before the reveal
            self.class_entry = None
            self.check.description = "Check my answer"
            self.feedback.value = "<i>The class poll has ended: check your answer.</i>"
            return
        if entry is None or (self.class_entry is not None and self.class_entry["revealed"]):
            return  # not asked in this class, or already revealed: the question works alone
        self.class_entry = entry
        mine = entry.get("mine")
        sent = self.question.choice(mine).text if mine and self.question else None
        if entry["revealed"]:
            self.check.description = "Check my answer"
            if self.question is not None:
                commit(self.question.id)  # the class has seen the answer: open what waits
            if sent is not None:
                self.choice.value = sent
                super().submit()
            else:
                self.feedback.value = "<b>Your teacher revealed the answer:</b> check yours."
            return
        self.check.description = "Send my answer"
        if sent is not None and self.choice.value is None:
            self.choice.value = sent  # a reopened page shows what this device sent
        self.feedback.value = waiting_words(sent, entry["round"], "send your answer")

    def is_correct(self) -> bool:
        return self.choice.value == self.answer

    def why_wrong(self) -> str:
        return self.why_not.get(self.choice.value, "")


class NumberQuestion(_Question):
    """Type a whole number; feedback explains the answer."""

    def __init__(self, question: str, answer: int, explanation: str, hint: str = "") -> None:
        self.answer = int(check_number(answer, "answer", whole=True))
        self.number = ipywidgets.IntText(
            value=0, description="Answer:", layout=ipywidgets.Layout(width="200px")
        )
        super().__init__(question, self.number, explanation, hint)

    def is_correct(self) -> bool:
        return self.number.value == self.answer


def _asked(question_id: str, kind: str) -> Question:
    asked = lesson_question(question_id)
    if asked.kind != kind:
        raise HousingLabError(f"question {question_id!r} is a {asked.kind} question, not {kind}")
    return asked


def reveal(question: str) -> ipywidgets.Accordion:
    """A question of a lesson's data file whose model answer stays folded until the student
    opens it (`reveal("l1-why-low-income")`). The answer is written into the page only when the
    student opens it, so a saved notebook does not carry it."""
    check_text(question, "question")
    asked = _asked(question, "open")
    question, answer = asked.prompt, asked.model_answer
    shown_answer = ipywidgets.HTML()
    accordion = ipywidgets.Accordion(children=[shown_answer], selected_index=None)
    accordion.set_title(0, f"Show answer: {question}")
    accordion.add_class("hl-reveal")

    def opened(change: dict) -> None:
        if change["new"] is not None:
            shown_answer.value = f"<div>{answer}</div>"

    accordion.observe(opened, names="selected_index")
    return accordion

""" "Predict, then run": the student commits to a prediction before the model answers.

A lookup question can be answered by reading a table; a prediction cannot be changed once the
model has run, so the student has to reason about the mechanism first. The answer comes from
the engine (the question's experiment runs when the student presses **Run the model**, not
before), and the feedback says why the answer is what it is and, for a wrong prediction, why
that option fails.

A lesson names the question by its id, `PredictThenRun("l3-vacancy-control")`: the prompt,
choices, explanation and why-nots come from the lesson's data file (housing_lab/questions), and
stay on the Python side until the reveal, so neither the cell's code nor the saved widget state
shows them.

A kernel remembers which predictions have been committed (locked in, or revealed by the class
poll; commitments.py): an `AfterPrediction` (after.py) keeps the output that answers a question
hidden until then.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets

from housing_lab.errors import HousingLabError
from housing_lab.questions import Outcome, Question, run_experiment
from housing_lab.questions.experiments import check_inputs
from housing_lab.widgets.lessons.class_link import ClassLink, waiting_words
from housing_lab.widgets.lessons.commitments import commit
from housing_lab.widgets.lessons.quiz import RIGHT, WRONG
from housing_lab.widgets.table.checks import check_text

GENERIC_WHY_NOT = "Compare your reasoning with the explanation below."


def _from_data(question_id: str, inputs: dict[str, Any]) -> tuple[Question, Callable[[], Outcome]]:
    """The data file's question, and a run that answers with the choice's words."""
    asked = check_inputs(question_id, inputs)

    def run() -> Outcome:
        outcome = run_experiment(question_id, **inputs)
        return Outcome(asked.choice(outcome.answer).text, outcome.result)

    return asked, run


class PredictThenRun(ipywidgets.VBox):
    """Pick an option, lock it in, run the model, read why.

    `PredictThenRun("l1-swap-tower")` asks a question of a lesson's data file; keywords after
    the id are handed to its experiment (lesson 5 passes its boards: `boards=everything`)."""

    def __init__(self, question: str, **inputs: Any) -> None:
        check_text(question, "question")
        self.question, self.run_model = _from_data(question, inputs)
        # kept here, never in a widget's synced state: the browser gets them at the reveal
        self.options = [choice.text for choice in self.question.choices]
        self.why_not = {c.text: c.why_not for c in self.question.choices if c.why_not}
        self.explanation = self.question.explanation
        self.prediction: str | None = None
        self.outcome: Outcome | None = None
        self.choice = ipywidgets.RadioButtons(
            options=self.options, value=None, layout=ipywidgets.Layout(width="max-content")
        )
        wide = ipywidgets.Layout(width="max-content", padding="0 14px")  # never cut the label
        self.lock = ipywidgets.Button(
            description="Lock in my prediction", button_style="primary", disabled=True, layout=wide
        )
        self.run_button = ipywidgets.Button(
            description="Run the model",
            button_style="success",
            disabled=True,
            layout=ipywidgets.Layout(width="max-content", padding="0 14px"),
        )
        self.status = ipywidgets.HTML("<i>Choose what you expect, then lock it in.</i>")
        self.feedback = ipywidgets.HTML()
        for widget, name in (
            (self.lock, "hl-predict-lock"),
            (self.run_button, "hl-predict-run"),
            (self.feedback, "hl-quiz-feedback"),
        ):
            widget.add_class(name)
        self.choice.observe(self._chosen, names="value")
        self.lock.on_click(lambda _: self._lock_clicked())
        self.run_button.on_click(lambda _: self.reveal())
        # class mode (a class poll's page): None until the page says which class, if any
        self.class_entry: dict[str, Any] | None = None
        self.class_link = (
            ClassLink(self.question.id, self._class_state) if self.question is not None else None
        )
        super().__init__(
            [
                ipywidgets.HTML(
                    "<div style='font-size:13px;font-weight:700;color:#486581'>PREDICT, THEN "
                    "RUN</div><div style='font-size:16px;font-weight:600'>"
                    f"{self.question.prompt}</div>"
                ),
                self.choice,
                ipywidgets.HBox([self.lock, self.run_button]),
                self.status,
                self.feedback,
                *([self.class_link] if self.class_link is not None else []),
            ],
            layout=ipywidgets.Layout(border="1px solid #bcccdc", padding="8px", margin="6px 0"),
        )
        self.add_class("hl-quiz")
        self.add_class("hl-predict")

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    @property
    def prediction_id(self) -> str | None:
        """The locked-in choice's id in the lesson's data file (None before locking in)."""
        if self.prediction is None:
            return None
        return self.question.choice_for_text(self.prediction).id

    @property
    def in_class(self) -> bool:
        """Whether the choice goes to a class poll now (class mode, before the reveal)."""
        return self.class_entry is not None and not self.class_entry["revealed"]

    def _chosen(self, change: dict) -> None:
        sent = self._sent_text() if self.in_class else None
        self.lock.disabled = (
            change["new"] is None or self.prediction is not None or change["new"] == sent
        )

    def _lock_clicked(self) -> None:
        if self.in_class:
            self.send_to_class()
        else:
            self.commit()

    def _sent_text(self) -> str | None:
        """The words of the choice this device sent in the current round (None if none)."""
        mine = self.class_entry.get("mine") if self.class_entry else None
        return self.question.choice(mine).text if mine and self.question else None

    def send_to_class(self) -> None:
        """Send the chosen option to the class poll (it may change until the reveal)."""
        if not self.in_class or self.question is None or self.class_link is None:
            raise HousingLabError("this question is not in a class poll")
        if self.choice.value is None:
            raise HousingLabError("choose a prediction before sending it")
        self.class_link.answer(self.question.choice_for_text(str(self.choice.value)).id)

    def _class_state(self, entry: dict[str, Any] | None, problem: str) -> None:
        """The class poll's word on this question: wait, vote again, or unlock the run."""
        if problem:
            self.status.value = f"<i>{html.escape(problem)}</i>"
            return
        if entry is None and self.in_class:  # the teacher closed the class before the reveal
            self.class_entry = None
            self.lock.description = "Lock in my prediction"
            self.status.value = (
                "<i>The class poll has ended: lock in your prediction, then run the model.</i>"
            )
            self._chosen({"new": self.choice.value})
            return
        if entry is None or (self.class_entry is not None and self.class_entry["revealed"]):
            return  # not asked in this class, or already unlocked: the question works alone
        self.class_entry = entry
        sent = self._sent_text()
        if entry["revealed"]:
            self.lock.description = "Lock in my prediction"
            if sent is not None and self.prediction is None:
                self.choice.value = sent
                self.commit()
            commit(self.question.id)  # the class has seen the answer: open what waits
            self.status.value = "<b>Your teacher revealed the answer.</b> " + (
                f"Your prediction: <b>{html.escape(sent)}</b>. Run the model to see why."
                if sent is not None
                else "Lock in a prediction, then run the model."
            )
            self._chosen({"new": self.choice.value})
            return
        self.lock.description = "Send my answer"
        self.run_button.disabled = True
        if sent is not None and self.choice.value is None:
            self.choice.value = sent  # a reopened page shows what this device sent
        self.status.value = waiting_words(sent, entry["round"], "send your answer to the class")
        self._chosen({"new": self.choice.value})

    def commit(self) -> str:
        """Lock the chosen option in: it can no longer change, and the model may run."""
        if self.prediction is not None:
            return self.prediction
        if self.choice.value is None:
            raise HousingLabError("choose a prediction before locking it in")
        self.prediction = str(self.choice.value)
        self.choice.disabled = True
        self.lock.disabled = True
        self.run_button.disabled = False
        self.status.value = (
            f"Your prediction: <b>{html.escape(self.prediction)}</b>. Now run the model."
        )
        commit(self.question.id)
        return self.prediction

    def reveal(self) -> bool:
        """Run the model (once) and explain; returns whether the prediction was right."""
        if self.prediction is None:
            raise HousingLabError("lock in a prediction before running the model")
        if self.outcome is None:
            self.outcome = self.run_model()  # the data file's answer, or one line saying not
        self.run_button.disabled = True
        right = self.prediction == self.outcome.answer
        parts = [RIGHT if right else WRONG, f"The model: {self.outcome.result}"]
        if not right:
            why = self.why_not.get(self.prediction, GENERIC_WHY_NOT)
            parts.append(f"<br><b>Why not “{html.escape(self.prediction)}”?</b> {why}")
        parts.append(f"<br><b>Why:</b> {self.explanation}")
        self.feedback.value = " ".join(parts)
        return right

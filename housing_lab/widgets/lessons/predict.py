""" "Predict, then run": the student commits to a prediction before the model answers.

A lookup question can be answered by reading a table; a prediction cannot be changed once the
model has run, so the student has to reason about the mechanism first. The answer comes from
the engine (`run` is called when the student presses **Run the model**, not before), and the
feedback says why the answer is what it is and, for a wrong prediction, why that option fails.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import ipywidgets

from housing_lab.errors import HousingLabError, shown
from housing_lab.widgets.lessons.quiz import RIGHT, WRONG
from housing_lab.widgets.table.checks import check_text, check_texts, check_why_not

GENERIC_WHY_NOT = "Compare your reasoning with the explanation below."


@dataclass(frozen=True)
class Outcome:
    """What the model did: the option that turned out right, and the numbers to show."""

    answer: str
    result: str  # one or two sentences with the engine's numbers (HTML allowed)


class PredictThenRun(ipywidgets.VBox):
    """Pick an option, lock it in, run the model, read why.

    `run` returns the `Outcome`; `explanation` says which mechanism produced it; `why_not`
    maps a wrong option to a sentence on why it fails (a generic line otherwise)."""

    def __init__(
        self,
        question: str,
        options: Sequence[str],
        run: Callable[[], Outcome],
        explanation: str,
        why_not: Mapping[str, str] | None = None,
    ) -> None:
        check_text(question, "question")
        check_text(explanation, "explanation")
        if not callable(run):
            raise HousingLabError(
                f"run must be a function returning an Outcome, got {shown(run, 60)}"
            )
        options = check_texts(options, "options")
        if len(options) < 2 or len(set(options)) != len(options):
            raise HousingLabError(
                f"a prediction needs 2 or more different options, not {shown(options)}"
            )
        self.why_not = check_why_not(why_not, options)
        self.options = options
        self.run_model = run
        self.explanation = explanation
        self.prediction: str | None = None
        self.outcome: Outcome | None = None
        self.choice = ipywidgets.RadioButtons(
            options=options, value=None, layout=ipywidgets.Layout(width="max-content")
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
        self.lock.on_click(lambda _: self.commit())
        self.run_button.on_click(lambda _: self.reveal())
        super().__init__(
            [
                ipywidgets.HTML(
                    "<div style='font-size:13px;font-weight:700;color:#486581'>PREDICT, THEN "
                    f"RUN</div><div style='font-size:16px;font-weight:600'>{question}</div>"
                ),
                self.choice,
                ipywidgets.HBox([self.lock, self.run_button]),
                self.status,
                self.feedback,
            ],
            layout=ipywidgets.Layout(border="1px solid #bcccdc", padding="8px", margin="6px 0"),
        )
        self.add_class("hl-quiz")
        self.add_class("hl-predict")

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def _chosen(self, change: dict) -> None:
        self.lock.disabled = change["new"] is None or self.prediction is not None

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
        return self.prediction

    def reveal(self) -> bool:
        """Run the model (once) and explain; returns whether the prediction was right."""
        if self.prediction is None:
            raise HousingLabError("lock in a prediction before running the model")
        if self.outcome is None:
            outcome = self.run_model()
            if outcome.answer not in self.options:
                raise HousingLabError(f"the model's answer {shown(outcome.answer)} is no option")
            self.outcome = outcome
        self.run_button.disabled = True
        right = self.prediction == self.outcome.answer
        parts = [RIGHT if right else WRONG, f"The model: {self.outcome.result}"]
        if not right:
            why = self.why_not.get(self.prediction, GENERIC_WHY_NOT)
            parts.append(f"<br><b>Why not “{html.escape(self.prediction)}”?</b> {why}")
        parts.append(f"<br><b>Why:</b> {self.explanation}")
        self.feedback.value = " ".join(parts)
        return right


DIRECTIONS = ("More", "The same", "Fewer")


def direction(before: float, after: float) -> str:
    """ "More", "The same" or "Fewer": the usual options of a before/after prediction."""
    return DIRECTIONS[0] if after > before else DIRECTIONS[1] if after == before else DIRECTIONS[2]

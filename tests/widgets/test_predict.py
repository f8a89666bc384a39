"""The predict-then-run widget: a prediction is locked before the model runs, once."""

from __future__ import annotations

from collections.abc import Iterator

import ipywidgets
import pytest

from housing_lab.errors import HousingLabError
from housing_lab.questions import Outcome
from housing_lab.widgets.lessons.after import AfterPrediction
from housing_lab.widgets.lessons.commitments import forget_commitments
from housing_lab.widgets.lessons.predict import PredictThenRun
from housing_lab.widgets.lessons.quiz import ChoiceQuestion, reveal


def test_the_model_runs_only_after_a_locked_prediction() -> None:
    question = PredictThenRun("l3-vacancy-control")
    calls: list[int] = []
    run = question.run_model

    def counted() -> Outcome:
        calls.append(1)
        return run()

    question.run_model = counted
    assert question.lock.disabled and question.run_button.disabled
    with pytest.raises(HousingLabError, match="before running"):
        question.reveal()
    with pytest.raises(HousingLabError, match="choose a prediction"):
        question.commit()
    question.choice.value = "More"
    assert not question.lock.disabled
    assert question.commit() == "More"
    assert question.choice.disabled and not question.run_button.disabled
    question.choice.value = "Fewer"  # changing one's mind after locking in changes nothing
    assert question.prediction == "More" and question.prediction_id == "more"
    assert question.reveal()
    assert question.reveal()  # a second press shows the same outcome without running again
    assert calls == [1]
    assert "Right" in question.feedback.value and "Why not" not in question.feedback.value
    assert question.question.explanation in question.feedback.value


def test_a_lesson_question_named_by_id_keeps_its_answer_in_python_until_the_reveal() -> None:
    question = PredictThenRun("l3-vacancy-control")
    secrets = question.question.secrets
    assert len(secrets) == 3  # the explanation and two why-nots
    synced = repr([w.get_state() for w in question.children]) + question.feedback.value
    assert not any(secret[:40] in synced for secret in secrets)
    question.choice.value = "Fewer"
    assert question.commit() == "Fewer" and question.prediction_id == "fewer"
    assert question.feedback.value == ""  # locking in reveals nothing
    assert not question.reveal()
    assert "10 with vacancy control" in question.feedback.value
    assert question.question.explanation in question.feedback.value
    assert question.question.choice("fewer").why_not in question.feedback.value


def test_a_lesson_question_hands_its_inputs_to_the_experiment() -> None:
    from housing_lab.north_berkeley import play_random_game

    game = play_random_game(["Red", "Blue", "Green"], seed=7)
    question = PredictThenRun("l7-affordable-100", game=game)
    question.choice.value = "Fewer"
    question.commit()
    assert question.reveal() and "low income residents housed 11.00 → 9.17" in (
        question.feedback.value
    )


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: PredictThenRun("l9-nothing"), "no lesson question 'l9-nothing'"),
        (lambda: PredictThenRun("l2-workforce-midrise"), "not a predict-then-run question"),
        (lambda: PredictThenRun("l7-affordable-100", board=1), "takes \\['game'\\]"),
        (lambda: PredictThenRun("l3-vacancy-control", seed=1), "takes nothing, not \\['seed'\\]"),
        (lambda: ChoiceQuestion("l1-why-low-income"), "open question, not choice"),
        (lambda: reveal("l2-workforce-midrise"), "choice question, not open"),
        (lambda: reveal("Why?"), "no lesson question 'Why\\?'"),
    ],
)
def test_a_bad_question_id_or_input_is_one_line(call, message) -> None:
    with pytest.raises(HousingLabError, match=message):
        call()


def test_a_lesson_choice_question_reads_its_data_file() -> None:
    question = ChoiceQuestion("l6-three-houses")
    assert question.choice.options == (
        "3 yellow cubes",
        "1 blue cube",
        "Nothing",
        "1 cube of each colour",
    )
    assert question.feedback.value == ""
    question.choice.value = "Nothing"
    assert not question.submit() and "exactly 3 houses" in question.feedback.value
    question.choice.value = "1 blue cube"
    assert question.submit() and "missing fourth colour" in question.feedback.value


# --- what answers a prediction waits for it (AfterPrediction) -------------------------------


@pytest.fixture
def fresh_kernel() -> Iterator[None]:
    """No prediction committed yet, as in a kernel just started."""
    forget_commitments()
    yield
    forget_commitments()


def _shown(gate: AfterPrediction) -> str:
    """Everything the gate sends to the page now: its children's synced state."""
    return repr([child.get_state() for child in gate.children])


def test_gated_outputs_reach_the_page_only_after_the_prediction_is_locked_in(
    fresh_kernel,
) -> None:
    from housing_lab.widgets import after_prediction, lesson_table

    table = lesson_table([{"Board": "public", "Low income housed": 777}], title="Gated")
    chart = ipywidgets.HTML("a chart")
    gate = after_prediction("l3-vacancy-control", table, "Below: **98765** homes.", chart)
    assert not gate.opened and "Make your prediction above first" in _shown(gate)
    assert "777" not in _shown(gate) and "98765" not in _shown(gate)
    assert "777" not in repr(gate) and "l3-vacancy-control" in repr(gate)  # the saved output
    PredictThenRun("l3-market-or-public").choice.value = "About the same"  # another question
    question = PredictThenRun("l3-vacancy-control")
    question.choice.value = "More"
    assert not gate.opened  # chosen, not yet locked in
    question.lock.click()
    assert gate.opened and "Make your prediction" not in _shown(gate)
    assert "777" in _shown(gate) and "98765" in _shown(gate) and chart in gate.children
    later = after_prediction("l3-vacancy-control", "run again after committing")
    assert later.opened  # a cell run again after the commit shows its output at once


def test_a_gate_on_a_choice_question_opens_once_an_answer_is_checked(fresh_kernel) -> None:
    from housing_lab.widgets import after_prediction

    gate = after_prediction("l6-minneapolis-share", "Pew: about **1%**.")
    question = ChoiceQuestion("l6-minneapolis-share")
    question.submit()  # nothing chosen: nothing checked, the gate stays shut
    assert not gate.opened and "1%" not in _shown(gate)
    question.choice.value = "About a third"
    assert not question.submit() and gate.opened and "1%" in _shown(gate)


def test_a_gate_on_two_predictions_waits_for_both_and_a_bad_id_is_one_line(
    fresh_kernel,
) -> None:
    from housing_lab.widgets import after_prediction

    gate = after_prediction(("l3-vacancy-control", "l3-market-or-public"), "both")
    for question_id, choice in (("l3-vacancy-control", "More"), ("l3-market-or-public", None)):
        assert not gate.opened
        question = PredictThenRun(question_id)
        question.choice.value = choice or question.options[0]
        question.commit()
    assert gate.opened
    with pytest.raises(HousingLabError, match="'l3-matching-funds' is an open question: only"):
        after_prediction("l3-matching-funds", "x")
    with pytest.raises(HousingLabError, match="no lesson question"):
        after_prediction("l3-nothing", "x")
    with pytest.raises(HousingLabError, match="'l3-vacancy-control' has no note 7"):
        after_prediction("l3-vacancy-control", note=7)

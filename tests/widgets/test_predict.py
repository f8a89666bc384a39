"""The predict-then-run widget: a prediction is locked before the model runs, once."""

from __future__ import annotations

import pytest

from housing_lab.errors import HousingLabError
from housing_lab.questions import Outcome
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

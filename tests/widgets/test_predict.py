"""The predict-then-run widget: a prediction is locked before the model runs, once."""

from __future__ import annotations

import pytest

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley import make_scenario, score_scenario
from housing_lab.widgets.lessons.predict import Outcome, PredictThenRun
from housing_lab.widgets.lessons.quiz import ChoiceQuestion


def _vacancy_control_outcome() -> Outcome:
    """The engine decides: does vacancy control house more high income residents?"""
    before = score_scenario(make_scenario({}, [], seed=3)).to_dict()["housed"]["high"]
    after = score_scenario(make_scenario({}, ["vacancy_control"], seed=3)).to_dict()
    answer = "Fewer" if after["housed"]["high"] < before else "The same or more"
    return Outcome(answer, f"{before} without it, {after['housed']['high']} with it.")


def _question(calls: list[int] | None = None) -> PredictThenRun:
    def run() -> Outcome:
        if calls is not None:
            calls.append(1)
        return _vacancy_control_outcome()

    return PredictThenRun(
        "On an empty board, does vacancy control change how many high income residents find "
        "a home?",
        ["Fewer", "The same or more"],
        run,
        explanation="Nobody may be displaced, so high income newcomers find no home.",
        why_not={"The same or more": "They had been taking the homes of people displaced."},
    )


def test_the_model_runs_only_after_a_locked_prediction() -> None:
    calls: list[int] = []
    question = _question(calls)
    assert question.lock.disabled and question.run_button.disabled
    with pytest.raises(HousingLabError, match="before running"):
        question.reveal()
    with pytest.raises(HousingLabError, match="choose a prediction"):
        question.commit()
    question.choice.value = "Fewer"
    assert not question.lock.disabled
    assert question.commit() == "Fewer"
    assert question.choice.disabled and not question.run_button.disabled
    assert question.reveal()
    assert question.reveal()  # a second press shows the same outcome without running again
    assert calls == [1]
    assert (
        "Right" in question.feedback.value and "Nobody may be displaced" in question.feedback.value
    )
    assert "12 without it, 4 with it" in question.feedback.value


def test_a_wrong_prediction_says_why_that_option_fails() -> None:
    question = _question()
    question.choice.value = "The same or more"
    question.commit()
    question.choice.value = "Fewer"  # changing one's mind after locking in changes nothing
    assert question.prediction == "The same or more"
    assert not question.reveal()
    text = question.feedback.value
    assert "Not quite" in text and "taking the homes of people displaced" in text
    assert "Why:" in text


@pytest.mark.parametrize(
    ("options", "why_not", "message"),
    [
        (["only one"], None, "2 or more different options"),
        (["a", "a"], None, "2 or more different options"),
        (["a", "b"], {"c": "?"}, "'c'"),
    ],
)
def test_bad_questions_are_refused(options, why_not, message) -> None:
    with pytest.raises(HousingLabError, match=message):
        PredictThenRun("?", options, _vacancy_control_outcome, "", why_not)


def test_an_answer_outside_the_options_is_refused() -> None:
    question = PredictThenRun("?", ["x", "y"], lambda: Outcome("z", ""), "")
    question.choice.value = "x"
    question.commit()
    with pytest.raises(HousingLabError, match="'z'"):
        question.reveal()
    assert question.outcome is None


def test_a_choice_question_says_why_a_wrong_option_fails() -> None:
    question = ChoiceQuestion(
        "Who may live in an M home?",
        ["Only middle income", "Middle or low income"],
        "Middle or low income",
        explanation="Low income residents take any M home still empty.",
        hint="Read the tile key.",
        why_not={"Only middle income": "Low income residents may take an empty M home too."},
    )
    question.choice.value = "Only middle income"
    assert not question.submit()
    assert "may take an empty M home too" in question.feedback.value
    assert "Read the tile key." in question.feedback.value
    with pytest.raises(ValueError, match="'Anyone'"):
        ChoiceQuestion("?", ["a", "b"], "a", "", why_not={"Anyone": "no"})


def test_direction_names_the_change() -> None:
    from housing_lab.widgets.lessons.predict import direction

    assert [direction(6, 10), direction(4, 4), direction(9, 5)] == ["More", "The same", "Fewer"]

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
    question = PredictThenRun("l7-add-vacancy-control", game=game)
    question.choice.value = "The same"
    question.commit()
    assert question.reveal() and "low income housed 5 → 5" in question.feedback.value


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: PredictThenRun("l9-nothing"), "no lesson question 'l9-nothing'"),
        (lambda: PredictThenRun("l2-workforce-midrise"), "not a predict-then-run question"),
        (lambda: PredictThenRun("l7-add-vacancy-control", board=1), "takes \\['game'\\]"),
        (lambda: PredictThenRun("Q?", ["a", "b"], lambda: None, "E.", seed=1), "question id"),
        (lambda: ChoiceQuestion("l1-why-low-income"), "open question, not choice"),
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

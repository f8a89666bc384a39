"""The lessons' questions as data (housing_lab/questions): every file is valid, a bad value is one
line naming it, and every predict-then-run answer is the one the engine gives."""

from __future__ import annotations

import pytest

from housing_lab.errors import HousingLabError
from housing_lab.questions import all_questions, lesson_questions, question, run_experiment
from housing_lab.questions.bank import LESSONS, data_files, parse_lesson
from housing_lab.questions.experiments import EXPERIMENTS

QUESTIONS = all_questions()
PREDICT = sorted(q.id for q in QUESTIONS.values() if q.kind == "predict")
SLOW = {"l6-line-reaches"}  # 40 Streetcar games


def test_every_lesson_has_a_data_file_with_a_prediction() -> None:
    assert data_files() == [f"lesson_{n}.toml" for n in LESSONS]
    for lesson in LESSONS:
        assert any(q.kind == "predict" for q in lesson_questions(lesson)), lesson
    assert sum(len(lesson_questions(n)) for n in LESSONS) == len(QUESTIONS)  # ids unique


def test_every_predict_question_has_one_experiment() -> None:
    assert sorted(EXPERIMENTS) == PREDICT


@pytest.mark.parametrize(
    "question_id", [pytest.param(q, marks=[pytest.mark.slow] * (q in SLOW)) for q in PREDICT]
)
def test_the_engine_gives_the_data_files_answer(question_id: str) -> None:
    outcome = run_experiment(question_id)
    assert outcome.answer == question(question_id).answer
    assert any(char.isdigit() for char in outcome.result)  # the engine's numbers


def test_an_answer_the_engine_contradicts_is_refused() -> None:
    from dataclasses import replace

    from housing_lab.questions.experiments import check_outcome

    asked = question("l7-add-vacancy-control")
    outcome = run_experiment(asked.id)
    with pytest.raises(HousingLabError, match="the model answers 'same' to 'l7-add-vac"):
        check_outcome(replace(asked, answer="more"), outcome)


GOOD = {
    "id": "l3-x",
    "kind": "choice",
    "prompt": "Which?",
    "answer": "a",
    "explanation": "Because.",
    "choices": [{"id": "a", "text": "A"}, {"id": "b", "text": "B", "why_not": "No."}],
}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"answer": "c"}, "answer 'c' is none of \\['a', 'b'\\]"),
        ({"explanation": None}, "missing field 'explanation'"),
        ({"explanation": " "}, "explanation must be non-empty text, got ' '"),
        ({"model_answer": "x"}, "a choice question has no field 'model_answer'"),
        ({"kind": "essay"}, "kind must be one of"),
        ({"id": "l4-x"}, "a lesson 3 question's id starts with 'l3-'"),
        ({"id": "l3 X"}, "id must be lower-case words joined by '-', got 'l3 X'"),
        ({"choices": [{"id": "a", "text": "A"}]}, "choices must be a list of 2 or more"),
        ({"choices": [{"id": "a", "text": "A"}, {"id": "a", "text": "B"}]}, "the id 'a'"),
        ({"choices": [{"id": "a", "text": "A"}, {"id": "b"}]}, "choice 2: missing field 'text'"),
        (
            {"choices": [{"id": "a", "text": "A", "why_not": "x"}, {"id": "b", "text": "B"}]},
            "the answer 'a' has a why_not",
        ),
    ],
)
def test_a_bad_value_is_one_line_naming_it(change: dict, message: str) -> None:
    raw = {key: value for key, value in {**GOOD, **change}.items() if value is not None}
    with pytest.raises(HousingLabError, match=message) as refused:
        parse_lesson(3, {"questions": [raw]}, "lesson_3.toml")
    assert "\n" not in str(refused.value) and "lesson_3.toml" in str(refused.value)


def test_two_questions_with_one_id_are_refused() -> None:
    assert parse_lesson(3, {"questions": [GOOD]}, "f")[0].answer_text == "A"
    with pytest.raises(HousingLabError, match="two questions have the id 'l3-x'"):
        parse_lesson(3, {"questions": [GOOD, GOOD]}, "f")


@pytest.mark.parametrize("bad", ["l9-x", "vacancy", 3, None, "l3-nothing"])
def test_an_unknown_question_id_is_one_line(bad: object) -> None:
    with pytest.raises(HousingLabError, match="no lesson question"):
        question(bad)

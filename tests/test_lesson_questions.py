"""The lessons' questions as data (housing_lab/questions): every file is valid, a bad value is one
line naming it, every predict-then-run answer is the one the engine gives; no lesson notebook
shows an answer before the student commits (not in a cell's code, an output or the saved widget
state), no cell runs an experiment before its prediction; and the worksheets and the answer key
print the same questions and answers."""

from __future__ import annotations

import functools
import html
import json
import pathlib
import re

import pytest

from housing_lab.errors import HousingLabError
from housing_lab.questions import (
    Question,
    all_questions,
    lesson_questions,
    question,
    run_experiment,
)
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


def test_the_check_yourself_answers_that_state_a_rule_are_the_engines() -> None:
    from housing_lab.north_berkeley import make_scenario, score_scenario
    from housing_lab.questions.experiments import PUBLIC_HOUSING
    from housing_lab.streetcar import COLOURS, building_for

    colour, cubes = building_for([COLOURS.index(c) for c in ("yellow", "black", "white")])
    assert question("l6-three-houses").answer_text == f"{cubes} {COLOURS[colour]} cube"
    # l3-why-empty's prompt: vacancy control leaves more homes empty and turns newcomers away
    before, after = (
        score_scenario(make_scenario(PUBLIC_HOUSING, policies, seed=3)).to_dict()
        for policies in ([], ["vacancy_control"])
    )
    assert after["vacant"]["low"] > before["vacant"]["low"]
    assert (
        after["outcomes"]["high"]["newcomer_left"]
        > 0
        == before["outcomes"]["high"]["newcomer_left"]
    )


def test_an_answer_the_engine_contradicts_is_refused() -> None:
    from dataclasses import replace

    from housing_lab.questions.experiments import check_outcome

    asked = question("l7-affordable-100")
    outcome = run_experiment(asked.id)
    with pytest.raises(HousingLabError, match="the model answers 'fewer' to 'l7-affordable-100'"):
        check_outcome(replace(asked, answer="more"), outcome)


def test_affordable_100_displaces_more_and_costs_more_in_lesson_7() -> None:
    """The explanation and the keys say why 100% Affordable houses fewer low income residents
    behind lesson 7's phase 1: more residents displaced, more public money."""
    numbers = re.findall(r"(\d+\.\d+) → \$?(\d+\.\d+)", run_experiment("l7-affordable-100").result)
    (low, low_100), (lost, lost_100), (cost, cost_100) = [tuple(map(float, n)) for n in numbers]
    assert low_100 < low and lost_100 > lost and cost_100 > cost


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


# --- the notebooks: no answer in sight, and no experiment before its prediction ---------------

ROOT = pathlib.Path(__file__).resolve().parents[1]
NOTEBOOKS = {int(path.stem[:2]): path for path in sorted((ROOT / "lessons").glob("0*.ipynb"))}
CONVERTED = sorted(NOTEBOOKS)
ASKS = re.compile(r"""\b(PredictThenRun|ChoiceQuestion|reveal)\(\s*["']([a-z0-9-]+)["']""")
WIDGET = {"predict": "PredictThenRun", "choice": "ChoiceQuestion", "open": "reveal"}
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
TEXT_ARGUMENTS = re.compile(r"\b(answer|explanation|why_not|options|run)\s*=|\bOutcome\(")


def _strings(value: object) -> list[str]:
    """Every string inside a notebook's JSON (sources, outputs, saved widget state)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _strings(item)]
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    return []


def _plain(text: str) -> str:
    return " ".join(html.unescape(text).split())


def _fragments(secret: str) -> list[str]:
    """The clauses of a secret long enough to be its own (a shared phrase is not a leak)."""
    return [part.strip() for part in re.split(r"[.;:!?()]", _plain(secret)) if len(part) > 30]


def _cells(lesson: int) -> list[dict]:
    return json.loads(NOTEBOOKS[lesson].read_text(encoding="utf-8"))["cells"]


def _cell_text(cell: dict) -> str:
    return _plain(" ".join(_strings(cell.get("source", "")) + _strings(cell.get("outputs", []))))


def spoiled_before(cells: list[dict], questions: tuple[Question, ...]) -> list[str]:
    """Where a cell runs or shows a prediction's experiment (its `spoiled_by` text) before the
    cell that asks it: the rule that the students predict before they can see the answer."""
    found = []
    for asked in (q for q in questions if q.kind == "predict"):
        where = next((i for i, c in enumerate(cells) if asked.id in _asked_in(c)), None)
        if where is None:
            found.append(f"no cell asks {asked.id}")
            continue
        for index, cell in enumerate(cells[:where]):
            found += [
                f"cell {index} shows {mark!r} before {asked.id} (cell {where})"
                for mark in asked.spoiled_by
                if _plain(mark) in _cell_text(cell)
            ]
    return found


def _asked_in(cell: dict) -> list[str]:
    """The ids of the questions a cell asks."""
    if cell["cell_type"] != "code":
        return []
    return [qid for _, qid in ASKS.findall("".join(cell["source"]))]


@pytest.mark.parametrize("lesson", CONVERTED)
def test_every_question_is_asked_by_id_once_in_the_lessons_order(lesson: int) -> None:
    asked = [
        (widget, qid)
        for cell in _cells(lesson)
        if cell["cell_type"] == "code"
        for widget, qid in ASKS.findall("".join(cell["source"]))
    ]
    questions = lesson_questions(lesson)
    assert asked == [(WIDGET[q.kind], q.id) for q in questions]


@pytest.mark.parametrize("lesson", CONVERTED)
def test_no_cell_source_output_or_widget_state_holds_an_answer(lesson: int) -> None:
    notebook = json.loads(NOTEBOOKS[lesson].read_text(encoding="utf-8"))
    everything = _plain(" ".join(_strings(notebook)))
    # the whole notebook is read, its metadata too: widget state, were any saved (the build
    # saves none: test_lesson_pages.test_a_lesson_opens_saved_and_invites_a_run)
    assert "Python 3 (ipykernel)" in everything
    for asked in lesson_questions(lesson):
        for secret in asked.secrets:
            for fragment in _fragments(secret):
                assert fragment not in everything, (asked.id, fragment)
    for index, cell in enumerate(notebook["cells"]):
        source = "".join(cell["source"])
        if cell["cell_type"] == "code" and ASKS.search(source):
            assert not TEXT_ARGUMENTS.search(source), (index, source)


@pytest.mark.parametrize("lesson", CONVERTED)
def test_no_cell_runs_or_shows_an_experiment_before_its_prediction(lesson: int) -> None:
    assert spoiled_before(_cells(lesson), lesson_questions(lesson)) == []


@pytest.mark.parametrize(("lesson", "mark"), [(3, "lesson_table(table"), (4, "solve(")])
def test_the_order_rule_sees_a_prediction_asked_too_late(lesson: int, mark: str) -> None:
    cells = _cells(lesson)
    predict = next(q.id for q in lesson_questions(lesson) if q.kind == "predict")
    where = next(i for i, c in enumerate(cells) if predict in _asked_in(c))
    late = [*cells[:where], *cells[where + 1 :], cells[where]]  # the prediction moved last
    found = spoiled_before(late, lesson_questions(lesson))
    assert any(mark in line for line in found), found


def test_the_answer_in_sight_test_sees_a_leak() -> None:
    asked = question("l3-vacancy-control")
    leaked = f"Look: {asked.explanation}"
    assert any(fragment in _plain(leaked) for fragment in _fragments(asked.explanation))
    assert TEXT_ARGUMENTS.search('PredictThenRun("q", ["a", "b"], run, explanation="x")')


# --- and nothing after a prediction shows its answer until it is committed ------------------
# A notebook runs top to bottom (Shift+Enter past the question, an app or a class poll running
# every cell on load), so what answers a prediction must be inside `after_prediction(...)`,
# which shows it only once the prediction is committed; its saved output is the gate's repr.
GATED = re.compile(r"\bafter_prediction\(\s*\(?((?:\s*[\"'][a-z0-9-]+[\"']\s*,?)+)")
FIGURE = re.compile(r"\$?\d+(?:\.\d+)?(?![\d.%])")  # "100% Affordable" is a name


@functools.cache
def figures(question_id: str) -> tuple[str, ...]:
    """The engine's figures in a prediction's answer that a lesson would not print by chance:
    dollars, decimals and counts over 12 (12 residents of each income, so 12 and below are
    everywhere). Lesson 6's 40 games are too slow for the inner loop: its marks suffice."""
    if question_id in SLOW:
        return ()
    result = run_experiment(question_id).result
    return tuple(sorted({f for f in FIGURE.findall(result) if "$" in f or "." in f or int(f) > 12}))


def _gated_for(cell: dict) -> set[str]:
    """The predictions a code cell's `after_prediction(...)` waits for."""
    source = "".join(cell["source"])
    return {qid for ids in GATED.findall(source) for qid in re.findall(r"[a-z0-9-]+", ids)}


def _shown_text(cell: dict) -> str:
    """What a cell shows in the saved notebook: Markdown, or its outputs' text."""
    if cell["cell_type"] == "markdown":
        return _plain("".join(cell["source"]))
    # a widget's saved view is only its model id: random hex, whose digits are no figure
    # ("f18d" once read as 18 low income residents)
    outputs = [
        {**output, "data": {k: v for k, v in output.get("data", {}).items() if k != WIDGET_VIEW}}
        for output in cell.get("outputs", [])
    ]
    return _plain(" ".join(_strings(outputs)))


def _holds(text: str, asked: Question) -> list[str]:
    marks = [m for m in asked.spoiled_by if _plain(m) in text]
    return marks + [
        f for f in figures(asked.id) if re.search(rf"(?<![\d.$]){re.escape(f)}(?!\d)", text)
    ]


def shown_ungated_after(cells: list[dict], questions: tuple[Question, ...]) -> list[str]:
    """Cells after a prediction that show its answer (its figures or a `spoiled_by` mark)
    without waiting for it; or that run its experiment (a mark in the code) and show anything
    at all ungated."""
    found = []
    for asked in (q for q in questions if q.kind == "predict"):
        where = next(i for i, c in enumerate(cells) if asked.id in _asked_in(c))
        for index, cell in enumerate(cells[where + 1 :], start=where + 1):
            if cell["cell_type"] == "code" and asked.id in _gated_for(cell):
                gates = [o for o in cell.get("outputs", []) if WIDGET_VIEW in o.get("data", {})]
                if len(gates) == len(cell.get("outputs", [])):
                    continue  # every output of the cell is the gate
            found += [
                f"cell {index} shows {mark!r} of {asked.id}"
                for mark in _holds(_shown_text(cell), asked)
            ]
            source = _plain("".join(cell["source"])) if cell["cell_type"] == "code" else ""
            runs = [m for m in asked.spoiled_by if _plain(m) in source]
            if runs and cell.get("outputs") and asked.id not in _gated_for(cell):
                found.append(f"cell {index} runs {runs[0]!r} of {asked.id} and shows it ungated")
    return found


@pytest.mark.parametrize("lesson", CONVERTED)
def test_nothing_after_a_prediction_shows_its_answer_ungated(lesson: int) -> None:
    assert shown_ungated_after(_cells(lesson), lesson_questions(lesson)) == []


def test_the_ungated_answer_rule_sees_a_leak() -> None:
    """Lesson 8's gated note put back as Markdown, lesson 3's table shown without its gate and
    lesson 5's averages as plain text: each is found."""
    from housing_lab.questions.notes import lesson_notes

    cells = _cells(8)
    where = next(i for i, c in enumerate(cells) if "note=1" in "".join(c["source"]))
    note = lesson_notes(8)["l8-no-filtering"][0]
    cells[where] = {"cell_type": "markdown", "source": note}
    assert any(
        "With no filtering, the mostly market rate board houses" in line
        for line in shown_ungated_after(cells, lesson_questions(8))
    )
    cells = _cells(3)
    where = next(i for i, c in enumerate(cells) if "lesson_table(table" in "".join(c["source"]))
    cells[where] = {**cells[where], "source": "lesson_table(table)"}
    assert any(
        "runs 'lesson_table(table'" in line
        for line in shown_ungated_after(cells, lesson_questions(3))
    )
    printed = {"output_type": "stream", "name": "stdout", "text": "ADUs: 10.44 on average"}
    cells = [*_cells(5), {"cell_type": "code", "source": "print(x)", "outputs": [printed]}]
    assert shown_ungated_after(cells, lesson_questions(5)) == [
        f"cell {len(cells) - 1} shows '10.44' of l5-best-single-policy"
    ]


# --- the worksheets and the answer key read the same data -------------------------------------


def test_each_worksheet_prints_its_lessons_predictions_and_choices() -> None:
    from housing_lab.worksheets import WORKSHEETS, worksheet_html

    for sheet in WORKSHEETS:
        page = html.unescape(worksheet_html(sheet.lesson))
        predictions = [q for q in lesson_questions(sheet.lesson) if q.kind == "predict"]
        assert list(sheet.predictions) == predictions
        for number, asked in enumerate(predictions, start=1):
            assert f"{number}. {asked.prompt}" in page
            assert all(choice.text in page for choice in asked.choices)
            assert not any(f in page for s in asked.secrets for f in _fragments(s))


@pytest.mark.slow  # the answer key runs every prediction's experiment (about a second)
def test_the_answer_key_carries_every_questions_answer_from_the_data_files() -> None:
    from housing_lab.worksheets import answer_key_html

    page = _plain(answer_key_html())
    for lesson in LESSONS:
        for asked in lesson_questions(lesson):
            assert _plain(asked.prompt) in page, asked.id
            if asked.kind == "predict":
                outcome = run_experiment(asked.id)
                said = f"{asked.answer_text}. The model: {outcome.result} Why: {asked.explanation}"
                assert _plain(said) in page, asked.id
            else:
                assert _plain(asked.key) in page, asked.id

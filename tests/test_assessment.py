"""Every exit ticket, check-yourself question and the policy memo has a key or rubric, and the
teacher's guide and `housing-lab worksheets`' answer key say the same; the concept check has
five questions, each with a key row."""

from __future__ import annotations

import html
import pathlib
import re

import pytest

from housing_lab.worksheet_keys import MEMO_RUBRIC, TASK_KEYS, TICKET_KEYS, TICKET_RUBRIC
from housing_lab.worksheets import WORKSHEETS

ROOT = pathlib.Path(__file__).resolve().parents[1]
GUIDE = " ".join((ROOT / "lessons" / "TEACHER_GUIDE.md").read_text(encoding="utf-8").split())
CHECK = (ROOT / "lessons" / "concept_check.md").read_text(encoding="utf-8")


def test_every_exit_ticket_question_has_a_key_in_the_guide() -> None:
    for sheet in WORKSHEETS:
        keys = TICKET_KEYS[sheet.lesson]
        assert len(keys) == len(sheet.exit_ticket), sheet.lesson
        for question, key in zip(sheet.exit_ticket, keys, strict=True):
            assert f"*Exit ticket:* {question} **Key:** {key}" in GUIDE, question


def test_every_written_task_has_a_key_in_the_guide() -> None:
    """Lesson 7's debrief and the other tasks a worksheet prints: one key each, word for word
    in the guide (and printed in the answer key)."""
    assert {s.lesson for s in WORKSHEETS if s.tasks} == set(TASK_KEYS)
    for sheet in WORKSHEETS:
        keys = TASK_KEYS.get(sheet.lesson, ())
        assert len(keys) == len(sheet.tasks), sheet.lesson
        for task, key in zip(sheet.tasks, keys, strict=True):
            assert f"*Task:* {task} **Key:** {key}" in GUIDE, task


def test_every_lesson_has_check_yourself_keys_in_the_guide() -> None:
    for sheet in WORKSHEETS:
        assert sheet.check_yourself, sheet.lesson  # read from the lesson's data file
        for question in sheet.check_yourself:
            key = " ".join(question.key.split())
            assert f"*Check yourself:* {question.prompt} **Key:** {key}" in GUIDE, question.id


def test_the_rubrics_are_in_the_guide() -> None:
    for points, words in TICKET_RUBRIC:
        assert f"**{points}**: {words}." in GUIDE
    for criterion, words in MEMO_RUBRIC:
        assert f"**{criterion}:** {words}." in GUIDE


@pytest.mark.slow  # the answer key runs the engine (lesson 5's 100,000 boards)
def test_the_printed_answer_key_carries_every_key_and_rubric() -> None:
    from housing_lab.worksheets import answer_key_html

    page = html.unescape(answer_key_html())
    for keys in [*TICKET_KEYS.values(), *TASK_KEYS.values()]:
        assert all(key in page for key in keys)
    for sheet in WORKSHEETS:
        assert all(question.key in page for question in sheet.check_yourself)
    assert all(criterion in page for criterion, _ in MEMO_RUBRIC)
    assert "Concept check" in page


def test_the_concept_check_has_five_questions_each_with_a_key() -> None:
    questions = re.findall(r"^(\d)\. \*\*(.+?)\*\*", CHECK, re.M)
    assert [n for n, _ in questions] == ["1", "2", "3", "4", "5"]
    topics = " ".join(t for _, t in questions).lower()
    for topic in ("filtering", "displacement", "vacancy control", "trade-offs", "model"):
        assert topic in topics, topic
    key_rows = re.findall(r"^\| (\d) \| (.+?) \| (.+?) \| (.+?) \|$", CHECK, re.M)
    assert [row[0] for row in key_rows] == ["1", "2", "3", "4", "5"]
    assert all(len(cell) > 20 for row in key_rows for cell in row[1:])

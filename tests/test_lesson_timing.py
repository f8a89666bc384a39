"""One timing for the lessons: the guide's table, its headings, each lesson's header and the
worksheets all give the same minutes (housing_lab.worksheets.LESSON_MINUTES), the unit's total
counts the concept check twice, and the class plans add up, with the classroom game at the same
minutes in lesson 7 and in the 75-minute plan."""

from __future__ import annotations

import importlib.util
import itertools
import pathlib
import re

import pytest

from housing_lab.worksheets import (
    CLASSROOM_GAME_MINUTES,
    CONCEPT_CHECK_MINUTES,
    LESSON_MINUTES,
    UNIT_MINUTES,
    WORKSHEETS,
    worksheet_html,
)

ROOT = pathlib.Path(__file__).resolve().parents[1]
GUIDE = (ROOT / "lessons" / "TEACHER_GUIDE.md").read_text(encoding="utf-8")


def _table_rows(section: str) -> list[list[str]]:
    rows = []
    for line in section.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def _section(heading: str) -> str:
    return GUIDE.split(heading, 1)[1].split("\n#", 1)[0]


def test_the_guide_table_is_the_timing_table_and_adds_up() -> None:
    rows = _table_rows(_section("## Minutes per lesson"))[1:]
    table = {int(r[0].split(" · ")[0]): int(r[1]) for r in rows if r[0][0].isdigit()}
    assert table == LESSON_MINUTES
    checks = [int(r[1]) for r in rows if r[0].startswith("Concept check")]
    assert checks == [CONCEPT_CHECK_MINUTES, CONCEPT_CHECK_MINUTES]
    total = next(r for r in rows if "total" in r[0])
    assert int(total[1].strip("*")) == UNIT_MINUTES == sum(table.values()) + sum(checks)
    assert f"{UNIT_MINUTES} minutes" in GUIDE.split("## Minutes per lesson")[0]


def test_every_lesson_counts_start_up_and_its_exit_ticket() -> None:
    """Binder or the lab machines take minutes to start, and each exit ticket takes five."""
    rows = _table_rows(_section("## Minutes per lesson"))[1:]
    for row in (r for r in rows if r[0][0].isdigit()):
        parts = [int(m) for m in re.findall(r"\((\d+)\)", row[2].split("; if you have time")[0])]
        assert sum(parts) == int(row[1]), row[0]
        assert re.search(r"start-up[^(]*\(5\)", row[2]) and "exit ticket (5)" in row[2], row[0]


def test_the_guide_headings_use_the_table() -> None:
    for lesson, minutes in LESSON_MINUTES.items():
        assert re.search(rf"^### {lesson} · .+ \({minutes} min\)$", GUIDE, re.M), lesson


@pytest.mark.parametrize("lesson", sorted(LESSON_MINUTES))
def test_each_lesson_header_and_worksheet_use_the_table(lesson: int) -> None:
    """The lesson's source (the notebooks are built from it) says the table's minutes."""
    (source,) = (ROOT / "tools" / "lesson_sources").glob(f"0{lesson}_*.py")
    kind, first = _cells(source)[0]
    assert kind == "md" and f"*Time: {LESSON_MINUTES[lesson]} minutes" in first
    if lesson in {sheet.lesson for sheet in WORKSHEETS}:
        assert f"about {LESSON_MINUTES[lesson]} minutes" in worksheet_html(lesson)


def _cells(source: pathlib.Path) -> list[tuple[str, str]]:
    spec = importlib.util.spec_from_file_location(source.stem, source)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.CELLS


def _spans(section: str) -> list[tuple[int, int, str]]:
    spans = []
    for row in _table_rows(section):
        match = re.fullmatch(r"(\d+)-(\d+)", row[0])
        if match:
            spans.append((int(match[1]), int(match[2]), row[1]))
    return spans


@pytest.mark.parametrize("plan, length", [("### 50-minute plan", 50), ("### 75-minute plan", 75)])
def test_a_class_plan_runs_without_gaps_to_its_length(plan: str, length: int) -> None:
    spans = _spans(_section(plan))
    assert spans[0][0] == 0 and spans[-1][1] == length
    assert all(a[1] == b[0] for a, b in itertools.pairwise(spans))


def test_the_classroom_game_has_one_length_everywhere() -> None:
    """Lesson 7's row, its header and the 75-minute plan give the game the same minutes, at most
    35 of lesson 7's 60 so that the debrief and the exit ticket fit."""
    (game,) = [s for s in _spans(_section("### 75-minute plan")) if "classroom game" in s[2]]
    assert game[1] - game[0] == CLASSROOM_GAME_MINUTES <= 35
    rows = _table_rows(_section("## Minutes per lesson"))
    (row,) = [r for r in rows if r[0].startswith("7 ·")]
    assert f"the game ({CLASSROOM_GAME_MINUTES})" in row[2]
    source = (ROOT / "tools" / "lesson_sources" / "07_classroom_game.py").read_text("utf-8")
    assert f"{CLASSROOM_GAME_MINUTES} for the game" in source
    assert "8-minute" in source and "8-minute" in game[2] and "10-minute" not in source


def test_the_multi_day_unit_adds_up_to_the_table() -> None:
    days = re.findall(r"Day \d: [^(]+\((\d+)(?: min)?\)", _section("### A multi-day unit"))
    assert sum(int(d) for d in days) == UNIT_MINUTES

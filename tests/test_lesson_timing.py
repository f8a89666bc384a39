"""One timing for the lessons: the guide's table, its headings, each lesson's header and the
worksheets all give the same minutes (housing_lab.worksheets.LESSON_MINUTES), and the class
plans add up, with the classroom game at 40 minutes or more in the 75-minute plan."""

from __future__ import annotations

import itertools
import json
import pathlib
import re

import pytest

from housing_lab.worksheets import LESSON_MINUTES, WORKSHEETS, worksheet_html

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
    total = next(r for r in rows if "total" in r[0])
    assert int(total[1].strip("*")) == sum(LESSON_MINUTES.values())
    assert f"{sum(LESSON_MINUTES.values())} minutes" in GUIDE.split("## Minutes per lesson")[0]


def test_the_guide_headings_use_the_table() -> None:
    for lesson, minutes in LESSON_MINUTES.items():
        assert re.search(rf"^### {lesson} · .+ \({minutes} min\)$", GUIDE, re.M), lesson


@pytest.mark.parametrize("lesson", sorted(LESSON_MINUTES))
def test_each_lesson_header_and_worksheet_use_the_table(lesson: int) -> None:
    (notebook,) = (ROOT / "lessons").glob(f"0{lesson}_*.ipynb")
    first = "".join(json.loads(notebook.read_text(encoding="utf-8"))["cells"][0]["source"])
    assert f"*Time: {LESSON_MINUTES[lesson]} minutes" in first
    if lesson in {sheet.lesson for sheet in WORKSHEETS}:
        assert f"about {LESSON_MINUTES[lesson]} minutes" in worksheet_html(lesson)


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


def test_the_75_minute_plan_gives_the_game_40_minutes_or_more() -> None:
    (game,) = [s for s in _spans(_section("### 75-minute plan")) if "classroom game" in s[2]]
    assert game[1] - game[0] >= 40


def test_the_multi_day_unit_adds_up_to_the_table() -> None:
    days = re.findall(r"Day \d: [^(]+\((\d+)(?: min)?\)", _section("### A multi-day unit"))
    assert sum(int(d) for d in days) == sum(LESSON_MINUTES.values())

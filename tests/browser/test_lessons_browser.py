"""Every lesson opens in JupyterLab and runs top to bottom with no error output, no console
error and its widgets drawn; one lesson also runs as a Voila app. The lessons open one after
another in the process's one JupyterLab page (conftest's `LabPage`), as a student opens files."""

from __future__ import annotations

import contextlib
import pathlib
import re
import shutil
from typing import Any

import pytest

from .chart_geometry import chart_problems
from .harness import (
    FOREIGN_ERRORS,
    ROOT,
    error_outputs,
    screenshot,
    wait_for_all_cells,
)

# the pattern of tests/test_lesson_pages.py: snake_case ids, home/resident ids, quadrant squares
MACHINE_ID = re.compile(
    r"\b[a-z]+_[a-z0-9_]+\b|\b(?:house|apartment|adu|high|middle|low)-\d+\b|\b[A-C][1-3]-\d\b"
)
LESSONS = sorted((ROOT / "lessons").glob("[0-9][0-9]_*.ipynb"))
# Every cell of the tables a lesson prints (lesson_table's, or a DataFrame's as pandas draws
# it), as drawn (issue 26: tables students can read); widgets' own tables are the widgets' tests
TABLE_CELLS = """() => Array.from(document.querySelectorAll(
  '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output :is(table.hl-table, ' +
  'table.dataframe) td')).map((cell) => ({
    text: cell.textContent.trim(), align: getComputedStyle(cell).textAlign,
    number: cell.classList.contains("hl-num")}))"""
# Column headers whose words are cut across two lines ("Develop|er"): each word of a header,
# measured as drawn, must sit on one line.
CUT_HEADER_WORDS = """() => Array.from(document.querySelectorAll(
  '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output table.hl-table th')).flatMap(
  (cell) => {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    const cut = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top)));
        if (lines.size > 1) cut.push(word[0]);
      }
    }
    return cut;
  })"""
PROGRAMMERS_NUMBER = re.compile(r"^[-+−]?\$?\d[\d,]*\.0+$")  # "12.0", "4.0", "1.00"


def unreadable_cells(cells: list[dict[str, object]]) -> list[str]:
    """Table cells a student would stumble on: text not left-aligned, text cut with "...",
    whole numbers written like "12.0"."""
    problems = []
    for cell in cells:
        text = str(cell["text"])
        if not cell["number"] and cell["align"] not in ("left", "start"):
            problems.append(f"{text!r} is aligned {cell['align']}")
        if text.endswith(("...", "…")):
            problems.append(f"{text!r} is cut")
        if PROGRAMMERS_NUMBER.match(text):
            problems.append(f"{text!r} is a whole number with decimals")
    return problems


@pytest.fixture(scope="module")
def lessons_folder(jupyter) -> str:
    """The lessons copied once under the session's JupyterLab (running cells must not edit the
    originals); their folder's path from the server's root."""
    shutil.copytree(
        ROOT / "lessons",
        jupyter.root / "lessons",
        ignore=shutil.ignore_patterns(".ipynb_checkpoints"),
    )
    return "lessons"


@pytest.mark.browser
@pytest.mark.parametrize("lesson", LESSONS, ids=[p.stem for p in LESSONS])
def test_lesson_runs_in_jupyterlab(open_page, lessons_folder: str, lesson: pathlib.Path) -> None:
    ready = ".jp-NotebookPanel:not(.lm-mod-hidden) .jupyter-widgets"
    page, watch = open_page(
        f"{lessons_folder}/{lesson.name}", app="lab", size=(1400, 1600), ready=ready
    )
    check_the_lesson(page, lesson)
    assert watch.our_errors() == [], watch.console_errors
    assert watch.blocked == [], f"requests tried to leave 127.0.0.1: {watch.blocked}"


def check_the_lesson(page: Any, lesson: pathlib.Path) -> None:
    """The lesson, run: no error, its widgets drawn, charts legible, no machine id
    in the widgets, tables readable."""
    progress = wait_for_all_cells(page)
    assert progress["running"] == 0
    assert error_outputs(page) == []
    commit_every_prediction(page)
    widgets = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jupyter-widgets")
    assert widgets.count() > 0, "no widget rendered"
    screenshot(page, f"lesson-{lesson.stem}")
    outputs = page.locator(
        ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output:has(.jupyter-widgets)"
    )
    for index in range(min(outputs.count(), 4)):  # the widgets themselves, to look at
        screenshot(outputs.nth(index), f"lesson-{lesson.stem}-widget-{index + 1}")
    charts = chart_problems(page)
    assert charts["problems"] == [], "\n".join(charts["problems"])
    # a gated note is the lesson's own Markdown (code names and all), not a widget's words
    notes_hidden = page.add_style_tag(content=".hl-after .jp-RenderedMarkdown {display: none}")
    widget_text = page.locator(
        ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output .jupyter-widgets"
    ).all_inner_texts()
    notes_hidden.evaluate("(style) => style.remove()")
    ids = sorted({m for text in widget_text for m in MACHINE_ID.findall(text)})
    assert ids == [], f"machine ids visible in {lesson.stem}'s widgets: {ids}"
    assert unreadable_cells(page.evaluate(TABLE_CELLS)) == []
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    # a table still being laid out on a loaded machine may be narrow for a moment
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(f"({CUT_HEADER_WORDS})().length === 0", timeout=10_000)
    assert page.evaluate(CUT_HEADER_WORDS) == [], "a table header cuts a word across lines"


PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"
STILL_WAITING = f"""() => Array.from(document.querySelectorAll('{PANEL} .hl-after')).filter(
  (gate) => gate.textContent.includes("Make your prediction above first")).length"""


def commit_every_prediction(page: Any) -> None:
    """Run all cells shows what answers a prediction only as "make your prediction first"; once
    each prediction is locked in (and each choice question checked), the tables, charts and
    notes it hid are drawn (and checked)."""
    gates = page.locator(f"{PANEL} .hl-after").count()
    assert page.evaluate(STILL_WAITING) == gates  # run all, yet nothing gated is shown
    predictions = page.locator(f"{PANEL} .hl-predict")
    for index in range(predictions.count()):
        prediction = predictions.nth(index)
        prediction.locator("input[type=radio]").first.check()
        prediction.locator(".hl-predict-lock").click()
    questions = page.locator(f"{PANEL} .hl-quiz:not(.hl-predict)")  # checked, it opens gates
    for index in range(questions.count()):
        question = questions.nth(index)
        question.locator("input[type=radio]").first.check()
        question.locator(".hl-quiz-check").click()
    page.wait_for_function(f"() => ({STILL_WAITING})() === 0", timeout=60_000)
    page.wait_for_timeout(500)  # the opened gates' tables and charts draw


@pytest.mark.browser
def test_a_lesson_runs_as_a_voila_app(open_page) -> None:
    lesson = ROOT / "lessons" / "02_build_the_neighbourhood.ipynb"
    page, watch = open_page(lesson, size=(1400, 1600), ready='.hl-nb-lab [data-square="A1"]')
    page.wait_for_selector(".hl-quiz", timeout=30_000)
    assert "Error displaying widget" not in page.inner_text("body")
    assert "Traceback" not in page.inner_text("body")
    screenshot(page, "lesson-02-voila")
    assert watch.our_errors(ignore=FOREIGN_ERRORS) == [], watch.console_errors

"""Every lesson opens in JupyterLab and runs top to bottom with no error output, no console
error and its widgets drawn; one lesson also runs as a Voila app."""

from __future__ import annotations

import pathlib
import re
import shutil
from collections.abc import Iterator

import pytest

from .chart_geometry import chart_problems
from .harness import (
    ROOT,
    PageWatch,
    error_outputs,
    jupyter_lab,
    run_all_cells_in_lab,
    screenshot,
    voila,
    wait_for_all_cells,
)

# the pattern of tests/test_lesson_pages.py: snake_case ids, home/resident ids, quadrant squares
MACHINE_ID = re.compile(
    r"\b[a-z]+_[a-z0-9_]+\b|\b(?:house|apartment|adu|high|middle|low)-\d+\b|\b[A-C][1-3]-\d\b"
)
LESSONS = sorted((ROOT / "lessons").glob("[0-9][0-9]_*.ipynb"))
FOREIGN_ERRORS = ("@jupyter-notebook/lab-extension",)  # Notebook 7's extension inside Voila


@pytest.fixture(scope="module")
def lessons_server(browser, tmp_path_factory) -> Iterator[tuple[str, pathlib.Path]]:
    """One JupyterLab for all lessons, serving a copy (running cells must not edit the
    originals)."""
    work = tmp_path_factory.mktemp("lessons")
    copy = work / "lessons"
    shutil.copytree(ROOT / "lessons", copy, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    with jupyter_lab(copy, work) as url:
        yield url, copy


@pytest.mark.browser
@pytest.mark.parametrize("lesson", LESSONS, ids=[p.stem for p in LESSONS])
def test_lesson_runs_in_jupyterlab(browser, lessons_server, lesson: pathlib.Path) -> None:
    url, _ = lessons_server
    page = browser.new_page(viewport={"width": 1400, "height": 1600})
    watch = PageWatch()
    watch.attach(page)
    try:
        page.goto(url.format(path=lesson.name))
        run_all_cells_in_lab(page, ".jupyter-widgets")
        progress = wait_for_all_cells(page)
        assert progress["running"] == 0
        assert error_outputs(page) == []
        widgets = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jupyter-widgets")
        assert widgets.count() > 0, "no widget rendered"
        screenshot(page, f"lesson-{lesson.stem}")
        outputs = page.locator(
            ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output:has(.jupyter-widgets)"
        )
        for index in range(min(outputs.count(), 4)):  # the widgets themselves, to look at
            screenshot(outputs.nth(index), f"lesson-{lesson.stem}-widget-{index + 1}")
        assert watch.our_errors() == [], watch.console_errors
        assert watch.blocked == [], f"requests tried to leave 127.0.0.1: {watch.blocked}"
        charts = chart_problems(page)
        assert charts["problems"] == [], "\n".join(charts["problems"])
        widget_text = page.locator(
            ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output .jupyter-widgets"
        ).all_inner_texts()
        ids = sorted({m for text in widget_text for m in MACHINE_ID.findall(text)})
        assert ids == [], f"machine ids visible in {lesson.stem}'s widgets: {ids}"
    finally:
        page.close()


@pytest.mark.browser
def test_a_lesson_runs_as_a_voila_app(browser, tmp_path: pathlib.Path) -> None:
    lesson = ROOT / "lessons" / "02_build_the_neighbourhood.ipynb"
    with voila(lesson, tmp_path) as url:
        page = browser.new_page(viewport={"width": 1400, "height": 1600})
        watch = PageWatch()
        watch.attach(page)
        page.goto(url)
        page.wait_for_selector('.hl-nb-lab [data-square="A1"]', timeout=120_000)
        page.wait_for_selector(".hl-quiz", timeout=30_000)
        assert "Error displaying widget" not in page.inner_text("body")
        assert "Traceback" not in page.inner_text("body")
        screenshot(page, "lesson-02-voila")
        assert watch.our_errors(ignore=FOREIGN_ERRORS) == [], watch.console_errors
        page.close()

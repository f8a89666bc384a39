"""The North Berkeley lab in a real browser: JupyterLab and Voila, offline, clicked by a test."""

from __future__ import annotations

import json
import pathlib

import pytest

from .harness import (
    PageWatch,
    jupyter_lab,
    notebook7,
    run_all_cells_in_lab,
    screenshot,
    voila,
    write_notebook,
)
from .nb_page import read_page, wait_until_page_shows

CELLS = [
    "from housing_lab.widgets import NorthBerkeleyLab\nlab = NorthBerkeleyLab(seed=1)\nlab",
]
# Voila's lab template links two Font Awesome stylesheets from a CDN; they are blocked (and so
# never leave the machine) and the page works without them.
TEMPLATE_CDN = ("font-awesome", "fontawesome")
# Voila also loads every installed lab extension; Notebook 7's own one cannot start outside
# Notebook and logs a module-federation error from its own bundle. It is not ours.
FOREIGN_ERRORS = ("@jupyter-notebook/lab-extension",)
# Notebook 7.6 itself throws this from its own bundle (notebook_core) when a menu command runs,
# with or without our widgets in the notebook (checked on a notebook holding only `1+1`).
NOTEBOOK7_ERRORS = ("Cannot read properties of undefined (reading 'schema')",)


@pytest.fixture
def notebook(tmp_path: pathlib.Path) -> pathlib.Path:
    folder = tmp_path / "notebooks"
    folder.mkdir()
    return write_notebook(folder / "lab.ipynb", CELLS)


def play_with_the_lab(page, name: str) -> None:
    """Click a square and a tile, toggle a policy, try a refused tile; check each step."""
    scenario = {"tiles": {}, "policies": [], "seed": 1}
    wait_until_page_shows(page, scenario)
    before = read_page(page)

    page.click('[data-square="C1"]')
    page.click('[data-tile-choice="tower_market"]')
    scenario["tiles"] = {"C1": "tower_market"}
    after = wait_until_page_shows(page, scenario)
    assert after["bars"] != before["bars"], "the chart did not change"
    # the message may reach the page a moment after the board and the chart
    page.wait_for_selector(".hl-nb-board .hl-message:has-text('Placed tower_market on C1')")

    page.locator(".hl-policy-vacancy_control input").check()
    scenario["policies"] = ["vacancy_control"]
    wait_until_page_shows(page, scenario)

    # A refused placement: under 100% affordable a market tile may not go on a phase-2 square.
    page.locator(".hl-policy-affordable_100 input").check()
    scenario["policies"] = ["vacancy_control", "affordable_100"]
    page.wait_for_selector(".hl-message:has-text('Enacted 100% Affordable')")
    page.click('[data-square="B1"]')  # phase 1: still fine
    page.click('[data-tile-choice="tower_social"]')
    scenario["tiles"]["B1"] = "tower_social"
    wait_until_page_shows(page, scenario)
    page.click('[data-square="A3"]')
    page.click('[data-tile-choice="midrise_market"]')
    page.wait_for_selector(".hl-message.hl-error:has-text('A3 (midrise_market)')")
    wait_until_page_shows(page, scenario)  # nothing changed

    # Keyboard: focus a square, Delete clears it.
    page.locator('[data-square="B1"]').focus()
    page.keyboard.press("Delete")
    del scenario["tiles"]["B1"]
    wait_until_page_shows(page, scenario)

    # Save board: the browser downloads the scenario, which the engine scores the same way.
    with page.expect_download() as download:
        page.locator(".hl-save").click()
    saved = json.loads(pathlib.Path(download.value.path()).read_text())
    assert saved["tiles"] == scenario["tiles"]
    assert sorted(saved["policies"]) == sorted(scenario["policies"])
    screenshot(page.locator(".hl-nb-lab"), name)


def check_watch(watch: PageWatch, ignore: tuple[str, ...] = FOREIGN_ERRORS) -> None:
    assert watch.our_errors(ignore=ignore) == [], watch.console_errors
    strays = [url for url in watch.blocked if not any(t in url for t in TEMPLATE_CDN)]
    assert strays == [], f"requests tried to leave 127.0.0.1: {strays}"


@pytest.mark.browser
@pytest.mark.parametrize(
    ("start_server", "name", "ignore"),
    [
        (jupyter_lab, "nb-lab-jupyterlab", FOREIGN_ERRORS),
        (notebook7, "nb-lab-notebook7", NOTEBOOK7_ERRORS),
    ],
    ids=["jupyterlab", "notebook7"],
)
def test_lab_in_jupyter(
    browser,
    notebook: pathlib.Path,
    tmp_path: pathlib.Path,
    start_server,
    name: str,
    ignore: tuple[str, ...],
) -> None:
    with start_server(notebook.parent, tmp_path) as url:
        page = browser.new_page(viewport={"width": 1400, "height": 2600})
        watch = PageWatch()
        watch.attach(page)
        page.goto(url.format(path=notebook.name))
        run_all_cells_in_lab(page, '.hl-nb-lab [data-square="A1"]')
        play_with_the_lab(page, name)
        check_watch(watch, ignore=ignore)
        assert not watch.blocked
        page.close()


@pytest.mark.browser
def test_lab_in_voila(browser, notebook: pathlib.Path, tmp_path: pathlib.Path) -> None:
    with voila(notebook, tmp_path) as url:
        page = browser.new_page(viewport={"width": 1400, "height": 2600})
        watch = PageWatch()
        watch.attach(page)
        page.goto(url)
        page.wait_for_selector('.hl-nb-lab [data-square="A1"]', timeout=90_000)
        play_with_the_lab(page, "nb-lab-voila")
        check_watch(watch)
        page.close()

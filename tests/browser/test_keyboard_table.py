"""The game table with the keyboard alone (issue 27), in Voila at 1366x768 and 1920x1080.

Build a tile on a phase-1 square, meet a square of the other phase (marked and refused, not
faded), go back to setup with New game and Start again: focus never falls to <body>, the
panel's one announcer (made once) reads each change, and no button is named "?" or by a bare
team name.
"""

from __future__ import annotations

from typing import Any

import pytest

from .harness import ROOT, screenshot
from .keyboard import Keys, has, wait_until

pytestmark = pytest.mark.browser

APP = ROOT / "housing_lab" / "apps" / "table.ipynb"
SIZES = {"chromebook": (1366, 768), "projector": (1920, 1080)}
ANNOUNCER = ".hl-gt-part-top > .hl-announcer"
NAMES = """() => Array.from(document.querySelectorAll('.hl-game-table button'))
  .map((b) => (b.getAttribute('aria-label') || b.textContent).trim())"""


def announced(page: Any) -> str:
    return page.locator(ANNOUNCER).text_content() or ""


def stage(page: Any) -> str:
    return page.get_attribute(".hl-gt-decision", "data-stage") or ""


@pytest.mark.parametrize("size", sorted(SIZES))
def test_game_table_by_keyboard_alone(open_page: Any, size: str) -> None:
    page, watch = open_page(APP, size=SIZES[size], ready='.hl-gt-decision[data-stage="phase1"]')
    page.evaluate("() => { document.querySelector('.hl-announcer').dataset.first = 'yes'; }")
    keys = Keys(page)

    # the board: one tab stop; B1 is a phase-1 square
    keys.until("Tab", has("data-square"), 40, "the board")
    assert page.locator('.hl-nb-board [data-square][tabindex="0"]').count() == 1
    keys.until("ArrowRight", has("data-square", "B1"), 3, "B1")
    keys.press("Enter")
    keys.press("Tab")
    assert has("data-tile-choice")(keys.active()), keys.active()
    tile = keys.active()["attrs"]["data-tile-choice"]
    keys.press("Enter", settle_ms=500)
    page.wait_for_selector(f'.hl-nb-board [data-square="B1"][data-tile="{tile}"]')
    wait_until(lambda: "B1:" in announced(page), f"the tile read out ({announced(page)!r})")
    assert has("data-tile-choice", tile)(keys.active()), "focus left the building"

    # a square of the other phase: said, marked, refused without a mouse
    keys.until("Shift+Tab", has("data-square"), 4, "the board again")
    keys.until("ArrowLeft", has("data-square", "A1"), 3, "A1")
    locked = keys.active()["attrs"]
    assert locked.get("aria-disabled") == "true" and "not in play" in locked["aria-label"]
    keys.press("Enter")
    wait_until(
        # the table says why on its message line, read out by the panel's one announcer
        lambda: "built in phase 2" in page.locator(ANNOUNCER).inner_text(),
        "the refusal read out",
    )
    assert page.locator('.hl-nb-board [data-square="A1"]').get_attribute("aria-pressed") == (
        "false"
    )
    opacity = page.eval_on_selector(
        '.hl-nb-board [data-square="A1"]', "n => getComputedStyle(n).opacity"
    )
    assert opacity == "1", f"the other phase is faded (opacity {opacity}): text loses contrast"
    screenshot(page, f"keyboard-table-{size}")
    names = page.evaluate(NAMES)

    # New game: back to setup, then Start: focus stays in the table both times
    page.locator('.hl-gt [data-action="new-game"]').focus()
    keys.press("Enter", settle_ms=600)
    wait_until(lambda: stage(page) in ("setup", ""), "the setup screen")
    page.wait_for_timeout(300)
    assert not keys.active()["body"], "focus fell to <body> after New game"
    keys.until("Tab", has("data-action", "start"), 30, "Start the game")
    keys.press("Enter", settle_ms=600)
    wait_until(lambda: stage(page) == "phase1", "phase 1 again")
    page.wait_for_timeout(300)
    assert not keys.active()["body"], "focus fell to <body> after Start"
    wait_until(lambda: "Phase 1" in announced(page), f"phase 1 read out ({announced(page)!r})")
    announcers = page.locator(".hl-gt-part-top .hl-announcer").count()
    first = page.evaluate(
        "() => document.querySelector('.hl-gt-part-top .hl-announcer').dataset.first"
    )
    page.close()
    assert keys.lost == [], f"focus fell to <body> after {keys.lost}"
    assert "?" not in names, "a button is named '?'"
    assert not {"Red", "Blue", "Green"} & set(names), f"buttons named by a team alone: {names}"
    assert announcers == 1 and first == "yes", "the panel's announcer was rebuilt or doubled"
    assert watch.our_errors(ignore=("@jupyter-notebook/lab-extension",)) == []

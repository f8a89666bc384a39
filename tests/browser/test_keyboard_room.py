"""A North Berkeley room's team page with the keyboard alone (issue 27): join by the team's
link, choose a square, choose a building, hear and see the result, at 1366x768, 1920x1080 and
on a phone (390x844). At most 25 keys; focus never falls to <body>; the board's one announcer
reads out the square chosen and the building placed."""

from __future__ import annotations

from typing import Any

import pytest

from .harness import PageWatch, screenshot
from .keyboard import Announcer, Keys, has, wait_until
from .servers import RoomServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SIZES = {"chromebook": (1366, 768), "projector": (1920, 1080), "phone": (390, 844)}
BUDGET = 25
READY = ".hl-classroom-title h2"
ANNOUNCER = ".hl-nb-board .hl-announcer"


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_team_builds_in_a_room_by_keyboard_alone(
    browser: Any, rooms: RoomServer, size: str
) -> None:
    store, _, urls = rooms.create(["Red", "Blue"], seed=3)
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        watch = PageWatch()
        watch.attach(page)
        page.goto(urls["Red"], timeout=180_000)  # joining is opening the team's link
        page.wait_for_selector(READY, timeout=180_000)
        page.wait_for_selector(".hl-nb-board [data-square]", timeout=60_000)
        heard = Announcer(page, ANNOUNCER).listen()
        keys = Keys(page)
        keys.until("Tab", has("data-square"), 30, "the board")
        keys.until("ArrowRight", has("data-square", "B1"), 3, "B1")
        keys.press("Enter")
        heard.wait_for("B1")
        keys.press("Tab")
        assert has("data-tile-choice")(keys.active()), keys.active()
        keys.press("End")  # the Park is the last building
        assert has("data-tile-choice", "park")(keys.active()), keys.active()
        keys.press("Enter", settle_ms=500)
        page.wait_for_selector('.hl-nb-board [data-square="B1"][data-tile="park"]', timeout=30_000)
        wait_until(
            lambda: any("Park" in t for t in heard.heard()), f"the Park read out {heard.heard()}"
        )
        active = keys.active()
        screenshot(page, f"keyboard-room-team-{size}")
        said = heard.heard()
    finally:
        context.close()
        store.close()
    print(f"the room task took {keys.count} keys (budget {BUDGET}); heard {said}")
    assert keys.lost == [], f"focus fell to <body> after {keys.lost}"
    assert not active["body"], active
    assert keys.count <= BUDGET, f"the room task took {keys.count} keys"
    assert watch.our_errors(ignore=("@jupyter-notebook/lab-extension",)) == []

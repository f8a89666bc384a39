"""A Streetcar room through Voila: two team pages at 1366x768 and the projector at 1920x1080,
each in its own browser context. Red (purple) plays turn 1 by clicking two lines on the shared
board; the store logs it, and Blue's page and the projector show the purple lines (glowing as
the last turn); then Blue plays turn 2 (lines, then a house) and Red's page sees the house go.
Screenshots of all three pages."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest

from housing_lab.streetcar import Game
from housing_lab.widgets.streetcar.board import edge_key, hex_key

from .harness import FOREIGN_ERRORS, SCREENSHOTS, PageWatch
from .servers import RoomServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

READY = ".hl-classroom-streetcar [data-edge]"


@contextlib.contextmanager
def streetcar_room(rooms: RoomServer) -> Iterator[tuple[Any, dict[str, Any], dict[str, str]]]:
    """A Streetcar room of two teams on the session's room page."""
    store, created, urls = rooms.create(["Red", "Blue"], seed=1, game="streetcar")
    try:
        yield store, created, urls
    finally:
        store.close()


def edge(key: str) -> str:
    return f'.hl-classroom-streetcar [data-edge="{key}"]'


def test_two_teams_play_a_streetcar_turn_through_voila(browser, rooms: RoomServer):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    first, second = (edge_key(e) for e in Game(seed=1).legal_line_choices()[0])
    with streetcar_room(rooms) as (store, created, urls):
        pages, watches = {}, {}
        sizes = {"Red": (1366, 768), "Blue": (1366, 768), "teacher": (1920, 1080)}
        for who, (width, height) in sizes.items():
            context = browser.new_context(viewport={"width": width, "height": height})
            page = context.new_page()
            watches[who] = PageWatch()
            watches[who].attach(page)
            page.goto(urls[who])
            pages[who] = page
        for page in pages.values():
            page.wait_for_selector(READY, timeout=180_000)
        red, blue = pages["Red"], pages["Blue"]
        assert "Red (purple) is playing" in blue.inner_text(".hl-classroom-streetcar")
        blue.click(edge(first))  # not Blue's turn: refused on the board, nothing logged
        blue.wait_for_selector(".hl-classroom-streetcar .hl-error")
        red.click(edge(first))
        red.wait_for_selector(f"{edge(first)}.sc-first")
        red.wait_for_selector(f"{edge(second)}.sc-second")
        red.click(edge(second))
        blue.wait_for_selector(f'{edge(first)}[data-player-line="purple"]', timeout=10_000)
        blue.wait_for_selector(f'{edge(second)}[data-player-line="purple"]', timeout=10_000)
        red.wait_for_selector(f'{edge(second)}[data-player-line="purple"]', timeout=10_000)
        teacher = pages["teacher"]
        teacher.wait_for_selector(f'{edge(second)}[data-player-line="purple"]', timeout=10_000)
        blue.wait_for_selector(f"{edge(first)} .sc-edge-halo", state="attached")  # glows: last turn
        log = store.log(created["room"], created["teacher"]["token"])
        assert len(log) == 1 and log[0].actor == "team:Red"
        blue.wait_for_function(
            "() => document.querySelector('.hl-classroom-streetcar .sc-prompt')"
            ".textContent.includes('Turn 2 · Blue (red)')",
            timeout=10_000,
        )
        blue.screenshot(path=str(SCREENSHOTS / "classroom-streetcar-blue-1366.png"))
        # Blue's turn 2: two lines, then a house; Red's page sees the house go
        game = Game(seed=1)
        game.apply(log[0].action)
        lines, house = game.legal_line_choices()[0], hex_key(game.removable_houses()[0])
        for line in lines:
            blue.click(edge(edge_key(line)))
        removable = f'.hl-classroom-streetcar .sc-house.sc-removable[data-hex="{house}"]'
        blue.click(removable)
        gone = f'.hl-classroom-streetcar .sc-house[data-hex="{house}"]'
        red.wait_for_selector(gone, state="detached", timeout=10_000)
        assert len(store.log(created["room"], created["teacher"]["token"])) == 2
        red.screenshot(path=str(SCREENSHOTS / "classroom-streetcar-red-1366.png"))
        teacher.screenshot(path=str(SCREENSHOTS / "classroom-streetcar-teacher-1920.png"))
        for team, watch in watches.items():
            assert watch.our_errors(FOREIGN_ERRORS) == [], team

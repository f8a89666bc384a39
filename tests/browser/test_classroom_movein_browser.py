"""Room pages in a browser (issue 24, deliver 5-6): a phone team page (390x844) keeps the
building choices in view after a tap and says why a tap breaks a rule; at game end the
projector (1920x1080 and 1366x768) plays the move-in with its chart, then the scores and every
team's cards face up; the phone shows the chart, its own cards' results and the other team's
cards, with no building choices left; on a laptop (1366x768, 1920x1080) a team page has the
chart in view without scrolling."""

from __future__ import annotations

from typing import Any

import pytest

from .harness import FOREIGN_ERRORS, SCREENSHOTS, PageWatch, settle
from .servers import RoomServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TEAMS = ["Red", "Blue"]
READY = ".hl-classroom-title h2"
PHONE = (390, 844)
PROJECTORS = ((1920, 1080), (1366, 768))
IN_VIEW = """(selector) => Array.from(document.querySelectorAll(selector)).map((n) => {
  const r = n.getBoundingClientRect();
  return [r.left, r.top, r.right, r.bottom];
})"""


def open_page(browser: Any, url: str, size: tuple[int, int]) -> tuple[Any, Any, PageWatch]:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    watch = PageWatch()
    watch.attach(page)
    page.goto(url, timeout=180_000)  # Voila renders the page with its kernel: slow when loaded
    page.wait_for_selector(READY, timeout=180_000)
    return context, page, watch


def boxes(page: Any, selector: str) -> list[list[float]]:
    return page.evaluate(IN_VIEW, selector)


def inside(box: list[float], size: tuple[int, int]) -> bool:
    left, top, right, bottom = box
    return left >= 0 and top >= 0 and right <= size[0] and bottom <= size[1] and right > left


def play_to_the_end(store: Any, code: str, tokens: dict[str, str]) -> None:
    for _ in range(200):
        teacher = store.view(code, tokens["teacher"])
        if teacher["phase"] == "over":
            return
        for team in TEAMS:
            actions = store.view(code, tokens[team])["legal_actions"]
            mine = [
                a
                for a in actions
                if a["action"] == "pick"
                or (a["action"] == "place" and a["square"] in teacher["empty_squares"])
            ]
            if mine:
                store.act(code, tokens[team], mine[0])
                break
        else:
            store.act(code, tokens["teacher"], teacher["legal_actions"][-1])
    raise AssertionError("the game did not end")


def test_phone_choices_in_view_and_the_move_in_on_every_screen(browser, rooms: RoomServer):
    """Three devices, as in class: the projector's page open from the codes to the scores, a
    phone, and a laptop; each screen size is a window resized, not another page load."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    store, created, urls = rooms.create(TEAMS, seed=6)
    tokens = {"teacher": created["teacher"]["token"]}
    tokens.update({team: created["teams"][team]["token"] for team in TEAMS})
    code = created["room"]
    opened = []
    try:
        # before play, at 1366x768: each team's QR code and its full join link on the screen,
        # one team at a time (Next team)
        context, projector, projector_watch = open_page(browser, urls["teacher"], PROJECTORS[1])
        opened.append(context)
        projector.wait_for_selector(".hl-classroom-join svg", timeout=20_000)
        caption = projector.locator(".hl-classroom-join figcaption a")
        shown = []
        for team in TEAMS:
            projector.wait_for_selector(f'.hl-classroom-join[data-team="{team}"]')
            assert projector.locator(".hl-classroom-join svg").count() == 1
            shown.append(caption.inner_text())
            for box in boxes(projector, ".hl-classroom-join svg"):
                assert box[0] >= 0 and box[2] <= PROJECTORS[1][0], box
            projector.click(".hl-classroom-codes-nav button:has-text('Next team')")
        assert shown == [urls[team] for team in TEAMS]
        projector.screenshot(path=str(SCREENSHOTS / "classroom_codes_1366.png"), full_page=True)
        context, phone, phone_watch = open_page(browser, urls["Red"], PHONE)
        opened.append(context)
        # existing residents on the board from the start
        phone.wait_for_selector(".hl-nb-board .hl-existing .hl-resident", timeout=20_000)
        # a tap on a phase-1 square: every building choice is on the screen
        phone.locator('.hl-nb-board [data-square="B1"]').first.click()
        phone.wait_for_function(
            "() => (document.querySelector('.hl-nb-board .hl-message') || {}).textContent"
            "?.includes('B1 chosen')",
            timeout=10_000,
        )
        choices = boxes(phone, "[data-tile-choice]")
        assert len(choices) >= 8, choices
        phone.screenshot(path=str(SCREENSHOTS / "classroom_phone_tap_390.png"))
        outside = [box for box in choices if not inside(box, PHONE)]
        assert outside == [], f"building choices off the phone's screen: {outside}"
        phone.locator('[data-tile-choice="park"]').first.click()
        phone.wait_for_function(
            "() => document.querySelector('.hl-classroom-notice').textContent"
            ".includes('You built a Park on B1')",
            timeout=10_000,
        )
        # a phase-2 square in phase 1: the engine's reason, at the board
        phone.locator('.hl-nb-board [data-square="A1"]').first.click()
        phone.wait_for_function(
            "() => document.querySelector('.hl-nb-board .hl-message').textContent"
            ".includes('You cannot build on A1')",
            timeout=10_000,
        )
        message = phone.inner_text(".hl-nb-board .hl-message")
        assert "phase-1" in message or "phase 1" in message, message
        assert inside(boxes(phone, ".hl-nb-board .hl-message")[0], PHONE)

        play_to_the_end(store, code, tokens)
        phone.wait_for_selector(".hl-movein-chart", timeout=20_000)
        # Issue 44: the phone follows the projector (no scores before the teacher shows
        # them), with its own "Show me the final result"
        assert "Your cards' results" not in phone.inner_text("body")
        assert "Winner" not in phone.inner_text("body")
        projector.wait_for_selector(".hl-movein-chart", timeout=20_000)
        projector.locator("button.hl-movein-next").click()
        for page in (projector, phone):
            page.wait_for_function(
                "() => document.body.innerText.includes('Move-in step 1 of 3')", timeout=10_000
            )
        phone.screenshot(path=str(SCREENSHOTS / "classroom_phone_following_390.png"))
        phone.locator("button.hl-movein-end").click()
        phone.wait_for_function(
            '() => document.body.innerText.includes("Your cards\' results")', timeout=10_000
        )
        assert "Move-in step 1 of 3" in projector.inner_text("body")  # the projector stays
        swatch = boxes(phone, ".hl-gt-swatch")
        assert swatch and swatch[0][2] - swatch[0][0] >= 10, swatch  # the legend's colours
        visible = phone.locator("[data-tile-choice]:visible").count()
        assert visible == 0, f"{visible} building choices still offered after the game"
        wide = phone.evaluate("document.documentElement.scrollWidth")
        assert wide <= PHONE[0], f"the phone page scrolls sideways ({wide}px)"
        phone.screenshot(path=str(SCREENSHOTS / "classroom_phone_over_390.png"), full_page=True)
        phone.screenshot(path=str(SCREENSHOTS / "classroom_phone_over_390_top.png"))
        assert phone.locator(".hl-classroom-faceup[data-team='Blue']").count() == 1

        # a team page on a laptop: the chart in view, no scrolling, at either size
        context, laptop, watch = open_page(browser, urls["Red"], PROJECTORS[0])
        opened.append(context)
        laptop.wait_for_selector(".hl-movein-chart", timeout=20_000)
        for size in PROJECTORS:
            laptop.set_viewport_size({"width": size[0], "height": size[1]})
            settle(laptop)
            chart = boxes(laptop, ".hl-movein-chart")[0]
            assert inside(chart, size), f"'Who is housed?' off the screen at {size}: {chart}"
            laptop.screenshot(path=str(SCREENSHOTS / f"classroom_team_over_{size[0]}.png"))
        assert watch.our_errors(ignore=FOREIGN_ERRORS) == [], watch.console_errors

        # the projector's page, open since the codes, plays the move-in at either size
        assert "Winner" not in projector.inner_text("body")  # the move-in comes first
        for size in PROJECTORS:
            projector.set_viewport_size({"width": size[0], "height": size[1]})
            settle(projector)
            for part in (".hl-nb-board .hl-board-svg", ".hl-movein-chart", "button.hl-movein-next"):
                box = boxes(projector, part)[0]
                assert box[2] <= size[0] and box[0] >= 0, (size, part, box)
            projector.screenshot(path=str(SCREENSHOTS / f"classroom_movein_{size[0]}.png"))
        for step in (2, 3):
            projector.locator("button.hl-movein-next").click()
            projector.wait_for_function(
                f"() => document.body.innerText.includes('Move-in step {step} of 3')",
                timeout=10_000,
            )
        projector.locator("button.hl-movein-next").click()
        projector.wait_for_function(
            "() => document.body.innerText.includes('Final scores')", timeout=10_000
        )
        assert "Winner" in projector.inner_text("body")
        final = store.view(code, tokens["teacher"])["scores"]["cards"]
        body = projector.inner_text("body")  # every hand face up now
        assert all(card["name"] in body for hand in final.values() for card in hand)
        for size in reversed(PROJECTORS):
            projector.set_viewport_size({"width": size[0], "height": size[1]})
            settle(projector)
            projector.screenshot(path=str(SCREENSHOTS / f"classroom_scores_{size[0]}.png"))
        assert projector_watch.our_errors(ignore=FOREIGN_ERRORS) == [], (
            projector_watch.console_errors
        )
        assert phone_watch.our_errors(ignore=FOREIGN_ERRORS) == [], phone_watch.console_errors
    finally:
        for context in opened:
            context.close()
        store.close()

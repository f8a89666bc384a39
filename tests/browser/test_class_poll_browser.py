"""A class poll as a class runs it: `housing-lab class --lesson 3 --lesson-pages 1` serving,
the projector at 1920x1080 and three devices (two phones at 390x844, a Chromebook at 1366x768)
on their own browser contexts, each opening the one join link. The first phone lands in
lesson 3 as an app in class mode (through the lesson gate: a kernel for a device of an open
class); the lesson pages are then full, so the others land on the light answer page (no
kernel). Answers reach the projector's count within a second (median), the distribution
appears only when the teacher shows it, a second vote is kept apart from the first, and the
reveal reaches every device and unlocks the lesson's "Run the model". Screenshots: the
projector at 1920x1080 and 1366x768, the join flow (the lesson app at 390x844 and 1366x768,
the light page on a phone and the Chromebook). And a lesson's question in class mode on a
Voila page (the session's Voila)."""

from __future__ import annotations

import os
import re
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import pytest

from housing_lab.rooms.class_poll import ClassStore

from .harness import SCREENSHOTS, PageWatch, axe, free_port, screenshot, server, write_notebook
from .test_accessibility import BLOCKING, describe

pytestmark = [pytest.mark.browser, pytest.mark.slow]

DEVICES = {"phone-1": (390, 844), "chromebook": (1366, 768), "phone-2": (390, 844)}
IN_THE_APP = "phone-1"  # the first to join gets the one lesson page (`--lesson-pages 1`)
WORDS = {"more": "More", "same": "The same", "fewer": "Fewer"}
QUESTION = "l3-vacancy-control"
FIRST_VOTE = {"phone-1": "more", "chromebook": "same", "phone-2": "same"}
SECOND_VOTE = {"phone-1": "more", "chromebook": "more", "phone-2": "same"}
# A liveness bound for each answer; the median must be under a second (the projector asks
# every 0.5 s). On a loaded 2-core machine one answer can take longer.
SEE_WITHIN = 3.0


def wait_until(check: Callable[[], Any], seconds: float, what: str) -> float:
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        if check():
            return time.monotonic() - start
        time.sleep(0.02)
    raise AssertionError(f"not within {seconds} s: {what}")


def screen(page: Any, shown: Any, name: str) -> None:
    """What the device's screen shows with `shown` scrolled into view (a lesson page is long)."""
    shown.scroll_into_view_if_needed()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def answered(projector: Any) -> int:
    text = projector.locator(".hl-class-count-now").inner_text()
    return int(text) if text.isdigit() else -1


def test_projector_and_three_devices_poll_one_lesson(browser, tmp_path) -> None:
    port = free_port()
    store = "sqlite:///" + str(tmp_path / "rooms.sqlite")
    command = [sys.executable, "-m", "housing_lab.cli", "class", "--lesson", "3"]
    command += ["--port", str(port), "--store", store, "--no-browser", "--lesson-pages", "1"]
    log = tmp_path / "class.log"
    ready = f"http://127.0.0.1:{port}/housing-lab/class/static/class.css"
    contexts = []
    # the test's pages all come from this computer: gate them as the Wi-Fi's would be
    config = tmp_path / "config"
    config.mkdir()
    (config / "voila.json").write_text('{"HousingLabVoila": {"trust_loopback": false}}')
    with server(command, ready, {**os.environ, "JUPYTER_CONFIG_DIR": str(config)}, log):
        printed = log.read_text()
        teacher_url = re.search(r"Teacher \(projector\): (\S+)", printed).group(1)
        join_url = re.search(r"Students join: (\S+)", printed).group(1)
        code = re.search(r"class=([A-Z0-9]+)", join_url).group(1)
        token = teacher_url.split("#key=", 1)[1]

        def open_page(url: str, size: tuple[int, int], ready: str) -> tuple[Any, PageWatch]:
            context = browser.new_context(viewport={"width": size[0], "height": size[1]})
            contexts.append(context)
            page = context.new_page()
            watch = PageWatch()
            watch.attach(page)
            page.goto(url)
            page.wait_for_selector(ready, timeout=120_000)
            return page, watch

        projector, projector_watch = open_page(teacher_url, (1920, 1080), ".hl-class-question")
        assert "#key=" not in projector.url  # the token leaves the address bar
        in_app = ".hl-predict:has-text('Enact vacancy control') .hl-predict-lock"
        devices = {
            who: open_page(join_url, size, in_app if who == IN_THE_APP else ".hl-class-question")
            for who, size in DEVICES.items()
        }
        lesson = devices[IN_THE_APP][0]
        assert "/voila/render/03_policies.ipynb" in lesson.url
        assert f"#class={code}&device=" in lesson.url  # class mode: the fragment, no query
        question = lesson.locator(".hl-predict").filter(has_text="Enact vacancy control")
        question.locator(".hl-predict-lock").filter(has_text="Send my answer").wait_for()
        screen(lesson, question, "class-poll-join-lesson-390x844")
        light = {who: page for who, (page, _) in devices.items() if who != IN_THE_APP}
        for page in light.values():  # the lesson pages are full: the light page, no kernel
            assert "light=1" in page.url and "/voila/" not in page.url
        wait_until(
            lambda: projector.locator(".hl-class-joined").inner_text() == "3 joined",
            SEE_WITHIN,
            "three devices joined",
        )

        def vote(choices: dict[str, str], round_: int) -> list[float]:
            seen = []
            for count, (who, choice) in enumerate(choices.items(), start=1):
                if who == IN_THE_APP:  # the lesson's own question, from its kernel
                    question.locator("label").filter(has_text=WORDS[choice]).click()
                    question.locator(".hl-predict-lock").click()
                else:
                    light[who].click(f"[data-question='{QUESTION}'] input[value='{choice}']")
                seen.append(
                    wait_until(
                        lambda count=count: answered(projector) == count,
                        SEE_WITHIN,
                        f"{who}'s answer in vote {round_} on the projector",
                    )
                )
            return seen

        delays = vote(FIRST_VOTE, 1)
        assert projector.locator(".hl-class-chart").count() == 0  # not shown yet
        for page in light.values():
            assert page.locator(".hl-class-chart").count() == 0
            assert "%" not in page.locator(f"[data-question='{QUESTION}']").inner_text()

        projector.click(".hl-class-show")
        projector.wait_for_selector(".hl-class-chart")
        more = projector.locator("[data-choice='more'] .round-1 .hl-class-count").inner_text()
        assert more.startswith("1 ")
        for page in light.values():
            page.wait_for_selector(f"[data-question='{QUESTION}'] .hl-class-chart")

        projector.click(".hl-class-again")
        wait_until(
            lambda: "(vote 2)" in projector.locator(".hl-class-answered").inner_text(),
            SEE_WITHIN,
            "the second vote on the projector",
        )
        assert projector.locator(".hl-class-chart").count() == 0  # hidden again
        for page in light.values():
            page.wait_for_selector(f"[data-question='{QUESTION}'] .hl-class-round-note")
        question.filter(has_text="Vote again").wait_for(timeout=SEE_WITHIN * 1000)
        delays += vote(SECOND_VOTE, 2)
        assert statistics.median(delays) < 1.0, delays

        projector.click(".hl-class-show")
        projector.wait_for_selector(".hl-class-chart .round-2")
        tally = ClassStore(store).tally(code, token)["questions"][0]["rounds"]
        assert [r["counts"] for r in tally] == [
            {"more": 1, "same": 2, "fewer": 0},
            {"more": 2, "same": 1, "fewer": 0},
        ]
        for choice, first, second in (("more", "1 ", "2 "), ("same", "2 ", "1 ")):
            rows = projector.locator(f"[data-choice='{choice}']")
            assert rows.locator(".round-1 .hl-class-count").inner_text().startswith(first)
            assert rows.locator(".round-2 .hl-class-count").inner_text().startswith(second)

        # the app ran every cell on load, the device sent its answer: what answers the
        # predictions (lesson 3's table, chart and notes) still waits for the reveal
        gates = lesson.locator(".hl-after")
        assert gates.count() > 0 and lesson.locator(".hl-after table").count() == 0
        assert gates.filter(has_text="Make your prediction above first").count() == gates.count()
        projector.click(".hl-class-reveal")
        run = question.locator(".hl-predict-run")
        wait_until(run.is_enabled, 2 * SEE_WITHIN, "the reveal unlocking the lesson's run")
        for who, page in light.items():
            answer = page.locator(f"[data-question='{QUESTION}'] .hl-class-answer")
            answer.wait_for(timeout=SEE_WITHIN * 1000)
            verdict = "You were right." if SECOND_VOTE[who] == "more" else "You chose The same."
            assert answer.inner_text() == f"Answer: More. {verdict}"
            assert page.locator(f"[data-question='{QUESTION}'] input:disabled").count() == 3

        run.click()
        question.locator(".hl-quiz-feedback").filter(has_text="Right").wait_for(timeout=30_000)
        screenshot(projector, "class-poll-projector-1920x1080")
        projector.set_viewport_size({"width": 1366, "height": 768})
        screenshot(projector, "class-poll-projector-1366x768")
        screen(lesson, question, "class-poll-join-lesson-revealed-390x844")
        lesson.set_viewport_size({"width": 1366, "height": 768})
        screen(lesson, question, "class-poll-join-lesson-1366x768")
        screenshot(light["phone-2"], "class-poll-phone-390x844")
        screenshot(light["chromebook"], "class-poll-chromebook-1366x768")
        for page in (projector, light["phone-2"]):
            found = axe().Axe().run(page).response["violations"]
            blocking = [describe(v) for v in found if v["impact"] in BLOCKING]
            assert blocking == [], blocking
        # a device's lesson page has no "Start a class poll" link (the teacher's pages do)
        assert lesson.locator(".hl-class-start-link").count() == 0

        # the teacher closes the class: the light pages drop the lesson's link, and nothing
        # left out of a page is written on it ("null" was, by replaceChildren)
        projector.once("dialog", lambda dialog: dialog.accept())
        projector.click(".hl-class-close")
        for page in light.values():
            wait_until(
                lambda page=page: page.locator(".hl-class-app-note").count() == 0,
                SEE_WITHIN,
                "a light page seeing the class closed",
            )
            assert "null" not in page.locator("#app").inner_text()
        # what that link opens on the teacher's computer: the projector page, ready to start
        projector.goto(f"http://127.0.0.1:{port}/housing-lab/class?lesson=3")
        assert projector.locator("#lesson").input_value() == "3"
        projector.click(".hl-class-start")
        projector.wait_for_selector(".hl-class-question")
        assert projector.locator(".hl-class-joined").inner_text() == "0 joined"
        assert code not in projector.url and "#key=" not in projector.url
        for _, watch in [(projector, projector_watch), *devices.values()]:
            watch.check()
        for context in contexts:
            context.close()
    assert token not in log.read_text().split("Students join:", 1)[1]  # not in the access log


def test_a_lesson_question_in_class_mode_sends_and_unlocks(browser, voila, tmp_path) -> None:
    """A lesson's `PredictThenRun` on a Voila page opened with `#class=CODE`: the device's
    choice reaches the class's store from the page's kernel, the run stays locked, and the
    teacher's reveal unlocks it."""
    store = "sqlite:///" + str(tmp_path / "rooms.sqlite")
    polls = ClassStore(store)
    made = polls.create_class(3)
    code, token = made["class"], made["teacher"]["token"]
    folder = voila.root / f"class-mode-{code}"
    folder.mkdir()
    write_notebook(
        folder / "lesson.ipynb",
        [
            f"import os\nos.environ['HOUSING_LAB_ROOMS'] = {store!r}\n"
            "from housing_lab.widgets import PredictThenRun\n"
            f"PredictThenRun({QUESTION!r})"
        ],
    )
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = context.new_page()
        watch = PageWatch()
        watch.attach(page)
        page.goto(voila.url(f"class-mode-{code}/lesson.ipynb") + f"#class={code}", timeout=120_000)
        lock = page.locator(".hl-predict-lock")
        lock.filter(has_text="Send my answer").wait_for(timeout=60_000)
        page.locator(".hl-predict label").filter(has_text="The same").click()
        lock.click()

        def sent() -> dict[str, int]:
            return polls.tally(code, token)["questions"][0]["rounds"][0]["counts"]

        wait_until(lambda: sent()["same"] == 1, SEE_WITHIN, "the page's answer in the store")
        page.locator(".hl-predict label").filter(has_text="More").click()
        lock.click()
        wait_until(lambda: sent() == {"more": 1, "same": 0, "fewer": 0}, SEE_WITHIN, "changed")
        run = page.locator(".hl-predict-run")
        assert run.is_disabled()
        polls.reveal(code, token, QUESTION)
        wait_until(run.is_enabled, 3 * SEE_WITHIN, "the reveal unlocking Run the model")
        run.click()
        page.locator(".hl-quiz-feedback").filter(has_text="Right").wait_for(timeout=30_000)
        screenshot(page, "class-poll-lesson-question-1366x768")
        watch.check()
        page.goto("about:blank")  # Voila stops the page's kernel
    finally:
        context.close()
        polls.close()

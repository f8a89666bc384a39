"""The classroom game table in a real browser: a whole game played by clicking (JupyterLab),
hidden hands, handouts, setup and resume (Voila). Screenshots go to test-artifacts/."""

from __future__ import annotations

import json
import pathlib
import time
from typing import Any

import pytest

from housing_lab.north_berkeley.play.game import Game
from housing_lab.widgets.table.charts import chart_rows, outcomes_so_far

from .harness import (
    SCREENSHOTS,
    screenshot,
    settle,
)
from .nb_page import bar_values
from .test_nb_lab_browser import check_watch

TABLE = ".hl-game-table"
READ = """() => {
  const q = (s) => document.querySelector(s);
  const tiles = {};
  for (const n of document.querySelectorAll('.hl-game-table [data-square][data-tile]')) {
    tiles[n.getAttribute('data-square')] = n.getAttribute('data-tile');
  }
  const chart = q('.hl-game-table .hl-movein-chart');
  const height = (r) => parseFloat(r.getAttribute('height')) || 0;
  const bars = chart ? Array.from(chart.querySelectorAll('g.bargroup'))
    .map((g) => Array.from(g.querySelectorAll('rect.bar')).map(height)) : [];
  const decision = q('.hl-gt-decision');
  const message = q('.hl-gt-message');
  const finals = {};
  for (const n of document.querySelectorAll('.hl-gt-final-team')) {
    finals[n.getAttribute('data-team')] =
      [+n.getAttribute('data-total'), +n.getAttribute('data-minus')];
  }
  const winner = q('.hl-gt-winner');
  const heading = decision ? decision.querySelector('h3') : null;
  return {tiles, bars, kind: decision ? decision.getAttribute('data-kind') : null,
          stage: decision ? decision.getAttribute('data-stage') : null,
          heading: heading ? heading.textContent : '',
          message: message ? message.textContent : '', finals,
          winners: winner ? winner.getAttribute('data-winners') : null};
}"""


def read(page: Any) -> dict[str, Any]:
    return page.evaluate(READ)


def wait_until(page: Any, check: Any, what: str, timeout: float = 15.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    seen: dict[str, Any] = {}
    while time.monotonic() < deadline:
        seen = read(page)
        if check(seen):
            return seen
        time.sleep(0.1)
    raise AssertionError(f"page never showed {what}; saw {seen}")


def wait_stage(page: Any, stage: str) -> dict[str, Any]:
    return wait_until(page, lambda s: s["stage"] == stage, f"stage {stage}")


def bar_columns(bars: list[list[float]]) -> list[float]:
    """Stacked bar heights per income column (pixels): what the class sees grow."""
    return [sum(group) for group in bars[:3]]


def play_whole_game(page: Any, name: str) -> None:
    """Phase 1 by mouse and keyboard, the real countdown, extra draw, draft, policies,
    phase 2 with a refused tile, move-in wave by wave, the scores, and a saved game."""
    table = page.locator(TABLE)
    wait_stage(page, "phase1")
    # a square of phase 2 clicked in phase 1 says why on the message line
    page.click(f'{TABLE} .hl-square.hl-locked[data-square="A1"]', force=True)  # aria-disabled
    wait_until(page, lambda s: "built in phase 2" in s["message"], "why A1 is not in play")
    page.click('[data-square="B1"]')
    page.click('[data-tile-choice="tower_market"]')
    wait_until(page, lambda s: s["tiles"] == {"B1": "tower_market"}, "B1 placed")
    page.locator('[data-square="C1"]').focus()  # keyboard: Enter on a square, Enter on a tile
    page.keyboard.press("Enter")
    page.locator('[data-tile-choice="park"]').focus()
    page.keyboard.press("Enter")
    wait_until(page, lambda s: s["tiles"].get("C1") == "park", "C1 placed by keyboard")
    page.click('[data-action="next"]')  # refused: B2 and C2 are empty
    wait_until(page, lambda s: "still empty" in s["message"], "the engine's refusal")
    assert read(page)["stage"] == "phase1"

    assert page.locator('[data-action="call-state"]').is_disabled()  # the timer has not run
    page.click('[data-action="timer-toggle"]')
    page.wait_for_selector('[data-action="call-state"]:not([disabled])', timeout=10_000)
    screenshot(table, f"{name}-1-phase1-time-up")
    page.click('[data-action="call-state"]')
    wait_until(page, lambda s: len(s["tiles"]) == 4, "the state filling B2 and C2")
    page.locator('[data-action="next"]').focus()
    page.keyboard.press("Enter")

    wait_stage(page, "extra_draw")
    screenshot(table, f"{name}-2-extra-draw")
    redraw = page.locator("[data-redraw]:not([disabled])")
    if redraw.count():
        before = page.locator(".hl-gt-extra").inner_text()
        redraw.first.click()
        page.wait_for_function(
            "(b) => document.querySelector('.hl-gt-extra').innerText !== b", arg=before
        )
    page.click('[data-action="next"]')

    wait_stage(page, "draft")
    screenshot(table, f"{name}-3-draft")
    for picks in range(3):
        heading = read(page)["heading"]
        page.locator("[data-pick]").first.click()
        if picks < 2:
            wait_until(page, lambda s, h=heading: s["heading"] != h, "the next team's turn")
    wait_stage(page, "policies")
    screenshot(table, f"{name}-4-policies")
    page.click('[data-enact*="+"]')  # enact both

    wait_stage(page, "phase2")
    page.click('[data-square="A1"]')
    page.wait_for_selector('[data-tile-choice="tower_market"][data-not-allowed]')  # greyed ...
    assert page.locator('[data-tile-choice="tower_public"][data-not-allowed]').count() == 0
    reason = page.get_attribute('[data-tile-choice="tower_market"]', "title")
    assert reason.endswith(
        "100% Affordable Housing allows only low/middle income tiles on phase-2 squares"
    ), reason  # the greyed tile says why on hover
    # aria-disabled, yet a mouse click still reaches the engine, which says why (in words);
    # force: Playwright will not click an aria-disabled button on its own
    page.click('[data-tile-choice="tower_market"]', force=True)
    page.wait_for_selector(".hl-gt-message.hl-error:has-text('A1 (Market Rate Tower)')")
    page.click('[data-tile-choice="tower_public"]')
    wait_until(page, lambda s: s["tiles"].get("A1") == "tower_public", "A1 placed")
    screenshot(table, f"{name}-5-phase2")
    page.click('[data-action="timer-toggle"]')  # the countdown runs ...
    page.wait_for_selector('.hl-gt-clock-status:has-text("Negotiating")')
    page.click('[data-action="call-now"]')
    wait_until(page, lambda s: len(s["tiles"]) == 9, "the state filling phase 2")
    page.wait_for_selector('.hl-gt-clock-status:has-text("Negotiation over")')  # ... and stops
    clock = page.locator("[data-timer]")
    stopped = clock.inner_text()
    time.sleep(1.2)
    assert clock.inner_text() == stopped == "0:00"
    page.click('[data-action="next"]')

    wait_stage(page, "movein")
    page.wait_for_selector(".hl-movein-chart rect.bar")
    columns = [bar_columns(wait_until(page, lambda s: s["bars"], "bars")["bars"])]
    screenshot(table, f"{name}-6-movein-before")
    for wave in range(1, 4):
        old = read(page)["heading"]
        page.click('[data-action="next"]')
        seen = wait_until(page, lambda s, o=old: s["heading"] != o, f"wave {wave}")
        settle(page, TABLE)  # the chart redraws its bars
        columns.append(bar_columns(read(page)["bars"]))
        if wave == 2:
            screenshot(table, f"{name}-7-movein-middle")
    assert "low income has moved in" in seen["heading"]
    screenshot(page.locator(".hl-gt-movein-row"), f"{name}-9-movein-board-and-chart")
    grown = [sum(c) for c in columns]
    assert grown == sorted(grown) and grown[-1] > grown[0], f"chart did not grow: {columns}"
    assert len(set(round(c) for c in columns[-1])) == 1, "every income ends at 12 residents"

    page.click('[data-action="next"]')
    final = wait_stage(page, "scoring")
    screenshot(table, f"{name}-8-scores")
    with page.expect_download() as download:
        page.click('[data-action="save"]')
    saved = json.loads(pathlib.Path(download.value.path()).read_text())
    game = Game.from_dict(saved)
    assert game.phase == "over" and game.players == ["Red", "Blue", "Green"]
    assert game.state.tiles["A1"] == "tower_public" and game.state.tiles["C1"] == "park"
    assert final["finals"] == {p: [s.total, s.minus_cards] for p, s in game.final_scores().items()}
    assert final["winners"].split("|") == game.winners()
    expected = chart_rows(outcomes_so_far(game.result().move_in))
    # the chart is drawn again for the scores and its bars grow from 0: wait for them
    wait_until(page, lambda s: bar_values(s["bars"]) == expected, "the final chart")


CELLS_LAB = [
    "from housing_lab.north_berkeley import RuleOptions\n"
    "from housing_lab.widgets import GameTable\n"
    "table = GameTable(teams=['Red', 'Blue', 'Green'], seed=3,\n"
    "                  options=RuleOptions(negotiation_minutes=0.04))\n"
    "table",
]


@pytest.mark.browser
def test_whole_game_by_clicking_in_jupyterlab(open_page) -> None:
    ready = f'{TABLE} [data-square="A1"]'
    page, watch = open_page(CELLS_LAB, app="lab", size=(1300, 4200), ready=ready)
    play_whole_game(page, "game-table-lab")
    check_watch(watch)
    assert not watch.blocked


def resume_file(tmp_path: pathlib.Path) -> pathlib.Path:
    """A saved game stopped in the draft (so the class can continue next session)."""
    game = Game(["North", "South"], seed=11)
    game.call_state()
    game.advance()
    game.advance()
    assert game.phase == "draft"
    path = tmp_path / "saved.json"
    path.write_text(game.to_json())
    return path


CELLS_VOILA = [
    "from housing_lab.widgets import GameTable\n"
    "table = GameTable(teams=['Red', 'Blue', 'Green', 'Orange'], seed=5, hidden_hands=True)\n"
    "table",
]


@pytest.mark.browser
def test_hidden_hands_handouts_setup_and_resume_in_voila(open_page, tmp_path: pathlib.Path) -> None:
    reference = Game(["Red", "Blue", "Green", "Orange"], seed=5)
    ready = f'{TABLE} [data-square="A1"]'
    page, watch = open_page(CELLS_VOILA, size=(1300, 4200), ready=ready)
    teams = page.locator(".hl-gt-part-teams")
    red_card = reference.state.hands["Red"][0]
    teams.locator(".hl-gt-secret").nth(3).wait_for()  # the teams panel draws after the board
    assert teams.locator(".hl-gt-secret").count() == 4
    assert teams.locator("[data-card]").count() == 0  # nothing of the hands on screen

    page.click('[data-reveal="Red"]')
    page.wait_for_selector(f'.hl-gt-team[data-team="Red"] [data-card="{red_card}"]')
    screenshot(page.locator(TABLE), "game-table-voila-hidden-reveal")
    page.click('[data-reveal="Blue"]')  # one team at a time
    blue_card = reference.state.hands["Blue"][0]
    page.wait_for_selector(f'.hl-gt-team[data-team="Blue"] [data-card="{blue_card}"]')
    assert teams.locator('.hl-gt-team[data-team="Red"] [data-card]').count() == 0

    with page.expect_download() as download:
        page.click('[data-handout="Red"]')
    assert download.value.suggested_filename == "north-berkeley-team-1-red.html"
    handout = pathlib.Path(download.value.path()).read_text()
    assert "Red: your constituents" in handout and f"data-card='{red_card}'" in handout

    page.click('[data-action="load"]')  # a button opens the hidden file input
    page.set_input_files(".hl-gt-file", str(resume_file(tmp_path)))
    wait_stage(page, "draft")
    page.locator(".hl-gt-order li").nth(1).wait_for()
    assert page.locator(".hl-gt-order li").count() == 2

    page.click('[data-action="new-game"]')
    wait_until(page, lambda s: s["kind"] == "setup", "the setup screen")
    page.click('[data-count="2"]')
    page.fill('[data-team-input="0"]', "Hawks")
    page.fill('[data-team-input="1"]', "Hawks")
    page.click('[data-action="start"]')
    wait_until(page, lambda s: "used twice" in s["message"], "the duplicate name refused")
    page.fill('[data-team-input="1"]', "Owls")
    page.fill('[data-setup="seed"]', "8")
    page.click('[data-hands="open"]')
    screenshot(page.locator(TABLE), "game-table-voila-setup")
    page.click('[data-action="start"]')
    wait_stage(page, "phase1")
    teams.locator('.hl-gt-team[data-team="Owls"]').wait_for()  # its panel draws a moment later
    assert teams.locator(".hl-gt-team").count() == 2
    dealt = Game(["Hawks", "Owls"], seed=8).state.hands["Hawks"]
    for card in dealt:  # open hands: every card on screen
        assert teams.locator(f'.hl-gt-team[data-team="Hawks"] [data-card="{card}"]').count()
    check_watch(watch)


# --- a projector and a Chromebook: every stage on one screen ---------------------------------
GEOMETRY = """() => {
  for (const n of document.querySelectorAll('*')) if (n.scrollTop) n.scrollTop = 0;
  window.scrollTo(0, 0);  // measured as the page opens: scrolled to the top
  const box = (s) => { const n = document.querySelector(s);
    if (!n) return null; const r = n.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top + scrollY, bottom: r.bottom + scrollY}; };
  let lowest = 0, widest = 0, name = '';
  for (const n of document.querySelectorAll('.hl-game-table *')) {
    const r = n.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(n).visibility === 'hidden') continue;
    if (n.closest('.hl-sr-only')) continue;  // for screen readers: not on screen
    if (r.bottom + scrollY > lowest) {
      lowest = r.bottom + scrollY; name = n.className && n.className.baseVal === undefined
        ? String(n.className) : n.tagName; }
    widest = Math.max(widest, r.right);
  }
  const t = '.hl-game-table ';
  return {board: box(t + '.hl-nb-board'), panel: box(t + '.hl-gt-part-top'),
          chart: box(t + '.hl-movein-chart'), teams: box(t + '.hl-gt-part-teams'),
          lowest, lowestName: name, widest, page: document.documentElement.scrollWidth};
}"""

APP = pathlib.Path(__file__).resolve().parents[2] / "housing_lab" / "apps" / "table.ipynb"


BOARD_SIZE = """() => {
  const svg = document.querySelector('.hl-game-table .hl-board-svg');
  const box = svg.getBoundingClientRect();
  const scale = box.width / svg.viewBox.baseVal.width;
  const sizes = [...svg.querySelectorAll('text')].filter((t) => t.getBBox().width > 0)
    .map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
  return {width: box.width, height: box.height, top: box.top, bottom: box.bottom,
          smallest: Math.min(...sizes)};
}"""


def board_size(page: Any) -> dict[str, float]:
    """The board's box in the window and its smallest label as drawn (in CSS px)."""
    return page.evaluate(BOARD_SIZE)


def geometry(page: Any) -> dict[str, Any]:
    return page.evaluate(GEOMETRY)


# Every "not now" tag against the other labels drawn in its square (code, phase, cost, tile
# name, Greenway): the boxes of the ones a student can see, as drawn.
TAG_CROWDING = """() => {
  const seen = (e) => e.getClientRects().length && getComputedStyle(e).display !== "none";
  const hits = [];
  for (const tag of document.querySelectorAll(".hl-game-table .hl-locked-tag")) {
    const a = tag.getBoundingClientRect();
    const square = tag.closest("g");
    for (const other of square.querySelectorAll("text")) {
      if (other === tag || !seen(other) || other.closest(".hl-home, .hl-resident")) continue;
      const b = other.getBoundingClientRect();
      const gap = 4;  // px of air between words on a line, or "not now$1" reads as one word
      const apart = a.right + gap <= b.left || b.right + gap <= a.left ||
        a.bottom <= b.top + 1 || b.bottom <= a.top + 1;
      if (!apart) hits.push(`${tag.textContent} touches ${other.textContent}: ${b.left - a.right}`);
    }
  }
  return hits;
}"""


def crowded_tags(page: Any) -> list[str]:
    """The "not now" tags that touch another label of their square ("not now$1")."""
    return page.evaluate(TAG_CROWDING)


def at_zoom(page: Any, zoom: float, shot: str) -> dict[str, Any]:
    """The board as a browser zoomed to `zoom` draws it (the window's CSS size divided by the
    zoom, `zoom` device pixels per CSS pixel), with the page's widest box; a screenshot; the
    window put back."""
    size = page.viewport_size
    page.set_viewport_size(
        {"width": round(size["width"] / zoom), "height": round(size["height"] / zoom)}
    )
    cdp = page.context.new_cdp_session(page)
    metrics = {**page.viewport_size, "deviceScaleFactor": zoom, "mobile": False}
    cdp.send("Emulation.setDeviceMetricsOverride", metrics)
    try:
        settle(page)
        window = page.viewport_size["width"]
        board = {**board_size(page), "widest": geometry(page)["widest"], "window": window}
        page.screenshot(path=str(SCREENSHOTS / f"{shot}.png"))
    finally:
        cdp.send("Emulation.clearDeviceMetricsOverride")
        cdp.detach()
        page.set_viewport_size(size)
        settle(page)
    return board


def side_by_side(first: dict[str, float], second: dict[str, float]) -> bool:
    """Two boxes next to each other: apart horizontally, overlapping vertically."""
    apart = first["right"] <= second["left"] + 1 or second["right"] <= first["left"] + 1
    return apart and first["top"] < second["bottom"] and second["top"] < first["bottom"]


def ask_the_coach(page: Any) -> None:
    """A team card's "?" asks the coach; the answer appears under the phase panel (Apply, when
    the engine can play it now, is followed by Undo)."""
    button = page.locator(".hl-gt-part-teams [data-coach]").nth(1)
    team, card = button.get_attribute("data-coach").split("|")
    button.click()
    answer = page.locator(f'.hl-gt-coach[data-coach-team="{team}"][data-coach-card="{card}"]')
    answer.wait_for()
    assert answer.locator(".hl-gt-coach-sentence").inner_text().startswith("How could ")


def apply_and_undo(page: Any) -> None:
    """Apply (when the engine can play the answer now) changes the board; Undo restores it."""
    apply = page.locator('.hl-gt-coach [data-action="apply-coach"]')
    if apply.count():
        before = read(page)["tiles"]
        apply.click()
        wait_until(page, lambda s: "Applied the coach" in s["message"], "the suggestion played")
        assert read(page)["tiles"] != before and not page.locator(".hl-gt-coach").count()
        page.click('[data-action="undo"]')
        wait_until(page, lambda s: s["tiles"] == before, "the suggestion undone")


def walk_stages(
    page: Any,
    name: str,
    height: int,
    strict: bool,
    coach: bool = False,
    also: tuple[str, tuple[int, int]] | None = None,
    zooms: tuple[float, ...] = (),
) -> dict[str, dict[str, Any]]:
    """Click through every stage (the state called at once); on each, a viewport screenshot
    and the geometry: board beside the phase panel, nothing lower than `height` px. `coach`:
    in phase 2 also ask the coach once (its answer must fit too). `also`: (name, size) of a
    second screen each stage is screenshot at too (the window resized, then put back).
    `zooms`: browser zooms at which the building board must keep (or grow) its size and its
    smallest label in physical pixels (issue 44: at 150% it once fell from 620 to 340 CSS px
    while the buttons grew)."""
    seen: dict[str, dict[str, Any]] = {}

    def check(stage: str) -> None:
        settle(page)  # bqplot draws its axes late; the teams panel draws after the board
        shape = geometry(page)
        seen[stage] = shape
        page.screenshot(path=str(SCREENSHOTS / f"{name}-{stage}.png"))
        if also:
            size = page.viewport_size
            page.set_viewport_size({"width": also[1][0], "height": also[1][1]})
            settle(page)  # the layout and bqplot redraw at the new size
            page.screenshot(path=str(SCREENSHOTS / f"{also[0]}-{stage}.png"))
            page.set_viewport_size(size)
            settle(page)
        if strict:
            assert shape["lowest"] <= height, f"{stage}: {shape['lowestName']} ends at {shape}"
            assert side_by_side(shape["board"], shape["panel"]), f"{stage}: {shape}"
            assert shape["widest"] <= page.viewport_size["width"], f"{stage}: {shape}"
            assert crowded_tags(page) == [], stage

    wait_stage(page, "phase1")
    # a square of phase 2 clicked in phase 1 says why on the message line
    page.click(f'{TABLE} .hl-square.hl-locked[data-square="A1"]', force=True)  # aria-disabled
    wait_until(page, lambda s: "built in phase 2" in s["message"], "why A1 is not in play")
    if strict:  # a projector-size board: 55% of the height or more, labels of 14 px or more
        board = board_size(page)
        assert board["height"] >= 0.55 * height and board["smallest"] >= 14, board
        for zoom in zooms:
            zoomed = at_zoom(page, zoom, f"{name}-zoom-{round(zoom * 100)}")
            seen[f"zoom {zoom}"] = zoomed
            assert zoomed["width"] * zoom >= board["width"], (zoom, zoomed, board)
            assert zoomed["smallest"] * zoom >= board["smallest"], (zoom, zoomed, board)
            assert zoomed["widest"] <= zoomed["window"] + 1, zoomed  # no sideways scrolling
    page.click('[data-square="B1"]')
    page.click('[data-tile-choice="park"]')
    wait_until(page, lambda s: s["tiles"].get("B1") == "park", "B1 placed")
    check("phase1")
    # the projector's compact layout shows card names only; one click shows where the board
    # stands on each open card, in the engine's words (issue 44), and one hides it again
    toggle = page.locator(".hl-gt-words-toggle")
    if toggle.is_visible():
        words = page.locator(".hl-gt-part-teams .hl-gt-card-standing").first
        assert not words.is_visible()
        toggle.click()
        words.wait_for(state="visible")
        assert page.locator(".hl-gt-words-toggle").get_attribute("aria-pressed") == "true"
        page.screenshot(path=str(SCREENSHOTS / f"{name}-phase1-card-words.png"))
        page.locator(".hl-gt-words-toggle").click()
        words.wait_for(state="hidden")
        settle(page)
    page.click('[data-action="call-now"]')
    wait_until(page, lambda s: len(s["tiles"]) == 4, "the state filling phase 1")
    page.click('[data-action="next"]')
    if wait_until(page, lambda s: s["stage"] != "phase1", "phase 1 over")["stage"] == "extra_draw":
        check("extra_draw")
        page.click('[data-action="next"]')
    wait_stage(page, "draft")
    check("draft")
    while read(page)["stage"] == "draft":
        heading = read(page)["heading"]
        page.locator("[data-pick]").first.click()
        wait_until(page, lambda s, h=heading: s["heading"] != h, "the next pick")
    wait_stage(page, "policies")
    check("policies")
    page.locator("[data-enact]").first.click()
    wait_stage(page, "phase2")
    settle(page)  # phase 2 opens with the board in view, not scrolled down to the draft
    box = board_size(page)
    assert box["top"] >= -1 and box["bottom"] <= height + 1, box
    page.click('[data-square="A1"]')
    check("phase2")
    if coach:
        ask_the_coach(page)
        check("phase2-coach")
        apply_and_undo(page)
    page.click('[data-action="timer-toggle"]')  # the countdown runs ...
    page.wait_for_selector('.hl-gt-clock-status:has-text("Negotiating")')
    page.click('[data-action="call-now"]')
    wait_until(page, lambda s: len(s["tiles"]) == 9, "the state filling phase 2")
    page.wait_for_selector('.hl-gt-clock-status:has-text("Negotiation over")')  # ... and stops
    stopped = page.locator("[data-timer]").inner_text()
    time.sleep(1.2)
    assert page.locator("[data-timer]").inner_text() == stopped == "0:00"
    page.click('[data-action="next"]')
    wait_stage(page, "movein")
    page.wait_for_selector(".hl-movein-chart rect.bar")
    page.click('[data-action="next"]')
    wait_until(page, lambda s: "high income has moved in" in s["heading"], "the first wave")
    check("movein")
    page.click('[data-action="scores"]')
    wait_stage(page, "scoring")
    check("scoring")
    if coach:  # a team's whole hand, asked at the final scores: advice only, and it fits
        page.locator(".hl-gt-final-head [data-coach]").first.click()
        page.locator(".hl-gt-coach .hl-gt-coach-sentence").wait_for()
        assert not page.locator('[data-action="apply-coach"]').count()
        check("scoring-coach")
    return seen


@pytest.mark.browser
@pytest.mark.parametrize(("width", "height", "teams"), [(1920, 1080, 3), (1920, 1080, 6)])
def test_every_stage_fits_the_screen(open_page, tmp_path, width, height, teams) -> None:
    """The app as projected: at 1920x1080 the board sits beside the phase panel and no stage
    reaches below 1080 px; at 1366x768 (a Chromebook) the same layout, smaller, screenshots
    only (it cannot fit 768 px with readable cards), taken on the way through the three-team
    game. Three teams (the extra draw is shown) and six (the most team boxes). With three,
    the building board at 125% and 150% zoom too."""
    notebook = tmp_path / "table.ipynb"  # the app as `housing-lab app table` opens it
    app = APP.read_text(encoding="utf-8")
    names = ["Red", "Blue", "Green", "Orange", "Purple", "Teal"][:teams]
    shipped = '[\\"Red\\", \\"Blue\\", \\"Green\\"]'  # as the .ipynb JSON spells it
    assert shipped in app
    notebook.write_text(app.replace(shipped, json.dumps(json.dumps(names))[1:-1]), "utf-8")
    page, watch = open_page(notebook, size=(width, height), ready=f'{TABLE} [data-square="A1"]')
    name = f"game-table-{width}x{height}" + ("" if teams == 3 else f"-{teams}-teams")
    chromebook = ("game-table-1366x768", (1366, 768)) if teams == 3 else None
    zooms = (1.25, 1.5) if teams == 3 else ()
    seen = walk_stages(page, name, height, strict=True, coach=True, also=chromebook, zooms=zooms)
    print(json.dumps(seen, indent=1))
    check_watch(watch)


@pytest.mark.browser
def test_the_whole_board_is_visible_at_150_percent_zoom(open_page) -> None:
    """Lesson 7 recommends 125-150% zoom: a 1366x768 Chromebook at 150% is 911x512 CSS px.
    The board fits the window, and a click on it is answered."""
    page, watch = open_page(APP, size=(911, 512), ready=f'{TABLE} [data-square="A1"]')
    page.locator(f"{TABLE} .hl-board-svg").scroll_into_view_if_needed()
    settle(page)
    box = board_size(page)
    assert box["height"] <= 512 and box["top"] >= -1 and box["bottom"] <= 513, box
    page.screenshot(path=str(SCREENSHOTS / "game-table-150-percent.png"))
    check_watch(watch)

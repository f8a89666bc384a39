"""The North Berkeley lab with the keyboard alone (issue 27), in Voila at 1366x768 and 1920x1080.

The lesson task: two tiles, a policy and every step of the move-in, in at most 60 keys; focus
never falls to <body>; the one announcer (made once) reads out each change; the chart's numbers
are in a hidden table that follows the chart.
"""

from __future__ import annotations

from typing import Any

import pytest

from housing_lab.north_berkeley import scenario_from_dict, score_scenario
from housing_lab.widgets.lab.charts import OUTCOME_LABELS

from .harness import ROOT, screenshot
from .keyboard import Announcer, Keys, has, wait_until, within
from .nb_page import wait_until_page_shows

pytestmark = pytest.mark.browser

APP = ROOT / "housing_lab" / "apps" / "lab.ipynb"
SIZES = {"chromebook": (1366, 768), "projector": (1920, 1080)}
BUDGET = 60
ANNOUNCER = ".hl-nb-board .hl-announcer"
TABLE_ROWS = """() => Array.from(document.querySelectorAll(
  '.hl-nb-lab .hl-nb-side .hl-outcome-table tbody tr')).map((tr) =>
  Array.from(tr.children).map((c) => c.textContent))"""


def announced(page: Any) -> str:
    return page.locator(ANNOUNCER).text_content() or ""


def expected_table(scenario: dict[str, Any]) -> list[list[str]]:
    outcomes = score_scenario(scenario_from_dict(scenario)).to_dict()["outcomes"]
    return [
        [label, *(str(outcomes[i][o]) for i in ("high", "middle", "low"))]
        for o, label in OUTCOME_LABELS.items()
    ]


def build_by_keyboard(keys: Keys, page: Any, tile: str, moves: list[str]) -> None:
    """From the palette (or anywhere after it), back to the board, move, choose, build."""
    keys.until("Shift+Tab", has("data-square"), 6, "the board")
    for move in moves:
        keys.press(move)
    square = keys.active()["attrs"]["data-square"]
    keys.press("Enter")
    wait_until(lambda: f"Square {square} chosen" in announced(page), "the square announced")
    active = keys.press("Tab")
    assert has("data-tile-choice")(active), f"Tab from the board did not reach a building: {active}"
    keys.until("ArrowRight", has("data-tile-choice", tile), 16, f"the {tile} choice")
    keys.press("Enter", settle_ms=400)


def walk_the_lab(page: Any) -> Keys:
    keys = Keys(page)
    page.wait_for_selector(".hl-nb-lab .hl-nb-board [data-square]", timeout=120_000)
    page.evaluate("() => { document.querySelector('.hl-announcer').dataset.first = 'yes'; }")
    scenario: dict[str, Any] = {"tiles": {}, "policies": [], "seed": 1}
    # into the board: one tab stop for all nine squares
    keys.until("Tab", has("data-square"), 12, "the board")
    stops = page.locator('.hl-nb-board [data-square][tabindex="0"]').count()
    assert stops == 1, f"the board has {stops} tab stops, not one"
    keys.press("ArrowRight")  # A1 -> B1
    assert keys.active()["attrs"]["data-square"] == "B1"
    keys.press("Enter")
    keys.press("Tab")
    keys.press("Enter", settle_ms=400)  # the first building: the Market Rate Tower
    scenario["tiles"] = {"B1": "tower_market"}
    wait_until_page_shows(page, scenario)
    wait_until(lambda: "Placed the Market Rate Tower on B1" in announced(page), "announcement")
    assert has("data-tile-choice", "tower_market")(keys.active()), "focus left the building"

    build_by_keyboard(keys, page, "tower_inclusionary_25", ["ArrowDown"])  # B1 -> B2
    scenario["tiles"]["B2"] = "tower_inclusionary_25"
    wait_until_page_shows(page, scenario)
    assert "on B2" in announced(page), announced(page)
    assert page.evaluate(TABLE_ROWS) == expected_table(scenario), "the chart's table is stale"

    # the first policy, above the board: back past the board, Space ticks it
    keys.until("Shift+Tab", within("hl-policy-vacancy_control"), 8, "Vacancy Control")
    keys.press("Space", settle_ms=400)
    scenario["policies"] = ["vacancy_control"]
    wait_until_page_shows(page, scenario)
    wait_until(lambda: "Enacted Vacancy Control" in announced(page), "the policy announced")
    assert within("hl-policy-vacancy_control")(keys.active()), "focus left the policy"

    # the whole move-in, step by step: Step keeps the focus
    keys.until("Tab", has("data-action", "replay-step"), 12, "the Step button")
    steps = len(score_scenario(scenario_from_dict(scenario)).move_in.events)
    keys.press("Enter")  # from the end of move-in back to its start
    wait_until(lambda: "Before move-in" in announced(page), "the start of move-in read out")
    for step in range(1, steps):  # the last event's frame is "After move-in"
        keys.press("Enter")
        assert has("data-action", "replay-step")(keys.active()), f"focus left Step at {step}"
    wait_until(
        lambda: f"Step {steps - 1} of {steps}" in announced(page),
        f"the last step read out (heard {announced(page)!r})",
    )
    keys.press("Enter")
    wait_until(lambda: "After move-in" in announced(page), "the end of move-in read out")
    assert page.locator(".hl-announcer").count() == 1, "more than one announcer"
    assert page.evaluate("() => document.querySelector('.hl-announcer').dataset.first") == "yes", (
        "the announcer was rebuilt"
    )
    return keys


@pytest.mark.parametrize("size", sorted(SIZES))
def test_lab_task_by_keyboard_alone(open_page: Any, size: str) -> None:
    page, watch = open_page(APP, size=SIZES[size], ready=".hl-nb-lab .hl-nb-board [data-square]")
    keys = walk_the_lab(page)
    task = keys.count
    # "Describe the screen" reads the board, the policies and who is housed
    page.locator(".hl-describe").focus()
    keys.press("Enter")
    wait_until(lambda: "Board: 2 buildings" in announced(page), "the screen summary")
    assert "Vacancy Control" in announced(page)
    help_box = page.locator(".hl-nb-board .hl-keyboard-help")
    help_box.locator("summary").click()
    assert "Arrow keys on the board" in help_box.inner_text()
    screenshot(page, f"keyboard-lab-{size}")
    small = page.evaluate(SMALL_TARGETS, ".hl-nb-board")
    page.close()
    assert keys.lost == [], f"focus fell to <body> after {keys.lost}"
    print(f"the lab task took {task} keys (budget {BUDGET})")
    assert task <= BUDGET, f"the lab task took {task} keys, over the budget of {BUDGET}"
    assert small == [], f"targets under 24x24 px: {small}"
    assert watch.our_errors(ignore=("@jupyter-notebook/lab-extension",)) == []


SMALL_TARGETS = """(scope) => Array.from(document.querySelectorAll(
  `${scope} button, ${scope} summary, ${scope} [role=button]`))
  .filter((n) => n.getClientRects().length)
  .map((n) => [n.getAttribute('aria-label') || n.textContent.trim().slice(0, 40),
               n.getBoundingClientRect()])
  .filter(([, b]) => b.width < 24 || b.height < 24)
  .map(([name, b]) => `${name} ${b.width.toFixed(0)}x${b.height.toFixed(0)}`)"""


LOCKED_CELLS = [
    "from housing_lab.widgets import NorthBerkeleyLab\n"
    "lab = NorthBerkeleyLab(seed=1)\n"
    "lab.board.locked = ['A3', 'B3', 'C3']  # phase 2, as the game table locks them in phase 1\n"
    "lab",
]
MESSAGE = ".hl-nb-board .hl-message"


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_locked_square_says_why_on_screen_too(open_page: Any, size: str) -> None:
    """A square not in play refuses Enter and a click with its reason on the message line, in
    the words the announcer reads; focus stays on the square."""
    ready = '.hl-nb-board .hl-locked[data-square="A3"]'
    page, watch = open_page(LOCKED_CELLS, size=SIZES[size], ready=ready)
    heard = Announcer(page, ANNOUNCER).listen()
    keys = Keys(page)
    keys.until("Tab", has("data-square"), 12, "the board")
    keys.until("ArrowDown", has("data-square", "A3"), 3, "the locked square A3")
    keys.press("Enter")
    wanted = "Square A3 is not in play in this phase: it is built in phase 2."
    heard.wait_for(wanted)
    page.wait_for_selector(f"{MESSAGE}.hl-error >> text={wanted}")
    after_enter = keys.active()
    screenshot(page, f"lab-locked-square-{size}")
    page.locator('.hl-nb-board [data-square="B3"]').click(force=True)  # aria-disabled
    heard.wait_for("Square B3 is not in play")
    page.wait_for_selector(f"{MESSAGE} >> text=Square B3 is not in play")
    shown = page.locator(MESSAGE).inner_text()
    selected = page.locator('.hl-nb-board [data-square][aria-pressed="true"]').count()
    said = heard.heard()
    assert has("data-square", "A3")(after_enter), after_enter
    assert shown in said, (shown, said)  # the same words, seen and heard
    assert selected == 0, "a locked square was chosen"
    assert keys.lost == [], f"focus fell to <body> after {keys.lost}"
    assert watch.our_errors(ignore=("@jupyter-notebook/lab-extension",)) == []

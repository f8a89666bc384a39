"""Streetcar with the keyboard alone (issue 27), in Voila at 1366x768 and 1920x1080.

The board is one tab stop; arrow keys move to the nearest line (then the nearest partner line,
then the nearest removable house) in that direction. A "student" (a seeded greedy bot) picks
each move; the test reaches it by arrows, chosen as a sighted player would (towards the target),
and counts the keys: at most 25 a turn. Focus never falls to <body>, the bot's move included;
the one announcer reads each stage; every drawn line has a unique name.
"""

from __future__ import annotations

from typing import Any

import pytest

from housing_lab.streetcar import Game, make_bot
from housing_lab.widgets.streetcar.board import edge_key, hex_key

from .harness import screenshot
from .keyboard import Announcer, Keys, has, wait_until
from .streetcar_page import wait_until_page_shows

pytestmark = pytest.mark.browser

SEED = 1
CELLS = [
    "from housing_lab.widgets import StreetcarLab\n"
    f"StreetcarLab(seed={SEED}, opponent='greedy', bot_delay=0.3)",
]
SIZES = {"chromebook": (1366, 768), "projector": (1920, 1080)}
BUDGET = 25
TURNS = 2  # the student's turns 1 (two lines) and 3 (two lines and a house)
ANNOUNCER = ".sc-board .hl-announcer"
# Which arrow takes the focus towards `target` (a selector): the larger screen distance wins.
TOWARDS = """(target) => {
  const centre = (n) => { const b = n.getBoundingClientRect();
    return [b.left + b.width / 2, b.top + b.height / 2]; };
  const node = document.querySelector(target);
  if (!node) return null;
  const [fx, fy] = centre(document.activeElement);
  const [tx, ty] = centre(node);
  const [dx, dy] = [tx - fx, ty - fy];
  if (Math.abs(dx) < 2 && Math.abs(dy) < 2) return 'here';
  return Math.abs(dx) >= Math.abs(dy) ? (dx > 0 ? 'ArrowRight' : 'ArrowLeft')
    : (dy > 0 ? 'ArrowDown' : 'ArrowUp');
}"""
LINE_NAMES = """() => Array.from(document.querySelectorAll('.sc-board [data-player-line]'))
  .map((n) => n.getAttribute('aria-label'))"""


def reach(keys: Keys, page: Any, attr: str, value: str, limit: int = 20) -> None:
    """Arrow keys towards the element with `attr`=`value` on the board until it has focus."""
    target = f'.sc-board-svg [{attr}="{value}"]'
    for _ in range(limit):
        if has(attr, value)(keys.active()):
            return
        key = page.evaluate(TOWARDS, target)
        assert key and key != "here", f"cannot steer to {value}: {key}, focus {keys.active()}"
        keys.press(key, settle_ms=40)
    raise AssertionError(f"{value} not reached in {limit} arrow keys: focus {keys.active()}")


def announced(page: Any) -> str:
    return page.locator(ANNOUNCER).text_content() or ""


def play_a_turn(keys: Keys, page: Any, game: Game, student: Any) -> int:
    """The student's move by keyboard; returns the keys it took."""
    start = keys.count
    if not has("data-edge")(keys.active()):
        keys.until("Tab", has("data-edge"), 12, "the board")
    move = student.choose(game)
    first, second = (edge_key(e) for e in move.lines)
    reach(keys, page, "data-edge", first)
    keys.press("Enter", settle_ms=300)
    page.wait_for_selector(f'.sc-board [data-edge="{first}"].sc-first')
    wait_until(lambda: has("data-edge")(keys.active()), "focus on a line that meets the first")
    assert "sc-second" in keys.active()["attrs"]["class"], keys.active()
    reach(keys, page, "data-edge", second)
    keys.press("Enter", settle_ms=300)
    if move.remove is not None:
        house = hex_key(move.remove)
        page.wait_for_selector(f'.sc-board .sc-house.sc-removable[data-hex="{house}"]')
        wait_until(lambda: has("data-hex")(keys.active()), "focus on a removable house")
        reach(keys, page, "data-hex", house)
        keys.press("Enter", settle_ms=300)
    game.push(move)
    return keys.count - start


@pytest.mark.parametrize("size", sorted(SIZES))
def test_streetcar_turns_by_keyboard_alone(open_page: Any, size: str) -> None:
    game, bot, student = Game(seed=SEED), make_bot("greedy", SEED), make_bot("greedy", 99)
    per_turn = []
    page, watch = open_page(CELLS, size=SIZES[size], ready=".sc-board [data-edge]")
    wait_until_page_shows(page, game)
    page.evaluate("() => { document.querySelector('.hl-announcer').dataset.first = 'yes'; }")
    keys = Keys(page)
    # every text the announcer is given: the bot's pause lasts 0.3 s, shorter than a poll
    heard = Announcer(page, ANNOUNCER).listen()
    for turn in range(TURNS):
        per_turn.append(play_a_turn(keys, page, game, student))
        heard.wait_for("Red (greedy bot) is thinking.")
        pauses = sum("is thinking." in text for text in heard.heard())
        assert pauses == turn + 1, f"the bot's pause read out {pauses} times: {heard.heard()}"
        game.push(bot.choose(game))
        wait_until_page_shows(page, game)
        page.wait_for_timeout(300)
        active = keys.active()
        assert not active["body"], "focus fell to <body> after the bot's move"
        assert "sc-board" in active["around"].split() or active["tag"] == "svg", active
    assert "Turn 5" in announced(page), announced(page)
    names = page.evaluate(LINE_NAMES)
    stops = page.locator('.sc-board-svg [tabindex="0"]').count()
    listed = page.locator(".sc-board .sc-lines li").all_text_contents()
    page.locator(".sc-board .sc-lines summary").click()
    screenshot(page, f"keyboard-streetcar-{size}")
    announcers = page.locator(".hl-announcer").count()
    first = page.evaluate("() => document.querySelector('.hl-announcer').dataset.first")
    page.close()
    print(f"Streetcar turns took {per_turn} keys (budget {BUDGET})")
    assert keys.lost == [], f"focus fell to <body> after {keys.lost}"
    assert max(per_turn) <= BUDGET, f"a turn took {max(per_turn)} keys: {per_turn}"
    assert stops == 1, f"the board has {stops} tab stops, not one"
    assert len(names) == 8 and len(set(names)) == 8, names  # 4 turns of two lines
    assert "Purple line" in names[0] or any(n.startswith("Purple line") for n in names)
    assert all(", turn " in n for n in names), names
    assert sorted(listed) == sorted(names), "the list of lines differs from the board"
    assert announcers == 1 and first == "yes", "the announcer was rebuilt or doubled"
    assert watch.our_errors(ignore=("@jupyter-notebook/lab-extension",)) == []

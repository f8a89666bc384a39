"""The Streetcar lab in a real browser: JupyterLab, offline, played by clicking against the bot.

The test keeps its own engine game beside the page: it pushes the moves it clicks and the moves
the same seeded bot makes, and checks after every turn that the board, the score table and the
chart show exactly that position.
"""

from __future__ import annotations

import json
import pathlib
import time

import pytest

from housing_lab.streetcar import Game, Move, make_bot, play_game, replay, write_record
from housing_lab.widgets.common import signed
from housing_lab.widgets.streetcar.board import edge_key, hex_key
from housing_lab.widgets.streetcar.places import line_refusal

from .chart_geometry import chart_problems
from .harness import (
    FOREIGN_ERRORS,
    ROOT,
    SCREENSHOTS,
    TEMPLATE_CDN,
    PageWatch,
    screenshot,
    write_notebook,
)
from .streetcar_page import (
    outside_viewport,
    read_page,
    visible_coordinates,
    wait_until_page_shows,
)

SEED = 1
CELLS = [
    "from housing_lab.widgets import StreetcarLab\n"
    f"lab = StreetcarLab(seed={SEED}, opponent='greedy', bot_delay=0.6)\nlab",
]


def edge_selector(edge) -> str:
    return f'.sc-lab [data-edge="{edge_key(edge)}"]'


def click_turn(page, move: Move, shot: str | None = None, keyboard: bool = False) -> None:
    """Click a whole turn: lines (2, 1 or the "no line possible" button), then the house.
    With `keyboard`, the first line and the house are chosen with Tab focus and Enter."""
    if len(move.lines) == 2:
        first, second = move.lines
        if keyboard:
            page.focus(edge_selector(first))
            page.keyboard.press("Enter")
        else:
            page.click(edge_selector(first))
        page.wait_for_selector(f"{edge_selector(first)}.sc-first")
        page.wait_for_selector(f"{edge_selector(second)}.sc-second")
        page.hover(edge_selector(second))  # legal: highlighted on hover, without a round trip
        width = page.eval_on_selector(
            f"{edge_selector(second)} .sc-edge-line", "n => getComputedStyle(n).strokeWidth"
        )
        assert width == "8px", width
        if shot:
            screenshot(page.locator(".sc-lab .sc-board"), shot)
        page.click(edge_selector(second))
    elif len(move.lines) == 1:
        page.click(edge_selector(move.lines[0]))
    else:
        page.click('.sc-lab [data-action="pass_lines"]')
    if move.remove is not None:
        house = f'.sc-lab .sc-house.sc-removable[data-hex="{hex_key(move.remove)}"]'
        page.wait_for_selector(house)
        if keyboard:
            page.focus(house)
            page.keyboard.press("Enter")
        else:
            page.click(house)


def bot_reply(page, game: Game, bot) -> None:
    """The page first shows the student's move with the bot 'thinking', then the bot's move."""
    red_before = len(game.lines["red"])
    page.wait_for_selector('.sc-lab svg[data-phase="bot"]', timeout=5_000)
    seen = read_page(page)  # phase, lines and the turn box in one read of the page
    if seen["phase"] == "bot":  # still held (on a loaded machine the pause may be over)
        assert len(seen["lines"]["red"]) == red_before, "the bot's move appeared without a pause"
        assert "thinking" in seen["turn"]
    game.push(bot.choose(game))
    wait_until_page_shows(page, game)


def play_by_clicking(page) -> Game:
    """Turn 1 with a refused click, then four turns chosen by a greedy 'student'."""
    game = Game(seed=SEED)
    bot = make_bot("greedy", SEED)
    student = make_bot("greedy", 99)
    wait_until_page_shows(page, game)

    # Turn 1: a line that does not touch the chosen first line is explained, not drawn.
    move = student.choose(game)
    page.click(edge_selector(move.lines[0]))
    far = next(
        e
        for e in game.legal_edges()
        if game.explain_illegal_line(e, move.lines[0]) and e not in move.lines
    )
    page.click(edge_selector(far))
    page.wait_for_selector(".sc-lab .sc-message.hl-error")
    reason = line_refusal(game, far, move.lines[0])
    assert reason and reason in read_page(page)["message"]
    page.click(edge_selector(move.lines[0]))  # deselect, then the whole turn
    page.wait_for_selector(".sc-lab .sc-first", state="detached")
    click_turn(page, move)
    game.push(move)
    bot_reply(page, game, bot)

    for turn in range(4):
        move = student.choose(game)
        last = turn == 3
        click_turn(page, move, shot="streetcar-board-choosing" if last else None, keyboard=last)
        game.push(move)
        bot_reply(page, game, bot)
    assert game.buildings, "the test should have placed a building"

    # A flipped house cannot be removed: the engine's reason appears, nothing changes.
    flipped = game.flipped_houses()
    assert flipped
    lines = next(choice for choice in game.legal_line_choices() if len(choice) == 2)
    click_turn(page, Move(lines))
    page.click(f'.sc-lab .sc-house[data-hex="{hex_key(flipped[0])}"]')
    page.wait_for_selector(".sc-lab .sc-message.hl-error:has-text('is next to the building')")
    page.click('.sc-lab [data-action="cancel_lines"]')
    wait_until_page_shows(page, game)
    return game


def replay_a_finished_game(page, tmp_path: pathlib.Path) -> None:
    """Load a whole bot game from a file, step through it, jump to the end: the winner."""
    finished = play_game([make_bot("greedy", 3), make_bot("random", 4)], seed=3)
    path = tmp_path / "finished.json"
    write_record(path, finished)
    with page.expect_file_chooser() as chooser:  # ipywidgets' input is never in the DOM
        page.click(".sc-lab .widget-upload")
    chooser.value.set_files(str(path))
    page.wait_for_selector(".sc-lab .sc-replay .sc-replay-step")
    moves = finished.move_stack
    game = Game(seed=3)
    wait_until_page_shows(page, game)
    for move in moves[:3]:
        page.click(".sc-lab .sc-replay-step")
        game.push(move)
        wait_until_page_shows(page, game)
    page.click(".sc-lab .sc-replay-end")
    for move in moves[3:]:
        game.push(move)
    seen = wait_until_page_shows(page, game)
    outcome = finished.outcome()
    assert outcome is not None
    # the engine's outcome in words: the winner and the scores with one minus sign
    assert seen["outcome"].startswith("Game over: ") and "single-colour" not in seen["outcome"]
    for player, score in outcome.scores.items():
        assert f"{player.title()}" in seen["outcome"] and signed(score) in seen["outcome"]
    page.click(".sc-lab .sc-replay-resume")
    page.wait_for_selector('.sc-lab svg[data-phase="over"]')
    assert seen["outcome"].removeprefix("Game over: ") in page.inner_text(".sc-lab .sc-turn")
    screenshot(page.locator(".sc-lab"), "streetcar-lab-game-over")


def check_watch(watch: PageWatch) -> None:
    assert watch.our_errors(ignore=FOREIGN_ERRORS) == [], watch.console_errors
    strays = [url for url in watch.blocked if not any(t in url for t in TEMPLATE_CDN)]
    assert strays == [], f"requests tried to leave 127.0.0.1: {strays}"


@pytest.fixture
def notebook(tmp_path: pathlib.Path) -> pathlib.Path:
    folder = tmp_path / "notebooks"
    folder.mkdir()
    return write_notebook(folder / "streetcar.ipynb", CELLS)


@pytest.mark.browser
def test_streetcar_in_jupyterlab(open_page, notebook: pathlib.Path, tmp_path: pathlib.Path) -> None:
    started = time.monotonic()
    page, watch = open_page(notebook, app="lab", size=(1400, 1900), ready=".sc-lab .sc-house")
    print(f"lab open and run: {time.monotonic() - started:.1f} s")
    game = play_by_clicking(page)
    print(f"played: {time.monotonic() - started:.1f} s")

    seen = wait_until_page_shows(page, game)
    assert seen["outcome"].startswith("So far:")
    screenshot(page.locator(".sc-lab"), "streetcar-lab-jupyterlab")

    with page.expect_download() as download:  # Save game: the record follows the engine
        page.click(".sc-lab .sc-save")
    record = json.loads(pathlib.Path(download.value.path()).read_text())
    assert "final" not in record  # the game is not over
    replayed = replay(record, require_complete=False)
    assert replayed.move_stack == game.move_stack

    replay_a_finished_game(page, tmp_path)
    check_watch(watch)
    assert watch.blocked == []
    print(f"streetcar browser test: {time.monotonic() - started:.1f} s")


@pytest.mark.browser
def test_streetcar_in_voila(open_page, notebook: pathlib.Path) -> None:
    """Voila: the opening turn by clicking, the bot's pause, the board and score follow."""
    page, watch = open_page(notebook, size=(1400, 1900), ready=".sc-lab .sc-house")
    game = Game(seed=SEED)
    bot = make_bot("greedy", SEED)
    wait_until_page_shows(page, game)
    move = make_bot("greedy", 99).choose(game)
    click_turn(page, move)
    game.push(move)
    bot_reply(page, game, bot)
    screenshot(page.locator(".sc-lab"), "streetcar-lab-voila")
    check_watch(watch)
    page.close()


# --- one screen at a Chromebook's and a projector's size (issue 11) ------------------------
SIZES = [(1366, 768), (1920, 1080)]
APP = ROOT / "housing_lab" / "apps" / "streetcar.ipynb"


def window_shot(page, name: str) -> None:
    """The window as the student sees it (not the whole scrolled page)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=False)


def assert_one_screen(page, when: str) -> None:
    problems = outside_viewport(page)
    assert problems == [], f"{when}: {problems}"
    leaks = visible_coordinates(page)
    assert leaks == [], f"{when}: coordinates on screen: {leaks}"


def a_turn_and_a_hint(page, size: str) -> None:
    """Play the opening and one more turn by clicking; the last move is highlighted and told
    in words; the Hint button shows the greedy bot's move without playing it."""
    game = Game(seed=SEED)
    bot = make_bot("greedy", SEED)
    student = make_bot("greedy", 99)
    wait_until_page_shows(page, game)
    assert_one_screen(page, f"{size} at the start")
    for _ in range(2):
        move = student.choose(game)
        click_turn(page, move)
        game.push(move)
        game.push(bot.choose(game))
        wait_until_page_shows(page, game)
    assert_one_screen(page, f"{size} after two turns")
    message = read_page(page)["message"]
    assert "removed the" in message and "(greedy bot)" in message, message
    last = game.peek()
    for edge in last.lines:
        page.wait_for_selector(f'{edge_selector(edge)}[data-last-move="red"]')
    page.wait_for_selector(f'.sc-lab [data-hex-cell="{hex_key(last.remove)}"].sc-last-removed')

    hinted = make_bot("greedy", SEED).choose(game.copy())
    page.focus('.sc-lab [data-action="hint"]')  # by keyboard: focus stays on the button
    page.keyboard.press("Enter")
    page.wait_for_selector(".sc-lab .sc-message:has-text('Hint (greedy bot)')")
    for edge in hinted.lines:
        page.wait_for_selector(f'{edge_selector(edge)}[data-hint="true"]')
    page.wait_for_selector(f'.sc-lab .sc-house.sc-hinted[data-hex="{hex_key(hinted.remove)}"]')
    wait_until_page_shows(page, game)  # the hint is not played: still the engine's position
    assert page.evaluate("() => document.activeElement.getAttribute('data-action')") == "hint"
    assert_one_screen(page, f"{size} with a hint shown")


@pytest.mark.browser
def test_streetcar_app_fits_one_screen_in_voila(open_page) -> None:
    """The no-code app (housing_lab/apps/streetcar.ipynb): the whole board and the turn panel
    in the window without scrolling, before and after moves and with a hint shown."""
    for width, height in SIZES:
        page, watch = open_page(APP, size=(width, height), ready=".sc-lab .sc-house")
        a_turn_and_a_hint(page, f"Voila {width}x{height}")
        window_shot(page, f"streetcar-voila-{width}x{height}")
        page.click(".sc-lab .sc-replay-this")  # replaying: the replay bar above the board
        page.wait_for_selector(".sc-lab .sc-replay .sc-replay-step")
        page.click(".sc-lab .sc-replay-step")
        page.wait_for_selector(".sc-lab .sc-message:has-text('Move 1 of')")
        assert_one_screen(page, f"Voila {width}x{height} replaying")
        window_shot(page, f"streetcar-voila-replay-{width}x{height}")
        page.locator(".sc-lab .sc-score-chart").scroll_into_view_if_needed()
        charts = chart_problems(page)  # labelled axes, no toolbar over the title
        assert charts["charts"] == 1 and charts["problems"] == [], charts
        labels = page.eval_on_selector_all(
            ".sc-lab .sc-score-chart .axislabel", "(ns) => ns.map((n) => n.textContent)"
        )
        assert sorted(labels) == ["house colour", "points"], labels
        window_shot(page, f"streetcar-voila-score-{width}x{height}")
        check_watch(watch)
        page.close()


def collapse_left_sidebar(page) -> None:
    """Hide JupyterLab's left side bar (View > Appearance), unless an earlier notebook in the
    same JupyterLab page already did."""
    if not page.locator("#jp-left-stack").is_visible():
        return
    menu = page.locator("#jp-menu-panel, .lm-MenuBar").first
    menu.get_by_role("menuitem", name="View", exact=True).click()
    page.locator(".lm-Menu").get_by_text("Appearance", exact=True).click()
    page.locator(".lm-Menu").get_by_text("Show Left Sidebar", exact=True).click()
    page.wait_for_selector("#jp-left-stack", state="hidden")


@pytest.mark.browser
def test_streetcar_fits_one_screen_in_jupyterlab(open_page, notebook) -> None:
    """JupyterLab with the side bar collapsed, the notebook at its top: the same checks."""
    for width, height in SIZES:
        page, watch = open_page(
            notebook, app="lab", size=(width, height), ready=".sc-lab .sc-house"
        )
        collapse_left_sidebar(page)
        page.evaluate(
            "() => { for (const n of document.querySelectorAll("
            "'.jp-WindowedPanel-outer, .jp-Notebook')) n.scrollTop = 0; }"
        )
        a_turn_and_a_hint(page, f"JupyterLab {width}x{height}")
        window_shot(page, f"streetcar-jupyterlab-{width}x{height}")
        page.click(".sc-lab .sc-replay-this")  # replaying: the replay bar above the board
        page.wait_for_selector(".sc-lab .sc-replay .sc-replay-step")
        page.click(".sc-lab .sc-replay-step")
        page.wait_for_selector(".sc-lab .sc-message:has-text('Move 1 of')")
        assert_one_screen(page, f"JupyterLab {width}x{height} replaying")
        assert page.locator(".sc-lab .sc-replay-resume").bounding_box()["y"] < height
        window_shot(page, f"streetcar-jupyterlab-replay-{width}x{height}")
        check_watch(watch)

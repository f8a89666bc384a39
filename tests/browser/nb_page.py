"""Reading the North Berkeley lab off a live page, to compare with the engine."""

from __future__ import annotations

import time
from typing import Any

from housing_lab.north_berkeley import scenario_from_dict, score_scenario
from housing_lab.widgets.lab.charts import outcome_chart_data

READ_PAGE = """() => {
  const housed = {high: 0, middle: 0, low: 0};
  for (const node of document.querySelectorAll('.hl-nb-board [data-home][data-income]')) {
    housed[node.getAttribute('data-income')] += 1;
  }
  const tiles = {};
  for (const node of document.querySelectorAll('.hl-nb-board [data-square][data-tile]')) {
    tiles[node.getAttribute('data-square')] = node.getAttribute('data-tile');
  }
  const chart = document.querySelector('.hl-nb-lab .hl-outcome-chart');
  const groups = chart ? Array.from(chart.querySelectorAll('g.bargroup')) : [];
  const bars = groups.map((g) => Array.from(g.querySelectorAll('rect.bar'))
    .map((r) => parseFloat(r.getAttribute('height')) || 0));
  const message = document.querySelector('.hl-nb-board .hl-message');
  return {housed, tiles, bars, message: message ? message.textContent : ''};
}"""


def read_page(page: Any) -> dict[str, Any]:
    return page.evaluate(READ_PAGE)


def bar_values(bars: list[list[float]]) -> list[list[int]]:
    """Stacked bar heights back to residents: every income column stacks to 12."""
    columns = []
    for group in bars[:3]:
        total = sum(group)
        columns.append([round(12 * h / total) if total else 0 for h in group])
    return [list(row) for row in zip(*columns, strict=True)]  # rows = outcomes


def expected(scenario: dict[str, Any]) -> dict[str, Any]:
    result = score_scenario(scenario_from_dict(scenario)).to_dict()
    return {
        "housed": result["housed"],
        "tiles": scenario.get("tiles", {}),
        "bars": outcome_chart_data(result),
    }


def wait_until_page_shows(
    page: Any, scenario: dict[str, Any], timeout: float = 20.0, check_chart: bool = True
) -> dict[str, Any]:
    """Poll the page until board and chart show what the engine says for `scenario`."""
    want = expected(scenario)
    deadline = time.monotonic() + timeout
    seen: dict[str, Any] = {}
    while time.monotonic() < deadline:
        seen = read_page(page)
        ok = seen["housed"] == want["housed"] and seen["tiles"] == want["tiles"]
        if check_chart:
            ok = ok and len(seen["bars"]) >= 3 and bar_values(seen["bars"]) == want["bars"]
        if ok:
            return seen
        time.sleep(0.2)
    raise AssertionError(f"page never showed the engine's result.\nwant {want}\nsaw {seen}")


# The parts a student must see together, by selector (docs/nb_lab.md, "One screen").
ONE_SCREEN = {
    "board": ".hl-nb-lab .hl-nb-board .hl-board-svg",
    "palette": ".hl-nb-lab .hl-nb-board .hl-palette",
    "chart": ".hl-nb-lab .hl-outcome-chart",
    "last change": ".hl-nb-lab .hl-last-change",
    "policies": ".hl-nb-lab .hl-policies",
}

GEOMETRY = """(parts) => {
  const lab = document.querySelector('.hl-nb-lab');
  // the area a student sees: the window, cut to the box the lab scrolls in (JupyterLab's
  // notebook panel sits between its menu bar and its status bar)
  let view = {top: 0, left: 0, bottom: window.innerHeight, right: window.innerWidth};
  for (let node = lab && lab.parentElement; node; node = node.parentElement) {
    const style = getComputedStyle(node);
    if (/(auto|scroll)/.test(style.overflowY) && node.scrollHeight > node.clientHeight) {
      const r = node.getBoundingClientRect();
      view = {top: Math.max(view.top, r.top), left: Math.max(view.left, r.left),
              bottom: Math.min(view.bottom, r.bottom), right: Math.min(view.right, r.right)};
      break;
    }
  }
  const boxes = {};
  for (const [name, selector] of Object.entries(parts)) {
    const node = document.querySelector(selector);
    if (!node) { boxes[name] = null; continue; }
    const r = node.getBoundingClientRect();
    boxes[name] = {top: r.top, left: r.left, bottom: r.bottom, right: r.right,
                   width: r.width, height: r.height};
  }
  return {view, boxes};
}"""

CHANGE_LINE_LINES = """() => {
  const box = document.querySelector('.hl-nb-lab .hl-last-change div[title]');
  const style = getComputedStyle(box);
  const text = box.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
  return Math.round(text / parseFloat(style.lineHeight));
}"""
"""How many lines the "What changed" text takes (its box has a two-line minimum height)."""

SHOW_LAB = """() => {
  const lab = document.querySelector('.hl-nb-lab');
  lab.scrollIntoView({block: 'start'});
}"""

VISIBLE_WORDS = """() => {
  const lab = document.querySelector('.hl-nb-lab');
  const labels = Array.from(lab.querySelectorAll('[aria-label], [title]'))
    .map((n) => `${n.getAttribute('aria-label') || ''} ${n.getAttribute('title') || ''}`);
  const titles = Array.from(lab.querySelectorAll('title')).map((n) => n.textContent);
  return [lab.innerText, ...labels, ...titles].join('\\n');
}"""


def outside_view(page: Any, slack: float = 1.0) -> list[str]:
    """The one-screen parts (not) wholly inside the visible area, as readable complaints."""
    seen = page.evaluate(GEOMETRY, ONE_SCREEN)
    view, problems = seen["view"], []
    for name, box in seen["boxes"].items():
        if box is None or box["width"] == 0 or box["height"] == 0:
            problems.append(f"{name}: not shown")
        elif (
            box["top"] < view["top"] - slack
            or box["bottom"] > view["bottom"] + slack
            or box["left"] < view["left"] - slack
            or box["right"] > view["right"] + slack
        ):
            problems.append(f"{name}: {box} outside {view}")
    return problems + overlaps(page)


def overlaps(page: Any) -> list[str]:
    """Board parts drawn over by the chart column (or the other way round)."""
    boxes = page.evaluate(GEOMETRY, ONE_SCREEN)["boxes"]
    left, right = ("board", "palette"), ("chart", "last change")
    found = []
    for a in left:
        for b in right:
            p, q = boxes[a], boxes[b]
            if (
                p
                and q
                and min(p["right"], q["right"]) - max(p["left"], q["left"]) > 1
                and (min(p["bottom"], q["bottom"]) - max(p["top"], q["top"]) > 1)
            ):
                found.append(f"{a} and {b} overlap")
    return found


def visible_words(page: Any) -> str:
    """Everything the lab shows or says to a screen reader (text, labels, tooltips)."""
    return page.evaluate(VISIBLE_WORDS)

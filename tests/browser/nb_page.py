"""Reading the North Berkeley lab off a live page, to compare with the engine."""

from __future__ import annotations

import time
from typing import Any

from housing_lab.north_berkeley import scenario_from_dict, score_scenario
from housing_lab.widgets.nb_charts import outcome_chart_data

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

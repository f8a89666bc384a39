"""Reading the Streetcar lab off a live page, to compare with the engine."""

from __future__ import annotations

import time
from typing import Any

from housing_lab.streetcar import Game
from housing_lab.widgets.streetcar.board import position_view
from housing_lab.widgets.streetcar.score import score_chart_data

READ_PAGE = """() => {
  const board = document.querySelector('.sc-lab .sc-board');
  if (!board) return null;
  const houses = {};
  const flipped = [];
  for (const node of board.querySelectorAll('.sc-house[data-hex]')) {
    const key = node.getAttribute('data-hex');
    houses[key] = node.getAttribute('data-house-colour');
    if (node.getAttribute('data-flipped') === 'true') flipped.push(key);
  }
  const buildings = Array.from(board.querySelectorAll('.sc-building[data-hex]')).map((node) => [
    node.getAttribute('data-hex'), node.getAttribute('data-building-colour'),
    Number(node.getAttribute('data-building-cubes'))]);
  const lines = {purple: [], red: []};
  for (const node of board.querySelectorAll('[data-player-line]')) {
    lines[node.getAttribute('data-player-line')].push(node.getAttribute('data-edge'));
  }
  const totals = {};
  for (const row of document.querySelectorAll('.sc-lab .sc-score-table tr[data-player]')) {
    totals[row.getAttribute('data-player')] = Number(row.getAttribute('data-total'));
  }
  const chart = document.querySelector('.sc-lab .sc-score-chart');
  const groups = chart ? Array.from(chart.querySelectorAll('g.bargroup')) : [];
  const bars = groups.map((g) => Array.from(g.querySelectorAll('rect.bar'))
    .map((r) => parseFloat(r.getAttribute('height')) || 0));
  const svg = board.querySelector('svg.sc-board-svg');
  const message = board.querySelector('.sc-message');
  const outcome = document.querySelector('.sc-lab .sc-outcome');
  const turn = board.querySelector('.sc-turn');
  return {
    houses, flipped: flipped.sort(), buildings, lines,
    phase: svg ? svg.getAttribute('data-phase') : null,
    message: message ? message.textContent : '',
    kind: message ? message.className : '',
    totals, bars, outcome: outcome ? outcome.textContent : '',
    turn: turn ? turn.textContent : '',
    legal: board.querySelectorAll('.sc-edge.sc-legal').length,
  };
}"""


def read_page(page: Any) -> dict[str, Any]:
    return page.evaluate(READ_PAGE)


def expected(game: Game) -> dict[str, Any]:
    """What the page must show for the engine's position."""
    view = position_view(game)
    return {
        "houses": view["houses"],
        "flipped": sorted(view["flipped"]),
        "buildings": sorted(view["buildings"]),
        "lines": {player: sorted(keys) for player, keys in view["lines"].items()},
        "totals": game.scores(),
        "products": score_chart_data(game.score_breakdown()),
    }


def shown(seen: dict[str, Any]) -> dict[str, Any]:
    return {
        "houses": seen["houses"],
        "flipped": seen["flipped"],
        "buildings": sorted(seen["buildings"]),
        "lines": {player: sorted(keys) for player, keys in seen["lines"].items()},
        "totals": seen["totals"],
    }


def bars_agree(bars: list[list[float]], products: list[list[int]]) -> bool:
    """bqplot draws a group per colour with a bar per player; heights are proportional to the
    products, so compare where the zeros are and the ratios to the largest bar."""
    if len(bars) != len(products[0]):
        return False
    drawn = [[group[p] for group in bars] for p in range(len(products))]
    top_drawn = max(max(row) for row in drawn)
    top = max(max(row) for row in products)
    if top == 0:
        return top_drawn < 1
    if top_drawn == 0:  # the bars are not drawn yet (the caller polls again)
        return False
    return all(
        abs(h / top_drawn - v / top) < 0.02
        for row_h, row_v in zip(drawn, products, strict=True)
        for h, v in zip(row_h, row_v, strict=True)
    )


def wait_until_page_shows(page: Any, game: Game, timeout: float = 20.0) -> dict[str, Any]:
    """Poll until board, score table and chart show the engine's position and scores."""
    want = expected(game)
    deadline = time.monotonic() + timeout
    seen: dict[str, Any] = {}
    while time.monotonic() < deadline:
        seen = read_page(page) or {}
        if seen and seen["phase"] != "bot":
            board_ok = shown(seen) == {k: v for k, v in want.items() if k != "products"}
            if board_ok and bars_agree(seen["bars"], want["products"]):
                return seen
        time.sleep(0.15)
    raise AssertionError(f"page never showed the engine's position.\nwant {want}\nsaw {seen}")


# --- one screen (issue 11): what a student sees without scrolling --------------------------
GEOMETRY = """() => {
  const box = (node) => {
    if (!node) return null;
    const b = node.getBoundingClientRect();
    return {left: b.left, top: b.top, right: b.right, bottom: b.bottom};
  };
  const hexes = Array.from(document.querySelectorAll('.sc-lab [data-hex-cell] polygon'))
    .map((node) => box(node));
  const status = document.querySelector('#jp-main-statusbar, .jp-StatusBar-Widget');
  return {
    width: window.innerWidth,
    height: window.innerHeight,
    floor: status ? status.getBoundingClientRect().top : window.innerHeight,
    scrolled: window.scrollY,
    hexes,
    turn: box(document.querySelector('.sc-lab .sc-turn')),
    actions: box(document.querySelector('.sc-lab .sc-actions')),
  };
}"""

# Coordinates as a student would see them leak: "[-2, 0]", "(q, r)" pairs, "q,r|q,r" keys.
COORDINATES = r"\[\s*-?\d+\s*,\s*-?\d+\s*\]|\(\s*-?\d+\s*,\s*-?\d+\s*\)|-?\d+,-?\d+\|"


def outside_viewport(page: Any) -> list[str]:
    """What of the board (every hex, the bottom row included) and the turn panel (prompt and
    buttons) is not inside the window as it stands (no scrolling), as readable lines."""
    seen = page.evaluate(GEOMETRY)
    floor = min(seen["height"], seen["floor"])
    problems = []
    lowest = max(h["bottom"] for h in seen["hexes"])
    if lowest > floor + 0.5:
        problems.append(f"board's bottom row ends at y={lowest:.0f}, below the window ({floor})")
    if min(h["top"] for h in seen["hexes"]) < 0:
        problems.append("board's top row is above the window")
    if max(h["right"] for h in seen["hexes"]) > seen["width"]:
        problems.append("board is wider than the window")
    for name in ("turn", "actions"):
        item = seen[name]
        if item is None or item["bottom"] > floor or item["right"] > seen["width"]:
            problems.append(f"turn panel ({name}) not inside the window: {item}")
    return problems


def visible_coordinates(page: Any) -> list[str]:
    """Coordinates in any text the page shows (widget text, buttons, messages, tables)."""
    import re

    text = page.inner_text("body")
    return re.findall(COORDINATES, text)

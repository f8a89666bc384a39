"""Contrast of SVG text (board labels, bqplot axis, tick and bar labels) against what is drawn
behind it (issue 27). axe checks HTML text only; an SVG <text> has a `fill`, not a `color`, and
its background is whatever shape or box lies under it.

In the page, for each visible <text>: its computed fill, size and weight, and the layers under
three points of it (left, centre, right), top first, as `elementsFromPoint` finds them with
pointer events forced on (bqplot turns them off). Here the layers are composited over white
(fill or background colour times opacity) and the worst of the three points is compared with
WCAG's 4.5:1 (3:1 for large text: 24 px, or 18.66 px bold). Text inside a disabled or
aria-disabled control (a greyed building) is exempt, as WCAG 1.4.3 exempts inactive controls.
"""

from __future__ import annotations

import re
from typing import Any

from tests.support import contrast

LAYERS = """(scope) => {
  const force = document.createElement('style');
  force.textContent = '* { pointer-events: auto !important; }';
  document.head.append(force);
  const paint = (node, attr) => {
    const s = getComputedStyle(node);
    let opacity = Number(attr === 'fill' ? s.fillOpacity : 1);
    for (let n = node; n && n.nodeType === 1; n = n.parentElement) {
      opacity *= Number(getComputedStyle(n).opacity);
    }
    return [attr === 'fill' ? s.fill : s.backgroundColor, opacity];
  };
  const SHAPES = new Set(['rect', 'circle', 'ellipse', 'polygon', 'path']);
  const out = [];
  for (const text of document.querySelectorAll(`${scope} svg text`)) {
    const words = (text.textContent || '').trim();
    const box = text.getBoundingClientRect();
    const s = getComputedStyle(text);
    if (!words || !box.width || !box.height || s.visibility === 'hidden') continue;
    if (text.closest('[aria-disabled="true"], :disabled')) continue; // inactive: exempt
    if (box.bottom < 0 || box.right < 0 || box.top > innerHeight || box.left > innerWidth) {
      text.scrollIntoView({block: 'center'});
    }
    const b = text.getBoundingClientRect();
    const points = [0.2, 0.5, 0.8].map((f) => [b.left + f * b.width, b.top + b.height / 2]);
    const under = points.map(([x, y]) => {
      const layers = [];
      for (const node of document.elementsFromPoint(x, y)) {
        if (node === text || text.contains(node) || node.closest('text')) continue;
        const tag = node.tagName.toLowerCase();
        if (node instanceof SVGElement) {
          if (tag === 'svg') layers.push(paint(node, 'background'));
          else if (SHAPES.has(tag)) layers.push(paint(node, 'fill'));
        } else {
          layers.push(paint(node, 'background'));
        }
      }
      return layers;
    });
    const [fill, opacity] = paint(text, 'fill');
    out.push({words: words.slice(0, 40), fill, opacity, size: parseFloat(s.fontSize),
      weight: Number(s.fontWeight) || 400, under,
      where: (text.getAttribute('class') || text.parentElement.getAttribute('class') || '')});
  }
  force.remove();
  return out;
}"""


def rgba(css: str) -> tuple[float, float, float, float] | None:
    """'rgb(1, 2, 3)' / 'rgba(1, 2, 3, 0.5)' as numbers; None for 'none' or a pattern url."""
    found = re.fullmatch(r"rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)", css)
    if not found:
        return None
    r, g, b, a = found.groups()
    return float(r), float(g), float(b), 1.0 if a is None else float(a)


def over(top: tuple[float, float, float], alpha: float, below: tuple[float, ...]) -> tuple:
    return tuple(alpha * t + (1 - alpha) * u for t, u in zip(top, below, strict=True))


def behind(layers: list[list[Any]]) -> tuple[float, float, float]:
    """The colour under a point: its layers (top first) composited over white."""
    colour: tuple[float, ...] = (255.0, 255.0, 255.0)
    for css, opacity in reversed(layers):
        parsed = rgba(css)
        if parsed is None:
            continue  # 'none', or a pattern: what is under it shows
        colour = over(parsed[:3], parsed[3] * float(opacity), colour)
    return colour  # type: ignore[return-value]


def hex_colour(rgb: tuple[float, ...]) -> str:
    return "#" + "".join(f"{round(c):02x}" for c in rgb)


def svg_text_problems(page: Any, scope: str) -> tuple[int, list[str]]:
    """(how many SVG texts were checked, one line per text under its contrast minimum)."""
    texts = page.evaluate(LAYERS, scope)
    problems = []
    for text in texts:
        parsed = rgba(text["fill"])
        if parsed is None:
            continue  # unfilled text (an outline) is not read
        large = text["size"] >= 24 or (text["size"] >= 18.66 and text["weight"] >= 700)
        need = 3.0 if large else 4.5
        worst, seen = 21.0, ""
        for layers in text["under"]:
            ground = behind(layers)
            ink = over(parsed[:3], parsed[3] * float(text["opacity"]), ground)
            ratio = contrast(hex_colour(ink), hex_colour(ground))
            if ratio < worst:
                worst, seen = ratio, f"{hex_colour(ink)} on {hex_colour(ground)}"
        if worst < need:
            problems.append(
                f"{text['words']!r} ({text['where']}, {text['size']:g}px): {worst:.2f}:1 "
                f"< {need:g}:1, {seen}"
            )
    return len(texts), problems

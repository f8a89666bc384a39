"""Legibility checks on every bqplot chart of a page, measured in the browser.

A chart is legible when its tick labels do not print over each other, no label of an axis
lies under a bar, the labels stay inside the figure (not clipped), and no toolbar is drawn over
the figure. Each problem comes back as one sentence naming the chart (its title) and the
labels involved, so a failing test says what to fix.
"""

from __future__ import annotations

from typing import Any

CHART_PROBLEMS = r"""() => {
  const visible = (r) => r.width > 0 && r.height > 0;
  const overlap = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left))
    * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
  const problems = [];
  const figures = Array.from(document.querySelectorAll('.bqplot.figure'))
    .filter((f) => visible(f.getBoundingClientRect()));
  figures.forEach((figure, index) => {
    const around = figure.closest('.widget-vbox, .jp-OutputArea-output');
    const heading = around && around.querySelector('.hl-chart-title, b, strong');
    const title = (figure.querySelector('.mainheading') || {}).textContent
      || (heading && heading.textContent) || `chart ${index + 1}`;
    const box = figure.getBoundingClientRect();
    const axes = Array.from(figure.querySelectorAll('g.axis'));
    const labels = [];
    axes.forEach((axis) => {
      const ticks = Array.from(axis.querySelectorAll('.tick text'))
        .map((t) => ({text: t.textContent.trim(), rect: t.getBoundingClientRect()}))
        .filter((t) => t.text && visible(t.rect));
      for (let i = 0; i < ticks.length; i++) {
        for (let j = i + 1; j < ticks.length; j++) {
          if (overlap(ticks[i].rect, ticks[j].rect) > 2) {
            const pair = `"${ticks[i].text}" and "${ticks[j].text}"`;
            problems.push(`${title}: tick labels ${pair} overlap`);
          }
        }
      }
      labels.push(...ticks);
    });
    labels.forEach((label) => {
      const r = label.rect;
      const outside = r.left < box.left - 1 || r.right > box.right + 1
        || r.top < box.top - 1 || r.bottom > box.bottom + 1;
      if (outside) {
        problems.push(`${title}: label "${label.text}" is cut off at the figure's edge`);
      }
    });
    const marks = Array.from(figure.querySelectorAll('.bargroup rect, .bar'))
      .map((m) => m.getBoundingClientRect()).filter(visible);
    labels.forEach((label) => {
      if (marks.some((m) => overlap(label.rect, m) > 4)) {
        problems.push(`${title}: label "${label.text}" lies under a bar`);
      }
    });
    const toolbar = figure.querySelector('.bqplot-toolbar, .jupyter-widgets.widget-toolbar');
    if (toolbar && visible(toolbar.getBoundingClientRect())
        && getComputedStyle(toolbar).visibility !== 'hidden'
        && getComputedStyle(toolbar).display !== 'none') {
      problems.push(`${title}: a toolbar is drawn over the figure`);
    }
  });
  return {charts: figures.length, problems};
}"""


def chart_problems(page: Any) -> dict[str, Any]:
    """{"charts": how many visible bqplot figures, "problems": one sentence per problem}."""
    return page.evaluate(CHART_PROBLEMS)

"""Bar charts for the lessons that stay legible on a Chromebook and on a projector.

Horizontal bars, so category labels of any length are written out in full and never overlap;
the title and the legend are HTML above the chart, so no mark, toolbar or clipping can hide
them; every bar carries its value (a second cue besides colour); whole-number ticks for counts.
The colours are the Okabe-Ito palette, which colour-blind readers can tell apart.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import bqplot
import ipywidgets as widgets
import numpy as np

# Okabe & Ito (2008): distinguishable with every common colour-vision deficiency.
INCOME_COLOURS = {"high income": "#0072B2", "middle income": "#E69F00", "low income": "#009E73"}
OTHER_COLOURS = ("#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
LABEL_PIXELS_PER_CHAR = 7.5
BAR_PIXELS = 22


def _whole_ticks(top: float) -> np.ndarray:
    """At most about 7 whole-number ticks from 0 to `top`."""
    step = max(1, int(np.ceil(top / 6)))
    return np.arange(0, int(top) + 1, step)


def _label_width(values: np.ndarray, number_format: str) -> float:
    """Pixels of the widest value label (13px bold digits are about 8px wide)."""
    shown = [format(v, number_format) for v in values.ravel() if not np.isnan(v)]
    return 8.0 * max((len(text) for text in shown), default=1)


def _legend(colours: Mapping[str, str]) -> str:
    swatches = "".join(
        f"<span style='display:inline-flex;align-items:center;margin-right:14px'>"
        f"<span style='width:14px;height:14px;background:{colour};margin-right:5px;"
        f"border:1px solid #333'></span>{html.escape(name)}</span>"
        for name, colour in colours.items()
    )
    return f"<div class='hl-legend' style='font-size:14px'>{swatches}</div>"


def bar_chart(
    categories: Sequence[str],
    series: Mapping[str, Sequence[float]],
    *,
    title: str,
    value_label: str,
    colours: Mapping[str, str] | None = None,
    value_max: float | None = None,
    whole_numbers: bool = True,
    plot_width: int = 480,
) -> widgets.VBox:
    """Horizontal (grouped) bars: one row per category, one bar per series in each row.

    `series` maps a series name (shown in the legend) to one value per category. Returns a
    box holding the title, the legend (when there are several series) and the figure;
    `box.figure` is the bqplot Figure for tests and later updates."""
    names = list(series)
    values = np.array([list(series[name]) for name in names], dtype=float)
    if values.shape[1:] != (len(categories),):
        raise ValueError(f"each series needs {len(categories)} values, got {values.shape}")
    if not np.isfinite(values).all():  # bqplot would draw a NaN-wide rect and log an error
        raise ValueError("every value must be a number: give 0 and say why in the category")
    colours = dict(colours or {})
    spare = iter(OTHER_COLOURS)
    palette = {name: colours.get(name) or INCOME_COLOURS.get(name) or next(spare) for name in names}

    number_format = ".0f" if whole_numbers else ".1f"
    category_scale = bqplot.OrdinalScale(reverse=True)
    top = value_max if value_max is not None else float(np.nanmax(values, initial=0.0)) or 1.0
    # headroom past the largest bar so its value label is not clipped by the plot area
    value_scale = bqplot.LinearScale(min=0.0, max=float(top) * 1.12)
    bars = bqplot.Bars(
        x=list(categories),
        y=values,  # always 2-D: the label offset below then works for one series too
        scales={"x": category_scale, "y": value_scale},
        orientation="horizontal",
        type="grouped",
        colors=[palette[name] for name in names],
        padding=0.25,
        label_display=True,
        label_display_format=number_format,
        label_font_style={"font-size": "13px", "fill": "#111", "font-weight": "bold"},
        # bqplot right-aligns a horizontal bar's label on the bar end, shifted by this offset
        # (it swaps the offsets' names): shift by the widest label so labels sit past the bars
        label_display_vertical_offset=_label_width(values, number_format) + 4.0,
        tooltip=bqplot.Tooltip(fields=["x", "y"], labels=["", value_label]),
    )
    label_width = int(max(len(str(c)) for c in categories) * LABEL_PIXELS_PER_CHAR) + 20
    height = 70 + len(categories) * max(len(names), 1) * BAR_PIXELS + len(categories) * 10
    axes = [
        bqplot.Axis(scale=category_scale, side="left", tick_style={"font-size": "13px"}),
        bqplot.Axis(
            scale=value_scale,
            side="bottom",
            label=value_label,
            tick_format="d",  # the bars carry the exact values; whole ticks keep the axis calm
            tick_values=_whole_ticks(top),
            tick_style={"font-size": "12px"},
        ),
    ]
    figure = bqplot.Figure(
        marks=[bars],
        axes=axes,
        fig_margin={"top": 10, "bottom": 50, "left": label_width, "right": 50},
        # the plot area keeps its width however long the labels are
        layout=widgets.Layout(width=f"{label_width + plot_width + 50}px", height=f"{height}px"),
        display_toolbar=False,
        title="",
    )
    parts: list[widgets.Widget] = [
        widgets.HTML(f"<h4 style='margin:4px 0'>{html.escape(title)}</h4>")
    ]
    if len(names) > 1:
        parts.append(widgets.HTML(_legend(palette)))
    parts.append(figure)
    box = widgets.VBox(parts)
    box.figure = figure  # type: ignore[attr-defined]
    return box


def _shade(value: float, top: float) -> str:
    """White (0) to dark green (top), with text dark or light to stay readable."""
    share = 0.0 if top <= 0 or np.isnan(value) else min(max(value / top, 0.0), 1.0)
    light, dark = np.array([247, 252, 245]), np.array([0, 109, 44])
    red, green, blue = (light + (dark - light) * share).round().astype(int)
    ink = "#fff" if share > 0.55 else "#111"
    return f"background:rgb({red},{green},{blue});color:{ink}"


def heat_table(
    values: np.ndarray,
    rows: Sequence[str],
    columns: Sequence[str],
    *,
    title: str,
    unit: str = "",
    digits: int = 0,
) -> widgets.HTML:
    """A square grid of numbers shaded by size, as an HTML table: every row and column label is
    written out in full (the column labels run upwards), and each cell shows its number, so
    nothing depends on colour alone and no label can sit under the marks."""
    values = np.asarray(values, dtype=float)
    if values.shape != (len(rows), len(columns)):
        raise ValueError(f"values must be {len(rows)} x {len(columns)}, got {values.shape}")
    top = float(np.nanmax(values, initial=0.0))
    head = "".join(
        f"<th style='writing-mode:vertical-rl;transform:rotate(180deg);text-align:left;"
        f"padding:4px 2px;font-weight:normal'>{html.escape(c)}</th>"
        for c in columns
    )
    body = "".join(
        f"<tr><th style='text-align:right;padding:0 6px;font-weight:normal;white-space:nowrap'>"
        f"{html.escape(row)}</th>"
        + "".join(
            f"<td style='{_shade(v, top)};text-align:center;min-width:26px;padding:2px'>"
            f"{'' if np.isnan(v) else format(v, f'.{digits}f')}</td>"
            for v in values[index]
        )
        + "</tr>"
        for index, row in enumerate(rows)
    )
    caption = f" ({html.escape(unit)})" if unit else ""
    return widgets.HTML(
        f"<h4 style='margin:4px 0'>{html.escape(title)}{caption}</h4>"
        f"<div style='overflow-x:auto'><table class='hl-heat' style='border-collapse:collapse;"
        f"font-size:12px'><thead><tr><th></th>{head}</tr></thead><tbody>{body}</tbody>"
        f"</table></div>"
    )

"""The robustness heat table: boards or policy sets x assumptions, one measure in every cell.

A real HTML `<table>` (caption, column and row headers with `scope`), so a screen reader reads
"Vacancy Control, Costa-Hawkins: houses exempt, 7"; every cell shows its number, and a cell that
differs from the rulebook's column says by how much with an arrow, so nothing depends on colour.
The shading is one hue (light to dark blue), which colour-blind readers see as light to dark.
"""

from __future__ import annotations

import html
import math
from typing import TYPE_CHECKING

import ipywidgets as widgets

if TYPE_CHECKING:
    import pandas as pd

LIGHT = (247, 251, 255)
DARK = (8, 69, 148)
CSS = """
<style>
.hl-robust {border-collapse: collapse; font-size: 15px; margin: 4px 0}
.hl-robust caption {caption-side: top; text-align: left; font-weight: bold; font-size: 17px;
  padding: 4px 0 8px}
.hl-robust th, .hl-robust td {border: 1px solid #9aa5b1; padding: 6px 10px}
.hl-robust thead th {background: #eef1f4; font-weight: 600; vertical-align: bottom;
  max-width: 11em; min-width: 7em; text-align: center; white-space: normal}
.hl-robust tbody th {text-align: left; font-weight: 600; background: #fafbfc; max-width: 16em}
.hl-robust td {text-align: center; min-width: 7em; font-variant-numeric: tabular-nums}
.hl-robust td .hl-value {font-size: 17px; font-weight: 700}
.hl-robust td .hl-diff {display: block; font-size: 13px}
.hl-robust td.hl-none {color: #444; font-style: italic; background: #f1f1f1}
.hl-robust .hl-rulebook {outline: 3px solid #111; outline-offset: -3px}
.hl-robust-note {font-size: 13px; color: #333; margin: 2px 0 0}
</style>
"""


def _luminance(rgb: tuple[int, ...]) -> float:
    """WCAG relative luminance of an sRGB colour."""
    channels = [c / 255 for c in rgb]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _shade(value: float, low: float, high: float) -> str:
    """Background from light (`low`) to dark (`high`) blue, with whichever ink (near-black or
    white) contrasts more with it (WCAG contrast ratio)."""
    share = 0.0 if high <= low else min(max((value - low) / (high - low), 0.0), 1.0)
    rgb = tuple(round(a + (b - a) * share) for a, b in zip(LIGHT, DARK, strict=True))
    back = _luminance(rgb)
    dark_ink = (back + 0.05) / (_luminance((17, 17, 17)) + 0.05)
    white_ink = 1.05 / (back + 0.05)
    ink = "#fff" if white_ink > dark_ink else "#111"
    return f"background:rgb({rgb[0]},{rgb[1]},{rgb[2]});color:{ink}"


def _number(value: float, digits: int) -> str:
    return format(value, f".{digits}f")


def _diff(value: float, base: float, digits: int) -> str:
    change = round(value - base, digits)
    if change == 0:
        return "<span class='hl-diff'>same</span>"
    arrow, sign = ("\u25b2", "+") if change > 0 else ("\u25bc", "\u2212")
    return f"<span class='hl-diff'>{arrow} {sign}{_number(abs(change), digits)}</span>"


def robustness_html(
    table: pd.DataFrame,
    *,
    title: str | None = None,
    digits: int | None = None,
    empty: str = "over budget",
) -> str:
    """The heat table as HTML (`robustness_table`'s DataFrame: rows x assumptions). `digits`:
    decimals shown (default: 0 for whole numbers, else 1); `empty`: the words of a cell with
    no number (every board over budget)."""
    from housing_lab.north_berkeley import DEFAULT_ASSUMPTIONS  # numpy and pandas on first use

    rulebook_name = next(iter(DEFAULT_ASSUMPTIONS))  # the default list starts with the rulebook
    values = table.to_numpy(dtype=float)
    finite = [v for v in values.ravel() if not math.isnan(v)]
    if digits is None:
        digits = 0 if all(float(v).is_integer() for v in finite) else 1
    low, high = (min(finite), max(finite)) if finite else (0.0, 0.0)
    measure = str(table.columns.name or "")
    rows_name = str(table.index.name or "")
    columns = [str(c) for c in table.columns]
    base_column = columns.index(rulebook_name) if rulebook_name in columns else None
    caption = title or (f"{measure} under each assumption" if measure else "Robustness")
    head = f"<th scope='col'>{html.escape(rows_name)}</th>" + "".join(
        f"<th scope='col'{' class=hl-rulebook' if i == base_column else ''}>{html.escape(c)}</th>"
        for i, c in enumerate(columns)
    )
    body = []
    for r, row in enumerate(table.index):
        base = values[r, base_column] if base_column is not None else math.nan
        cells = []
        for c, value in enumerate(values[r]):
            rulebook = " hl-rulebook" if c == base_column else ""
            if math.isnan(value):
                cells.append(f"<td class='hl-none{rulebook}'>{html.escape(empty)}</td>")
                continue
            diff = "" if c == base_column or math.isnan(base) else _diff(value, base, digits)
            cells.append(
                f"<td class='hl-cell{rulebook}' style='{_shade(value, low, high)}'>"
                f"<span class='hl-value'>{_number(value, digits)}</span>{diff}</td>"
            )
        body.append(f"<tr><th scope='row'>{html.escape(str(row))}</th>{''.join(cells)}</tr>")
    note = (
        "Darker: more. \u25b2/\u25bc: more or fewer than under the rulebook (outlined column)."
        if base_column is not None
        else "Darker: more."
    )
    return (
        f"{CSS}<div style='overflow-x:auto'><table class='hl-robust'>"
        f"<caption>{html.escape(caption)}</caption><thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table>"
        f"<p class='hl-robust-note'>{note}</p></div>"
    )


def robustness_heat_table(
    table: pd.DataFrame,
    *,
    title: str | None = None,
    digits: int | None = None,
    empty: str = "over budget",
) -> widgets.HTML:
    """The heat table as a widget for a lesson or the lab's compare tab: give it
    `robustness(...).heat_table()` (or `robustness_table(frame, measure)`)."""
    return widgets.HTML(robustness_html(table, title=title, digits=digits, empty=empty))

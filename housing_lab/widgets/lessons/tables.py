"""Tables students read: every lesson shows its tables through `lesson_table`.

A pandas DataFrame as Jupyter draws it is a programmer's view: long text cut with "...", text
right-aligned, rows numbered from 0, whole numbers written "12.0", money as "4.0". Here one
place decides how a cell reads, so every lesson's table reads the same: text in full (wrapped,
left-aligned), whole numbers as whole numbers, money as "$4", yes/no for true/false, no row
numbers, a title that says what the rows are. The result is a plain object with an HTML view
(not a widget), so a lesson's saved output is the same on every run and nbval can compare it.
"""

from __future__ import annotations

import html
import math
import numbers
from collections.abc import Collection, Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from housing_lab.widgets.common import signed as signed_number

# Selectors beat JupyterLab's `:not(.jp-RenderedMarkdown).jp-RenderedHTMLCommon td` (0,2,1),
# which right-aligns every cell of an HTML output. A column header breaks between words only
# ("Develop|er" at 1366 px otherwise); a table too wide for its page scrolls on its own.
CSS = """<style>
.hl-tables table.hl-table {border-collapse: collapse; font-size: 15px; margin: 4px 0 8px;
  max-width: 100%}
.hl-tables .hl-table-title {font-weight: 600; font-size: 16px; padding: 6px 0 6px}
.hl-tables table.hl-table th, .hl-tables table.hl-table td {border: 1px solid #bcccdc;
  padding: 5px 10px; vertical-align: top; white-space: normal; overflow-wrap: anywhere;
  text-align: left; line-height: 1.35}
.hl-tables table.hl-table thead th {background: #eef1f4; vertical-align: bottom}
.hl-tables table.hl-table th {overflow-wrap: normal}
.hl-tables {max-width: 100%; overflow-x: auto}
.hl-tables table.hl-table tbody th {background: #fafbfc; font-weight: 600}
.hl-tables table.hl-table td {max-width: 34em}
.hl-tables table.hl-table td.hl-num {text-align: right; font-variant-numeric: tabular-nums;
  white-space: nowrap}
</style>"""


MINUS = "\u2212"


def cell_text(value: object, *, money: bool = False, sign: bool = False, digits: int = 1) -> str:
    """How one value reads: "12" not "12.0", "$4" or "$13.50" for money, "+1" for a score when
    `sign`, a real minus ("−45.2"), "yes"/"no" for true/false, a blank for a missing number, at
    most `digits` decimals otherwise."""
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, numbers.Real):
        number = float(value)
        if money:
            text = f"{abs(number):,.0f}" if number.is_integer() else f"{abs(number):,.2f}"
            return f"{MINUS if number < 0 else ''}${text}"
        rounded = round(number, digits)
        if sign and float(rounded).is_integer():
            return signed_number(int(rounded), plus=True)
        text = f"{int(rounded):,}" if float(rounded).is_integer() else f"{rounded:,.{digits}f}"
        return text.replace("-", MINUS)  # one minus sign everywhere, legible on a projector
    return str(value)


def _is_number(value: object) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


class LessonTable:
    """A table as students read it (see the module docstring); `frame` holds the values, for
    code that wants them. Jupyter shows `_repr_html_`; the plain text is for a terminal."""

    def __init__(
        self,
        frame: pd.DataFrame,
        *,
        title: str | None = None,
        money: Collection[str] = (),
        signed: Collection[str] = (),
        digits: int = 1,
    ) -> None:
        self.frame = frame
        self.title = title
        self.money = {str(c) for c in money}
        self.signed = {str(c) for c in signed}
        for kind, named in (("money", self.money), ("a signed score", self.signed)):
            unknown = named - {str(c) for c in frame.columns}
            if unknown:
                raise ValueError(f"no column {sorted(unknown)[0]!r} to show as {kind}")
        self.digits = digits
        # named rows (one column of row headers a level); a RangeIndex is only row numbers
        self.row_headers = 0 if isinstance(frame.index, pd.RangeIndex) else frame.index.nlevels

    def rows(self) -> list[list[str]]:
        """Each row's cells as words (the row header first when the rows are named)."""
        out = []
        for label, row in self.frame.iterrows():
            labels = label if isinstance(label, tuple) else (label,)
            cells = [cell_text(part) for part in labels] if self.row_headers else []
            cells += [
                cell_text(
                    value,
                    money=str(column) in self.money,
                    sign=str(column) in self.signed,
                    digits=self.digits,
                )
                for column, value in row.items()
            ]
            out.append(cells)
        return out

    def headers(self) -> list[str]:
        """Column names; a money column's " ($)" is dropped, since its cells carry the sign."""
        names = [
            str(c).removesuffix(" ($)") if str(c) in self.money else str(c)
            for c in self.frame.columns
        ]
        if self.row_headers:
            names[:0] = [str(name or "") for name in self.frame.index.names]
        return names

    def _repr_html_(self) -> str:
        head = "".join(f"<th scope='col'>{html.escape(h)}</th>" for h in self.headers())
        body = []
        values = self.frame.to_numpy(dtype=object)
        for r, cells in enumerate(self.rows()):
            parts = []
            for c, text in enumerate(cells):
                if c < self.row_headers:
                    parts.append(f"<th scope='row'>{html.escape(text)}</th>")
                    continue
                raw = values[r, c - self.row_headers]
                number = " class='hl-num'" if _is_number(raw) else ""
                parts.append(f"<td{number}>{html.escape(text)}</td>")
            body.append(f"<tr>{''.join(parts)}</tr>")
        # the title above the table, not a <caption>: a caption is only as wide as the table
        title = html.escape(self.title or "")
        heading = f"<div class='hl-table-title'>{title}</div>" if title else ""
        label = f" aria-label='{title}'" if title else ""
        return (
            f"{CSS}<div class='hl-tables' style='overflow-x:auto'>{heading}"
            f"<table class='hl-table'{label}><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table></div>"
        )

    def __repr__(self) -> str:
        lines = [self.title] if self.title else []
        lines.append(" | ".join(self.headers()))
        lines += [" | ".join(cells) for cells in self.rows()]
        return "\n".join(lines)


def lesson_table(
    data: pd.DataFrame | Iterable[Mapping[str, Any]],
    *,
    title: str | None = None,
    money: Collection[str] = (),
    signed: Collection[str] = (),
    index: str | None = None,
    digits: int = 1,
) -> LessonTable:
    """The table students read, from a DataFrame or a list of row dicts. `index`: a column
    whose values name the rows (written as row headers); otherwise rows are not numbered.
    `money`: columns shown as dollars; `signed`: scores shown "+1", "0", "−1"; `digits`:
    decimals for numbers that are not whole."""
    frame = data if isinstance(data, pd.DataFrame) else pd.DataFrame(list(data))
    if index is not None:
        frame = frame.set_index(index)
    return LessonTable(frame, title=title, money=money, signed=signed, digits=digits)

"""The lessons' tables read as words and numbers, not as a programmer's DataFrame."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest

from housing_lab.widgets.lessons.tables import cell_text, lesson_table


@pytest.mark.parametrize(
    "value, money, expected",
    [
        (12.0, False, "12"),
        (np.int64(4), False, "4"),
        (10.567, False, "10.6"),
        (1.0, False, "1"),
        (4.0, True, "$4"),
        (13.5, True, "$13.50"),
        (np.float64(26), True, "$26"),
        (-45.23, False, "\u221245.2"),
        (-2.5, True, "\u2212$2.50"),
        (True, False, "yes"),
        (np.bool_(False), False, "no"),
        (math.nan, False, ""),
        (pd.NA, False, ""),
        ("Separate lines", False, "Separate lines"),
    ],
)
def test_a_cell_reads_as_a_student_would_write_it(value, money, expected) -> None:
    assert cell_text(value, money=money) == expected


def test_a_score_shows_its_sign_with_a_real_minus() -> None:
    scores = lesson_table([{"Card": "Landlords", "Now": -1, "After": 1.0}], signed=["Now", "After"])
    assert repr(scores).splitlines()[-1] == "Landlords | \u22121 | +1"
    assert cell_text(0, sign=True) == "0"


def _cells(page: str, tag: str) -> list[str]:
    return re.findall(rf"<{tag}(?:\s[^>]*)?>(.*?)</{tag}>", page)


def test_no_row_numbers_full_text_and_money() -> None:
    long = "At least 12 low income residents are housed, or spending is at most $10 in all"
    table = lesson_table(
        [{"Card": "Developer", "+1 when": long, "Spending": 4.0, "Housed": 12.0}],
        money=["Spending"],
        title="1 card",
    )
    page = table._repr_html_()
    assert _cells(page, "td") == [
        "Developer",
        html_escape(long),
        "$4",
        "12",
    ]
    assert "<div class='hl-table-title'>1 card</div>" in page and "aria-label='1 card'" in page
    assert "<th scope='row'>" not in page  # rows are not numbered
    assert "..." not in page and "text-align: right" not in page.split(".hl-num")[0]
    assert repr(table).splitlines()[-1] == f"Developer | {long} | $4 | 12"


def html_escape(text: str) -> str:
    import html

    return html.escape(text)


def test_named_rows_are_row_headers_and_numbers_align_right() -> None:
    frame = pd.DataFrame({"Average": [10.57, 3.0]}, index=pd.Index(["Low", "High"], name="Income"))
    page = lesson_table(frame)._repr_html_()
    assert _cells(page, "th") == ["Income", "Average", "Low", "High"]
    assert re.findall(r"<td class='hl-num'>([^<]*)</td>", page) == ["10.6", "3"]
    assert lesson_table(frame.reset_index(), index="Income")._repr_html_() == page


def test_a_money_column_that_is_not_there_is_named() -> None:
    with pytest.raises(ValueError, match="'Cost'"):
        lesson_table([{"Spending": 1}], money=["Cost"])


def test_two_levels_of_row_names_are_two_header_columns() -> None:
    frame = pd.DataFrame(
        {"Board": ["Market rate", "Market rate"], "Policy": ["No policy", "ADUs"], "Low": [11, 9]}
    ).set_index(["Board", "Policy"])
    page = lesson_table(frame)._repr_html_()
    heads = ["Board", "Policy", "Low"]
    assert _cells(page, "th") == [*heads, "Market rate", "No policy", "Market rate", "ADUs"]
    assert _cells(page, "td") == ["11", "9"]

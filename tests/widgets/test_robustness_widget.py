"""The robustness heat table: a real table, numbers and arrows beside the colour, words only."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from housing_lab.north_berkeley import RULEBOOK, robustness
from housing_lab.widgets import robustness_heat_table
from housing_lab.widgets.robustness import robustness_html

from ..north_berkeley.helpers import PLACEMENT


def table(values: list[list[float]]) -> pd.DataFrame:
    frame = pd.DataFrame(
        values,
        index=pd.Index(["No policy", "Vacancy Control"], name="Board or policy set"),
        columns=["The rulebook", "No filtering <high only>", "City budget of $6"],
    )
    frame.columns.name = "Low income housed"
    return frame


def cells(page: str) -> list[str]:
    return re.findall(r"<td[^>]*>(.*?)</td>", page)


def test_a_real_table_with_headers_for_rows_and_columns() -> None:
    page = robustness_html(table([[11, 4, np.nan], [9, 9, 7]]))
    assert "<caption>Low income housed under each assumption</caption>" in page
    assert page.count("<th scope='col'") == 4 and page.count("<th scope='row'>") == 2
    assert "<th scope='row'>Vacancy Control</th>" in page
    assert "No filtering &lt;high only&gt;" in page  # names are escaped, not markup


def test_every_cell_has_its_number_and_its_change_from_the_rulebook() -> None:
    shown = cells(robustness_html(table([[11, 4, np.nan], [9, 9, 7]])))
    text = [re.sub(r"<[^>]+>", " ", cell).split() for cell in shown]
    assert text[0] == ["11"]  # the rulebook's own column has no arrow
    assert text[1] == ["4", "\u25bc", "\u22127"]
    assert text[2] == ["over", "budget"]
    assert text[4] == ["9", "same"] and text[5] == ["7", "\u25bc", "\u22122"]
    assert "hl-rulebook" in shown[0] or "hl-rulebook" in robustness_html(table([[1, 2, 3]] * 2))


def test_shading_runs_from_light_to_dark_with_readable_ink() -> None:
    page = robustness_html(table([[0, 6, 12], [3, 9, 12]]))
    styles = re.findall(r"style='background:rgb\((\d+),(\d+),(\d+)\);color:(#\w+)'", page)
    darkness = [sum(map(int, rgb[:3])) for rgb in styles]
    assert darkness[0] > darkness[1] > darkness[2]  # 0, 6, 12 on the first row
    assert styles[0][3] == "#111" and styles[2][3] == "#fff"


def test_fractions_get_one_decimal_and_the_widget_wraps_the_html() -> None:
    averaged = table([[10.25, 7.5, 3.0], [2.0, 1.0, 0.0]])
    assert "10.2" in robustness_html(averaged) or "10.3" in robustness_html(averaged)
    assert robustness_heat_table(averaged).value == robustness_html(averaged)


def test_from_the_engine_table_in_words() -> None:
    frame = robustness(
        {"tiles": {"B1": "tower_market", "C1": "tower_market"}, "existing": PLACEMENT},
        {"The rulebook": RULEBOOK, "No filtering": {"market_homes_for": ["high"]}},
    )
    page = robustness_html(frame.heat_table())
    assert "<th scope='row'>Board 1</th>" in page and ">No filtering</th>" in page
    assert "_" not in re.sub(r"<[^>]+>|class='[^']*'", "", page.split("</style>")[1])


def contrast(rgb: tuple[int, ...], ink: str) -> float:
    def luminance(colour: tuple[int, ...]) -> float:
        c = [v / 255 for v in colour]
        c = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in c]
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]

    text = (255, 255, 255) if ink == "#fff" else (17, 17, 17)
    a, b = sorted((luminance(rgb), luminance(text)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def test_every_shaded_cell_keeps_its_number_readable() -> None:
    """WCAG AA for text: contrast at least 4.5 between the number and its background."""
    page = robustness_html(table([[float(v) for v in range(0, 3)], [3.0, 6.0, 12.0]]))
    many = robustness_html(table([[v / 4 for v in range(3)], [v for v in (5.5, 7.1, 8.3)]]))
    for html in (page, many):
        styles = re.findall(r"background:rgb\((\d+),(\d+),(\d+)\);color:(#\w+)", html)
        assert len(styles) == 6
        for *rgb, ink in styles:
            assert contrast(tuple(map(int, rgb)), ink) >= 4.5, (rgb, ink)

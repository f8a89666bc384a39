"""The robustness heat table in Voila at a Chromebook's 1366x768 and a projector's 1920x1080:
the whole table fits the width, every cell shows its number, and headers are real headers."""

from __future__ import annotations

from typing import Any

import pytest

from .harness import screenshot, settle

pytestmark = pytest.mark.browser

CELLS = [
    "from housing_lab.north_berkeley import robustness\n"
    "from housing_lab.widgets import robustness_heat_table\n"
    "frame = robustness([[], ['vacancy_control'], ['adu'], ['vacancy_control', 'adu']],"
    " n=2000, seed=1)\n"
    "robustness_heat_table(frame.heat_table())",
]
SIZES = [(1366, 768), (1920, 1080)]


def test_the_heat_table_fits_and_reads(open_page: Any) -> None:
    """At each size (one page load, the window resized): the table inside the window's width,
    real headers, a number in every cell, no text under 13 px."""
    page, watch = open_page(CELLS, size=SIZES[0], ready=".hl-robust")
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        box = page.locator(".hl-robust").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, box
        assert page.locator(".hl-robust th[scope=col]").count() == 6
        assert page.locator(".hl-robust th[scope=row]").count() == 4
        numbers = page.locator(".hl-robust td .hl-value").all_inner_texts()
        assert len(numbers) == 20 and all(text.replace(".", "").isdigit() for text in numbers)
        # the smallest text on the table is still legible on a projector
        smallest = page.evaluate(
            "Math.min(...[...document.querySelectorAll('.hl-robust *')]"
            ".map(e => parseFloat(getComputedStyle(e).fontSize)))"
        )
        assert smallest >= 13
        screenshot(page, f"robustness-table-{width}x{height}")
    watch.check()

"""The three no-code apps checked by axe-core (axe-playwright-python, which bundles axe.min.js:
nothing is fetched) in Chromium at a Chromebook's 1366x768.

A serious or critical violation fails the test (contrast, missing names on controls, images
without text, ARIA misuse). Moderate and minor findings are written to
test-artifacts/accessibility/APP.txt for people to read: the one left today is axe's "region"
rule (content outside landmarks), which comes from Voila's page template, not from our widgets.
Inside each app's own landmark every impact fails, with every panel opened, at both screen
sizes: the lab once per tab (Who is pleased, New homes, Compare, Policies, Save and load,
Assumptions). The same page loads check SVG text contrast (tests/browser/contrast.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from .contrast import svg_text_problems
from .harness import ROOT, axe, screenshot, settle

pytestmark = pytest.mark.browser

APPS = {
    "lab": ".hl-nb-lab",
    "streetcar": ".sc-lab",
    "table": ".widget-box",
}
REPORTS = ROOT / "test-artifacts" / "accessibility"
# Voila's own page template links Font Awesome on a CDN although its bundle already holds it;
# offline the request fails and the page is unchanged. Nothing of ours may reach out.
VOILA_TEMPLATE_CDN = "https://cdn.jsdelivr.net/npm/@fortawesome/"
BLOCKING = ("serious", "critical")


def describe(violation: dict[str, Any]) -> str:
    """One violation as lines a developer can act on: rule, impact, help and where."""
    places = "; ".join(" ".join(node["target"]) for node in violation["nodes"][:5])
    return f"{violation['impact']} {violation['id']}: {violation['help']} at {places}"


def check_whole_page(page: Any, watch: Any, app: str) -> None:
    """The whole page as it opens (Voila's template too): no serious or critical violation;
    every finding written to test-artifacts/accessibility/APP.txt; nothing fetched from
    outside 127.0.0.1. Run on the Chromebook-size page load of each app's strict test."""
    page.wait_for_load_state("networkidle")
    results = axe().Axe().run(page)
    screenshot(page, f"accessibility-{app}")
    violations = results.response["violations"]
    REPORTS.mkdir(parents=True, exist_ok=True)
    (REPORTS / f"{app}.txt").write_text(
        "\n".join(describe(v) for v in violations) + "\n", encoding="utf-8"
    )
    blocking = [describe(v) for v in violations if v["impact"] in BLOCKING]
    assert blocking == [], "\n".join(blocking)
    assert results.response["passes"], "axe ran no checks: the page did not render"
    ours = [url for url in watch.blocked if not url.startswith(VOILA_TEMPLATE_CDN)]
    assert ours == [], f"the app reached outside 127.0.0.1: {ours}"


# Every impact (minor and moderate too), inside the app's own landmark, with every disclosure
# and accordion panel opened: what is hidden by default is checked as a student opens it.
SIZES = {"chromebook": (1366, 768), "projector": (1920, 1080)}
STRICT_APPS = {"streetcar": ".sc-lab", "table": ".hl-game-table"}
OPEN_PANELS = """() => {
  for (const d of document.querySelectorAll('details')) d.open = true;
  for (const t of document.querySelectorAll('.lm-TabBar-tab, .jupyter-widget-Collapse-header,'
    + ' .p-Collapse-header, .widget-collapse-header')) {
    const closed = t.getAttribute('aria-expanded') === 'false';
    if (closed || !t.classList.contains('lm-mod-current')) t.click();
  }
}"""
# Control labels cut off with an ellipsis (ipywidgets clips a label wider than its box): once,
# Streetcar's "arts district" goal read "... holding all 4 c...".
CUT_LABELS = """(scope) => [...document.querySelectorAll(
    `${scope} .widget-label-basic, ${scope} .widget-label, ${scope} .widget-button`)]
  .filter((n) => n.offsetParent !== null && n.scrollWidth > n.clientWidth + 1)
  .map((n) => n.textContent)"""
# Panels the kernel fills when first opened (the lab's Assumptions and New homes tabs,
# Streetcar's Game options): every open one has its controls before axe looks.
PANELS_FILLED = """() => [...document.querySelectorAll(
    '.jupyter-widget-Collapse-open > .jupyter-widget-Collapse-contents,'
    + ' .widget-tab-contents > :not(.lm-mod-hidden):not(.p-mod-hidden)')]
  .every((panel) => panel.querySelectorAll('*').length > 2)"""  # an unfilled box: 0 or 1
# The keyboard help's key names, each on one line: JupyterLab's output area floats <dt> into a
# 20% column, which once broke "Arrow keys on the board" into a word per line.
WRAPPED_KEY_NAMES = """(scope) => [...document.querySelectorAll(
    `${scope} .sc-keyboard-help dt, ${scope} .hl-gt-keyboard-help dt`)]
  .filter(dt => dt.getBoundingClientRect().height > 1.8 * parseFloat(getComputedStyle(dt).fontSize))
  .map(dt => dt.textContent)"""


@pytest.mark.slow
@pytest.mark.parametrize("app", sorted(STRICT_APPS))
def test_app_has_no_accessibility_violation_at_any_impact(open_page: Any, app: str) -> None:
    """Axe at every impact inside the app's landmark with every panel open, and the SVG text
    contrast, at each size: one page load, opened at the Chromebook size (the whole page is
    checked first, as it opens: `check_whole_page`), then the window resized to the
    projector's."""
    notebook = ROOT / "housing_lab" / "apps" / f"{app}.ipynb"
    scope = STRICT_APPS[app]
    page, watch = open_page(notebook, size=SIZES["chromebook"], ready=f"{scope} svg text")
    check_whole_page(page, watch, app)
    page.wait_for_load_state("networkidle")
    for number, size in enumerate(("chromebook", "projector")):
        width, height = SIZES[size]
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        check_svg_text(page, scope, f"contrast-{app}-{size}")
        if number == 0:  # panels stay open across the resize
            page.wait_for_selector(f'{scope}[role="region"][aria-label]')
            page.evaluate(OPEN_PANELS)
            page.wait_for_function(PANELS_FILLED)
            settle(page)  # the opened panels lay out
        landmark = page.evaluate(
            "(s) => { const e = document.querySelector(s); return [e.getAttribute('role'),"
            " e.getAttribute('aria-label'), e.querySelectorAll('h2, h3').length]; }",
            scope,
        )
        assert landmark[0] == "region" and landmark[1] and landmark[2] >= 1, landmark
        assert page.evaluate(WRAPPED_KEY_NAMES, scope) == [], f"key names wrap at {size}"
        assert page.evaluate(CUT_LABELS, scope) == [], f"labels cut off at {size}"
        results = axe().Axe().run(page, context=scope)
        screenshot(page, f"accessibility-{app}-panels-open-{size}")
        violations = results.response["violations"]
        REPORTS.mkdir(parents=True, exist_ok=True)
        (REPORTS / f"{app}-all-{size}.txt").write_text(
            "\n".join(describe(v) for v in violations) + "\n", encoding="utf-8"
        )
        assert [describe(v) for v in violations] == [], size
        assert results.response["passes"], "axe ran no checks: the page did not render"


# SVG text (board labels, bqplot axis, tick and bar labels) against what lies under it: axe
# checks HTML text only. Checked inside the tests above and below, on their page loads.
def check_svg_text(page: Any, scope: str, shot: str) -> None:
    settle(page)  # bqplot draws its axes after the first layout
    checked, problems = svg_text_problems(page, scope)
    print(f"{shot}: {checked} SVG texts checked")
    screenshot(page, shot)
    assert checked >= 20, f"only {checked} SVG texts found: the page did not render"
    assert problems == [], "\n".join(problems)


LAB = ".hl-nb-lab"
LAB_TABS = f"{LAB} .lm-TabBar-tab"


@pytest.mark.slow
def test_lab_has_no_accessibility_violation_in_any_tab(open_page: Any) -> None:
    """The lab at every impact, once per tab panel (a tab shows one panel at a time), with
    every disclosure opened: each panel as a student sees it when they open that tab, at each
    size. One page load, opened at the Chromebook size (the whole page is checked first, as
    it opens: `check_whole_page`), then the window resized to the projector's."""
    notebook = ROOT / "housing_lab" / "apps" / "lab.ipynb"
    page, watch = open_page(notebook, size=SIZES["chromebook"], ready=LAB)
    check_whole_page(page, watch, "lab")
    page.wait_for_load_state("networkidle")
    page.wait_for_selector(f'{LAB}[role="region"][aria-label]')
    page.evaluate("() => { for (const d of document.querySelectorAll('details')) d.open = true; }")
    titles = page.locator(LAB_TABS).all_text_contents()
    assert len(titles) >= 5, titles
    found: list[str] = []
    for size in ("chromebook", "projector"):
        width, height = SIZES[size]
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        at_size: list[str] = []
        for index, title in enumerate(titles):
            page.locator(LAB_TABS).nth(index).click()
            page.wait_for_selector(f"{LAB_TABS}.lm-mod-current >> text={title}")
            page.wait_for_function(PANELS_FILLED)
            settle(page)  # the panel's widgets (a bqplot chart) draw on first show
            if index == 0 or title == "New homes":  # the two tabs with charts
                check_svg_text(page, LAB, f"contrast-lab-{size}-tab{index}")
            results = axe().Axe().run(page, context=LAB)
            assert results.response["passes"], "axe ran no checks: the page did not render"
            at_size += [f"[{title}, {size}] {describe(v)}" for v in results.response["violations"]]
            screenshot(page, f"accessibility-lab-{size}-tab{index}")
        REPORTS.mkdir(parents=True, exist_ok=True)
        (REPORTS / f"lab-all-{size}.txt").write_text("\n".join(at_size) + "\n", encoding="utf-8")
        found += at_size
    assert found == []

"""The student-facing pages in lessons/: links resolve, and the rules page agrees with the data."""

from __future__ import annotations

import json
import pathlib
import re

import pytest

from housing_lab.north_berkeley.policies import POLICY_NAMES
from housing_lab.north_berkeley.tiles import load_catalogue

LESSONS = pathlib.Path(__file__).resolve().parents[1] / "lessons"
RULES_PAGE = LESSONS / "how_to_play.md"
HOME_WORDS = {"market": "market rate", "middle": "middle", "low": "low"}


def _markdown_of(notebook: pathlib.Path) -> str:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


@pytest.mark.parametrize("notebook", sorted(LESSONS.glob("*.ipynb")), ids=lambda p: p.stem)
def test_relative_links_in_lessons_resolve(notebook: pathlib.Path) -> None:
    for target in re.findall(r"\]\(([^)#:]+?)(?:#[^)]*)?\)", _markdown_of(notebook)):
        assert (LESSONS / target).exists(), f"{notebook.name} links to missing {target}"


def test_lesson_one_links_to_the_rules_page() -> None:
    assert "(how_to_play.md)" in _markdown_of(LESSONS / "01_start_here.ipynb")


def test_the_rules_page_lists_every_tile_as_the_engine_has_it() -> None:
    rows = {}
    for line in RULES_PAGE.read_text(encoding="utf-8").splitlines():
        match = re.fullmatch(r"\| ([^|]+) \| ([^|]+) \| \$(\d+) \|", line.strip())
        if match:
            rows[match[1]] = (match[2], int(match[3]))
    catalogue = load_catalogue()
    assert set(rows) == {tile.name for tile in catalogue.values()}
    for tile in catalogue.values():
        homes, cost = rows[tile.name]
        assert cost == tile.cost, tile.name
        for kind, word in HOME_WORDS.items():
            count = tile.count(kind)
            if count:
                assert re.search(rf"\b{count} {word}\b", homes), (tile.name, homes)
        if not tile.homes:
            assert homes == "no homes", tile.name


def test_the_rules_page_names_every_policy_as_printed() -> None:
    text = RULES_PAGE.read_text(encoding="utf-8")
    for name in POLICY_NAMES.values():
        assert f"**{name}**" in text, name


# What a student must not read in a lesson's text or saved outputs: snake_case ids, home and
# resident ids, squares with a quadrant number. (Code cells and `code` spans are for code.)
MACHINE_ID = re.compile(
    r"\b[a-z]+_[a-z0-9_]+\b|\b(?:house|apartment|adu|high|middle|low)-\d+\b|\b[A-C][1-3]-\d\b"
)
WIDGET_REPR = re.compile(r"^[A-Z]\w*\(")


def _student_text(notebook: pathlib.Path) -> list[str]:
    texts = []
    for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] == "markdown":
            prose = re.sub(r"`[^`]*`|\]\([^)]*\)", "", "".join(cell["source"]))
            texts.append(prose)
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            for text in (data.get("text/html"), output.get("text")):
                if text:
                    texts.append("".join(text))
            plain = "".join(data.get("text/plain", ""))
            if plain and "text/html" not in data and not WIDGET_REPR.match(plain):
                texts.append(plain)
    return texts


@pytest.mark.parametrize("notebook", sorted(LESSONS.glob("*.ipynb")), ids=lambda p: p.stem)
def test_lessons_show_students_no_machine_ids(notebook: pathlib.Path) -> None:
    found = {m for text in _student_text(notebook) for m in MACHINE_ID.findall(text)}
    assert not found, f"{notebook.name} shows ids: {sorted(found)}"


def _checked_code(notebook: pathlib.Path) -> list[str]:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    sources = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    return [s for s in sources if s.startswith("# NBVAL_CHECK_OUTPUT")]


def test_lesson_four_asks_the_coach_and_checks_its_answer() -> None:
    lesson = LESSONS / "04_who_wants_what.ipynb"
    checked = [s for s in _checked_code(lesson) if "coach(" in s]
    assert checked and "apply_changes(" in checked[0] and "assert" in checked[0]
    code = json.loads(lesson.read_text(encoding="utf-8"))["cells"]
    assert any("CoachPanel(" in "".join(c["source"]) for c in code if c["cell_type"] == "code")
    assert "Ask the coach" in _markdown_of(lesson)


def test_lesson_six_plays_the_search_bot() -> None:
    lesson = LESSONS / "06_streetcar.ipynb"
    checked = [s for s in _checked_code(lesson) if '"mcts"' in s]
    assert checked and "iterations=" in checked[0]
    cells = json.loads(lesson.read_text(encoding="utf-8"))["cells"]
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    assert 'StreetcarLab(seed=2, opponent="mcts")' in code
    markdown = _markdown_of(lesson)
    assert "search bot" in markdown and "**Hint**" in markdown


def _html_outputs(notebook: pathlib.Path) -> list[str]:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return [
        "".join(output.get("data", {}).get("text/html", ""))
        for cell in cells
        for output in cell.get("outputs", [])
    ]


@pytest.mark.parametrize("notebook", sorted(LESSONS.glob("*.ipynb")), ids=lambda p: p.stem)
def test_lesson_tables_are_drawn_for_students(notebook: pathlib.Path) -> None:
    """Every table goes through `lesson_table` (issue 26): pandas' own view cuts text with
    "...", numbers rows from 0 and writes "12.0"."""
    for page in _html_outputs(notebook):
        assert 'class="dataframe"' not in page
        if "hl-table" in page:
            cells = re.findall(r"<td[^>]*>([^<]*)</td>", page)
            assert not [c for c in cells if re.fullmatch(r"-?\d+\.0+", c)], cells
            assert not [c for c in cells if c.endswith("...")], cells


def test_lesson_six_names_the_search_bot_in_words() -> None:
    saved = (LESSONS / "06_streetcar.ipynb").read_text(encoding="utf-8")
    assert "search bot" in saved and "mcts bot" not in saved


@pytest.mark.parametrize("notebook", sorted(LESSONS.glob("*.ipynb")), ids=lambda p: p.stem)
def test_no_paragraph_is_read_as_mathematics(notebook: pathlib.Path) -> None:
    """Two dollar signs in one paragraph ("$15 ... ($26") are typeset as mathematics, which
    runs the words between them together; escaping them (\\$) works in JupyterLab but not in
    Voila's renderer, so a paragraph names at most one amount of money."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    for cell in (c for c in cells if c["cell_type"] == "markdown"):
        prose = re.sub(r"`[^`]*`", "", "".join(cell["source"]))
        for paragraph in re.split(r"\n\s*\n", prose):
            assert paragraph.count("$") < 2, paragraph


@pytest.mark.parametrize("notebook", sorted(LESSONS.glob("*.ipynb")), ids=lambda p: p.stem)
def test_a_lesson_opens_saved_and_invites_a_run(notebook: pathlib.Path) -> None:
    """What JupyterLab shows before a cell is run is the saved notebook (tools/build_lessons.py):
    ipykernel's own kernel name (any other is rewritten as the kernel starts, and the lesson
    opens marked unsaved), no saved widget state, and a widget's output that asks for a run
    instead of a repr such as `PredictThenRun()` (cells nbval checks keep theirs)."""
    from ipykernel.kernelspec import get_kernel_dict

    saved = json.loads(notebook.read_text(encoding="utf-8"))
    assert saved["metadata"]["kernelspec"]["display_name"] == get_kernel_dict()["display_name"]
    assert "widgets" not in saved["metadata"]
    for cell in saved["cells"]:
        if cell["cell_type"] != "code" or "NBVAL_CHECK_OUTPUT" in "".join(cell["source"]):
            continue
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "application/vnd.jupyter.widget-view+json" in data:
                shown = "".join(data["text/plain"])
                assert shown.startswith("Run this cell"), f"{notebook.name} {cell['id']}: {shown}"

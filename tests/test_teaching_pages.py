"""Pages for teaching: printable worksheets and answer key, the teacher's guide, the sources.

Every source a lesson or the guide cites (S1, S2, ...) must be listed in docs/sources.md with an
address and a claim; worksheets must read as words, not ids."""

from __future__ import annotations

import json
import pathlib
import re

import pytest

from housing_lab.errors import HousingLabError, WriteError
from housing_lab.questions.notes import lesson_notes
from housing_lab.worksheets import WORKSHEETS, answer_key_html, worksheet_html, write_worksheets

ROOT = pathlib.Path(__file__).resolve().parents[1]
LESSONS = ROOT / "lessons"
GUIDE = LESSONS / "TEACHER_GUIDE.md"
SOURCES = ROOT / "docs" / "sources.md"
MACHINE_ID = re.compile(r"\b[a-z]+_[a-z0-9_]+\b|\b(?:house|apartment|adu|high|middle|low)-\d+\b")


def _visible(page: str) -> str:
    body = page.split("<body>", 1)[1]
    return re.sub(r"<[^>]+>", " ", body)


def test_every_lesson_has_a_worksheet_with_predictions_and_an_exit_ticket() -> None:
    assert [sheet.lesson for sheet in WORKSHEETS] == list(range(1, 9))
    assert len(list(LESSONS.glob("0[1-9]_*.ipynb"))) == len(WORKSHEETS)
    for sheet in WORKSHEETS:
        page = worksheet_html(sheet.lesson)
        assert page.startswith("<!DOCTYPE html>") and "@media print" in page
        assert page.count("My prediction") == len(sheet.predictions) >= 1
        assert "Exit ticket" in page and len(sheet.exit_ticket) >= 2
        assert not MACHINE_ID.search(_visible(page)), sheet.lesson


@pytest.mark.parametrize("lesson", [0, 9, "3", 2.0, None, True])
def test_a_lesson_without_a_worksheet_is_named(lesson: object) -> None:
    with pytest.raises(HousingLabError, match=re.escape(repr(lesson))):
        worksheet_html(lesson)


@pytest.mark.slow
def test_the_answer_key_carries_the_engines_numbers(tmp_path: pathlib.Path) -> None:
    key = answer_key_html()
    text = _visible(key)
    assert "6 of the 18 new low income homes stay empty with no policy, 10 with" in text  # l3
    assert "middle income housed 9 → 5" in text  # lesson 2
    assert "market rate board houses 3 low income residents and leaves 12 new" in text  # l8
    assert "best board with no filtering scores 2 for the pair" in text  # lesson 8, solved again
    assert not MACHINE_ID.search(text)
    written = write_worksheets(tmp_path / "sheets")
    assert sorted(p.name for p in written) == sorted(
        [f"lesson-{n}.html" for n in range(1, 9)] + ["answer-key.html"]
    )
    blocker = tmp_path / "a file"
    blocker.write_text("x")
    with pytest.raises(WriteError, match="a file"):
        write_worksheets(blocker / "sheets")


def _cited(text: str) -> set[str]:
    return set(re.findall(r"\bS(\d+)\b", text))


def _lesson_markdown() -> str:
    texts = []
    for notebook in sorted(LESSONS.glob("*.ipynb")):
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        texts += ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]
    return "\n".join(texts)


def _ranges(text: str) -> set[str]:
    """S1 to S4 cites S1..S4."""
    found = set()
    for a, b in re.findall(r"\bS(\d+) to S(\d+)\b", text):
        found.update(str(n) for n in range(int(a), int(b) + 1))
    return found


def test_every_cited_source_is_listed_with_an_address_and_a_claim() -> None:
    listed = {}
    for line in SOURCES.read_text(encoding="utf-8").splitlines():
        match = re.match(r"\| S(\d+) \| (.+?) \| (https?://\S+) \| (.+) \|$", line)
        if match:
            listed[match[1]] = (match[3], match[4])
    assert len(listed) >= 20
    assert len({url for url, _ in listed.values()}) == len(listed)  # one row per source
    cited = set()
    for text in (_lesson_markdown(), GUIDE.read_text(encoding="utf-8")):
        cited |= _cited(text) | _ranges(text)
    assert cited, "the lessons cite no source"
    assert cited <= set(listed), sorted(cited - set(listed), key=int)
    assert all(len(claim) > 40 for _, claim in listed.values())


def test_the_guide_has_short_plans_keys_and_alignment() -> None:
    guide = GUIDE.read_text(encoding="utf-8")
    lower = guide.lower()
    for heading in (
        "50-minute",
        "75-minute",
        "High-school track",
        "answer keys and misconceptions",
        "Extensions",
        "Alignment",
        "Debrief",
        "Worksheets",
    ):
        assert heading.lower() in lower, heading
    for app in ("housing-lab app lab", "housing-lab app streetcar", "housing-lab app table"):
        assert app in guide, app
    sections = {part.split(" · ", 1)[0]: part for part in guide.split("\n### ")[1:]}
    for lesson in range(1, 9):
        section = sections[str(lesson)]
        assert "**Answer key:**" in section and "**Misconception:**" in section, lesson


@pytest.mark.parametrize("notebook", sorted(LESSONS.glob("0[1-9]_*.ipynb")), ids=lambda p: p.stem)
def test_every_lesson_predicts_then_runs_and_says_what_is_next(notebook: pathlib.Path) -> None:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    markdown = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    # and the notes shown after a prediction (housing_lab/questions/notes.py)
    notes = lesson_notes(int(notebook.stem[:2])).values()
    markdown += "\n".join(text for texts in notes for text in texts)
    assert "PredictThenRun(" in code
    assert "**Next:**" in markdown.split("## What you learned")[-1]
    if notebook.stem[:2] in {"02", "03", "05", "06"}:
        assert "What the model leaves out" in markdown and "model_limits.md" in markdown


def test_the_guide_names_only_commands_that_exist() -> None:
    from housing_lab.cli import build_parser

    parser = build_parser()
    groups = next(a for a in parser._actions if a.dest == "group").choices
    named = re.findall(r"\bhousing-lab ([a-z-]+)", GUIDE.read_text(encoding="utf-8"))
    assert {"worksheets", "nb", "lab", "app"} <= set(named)
    assert set(named) <= set(groups), sorted(set(named) - set(groups))


@pytest.mark.parametrize("page", ["model_limits.md", "model_switches.md"])
def test_the_filtering_evidence_is_the_published_version(page: str) -> None:
    """The working paper (S18) is superseded: the docs quote the journal version (S19) and its
    figures (per building housing 100 people, within three years), not the paper's five years."""
    text = " ".join((ROOT / "docs" / page).read_text(encoding="utf-8").split())
    assert "19" in _cited(text) and "18" not in _cited(text) | _ranges(text)
    assert "45 to 70 people" in text and "within three years" in text
    assert "five years" not in text and "Mast 2019" not in text

"""`housing-lab worksheets OUT_DIR`: the worksheets and answer key, or one line and exit 2."""

from __future__ import annotations

import pathlib

import pytest

from housing_lab.cli import main
from housing_lab.worksheets import WORKSHEETS, worksheet_html

PAGES = sorted([f"lesson-{s.lesson}.html" for s in WORKSHEETS] + ["answer-key.html"])


@pytest.mark.slow  # the answer key runs the engine for its numbers
def test_writes_every_page_and_prints_their_paths(capsys, tmp_path: pathlib.Path) -> None:
    out = tmp_path / "class" / "sheets"
    assert main(["worksheets", str(out)]) == 0
    printed = capsys.readouterr()
    assert sorted(p.name for p in out.iterdir()) == PAGES
    assert printed.out.split() == [str(out / name) for name in _order()]
    assert printed.err == ""
    assert (out / "lesson-4.html").read_text(encoding="utf-8") == worksheet_html(4)


def _order() -> list[str]:
    return [f"lesson-{s.lesson}.html" for s in WORKSHEETS] + ["answer-key.html"]


@pytest.mark.parametrize("inside", [False, True])
def test_a_file_in_the_way_is_one_line_exit_2(capsys, tmp_path, inside) -> None:
    blocker = tmp_path / "notes.txt"
    blocker.write_text("not a folder")
    target = blocker / "sheets" if inside else blocker
    assert main(["worksheets", str(target)]) == 2
    printed = capsys.readouterr()
    assert printed.out == ""
    (line,) = printed.err.splitlines()
    assert line.startswith("housing-lab: error: cannot write worksheets to")
    assert "notes.txt" in line and "is not a folder" in line
    assert blocker.read_text() == "not a folder"


def test_a_missing_folder_argument_is_one_line_exit_2(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["worksheets"])
    assert stop.value.code == 2
    printed = capsys.readouterr()
    assert printed.out == "" and len(printed.err.splitlines()) == 1
    assert "OUT_DIR" in printed.err


def test_an_empty_folder_name_is_refused(capsys) -> None:
    assert main(["worksheets", ""]) == 2
    assert "cannot write worksheets to" in capsys.readouterr().err

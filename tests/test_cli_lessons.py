"""`housing-lab lab` and `housing-lab app`: the commands that open the lessons."""

from __future__ import annotations

import pathlib

import pytest

from housing_lab.cli import main

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_lab_opens_the_lessons_folder_on_lesson_one(capsys) -> None:
    assert main(["lab", "--dry-run", "--no-browser", "--lessons", str(ROOT / "lessons")]) == 0
    command = capsys.readouterr().out
    assert "jupyter lab" in command.replace("-m jupyter lab", "jupyter lab")
    assert f"--ServerApp.root_dir={ROOT / 'lessons'}" in command
    assert "01_start_here.ipynb" in command and "--no-browser" in command


@pytest.mark.parametrize("lesson", ["3", "03_policies", "03_policies.ipynb"])
def test_app_finds_a_lesson_by_number_or_name(capsys, lesson: str) -> None:
    assert main(["app", lesson, "--dry-run", "--lessons", str(ROOT / "lessons")]) == 0
    command = capsys.readouterr().out
    assert "-m voila" in command and command.strip().endswith("03_policies.ipynb")


def test_unknown_lesson_is_one_line_exit_2(capsys) -> None:
    assert main(["app", "42", "--dry-run", "--lessons", str(ROOT / "lessons")]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "'42'" in captured.err and captured.err.count("\n") == 1
    assert "01_start_here" in captured.err


def test_an_explicit_folder_wins_over_the_environment(tmp_path, monkeypatch) -> None:
    from housing_lab.commands.lessons import lessons_folder

    (tmp_path / "mine").mkdir()
    monkeypatch.setenv("HOUSING_LAB_LESSONS", str(ROOT / "lessons"))
    assert lessons_folder(str(tmp_path / "mine")) == (tmp_path / "mine").resolve()
    assert lessons_folder() == (ROOT / "lessons").resolve()

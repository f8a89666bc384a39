"""Never overwrite (issue 25 item 6): worksheets and `nb sample --out` refuse existing files
unless --force, never follow a symlink out of the folder, and write atomically."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from housing_lab import outputs
from housing_lab.cli import main
from housing_lab.errors import HousingLabError


def files(folder) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.mark.slow  # the worksheets' answer key runs the engine
def test_worksheets_keep_a_teachers_edit_unless_forced(tmp_path, capsys) -> None:
    assert main(["worksheets", str(tmp_path)]) == 0
    edited = tmp_path / "lesson-1.html"
    edited.write_text("my edited worksheet", encoding="utf-8")
    before = files(tmp_path)
    capsys.readouterr()
    assert main(["worksheets", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "already exists" in err and err.count("\n") == 1
    assert files(tmp_path) == before
    assert main(["worksheets", str(tmp_path), "--force"]) == 0
    assert edited.read_text(encoding="utf-8") != "my edited worksheet"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.slow  # the worksheets' answer key runs the engine
def test_worksheets_never_follow_a_symlink_out(tmp_path, capsys) -> None:
    outside = tmp_path / "outside.html"
    outside.write_text("precious", encoding="utf-8")
    folder = tmp_path / "sheets"
    folder.mkdir()
    os.symlink(outside, folder / "lesson-2.html")
    for extra in ([], ["--force"]):
        assert main(["worksheets", str(folder), *extra]) == 2
        assert "symbolic link" in capsys.readouterr().err
    assert outside.read_text(encoding="utf-8") == "precious"
    assert sorted(p.name for p in folder.iterdir()) == ["lesson-2.html"]  # nothing half-done


def test_sample_out_refuses_an_existing_file_unless_forced(tmp_path, capsys) -> None:
    out = tmp_path / "boards.jsonl"
    out.write_text("keep me\n", encoding="utf-8")
    assert main(["nb", "sample", "--boards", "3", "--out", str(out)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == "keep me\n"
    assert main(["nb", "sample", "--boards", "3", "--out", str(out), "--force"]) == 0
    assert out.read_text(encoding="utf-8").count("\n") == 3


def test_a_failed_write_leaves_the_old_file_whole(tmp_path) -> None:
    path = tmp_path / "a.txt"
    path.write_text("old", encoding="utf-8")

    def broken(handle) -> None:
        handle.write("half")
        raise OSError(28, "No space left on device")

    with pytest.raises(HousingLabError, match="No space left"):
        outputs.write_atomic(path, broken)
    assert files(tmp_path) == {"a.txt": b"old"}


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    names=st.lists(st.sampled_from(["a.html", "b.html", "c.html"]), unique=True, max_size=3),
    links=st.lists(st.sampled_from(["a.html", "b.html", "c.html"]), unique=True, max_size=2),
    overwrite=st.booleans(),
)
def test_hunt_output_files_accepted_or_one_line_and_unchanged(tmp_path, names, links, overwrite):
    """Hunt: any mix of existing files and symlinks: all pages written, or one line and every
    file (and the symlink's target) exactly as before."""
    folder = tmp_path / f"f{len(list(tmp_path.iterdir()))}"
    folder.mkdir()
    target = folder.parent / f"{folder.name}-target"
    target.write_text("target", encoding="utf-8")
    for name in names:
        if name not in links:
            (folder / name).write_text("old " + name, encoding="utf-8")
    for name in links:
        os.symlink(target, folder / name)
    before = files(folder), target.read_text(encoding="utf-8")
    pages = {"a.html": "A", "b.html": "B", "c.html": "C"}
    try:
        outputs.write_files(folder, pages, overwrite)
    except HousingLabError as error:
        assert "\n" not in str(error)
        assert (files(folder), target.read_text(encoding="utf-8")) == before
    else:
        assert not links and (overwrite or not names)
        assert files(folder) == {n: t.encode() for n, t in pages.items()}

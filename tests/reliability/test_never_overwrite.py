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


# --- handouts and links files (issue 25 item 6) ---------------------------------------------

LINKS = {
    "room": "ABC234",
    "game": "north-berkeley",
    "teacher": "http://x:1/room/?room=ABC234#key=t",
    "teams": {"Red": "http://x:1/room/?room=ABC234#key=r"},
}


def handout_game():
    from housing_lab.north_berkeley.play.game import Game

    return Game(["Red", "Blue"], 3)


def test_handouts_keep_a_teachers_edit_unless_overwrite(tmp_path) -> None:
    from housing_lab.north_berkeley.play import handouts

    game = handout_game()
    written = handouts.write_handouts(game, tmp_path)
    written[0].write_text("my notes", encoding="utf-8")
    before = files(tmp_path)
    with pytest.raises(HousingLabError, match="already exists") as caught:
        handouts.write_handouts(game, tmp_path)
    assert "\n" not in str(caught.value)
    assert files(tmp_path) == before  # not even the pages after the edited one
    assert handouts.write_handouts(game, tmp_path, overwrite=True) == written
    assert written[0].read_text(encoding="utf-8") != "my notes"


def test_game_table_handouts_refuse_existing_files_and_symlinks(tmp_path) -> None:
    from housing_lab.widgets import GameTable

    table = GameTable(["Red", "Blue"], seed=3)
    paths = table.write_handouts(tmp_path / "print")
    paths[1].write_text("edited", encoding="utf-8")
    with pytest.raises(HousingLabError, match="already exists"):
        table.write_handouts(tmp_path / "print")
    assert paths[1].read_text(encoding="utf-8") == "edited"
    with pytest.raises(HousingLabError, match="overwrite must be True or False"):
        table.write_handouts(tmp_path / "print", overwrite="yes")  # type: ignore[arg-type]
    outside = tmp_path / "outside.html"
    outside.write_text("precious", encoding="utf-8")
    paths[0].unlink()
    os.symlink(outside, paths[0])
    with pytest.raises(HousingLabError, match="symbolic link"):
        table.write_handouts(tmp_path / "print", overwrite=True)
    assert outside.read_text(encoding="utf-8") == "precious"
    assert paths[1].read_text(encoding="utf-8") == "edited"


def test_a_failed_handout_write_leaves_no_half_file(tmp_path, monkeypatch) -> None:
    from housing_lab.north_berkeley.play import handouts

    game = handout_game()
    written = handouts.write_handouts(game, tmp_path)
    before = files(tmp_path)
    real_replace = os.replace

    def full_disk(source, target):
        if str(target).endswith("all-teams.html"):
            raise OSError(28, "No space left on device")
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(HousingLabError, match="No space left"):
        handouts.write_handouts(game, tmp_path, overwrite=True)
    assert files(tmp_path)[written[-1].name] == before[written[-1].name]  # the old one whole
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_save_links_refuses_an_existing_file_unless_overwrite(tmp_path) -> None:
    from housing_lab.rooms.links import links_path, save_links

    path = links_path("ABC234", tmp_path)
    path.write_text("old links", encoding="utf-8")
    with pytest.raises(HousingLabError, match="already exists"):
        save_links(LINKS, tmp_path)
    assert path.read_text(encoding="utf-8") == "old links"
    save_links(LINKS, tmp_path, overwrite=True)
    assert "ABC234" in path.read_text(encoding="utf-8")
    assert oct(path.stat().st_mode & 0o777) == oct(0o600)


@pytest.mark.parametrize(
    "bad",
    [
        {**LINKS, "teams": {"Red": object()}},
        {**LINKS, "teams": {"Red": float("nan")}},
        {**LINKS, "teams": {("a",): "x"}},
        {**LINKS, "room": "AB/CD"},
        {**LINKS, "room": None},
        ["ABC234"],
    ],
    ids=["object", "nan", "tuple key", "bad code", "no code", "a list"],
)
def test_save_links_with_a_bad_value_keeps_the_file_whole(tmp_path, bad) -> None:
    from housing_lab.rooms.links import links_path, save_links

    save_links(LINKS, tmp_path)
    before = files(tmp_path)
    with pytest.raises(HousingLabError) as caught:
        save_links(bad, tmp_path, overwrite=True)
    assert "\n" not in str(caught.value)
    assert files(tmp_path) == before
    assert links_path("ABC234", tmp_path).read_bytes() == before["ABC234.links.json"]


def test_save_links_never_follows_a_symlink(tmp_path) -> None:
    from housing_lab.rooms.links import links_path, save_links

    outside = tmp_path / "outside.txt"
    outside.write_text("precious", encoding="utf-8")
    folder = tmp_path / "links"
    folder.mkdir()
    os.symlink(outside, links_path("ABC234", folder))
    for overwrite in (False, True):
        with pytest.raises(HousingLabError, match="symbolic link"):
            save_links(LINKS, folder, overwrite=overwrite)
    assert outside.read_text(encoding="utf-8") == "precious"

"""The classroom command checks everything before it creates a room, and `--dry-run` says
how to run with the seed it printed (issue 25 item 7)."""

from __future__ import annotations

import json
import shlex

import pytest

from housing_lab.cli import main
from housing_lab.rooms import open_store


def test_a_links_dir_that_is_a_file_creates_no_room(tmp_path, capsys) -> None:
    store = tmp_path / "rooms.sqlite"
    blocker = tmp_path / "links"
    blocker.write_text("a file", encoding="utf-8")
    argv = ["classroom", "--teams", "Red,Blue", "--store", f"sqlite:///{store}"]
    assert main([*argv, "--links-dir", str(blocker), "--no-server"]) == 2
    err = capsys.readouterr().err
    assert "is not a folder: no room was created" in err and err.count("\n") == 1
    assert not store.exists()  # no store, so no orphan room


def test_a_huge_seed_is_one_line(tmp_path, capsys) -> None:
    argv = ["classroom", "--teams", "Red,Blue", "--store", f"sqlite:///{tmp_path / 'r.sqlite'}"]
    with pytest.raises(SystemExit) as stopped:  # argparse's refusal, worded by the CLI
        main([*argv, "--seed", "9" * 5000, "--no-server"])
    assert stopped.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert not (tmp_path / "r.sqlite").exists()


def test_dry_run_prints_the_command_that_deals_its_seed(tmp_path, capsys) -> None:
    url = f"sqlite:///{tmp_path / 'r.sqlite'}"
    assert main(["classroom", "--teams", "Red,Blue", "--store", url, "--dry-run"]) == 0
    plan = json.loads(capsys.readouterr().out)
    again = shlex.split(plan["run"])
    assert again[again.index("--seed") + 1] == str(plan["seed"])
    links = tmp_path / "links"
    assert main([*again[1:], "--links-dir", str(links), "--no-server"]) == 0
    code = capsys.readouterr().out.split()[1]
    saved = json.loads((links / f"{code}.links.json").read_text(encoding="utf-8"))
    teacher = saved["teacher"].split("key=" if "key=" in saved["teacher"] else "token=")[1]
    with open_store(url) as store:
        assert store.info(code, teacher).seed == plan["seed"]


def test_resume_with_a_damaged_links_file_is_one_line(tmp_path, capsys) -> None:
    url = f"sqlite:///{tmp_path / 'r.sqlite'}"
    links = tmp_path / "links"
    argv = ["classroom", "--teams", "Red,Blue", "--store", url, "--links-dir", str(links)]
    assert main([*argv, "--no-server"]) == 0
    code = capsys.readouterr().out.split()[1]
    path = links / f"{code}.links.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**data, "teacher": 5}), encoding="utf-8")
    assert main([*argv, "--resume", code, "--no-server"]) == 2
    err = capsys.readouterr().err
    assert "is damaged" in err and err.count("\n") == 1

"""`housing-lab classroom`: the plan (dry run) and its one-line refusals."""

from __future__ import annotations

import json

import pytest

from housing_lab.cli import main
from housing_lab.commands.classroom import ROOM_PAGE


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(["classroom", *argv])
    except SystemExit as stop:  # argparse's own refusals (one line, exit 2)
        code = int(stop.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_dry_run_prints_the_plan_and_creates_nothing(capsys, tmp_path):
    store = "sqlite:///" + str(tmp_path / "rooms.sqlite")
    code, out, err = run(
        capsys,
        "--teams",
        "Red, Blue ,Green",
        "--store",
        store,
        "--seed",
        "5",
        "--port",
        "9100",
        "--dry-run",
    )
    assert code == 0 and err == ""
    plan = json.loads(out)
    assert plan["teams"] == ["Red", "Blue", "Green"] and plan["seed"] == 5
    assert plan["store"] == store and plan["page"] == "http://127.0.0.1:9100/"
    command = plan["command"]
    assert command[1:4] == ["-m", "voila", str(ROOM_PAGE)] and ROOM_PAGE.exists()
    assert "--Voila.ip=127.0.0.1" in command and "--port=9100" in command
    assert not (tmp_path / "rooms.sqlite").exists()


def test_dry_run_on_the_lan_links_name_a_real_address(capsys):
    code, out, _ = run(capsys, "--teams", "Red,Blue", "--host", "0.0.0.0", "--dry-run")
    plan = json.loads(out)
    assert code == 0 and "0.0.0.0" not in plan["page"]
    assert "--Voila.ip=0.0.0.0" in plan["command"]


def test_streetcar_needs_two_teams(capsys):
    code, out, err = run(capsys, "--teams", "Red,Blue,Green", "--game", "streetcar", "--dry-run")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "exactly 2 teams" in err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--teams", "Red"], "2 to 6"),
        (["--teams", "Red,Red"], "used twice"),
        (["--teams", "Red,Blue", "--store", "mysql://x"], "unknown store URL"),
        (["--teams", "Red,Blue", "--port", "0"], "port"),
        (["--teams", "Red,Blue", "--game", "chess"], "invalid choice"),
    ],
)
def test_bad_arguments_are_one_line(capsys, argv, words):
    code, out, err = run(capsys, *argv, "--dry-run")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and words in err

"""The classroom command checks everything before it creates a room, `--dry-run` says how to
run with the seed it printed (issue 25 item 7), and its links name the port it serves (issue 43:
a busy port is never named)."""

from __future__ import annotations

import json
import shlex
import socket
from collections.abc import Iterator

import pytest

from housing_lab.cli import main
from housing_lab.commands import classroom
from housing_lab.commands.lessons import APP_PORT
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


# --- links name the port actually served (issue 43) ------------------------------------------
@pytest.fixture
def busy_port() -> Iterator[int]:
    """A port something already listens on (as `housing-lab app` would)."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        yield listener.getsockname()[1]


@pytest.fixture
def served(monkeypatch) -> list[list[str]]:
    """The server commands the classroom would run (nothing is started)."""
    commands: list[list[str]] = []
    monkeypatch.setattr(classroom, "run_server", lambda command, *_: commands.append(command) or 0)
    return commands


def _port_of(command: list[str]) -> int:
    return int(next(part for part in command if part.startswith("--port=")).split("=")[1])


def test_a_busy_port_asked_for_is_one_line_and_no_room(tmp_path, capsys, busy_port, served):
    store = tmp_path / "r.sqlite"
    argv = ["classroom", "--teams", "Red,Blue", "--store", f"sqlite:///{store}", "--no-browser"]
    for extra in (["--dry-run"], []):
        assert main([*argv, "--port", str(busy_port), *extra]) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err.count("\n") == 1
        assert f"port {busy_port} is in use" in captured.err
    assert not store.exists() and served == []


def test_a_busy_default_port_moves_and_every_link_names_the_port_served(
    tmp_path, capsys, monkeypatch, busy_port, served
):
    monkeypatch.setattr(classroom, "DEFAULT_PORT", busy_port)
    links = tmp_path / "links"
    argv = ["classroom", "--teams", "Red,Blue", "--store", f"sqlite:///{tmp_path / 'r.sqlite'}"]
    assert main([*argv, "--links-dir", str(links), "--no-browser", "--print-links"]) == 0
    captured = capsys.readouterr()
    port = _port_of(served[0])
    assert port != busy_port and "--Voila.port_retries=0" in served[0]
    assert f"Port {busy_port} is in use; serving on port {port}." in captured.err
    printed = [line.split(": ", 1)[1] for line in captured.out.splitlines() if "#key=" in line]
    code = captured.out.split()[1]
    saved = json.loads((links / f"{code}.links.json").read_text(encoding="utf-8"))
    assert printed == [saved["teacher"], *saved["teams"].values()] and len(printed) == 3
    assert all(f"http://127.0.0.1:{port}/room/?room={code}#key=" in url for url in printed)


def test_resume_on_another_port_names_that_port_in_every_link(tmp_path, capsys, served):
    url = f"sqlite:///{tmp_path / 'r.sqlite'}"
    links = tmp_path / "links"
    argv = ["classroom", "--teams", "Red,Blue", "--store", url, "--links-dir", str(links)]
    assert main([*argv, "--no-server"]) == 0
    code = capsys.readouterr().out.split()[1]
    path = links / f"{code}.links.json"
    before = json.loads(path.read_text(encoding="utf-8"))
    with socket.socket() as probe:  # a port free now
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert main([*argv, "--resume", code, "--port", str(port), "--dry-run"]) == 0
    assert json.loads(path.read_text(encoding="utf-8")) == before  # a dry run writes nothing
    assert (
        main([*argv, "--resume", code, "--port", str(port), "--no-browser", "--print-links"]) == 0
    )
    out = capsys.readouterr().out
    after = json.loads(path.read_text(encoding="utf-8"))
    assert _port_of(served[0]) == port
    for old, new in zip(
        [before["teacher"], *before["teams"].values()],
        [after["teacher"], *after["teams"].values()],
        strict=True,
    ):
        assert new.startswith(f"http://127.0.0.1:{port}/room/?room={code}#key=") and new in out
        assert new.split("#")[1] == old.split("#")[1]  # the same keys
    with open_store(url) as store:
        assert store.role(code, after["teacher"].split("#key=")[1]).is_teacher


def test_the_app_and_the_classroom_default_to_different_ports(capsys):
    assert main(["app", "lab", "--dry-run"]) == 0
    command = capsys.readouterr().out
    assert f"--port={APP_PORT}" in command and APP_PORT != classroom.DEFAULT_PORT

"""`housing-lab classroom`: the plan (dry run) and its one-line refusals."""

from __future__ import annotations

import html
import http.cookiejar
import json
import os
import pathlib
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from urllib.parse import parse_qs, urlsplit

import pytest

from housing_lab.commands.classroom import ROOM_PAGE
from housing_lab.rooms import open_store


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_dry_run_prints_the_plan_and_creates_nothing(cli, tmp_path):
    store = "sqlite:///" + str(tmp_path / "rooms.sqlite")
    code, out, err = cli(
        "classroom",
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
    assert plan["store"] == store and plan["page"] == "http://127.0.0.1:9100/room/"
    command = plan["command"]
    assert command[1:4] == ["-m", "housing_lab.apps.room_server", str(ROOM_PAGE)]
    assert ROOM_PAGE.exists()
    assert "--Voila.ip=127.0.0.1" in command and "--port=9100" in command
    assert "--Voila.base_url=/room/" in command
    assert not (tmp_path / "rooms.sqlite").exists()


def test_dry_run_on_the_lan_links_name_a_real_address(cli):
    code, out, _ = cli("classroom", "--teams", "Red,Blue", "--host", "0.0.0.0", "--dry-run")
    plan = json.loads(out)
    assert code == 0 and "0.0.0.0" not in plan["page"]
    assert "--Voila.ip=0.0.0.0" in plan["command"]


def test_streetcar_needs_two_teams(cli):
    code, out, err = cli(
        "classroom", "--teams", "Red,Blue,Green", "--game", "streetcar", "--dry-run"
    )
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
def test_bad_arguments_are_one_line(cli, argv, words):
    code, out, err = cli("classroom", *argv, "--dry-run")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and words in err


def test_no_server_creates_the_room_and_a_private_links_file(cli, tmp_path):
    store = "sqlite:///" + str(tmp_path / "rooms.sqlite")
    links = tmp_path / "links"
    argv = ["--teams", "Red,Blue", "--store", store, "--links-dir", str(links), "--seed", "2"]
    code, out, err = cli("classroom", *argv, "--port", "9200", "--no-server")
    assert (
        code == 0 and err.startswith("These links name 127.0.0.1: phones") and err.count("\n") == 1
    )
    lines = out.splitlines()
    room = lines[0].split()[1]
    assert lines[1].startswith("Teacher (projector): http://127.0.0.1:9200/room/?room=" + room)
    saved = links / f"{room}.links.json"
    assert oct(saved.stat().st_mode & 0o777) == "0o600"
    # Issue 44: the terminal (mirrored to the projector) names the links file, no team's key
    assert lines[2].startswith("Team links:") and str(saved) in lines[2] and len(lines) == 3
    team_keys = [url.split("#key=")[1] for url in json.loads(saved.read_text())["teams"].values()]
    assert len(team_keys) == 2 and not any(key in out + err for key in team_keys)
    code, out, _ = cli(
        "classroom",
        "--resume",
        room,
        "--store",
        store,
        "--links-dir",
        str(links),
        "--no-server",
        "--print-links",
    )  # asked for: one line per team
    lines = out.splitlines()
    assert [line.split(":")[0] for line in lines[1:]] == ["Red", "Blue"]
    red_token = lines[1].split("#key=")[1]
    with open_store(store) as opened:
        assert opened.role(room, red_token).team == "Red"

    code, again, _ = cli(
        "classroom",
        "--resume",
        room.lower(),
        "--store",
        store,
        "--links-dir",
        str(links),
        "--dry-run",
    )
    assert code == 0 and json.loads(again)["room"] == room


def test_resume_needs_the_links_file_and_the_same_store(cli, tmp_path):
    store = "sqlite:///" + str(tmp_path / "rooms.sqlite")
    code, _, err = cli(
        "classroom", "--resume", "ABC234", "--store", store, "--links-dir", str(tmp_path)
    )
    assert code == 2 and "no links file for room" in err and err.count("\n") == 1
    made = ["--teams", "Red,Blue", "--store", store, "--links-dir", str(tmp_path), "--no-server"]
    _, out, _ = cli("classroom", *made)
    room = out.split()[1]
    other = "sqlite:///" + str(tmp_path / "other.sqlite")
    code, _, err = cli(
        "classroom", "--resume", room, "--store", other, "--links-dir", str(tmp_path)
    )
    assert code == 2 and err.count("\n") == 1 and room in err


def test_page_url_links_carry_the_key_in_the_fragment(cli, tmp_path):
    store = "sqlite:///" + str(tmp_path / "rooms.sqlite")
    page = "https://hub.example.org/user/ms-lee/housing-lab/room"
    argv = ["--teams", "Red,Blue", "--store", store, "--links-dir", str(tmp_path)]
    code, out, err = cli("classroom", *argv, "--page-url", page, "--print-links")
    assert code == 0 and err == ""  # no loopback warning for a hub's links
    for line in out.splitlines()[1:]:
        before, key = line.rsplit(" ", 1)[-1].split("#key=")
        assert before.startswith(f"{page}?room=") and "key" not in before and len(key) >= 40


def test_hub_and_json_print_one_object_of_hub_links(cli, tmp_path):
    store = "sqlite:///" + str(tmp_path / "rooms.sqlite")
    argv = ["--teams", "Red,Blue", "--store", store, "--links-dir", str(tmp_path)]
    code, out, err = cli(
        "classroom", *argv, "--hub", "https://hub.example.org/", "--no-server", "--json"
    )
    assert code == 0 and err == ""
    printed = json.loads(out)
    assert sorted(printed) == ["room", "teacher", "teams"] and list(printed["teams"]) == [
        "Red",
        "Blue",
    ]
    page = "https://hub.example.org/hub/user-redirect/housing-lab/room?room=" + printed["room"]
    assert all(
        url.startswith(page + "#key=") for url in [printed["teacher"], *printed["teams"].values()]
    )
    with open_store(store) as opened:
        red = printed["teams"]["Red"].split("#key=")[1]
        assert opened.role(printed["room"], red).team == "Red"
    code, _, err = cli("classroom", *argv, "--hub", "hub.example.org", "--no-server")
    assert code == 2 and "'hub.example.org'" in err and err.count("\n") == 1


@pytest.mark.slow
def test_python_dash_m_runs_the_cli():
    done = subprocess.run(
        [sys.executable, "-m", "housing_lab", "classroom", "--teams", "Red", "--dry-run"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and done.stdout == "" and "got 1" in done.stderr


def test_teams_are_needed_for_a_new_room(cli):
    code, out, err = cli("classroom", "--dry-run")
    assert code == 2 and out == "" and "--teams" in err


def _open_with_key(link: str) -> None:
    """Open a room link as its page's script does: the gate page, the key traded for a ticket
    (housing_lab/server/room_kernels.py), then the page with the ticket (its kernel starts)."""
    page, key = link.split("#key=")
    browser = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )
    with browser.open(page, timeout=60) as answer:
        gate = answer.read().decode()
    xsrf = html.unescape(gate.split('data-words="')[1].split('"')[0])
    body = json.dumps({"room": parse_qs(urlsplit(page).query)["room"][0], "key": key})
    asked = urllib.request.Request(
        page, data=body.encode(), method="POST", headers={"X-XSRFToken": json.loads(xsrf)["xsrf"]}
    )
    with browser.open(asked, timeout=60) as answer:
        ticket = json.loads(answer.read())["ticket"]
    with browser.open(f"{page}&ticket={ticket}", timeout=60) as answer:
        assert answer.status == 200 and b"hl-room-gate" not in answer.read()


def _processes_with(marker: str) -> list[int]:
    """Live processes whose environment holds `marker` (Voila and the kernels it started)."""
    found = []
    for entry in pathlib.Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                if marker.encode() in (entry / "environ").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


@pytest.mark.slow
@pytest.mark.skipif(not pathlib.Path("/proc/self/environ").exists(), reason="needs /proc")
def test_sigterm_stops_voila_and_its_kernels(cli, tmp_path):
    port = free_port()
    store = "sqlite:///" + str(tmp_path / "rooms.sqlite")
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"))
    command = [sys.executable, "-m", "housing_lab.cli", "classroom", "--teams", "Red,Blue"]
    command += ["--store", store, "--port", str(port), "--no-browser", "--print-links"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
    try:
        lines = [process.stdout.readline() for _ in range(4)]
        red = lines[2].split(": ", 1)[1].strip()
        assert red.startswith(f"http://127.0.0.1:{port}/room/?room=")
        deadline = time.monotonic() + 90
        while True:  # opening the page with its key makes Voila start a kernel for it
            try:
                _open_with_key(red)
                break
            except OSError:
                assert time.monotonic() < deadline, "Voila never answered"
                time.sleep(0.5)
        assert len(_processes_with(str(tmp_path))) >= 3  # this command, Voila, the kernel
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 0
        deadline = time.monotonic() + 10
        while _processes_with(str(tmp_path)) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _processes_with(str(tmp_path)) == []
    finally:
        if process.poll() is None:
            process.kill()
        process.stdout.close()

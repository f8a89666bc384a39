"""`housing-lab lab` and `housing-lab app`: the commands that open the lessons."""

from __future__ import annotations

import json
import os
import pathlib
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from housing_lab.cli import main

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_lab_opens_lesson_one_in_the_working_copy(capsys, tmp_path) -> None:
    work = tmp_path / "class"
    args = ["lab", "--dry-run", "--no-browser", "--lessons", str(ROOT / "lessons")]
    assert main([*args, "--dir", str(work)]) == 0
    command = capsys.readouterr().out
    assert "jupyter lab" in command.replace("-m jupyter lab", "jupyter lab")
    assert f"--ServerApp.root_dir={work}" in command
    assert "--LabApp.default_url=/lab/tree/01_start_here.ipynb?reset" in command
    assert "--no-browser" in command
    settings = command.split("--LabApp.app_settings_dir=")[1].split()[0]
    overrides = json.loads((pathlib.Path(settings) / "overrides.json").read_text())
    assert overrides["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"


def test_the_working_copy_never_overwrites_a_students_work(tmp_path) -> None:
    from housing_lab.commands.lessons import copy_lessons

    work = tmp_path / "class"
    copied = copy_lessons(ROOT / "lessons", work)
    assert {p.name for p in copied} >= {"01_start_here.ipynb", "07_classroom_game.ipynb"}
    (work / "01_start_here.ipynb").write_text("my work", encoding="utf-8")
    (work / "02_build_the_neighbourhood.ipynb").unlink()
    again = copy_lessons(ROOT / "lessons", work)
    assert [p.name for p in again] == ["02_build_the_neighbourhood.ipynb"]
    assert (work / "01_start_here.ipynb").read_text(encoding="utf-8") == "my work"
    assert (work / "docs" / "sources.md").is_file()  # the lessons link to ../docs/sources.md
    original = (ROOT / "lessons" / "01_start_here.ipynb").read_bytes()
    assert original != b"my work"


def test_the_shipped_lessons_cannot_be_the_working_copy(capsys) -> None:
    lessons = str(ROOT / "lessons")
    assert main(["lab", "--lessons", lessons, "--dir", lessons, "--no-browser"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and "--dir" in captured.err


def test_a_missing_lessons_folder_is_named(capsys) -> None:
    assert main(["app", "3", "--dry-run", "--lessons", "/nope/lessons"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "'/nope/lessons'" in captured.err
    assert captured.err.count("\n") == 1


@pytest.mark.parametrize("lesson", ["3", "03_policies", "03_policies.ipynb"])
def test_app_finds_a_lesson_by_number_or_name(capsys, lesson: str) -> None:
    assert main(["app", lesson, "--dry-run", "--lessons", str(ROOT / "lessons")]) == 0
    command = capsys.readouterr().out
    assert "-m housing_lab.apps.server" in command
    assert f"{ROOT / 'lessons'} --HousingLabVoila.start_page=03_policies.ipynb" in command


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


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get(url: str, method: str = "GET") -> dict:
    request = urllib.request.Request(url, method=method, data=b"{}" if method == "POST" else None)
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.loads(response.read() or b"{}")


def _alive(pattern: str) -> bool:
    found = subprocess.run(["pgrep", "-f", pattern], capture_output=True, check=False)
    return found.returncode == 0


@pytest.mark.slow
@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGINT])
def test_stopping_the_wrapper_stops_jupyterlab_and_its_kernels(tmp_path, stop_signal) -> None:
    pytest.importorskip("jupyterlab")
    port, token = _free_port(), "housing-lab-test"
    env = {**os.environ, "JUPYTER_TOKEN": token, "HOME": str(tmp_path)}
    wrapper = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "housing_lab.cli",
            "lab",
            "--no-browser",
            f"--port={port}",
            "--lessons",
            str(ROOT / "lessons"),
            "--dir",
            str(tmp_path / "class"),
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                _get(f"{base}/api/status?token={token}")
                break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.5)
        else:
            pytest.fail("JupyterLab did not start")
        kernel = _get(f"{base}/api/kernels?token={token}", method="POST")["id"]
        for _ in range(60):
            if _alive(f"kernel-{kernel}"):
                break
            time.sleep(0.5)
        assert _alive(f"kernel-{kernel}"), "the kernel process never appeared"
        wrapper.send_signal(stop_signal)
        wrapper.wait(timeout=60)
        printed = wrapper.stdout.read().decode()
        assert "Open http" in printed
        assert "DeprecationWarning" not in printed, printed  # JupyterLab's start is quiet
        assert not _alive(f"kernel-{kernel}"), "a kernel outlived the wrapper"
        assert not _alive(f"--port={port}"), "JupyterLab outlived the wrapper"
        with pytest.raises((urllib.error.URLError, ConnectionError)):
            _get(f"{base}/api/status?token={token}")
        assert (tmp_path / "class" / "01_start_here.ipynb").is_file()
    finally:
        if wrapper.poll() is None:
            wrapper.kill()
        subprocess.run(["pkill", "-f", f"--port={port}"], check=False)


@pytest.mark.parametrize("app", ["lab", "streetcar", "table"])
def test_app_opens_the_no_code_apps(capsys, app: str) -> None:
    assert main(["app", app, "--dry-run"]) == 0
    words = capsys.readouterr().out.split()
    start = next(w for w in words if w.startswith("--HousingLabVoila.start_page="))
    notebook = pathlib.Path(words[words.index(start) - 1]) / start.split("=", 1)[1]
    assert notebook.name == f"{app}.ipynb" and notebook.is_file()
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    assert cells[0]["cell_type"] == "markdown" and "How to play" in "".join(cells[0]["source"])
    assert [c["cell_type"] for c in cells[1:]] == ["code"]


@pytest.mark.slow
@pytest.mark.parametrize("app", ["lab", "streetcar", "table"])
def test_each_app_runs_and_shows_its_widget(app: str) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    from housing_lab.commands.lessons import APPS_DIR

    notebook = nbformat.read(APPS_DIR / f"{app}.ipynb", as_version=4)
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    outputs = notebook.cells[-1]["outputs"]
    assert any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in outputs)


def test_lab_without_a_browser_quiets_jupyter_and_keeps_the_token_off_the_command(
    capsys, tmp_path
) -> None:
    """`lab --no-browser` prints the address only: Jupyter's info log is off, the port is fixed
    (so the printed address is the one served) and the token travels in the environment."""
    args = ["lab", "--dry-run", "--no-browser", "--port", "9123", "--dir", str(tmp_path / "c")]
    assert main([*args, "--lessons", str(ROOT / "lessons")]) == 0
    command = capsys.readouterr().out
    assert "--ServerApp.log_level=WARN" in command and "--LabApp.log_level=WARN" in command
    assert "--port=9123" in command and "--ServerApp.port_retries=0" in command
    assert "token" not in command.lower()

"""Nothing half-written (issue 43 item 4): every file is written to a temporary file beside it
and renamed; Ctrl-C and SIGTERM remove the temporary file and end the command with one line
and exit 128 + the signal; a full disk is an error; several files are written all or nothing.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import signal
import subprocess
import sys
import time
import weakref
from pathlib import Path

import pytest

from housing_lab import outputs
from housing_lab.cli import main
from housing_lab.errors import HousingLabError, WriteError

WAIT_S = 60.0  # for a real process to reach the moment the test signals it


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*") if p.name.endswith(".tmp"))


def full_disk(monkeypatch) -> None:
    """Make every temporary file `outputs` writes a handle on /dev/full, whose writes fail
    with ENOSPC as a full disk's do (the temporary file itself is still made and named)."""
    real = os.fdopen

    def on_dev_full(handle: int, mode: str = "r", *args, **kwargs):
        os.close(handle)
        return real(os.open("/dev/full", os.O_WRONLY), mode, *args, **kwargs)

    monkeypatch.setattr(outputs.os, "fdopen", on_dev_full)


# --- one writer, a full disk ---------------------------------------------------------------


def test_a_full_disk_is_one_line_and_leaves_the_old_file(tmp_path, monkeypatch) -> None:
    path = tmp_path / "a.json"
    path.write_text("old", encoding="utf-8")
    full_disk(monkeypatch)
    with pytest.raises(WriteError, match=r"cannot write '.*a\.json': No space left on device"):
        outputs.write_text(path, "new")
    assert path.read_text(encoding="utf-8") == "old" and leftovers(tmp_path) == []


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("target", ["/dev/full", "/dev/null", "folder"])
def test_nothing_is_ever_renamed_over_a_device_or_a_folder(tmp_path, target) -> None:
    path = tmp_path if target == "folder" else Path(target)
    before = os.stat(path)
    with pytest.raises(WriteError, match=r"it is (a device|a folder)") as caught:
        outputs.write_text(path, "x")
    assert "\n" not in str(caught.value)
    after = os.stat(path)
    assert (after.st_ino, after.st_mode, after.st_rdev) == (
        before.st_ino,
        before.st_mode,
        before.st_rdev,
    )


def test_a_fifo_as_an_output_is_refused_at_once(tmp_path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(WriteError, match="named pipe"):
        outputs.write_text(fifo, "x")
    assert main(["nb", "sample", "--boards", "1", "--out", str(fifo), "--force"]) == 2


FORBIDDEN = re.compile(
    r"(?<!outputs)\.write_(text|bytes)\(|shutil\.copy(2|tree)?\(|copyfile\(|"
    r"open\([^)]*['\"][wax]b?\+?['\"]|nbformat\.write\(\w+, \w*(?<!handle)\)"
)


def test_every_writer_goes_through_outputs() -> None:
    """No module (nor build tool) writes a file any other way (one tested writer:
    `outputs.write_all`)."""
    root = Path(__file__).resolve().parents[2]
    found = [
        f"{path.relative_to(root)}: {line.strip()}"
        for path in [*(root / "housing_lab").rglob("*.py"), *(root / "tools").glob("*.py")]
        if path.name != "outputs.py"
        for line in path.read_text(encoding="utf-8").splitlines()
        if FORBIDDEN.search(line) and not line.lstrip().startswith("#")
    ]
    assert found == []


# --- the labs' save -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def nb_lab():
    from housing_lab.widgets import NorthBerkeleyLab

    return NorthBerkeleyLab()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_lab_save_to_dev_full_or_a_folder_is_one_line(nb_lab, tmp_path) -> None:
    for target in ("/dev/full", tmp_path):
        with pytest.raises(HousingLabError, match="cannot write") as caught:
            nb_lab.save(target)
        assert "\n" not in str(caught.value)
    with pytest.raises(HousingLabError, match="a file path"):
        nb_lab.save(5)


def test_lab_save_on_a_full_disk_is_an_error_not_a_success(nb_lab, tmp_path, monkeypatch):
    full_disk(monkeypatch)
    with pytest.raises(HousingLabError, match="No space left on device"):
        nb_lab.save(tmp_path / "board.json")
    assert list(tmp_path.iterdir()) == []


# --- several files: all or nothing ----------------------------------------------------------


def test_several_files_are_all_or_nothing(tmp_path, monkeypatch) -> None:
    """The third page fails: the first two (already complete on disk) are not placed."""
    written: list[str] = []

    def page(text: str):
        def write(handle) -> None:
            if text == "C":
                raise OSError(errno.ENOSPC, "No space left on device")
            handle.write(text)
            written.append(text)

        return write

    folder = tmp_path / "sheets"
    files = [(folder / f"{t}.html", page(t)) for t in "ABC"]
    folder.mkdir()
    with pytest.raises(WriteError, match=r"C\.html': No space left"):
        outputs.write_all(files)
    assert written == ["A", "B"] and list(folder.iterdir()) == []


def test_write_files_on_a_full_disk_leaves_no_folder(tmp_path, monkeypatch) -> None:
    full_disk(monkeypatch)
    with pytest.raises(WriteError, match="No space left"):
        outputs.write_files(tmp_path / "new" / "sheets", {"a.html": "A", "b.html": "B"}, False)
    assert list((tmp_path / "new").iterdir()) == []


def test_lessons_copy_on_a_full_disk_copies_nothing(tmp_path, monkeypatch) -> None:
    from housing_lab.commands.lessons import copy_lessons

    source = tmp_path / "lessons"
    source.mkdir()
    for name in ("01_a.ipynb", "02_b.ipynb", "notes.md"):
        (source / name).write_text("{}", encoding="utf-8")
    target = tmp_path / "work"
    full_disk(monkeypatch)
    with pytest.raises(HousingLabError, match="No space left") as caught:
        copy_lessons(source, target)
    assert "\n" not in str(caught.value)
    assert not target.exists()
    monkeypatch.undo()
    assert sorted(p.name for p in copy_lessons(source, target)) == [
        "01_a.ipynb",
        "02_b.ipynb",
        "notes.md",
    ]


def signalled_after(real, folder: Path):
    """`real` (an `os` function, patched for the whole process), then the first time it is
    called on a file in `folder` a SIGINT to this process: Ctrl-C at the worst moment."""
    sent = []

    def call(*args, **kwargs):
        result = real(*args, **kwargs)
        if not sent and str(args[0]).startswith(str(folder)):
            sent.append(True)
            os.kill(os.getpid(), signal.SIGINT)
        return result

    return call


def test_ctrl_c_just_after_the_temporary_file_is_made_removes_it(tmp_path, monkeypatch):
    """Found under load: a stop between making the temporary file and noting it kept it."""
    monkeypatch.setattr(outputs.os, "open", signalled_after(os.open, tmp_path))
    with pytest.raises(outputs.Stopped, match="nothing written"):
        outputs.write_text(tmp_path / "a.json", "new")
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_between_two_renames_puts_every_file_back(tmp_path, monkeypatch) -> None:
    (tmp_path / "a.html").write_text("old a", encoding="utf-8")
    monkeypatch.setattr(outputs.os, "replace", signalled_after(os.replace, tmp_path))
    with pytest.raises(outputs.Stopped, match="nothing written"):
        outputs.write_files(tmp_path, {"a.html": "new a", "b.html": "new b"}, overwrite=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.html"]
    assert (tmp_path / "a.html").read_text(encoding="utf-8") == "old a"


def test_classroom_on_a_full_disk_creates_no_room(tmp_path, capsys, monkeypatch) -> None:
    """The links file is the teacher's only copy of the keys: a room whose links cannot be
    written is not created (it was, and then the command failed: an orphan room)."""
    store = tmp_path / "rooms.sqlite"
    args = ["classroom", "--teams", "Red,Blue", "--no-server", "--store", f"sqlite:///{store}"]
    full_disk(monkeypatch)
    assert main([*args, "--links-dir", str(tmp_path / "links")]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"housing-lab: error: cannot write the links file in '{tmp_path / 'links'}': "
        "No space left on device: no room was created\n"
    )
    assert not store.exists() and leftovers(tmp_path) == []
    assert list((tmp_path / "links").iterdir()) == []


# --- Ctrl-C in the process: one line, exit 130 ---------------------------------------------


def interrupt_after(calls: int):
    """A stand-in that raises KeyboardInterrupt (as Ctrl-C does) on its `calls`-th call."""
    count = {"n": 0}

    def maybe_stop(*args, **kwargs) -> None:
        count["n"] += 1
        if count["n"] >= calls:
            raise KeyboardInterrupt

    return maybe_stop


def test_ctrl_c_during_sample_out_is_one_line_and_130(tmp_path, capsys, monkeypatch) -> None:
    import housing_lab.commands.north_berkeley_analysis as analysis

    real = analysis.sample_lines

    def lines(*args, **kwargs):
        for number, line in enumerate(real(*args, **kwargs)):
            if number == 2:
                raise KeyboardInterrupt
            yield line

    monkeypatch.setattr(analysis, "sample_lines", lines)
    out = tmp_path / "x.jsonl"
    assert main(["nb", "sample", "--boards", "5", "--out", str(out)]) == 130
    captured = capsys.readouterr()
    assert captured.err == f"housing-lab: stopped; nothing written to '{out}'\n"
    assert list(tmp_path.iterdir()) == []
    assert main(["nb", "sample", "--boards", "5"]) == 130
    captured = capsys.readouterr()
    assert captured.err == "housing-lab: stopped; 2 boards printed, each line whole\n"
    assert [json.loads(line)["result"] for line in captured.out.splitlines()]


def test_ctrl_c_during_score_is_one_line_and_130(capsys, monkeypatch) -> None:
    import housing_lab.commands.north_berkeley as nb

    line = json.dumps({"tiles": {}, "policies": [], "seed": 1}) + "\n"
    stdin = _Stdin([line.encode(), line.encode(), KeyboardInterrupt])
    monkeypatch.setattr(nb, "stdin_bytes", lambda: stdin)
    assert main(["nb", "score", "-", "--events"]) == 130
    captured = capsys.readouterr()
    assert captured.err == "housing-lab: stopped; 2 results printed, each line whole\n"
    assert len(captured.out.splitlines()) == 2


class _Stdin:
    """stdin giving these lines, then raising what the list ends with."""

    def __init__(self, items: list) -> None:
        self.items = items

    def readline(self, size: int = -1) -> bytes:
        item = self.items.pop(0)
        if isinstance(item, bytes):
            return item
        raise item

    def read(self, size: int = -1) -> bytes:
        return self.readline()


def test_ctrl_c_during_simulate_reports_the_whole_records(tmp_path, capsys, monkeypatch):
    import housing_lab.commands.streetcar as streetcar

    monkeypatch.setattr(streetcar.MatchSummary, "add", interrupt_after(3))
    out = tmp_path / "games"
    args = ["streetcar", "simulate", "--games", "5", "--bots", "random,random", "--out", str(out)]
    assert main(args) == 130
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"housing-lab: stopped; 3 of 5 game records written whole to '{out}', no summary\n"
    )
    records = sorted(out.iterdir())
    assert [p.name for p in records] == ["game-0001.json", "game-0002.json", "game-0003.json"]
    assert all(json.loads(p.read_text(encoding="utf-8")) for p in records)


# --- a stop's exception lost or changed on its way ------------------------------------------
# Found with a loop sending SIGINT to real `nb sample --out` processes: the signal came while
# pandas was being imported (after the temporary file was made) and its exception was
# swallowed (the whole file then written, exit 0), printed instead of raised, or, leaving
# a namedtuple's `eval`, made Python kill itself with SIGINT at exit (returncode -2).


def _swallowed(signum: int) -> None:
    """Library code that swallows the exception (C code clearing the error of the Python
    code it ran)."""
    with contextlib.suppress(KeyboardInterrupt):
        signal.raise_signal(signum)  # the handler runs here, before raise_signal returns


def _turned_into_an_import_error(signum: int) -> None:
    """An extension module whose import was stopped, reporting only that it failed."""
    try:
        signal.raise_signal(signum)
    except KeyboardInterrupt:
        raise ImportError("numpy._core.multiarray failed to import") from None


def _in_a_callback(signum: int) -> None:
    """A weak reference's callback (the import system's): Python prints its exception as
    "Exception ignored in ..." and carries on."""

    class Thing:
        pass

    thing = Thing()
    ref = weakref.ref(thing, lambda _: signal.raise_signal(signum))
    del thing
    assert ref() is None


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("library", [_swallowed, _turned_into_an_import_error, _in_a_callback])
def test_a_stop_lost_in_a_library_still_stops_sample(
    tmp_path, capsys, monkeypatch, signum, library
) -> None:
    import housing_lab.commands.north_berkeley_analysis as analysis

    real = analysis.sample_lines

    def lines(*args, **kwargs):
        library(signum)  # as the lazy `import pandas` runs when the first board is drawn
        yield from real(*args, **kwargs)

    monkeypatch.setattr(analysis, "sample_lines", lines)
    monkeypatch.setattr(sys, "unraisablehook", sys.__unraisablehook__)  # prints, as outside pytest
    out = tmp_path / "x.jsonl"
    assert main(["nb", "sample", "--boards", "5", "--out", str(out)]) == 128 + signum
    assert capsys.readouterr() == ("", f"housing-lab: stopped; nothing written to '{out}'\n")
    assert list(tmp_path.iterdir()) == []
    assert main(["nb", "sample", "--boards", "5"]) == 128 + signum
    assert capsys.readouterr() == ("", "housing-lab: stopped; nothing printed\n")


STOP_IN_EVAL = """
import signal, sys
import housing_lab.commands.north_berkeley_analysis as analysis
from housing_lab.cli import main

real = analysis.sample_lines


def sample_lines(*args, **kwargs):
    eval("signal.raise_signal(signal.SIGINT)")  # as a namedtuple's eval in pandas' import
    yield from real(*args, **kwargs)


analysis.sample_lines = sample_lines
raise SystemExit(main(sys.argv[1:]))
"""


def test_ctrl_c_inside_an_eval_still_exits_130(tmp_path) -> None:
    """CPython 3.11 kills a `python -m` process with SIGINT at exit if a KeyboardInterrupt
    of exactly that class ever left an `eval` of a string, caught or not (a real process,
    stopped before its first board: about 0.3 s)."""
    (tmp_path / "stop_in_eval.py").write_text(STOP_IN_EVAL, encoding="utf-8")
    root = Path(__file__).resolve().parents[2]
    path = os.pathsep.join([str(tmp_path), str(root), os.environ.get("PYTHONPATH", "")])
    out = tmp_path / "x.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "stop_in_eval", "nb", "sample", "--boards", "5", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=WAIT_S,
        env={**os.environ, "PYTHONPATH": path},
    )
    assert (done.returncode, done.stdout, done.stderr) == (
        130,
        "",
        f"housing-lab: stopped; nothing written to '{out}'\n",
    )
    assert not out.exists() and leftovers(tmp_path) == []


# --- real processes, real signals -----------------------------------------------------------


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "housing_lab.cli", *args]


def wait_for(check, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + WAIT_S
    while not check():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the process never got there"
        time.sleep(0.02)


@pytest.mark.slow  # a real `housing-lab` process (numpy, the evaluator): about 2 s
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_during_sample_out_leaves_nothing(tmp_path, signum) -> None:
    out = tmp_path / "x.jsonl"
    process = subprocess.Popen(
        command("nb", "sample", "--boards", "200000", "--out", str(out)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for(lambda: leftovers(tmp_path), process)
        process.send_signal(signum)
        stdout, stderr = process.communicate(timeout=WAIT_S)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 128 + signum
    assert (stdout, stderr) == ("", f"housing-lab: stopped; nothing written to '{out}'\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow  # a real `housing-lab` process playing Streetcar games
def test_ctrl_c_during_simulate_keeps_whole_records_only(tmp_path) -> None:
    out = tmp_path / "games"
    process = subprocess.Popen(
        command("streetcar", "simulate", "--games", "2000", "--out", str(out)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for(lambda: out.is_dir() and len(list(out.iterdir())) >= 2, process)
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=WAIT_S)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130 and stdout == ""
    assert stderr.startswith("housing-lab: stopped; ") and stderr.count("\n") == 1, stderr
    assert "Traceback" not in stderr and leftovers(out) == []
    records = sorted(out.iterdir())
    assert f"{len(records)} of 2000 game records" in stderr
    assert all(json.loads(p.read_text(encoding="utf-8"))["final"] for p in records)

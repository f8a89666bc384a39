"""Output as Unix tools do it (issue 25 item 5): a closed pipe ends quietly with exit 0; a full
disk or a closed stdout is one line "cannot write the output: ...", exit 2; a file that cannot
be read is still "cannot read"."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow  # each case starts a Python process

COMMAND = [sys.executable, "-m", "housing_lab.cli", "nb", "score"]


@pytest.fixture
def scenarios(tmp_path):
    path = tmp_path / "boards.jsonl"
    path.write_text('{"tiles": {}}\n' * 3000, encoding="utf-8")
    return path


def test_a_closed_pipe_ends_quietly(scenarios) -> None:
    run = subprocess.run(
        f"{' '.join(COMMAND)} {scenarios} | head -n1; exit ${{PIPESTATUS[0]}}",
        shell=True,
        executable="/bin/bash",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0 and run.stderr == "" and run.stdout.count("\n") == 1


def test_a_full_disk_is_cannot_write(scenarios) -> None:
    with open("/dev/full", "w") as full:
        run = subprocess.run(
            [*COMMAND, str(scenarios)], stdout=full, stderr=subprocess.PIPE, text=True, timeout=120
        )
    assert run.returncode == 2
    assert run.stderr == "housing-lab: error: cannot write the output: No space left on device\n"


def test_a_closed_stdout_is_one_line(scenarios) -> None:
    run = subprocess.run(
        f"{' '.join(COMMAND)} {scenarios} >&-",
        shell=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2
    assert run.stderr == "housing-lab: error: cannot write the output: standard output is closed\n"


def test_an_unreadable_input_is_still_cannot_read(tmp_path) -> None:
    run = subprocess.run([*COMMAND, str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "cannot read" in run.stderr and run.stdout == ""

"""A store that really cannot be written (issue 25 item 2): `room view` still reads it and
`room act` is one line, the file untouched.

We run as root, so a chmod stops nothing. Two real ways are used instead: the immutable flag
(`chattr +i`, which stops root too on ext4/xfs/btrfs/tmpfs) and a read-only bind mount in a
private mount namespace (`unshare -m`). Each test is skipped where the machine offers no such
way (another file system, no CAP_SYS_ADMIN), never faked.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from housing_lab.rooms import RoomError, open_store
from housing_lab.rooms.stores import sqlite
from tests.rooms.stores.test_faults import made_room

CALL_STATE = json.dumps({"action": "call_state"})


@pytest.mark.parametrize("told", [True, False], ids=["access says so", "found on writing"])
def test_an_immutable_store_views_and_refuses_acts_in_one_line(tmp_path, monkeypatch, told) -> None:
    """`told`: the store learns it cannot write from os.access up front; else os.access is
    made to say yes, so the refusal comes from SQLite's real write failure."""
    path = tmp_path / "rooms.sqlite"
    code, teacher, url = made_room(path)
    if shutil.which("chattr") is None:
        pytest.skip("no chattr here")
    if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("this file system or user cannot set the immutable flag")
    try:
        before = path.read_bytes()
        with pytest.raises(OSError):
            path.open("r+b")  # really not writable, root or not
        if not told:
            monkeypatch.setattr(sqlite.os, "access", lambda *_args, **_kw: True)
        with open_store(url) as store:
            assert store.view(code, teacher)["seq"] == 2
            for call in (
                lambda: store.act(code, teacher, {"action": "call_state"}),
                lambda: store.create_room(["Red", "Blue"]),
            ):
                with pytest.raises(RoomError, match="is read-only") as caught:
                    call()
                assert "\n" not in str(caught.value)
            assert store.view(code, teacher)["seq"] == 2
        assert path.read_bytes() == before
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "housing_lab.cli", *args]


@pytest.mark.slow  # three command-line runs in a new mount namespace
def test_a_store_on_a_read_only_mount_views_and_refuses_acts(tmp_path) -> None:
    folder = tmp_path / "mounted"
    folder.mkdir()
    path = folder / "rooms.sqlite"
    code, teacher, url = made_room(path)
    for leftover in folder.glob("rooms.sqlite-*"):
        leftover.unlink()  # as a copied store arrives: no -wal / -shm beside it
    before = path.read_bytes()
    if shutil.which("unshare") is None:
        pytest.skip("no unshare here")
    probe = subprocess.run(
        ["unshare", "-m", "--propagation", "private", "true"], capture_output=True
    )
    if probe.returncode != 0:
        pytest.skip("no private mount namespace here (needs CAP_SYS_ADMIN)")
    view = " ".join(cli("room", "view", code, "--token", teacher, "--store", url))
    act = " ".join(
        cli("room", "act", code, "--token", teacher, "--store", url, "--action", "'{CALL}'")
    ).replace("{CALL}", CALL_STATE)
    script = (
        f"mount --bind {folder} {folder} && mount -o remount,ro,bind {folder} || exit 90\n"
        f"touch {folder}/probe 2>/dev/null && exit 91\n"  # the mount must really refuse
        f"{view} > {tmp_path}/view.out 2> {tmp_path}/view.err; echo $? > {tmp_path}/view.rc\n"
        f"{act} > {tmp_path}/act.out 2> {tmp_path}/act.err; echo $? > {tmp_path}/act.rc\n"
    )
    done = subprocess.run(
        ["unshare", "-m", "--propagation", "private", "sh", "-c", script],
        capture_output=True,
        text=True,
        cwd=Path(__file__).parents[2],
    )
    if done.returncode == 90:
        pytest.skip(f"cannot mount read-only here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    read = {name: (tmp_path / name).read_text() for name in ("view.rc", "act.rc", "act.err")}
    assert read["view.rc"].strip() == "0", (tmp_path / "view.err").read_text()
    assert json.loads((tmp_path / "view.out").read_text())["seq"] == 2
    assert read["act.rc"].strip() == "2"
    assert read["act.err"].count("\n") == 1 and "is read-only" in read["act.err"]
    assert (tmp_path / "act.out").read_text() == ""
    assert path.read_bytes() == before
    assert sorted(p.name for p in folder.iterdir()) == ["rooms.sqlite"]

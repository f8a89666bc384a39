"""`housing-lab classroom`'s room server, as a class would meet it: anonymous requests start no
kernel, a page with a valid key starts exactly one, which is shut down once its page is gone,
and the terminal shows the room's links and nothing alarming (no Voila banner, no "not trusted",
no per-kernel "running over TCP without encryption")."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import psutil
import pytest

pytestmark = pytest.mark.slow

ANONYMOUS = 20
NOISE = ("eavesdropping", "not trusted", "running at", "Traceback")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def kernels_of(process: subprocess.Popen) -> list[psutil.Process]:
    """The kernels the room server started (ipykernel processes under the command)."""
    running = []
    for child in psutil.Process(process.pid).children(recursive=True):
        try:
            if child.status() != psutil.STATUS_ZOMBIE and "ipykernel" in " ".join(child.cmdline()):
                running.append(child)
        except psutil.Error:  # ended while we looked
            continue
    return running


def wait_for(check, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.2)
    raise AssertionError(f"not within {seconds} s: {what}")


def test_anonymous_requests_start_no_kernel_and_a_closed_page_loses_its_own(tmp_path):
    port = free_port()
    # Voila reads voila.json in the folder it starts in: a short grace, for the test's time
    (tmp_path / "voila.json").write_text(
        json.dumps({"RoomKernels": {"cull_after": 1.0, "sweep_every": 0.5}})
    )
    store = "sqlite:///" + str(tmp_path / "rooms.sqlite")
    command = [sys.executable, "-m", "housing_lab.cli", "classroom", "--teams", "Red,Blue"]
    command += ["--store", store, "--links-dir", str(tmp_path / "links"), "--port", str(port)]
    command += ["--no-browser", "--json"]
    output = tmp_path / "terminal.txt"
    with open(output, "w") as out:
        process = subprocess.Popen(
            command, cwd=tmp_path, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        wait_for(lambda: output.read_text().startswith("{"), 30, "the room's links")
        links = json.loads(output.read_text().splitlines()[0])
        page = links["teams"]["Red"].split("#")[0]
        key = urlsplit(links["teams"]["Red"]).fragment.removeprefix("key=")
        cookies = urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        browser = urllib.request.build_opener(cookies)

        def get(url: str) -> str:
            with browser.open(url, timeout=60) as answer:
                return answer.read().decode()

        def post(body: dict, xsrf: str) -> tuple[int, dict]:
            request = urllib.request.Request(
                page, data=json.dumps(body).encode(), method="POST", headers={"X-XSRFToken": xsrf}
            )
            try:
                with browser.open(request, timeout=30) as answer:
                    return answer.status, json.loads(answer.read())
            except urllib.error.HTTPError as refused:
                return refused.code, json.loads(refused.read() or b"{}")

        wait_for(lambda: _answers(page), 30, "the room server")
        gates = [get(page) for _ in range(ANONYMOUS)]  # what anyone on the Wi-Fi gets
        gates += [get(page + "&ticket=made-up"), get(page + "&key=" + key)]
        assert all('id="hl-room-gate"' in gate for gate in gates)
        xsrf = re.search(r"xsrf&quot;: &quot;([^&]+)&quot;", gates[0]).group(1)
        for guess in range(ANONYMOUS):
            status, body = post({"room": links["room"], "key": f"guess-{guess}"}, xsrf)
            assert status == 200 and "opens nothing" in body["error"] and "ticket" not in body
        assert kernels_of(process) == []

        status, body = post({"room": links["room"], "key": key}, xsrf)
        assert status == 200
        rendered = get(page + "&ticket=" + body["ticket"])  # Voila runs the page: one kernel
        assert "voila" in rendered.lower() and 'id="hl-room-gate"' not in rendered
        assert len(kernels_of(process)) == 1
        assert 'id="hl-room-gate"' in get(page + "&ticket=" + body["ticket"])  # used once
        # no page ever connected to it: shut down after cull_after (1 s here; 40 s by default)
        wait_for(lambda: kernels_of(process) == [], 10, "the pageless kernel shut down")
    finally:
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=30)
    terminal = output.read_text()
    assert [line for line in terminal.splitlines() if any(n in line for n in NOISE)] == []
    assert "403" not in terminal  # a mistyped key is the page's business, not the terminal's
    assert key in terminal.splitlines()[0]  # (--json: the links, printed once, first)


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5):
            return True
    except OSError:
        return False

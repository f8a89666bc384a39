"""Memory per connected page of a classroom room, and what anonymous requests and closed pages
leave running.

    python benchmarks/bench_classroom_kernels.py [--teams 3] [--anonymous 200]

Starts the room server as `housing-lab classroom` does (housing_lab/apps/room_server.py) with
a throwaway SQLite store, opens the teacher's and each team's link in Chromium (each page
connects to its own kernel), and prints the resident memory (VmRSS) of each page kernel and of
the server. Then it sends `--anonymous` plain GETs of the room page (what anyone on the Wi-Fi
can do) and counts the kernels again, and closes the pages and times how long their kernels
live on. Linux only (/proc); needs Playwright and a Chromium (HOUSING_LAB_CHROMIUM or
/usr/bin/chromium).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

from housing_lab.commands.classroom import voila_command
from housing_lab.rooms import open_store
from housing_lab.rooms.links import page_base, room_links

TEAMS = ("Red", "Blue", "Green", "Yellow", "Purple", "Orange")
READY = ".hl-classroom-title h2"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def kernels_of(server: int) -> list[int]:
    """The page kernels under the server: ipykernel processes whose parent is the server."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            state = stat.rsplit(")", 1)[1].split()[0]
            command = (entry / "cmdline").read_bytes().decode(errors="replace")
        except (OSError, ValueError, IndexError):
            continue
        if parent == server and state != "Z" and "ipykernel" in command:
            found.append(int(entry.name))
    return found


def wait_until(check, seconds: float) -> float:
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        if check():
            return time.monotonic() - start
        time.sleep(0.25)
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--teams", type=int, default=3)
    parser.add_argument("--anonymous", type=int, default=200)
    args = parser.parse_args()
    chromium = os.environ.get("HOUSING_LAB_CHROMIUM", "/usr/bin/chromium")
    with tempfile.TemporaryDirectory(prefix="bench-classroom-") as folder:
        port = free_port()
        store_url = "sqlite:///" + str(Path(folder) / "rooms.sqlite")
        base = page_base("127.0.0.1", port)
        with open_store(store_url) as store:
            created = store.create_room(list(TEAMS[: args.teams]), seed=1, join_base=base)
        links = room_links(created, base, token_param="key")
        env = dict(os.environ, HOUSING_LAB_ROOMS=store_url)
        server = subprocess.Popen(
            voila_command("127.0.0.1", port),
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            wait_until(lambda: _answers(f"{base}voila/static/voila.js"), 60)
            idle_server = rss_mb(server.pid)
            urls = [links["teacher"], *links["teams"].values()]
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium)
                started = time.monotonic()
                pages = []
                for url in urls:
                    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
                    page.goto(url, wait_until="commit")
                    pages.append(page)
                for page in pages:
                    page.wait_for_selector(READY, timeout=180_000)
                opened = time.monotonic() - started
                time.sleep(3)
                kernels = [rss_mb(pid) for pid in kernels_of(server.pid)]
                connected_server = rss_mb(server.pid)
                for _ in range(args.anonymous):
                    with urllib.request.urlopen(links["teams"]["Red"].split("#")[0]) as answer:
                        answer.read()
                after_anonymous = len(kernels_of(server.pid))
                for page in pages:  # as a tab closes: the page's "beforeunload" runs
                    page.close(run_before_unload=True)
                gone = wait_until(lambda: kernels_of(server.pid) == [], 120)
                browser.close()
            print(
                json.dumps(
                    {
                        "pages": len(urls),
                        "seconds_to_open_all": round(opened, 1),
                        "kernels": len(kernels),
                        "kernel_rss_mb": [round(k, 1) for k in kernels],
                        "kernel_rss_mb_median": round(statistics.median(kernels), 1),
                        "server_rss_mb_idle": round(idle_server, 1),
                        "server_rss_mb_with_pages": round(connected_server, 1),
                        "anonymous_requests": args.anonymous,
                        "kernels_after_anonymous_requests": after_anonymous,
                        "seconds_until_closed_pages_kernels_gone": round(gone, 1),
                    },
                    indent=2,
                )
            )
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5):
            return True
    except OSError:
        return False


if __name__ == "__main__":
    main()

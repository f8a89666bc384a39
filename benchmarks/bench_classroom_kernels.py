"""Memory of a classroom page kernel, and what one more page costs.

    python benchmarks/bench_classroom_kernels.py [--teams 3]

Starts Voila on the room page (as `housing-lab classroom` does) with a throwaway SQLite store,
opens the teacher's and each team's link over HTTP (Voila runs the page's notebook in a fresh
kernel for each visit), then prints the resident memory (VmRSS) of each page kernel and of the
Voila server. Propagation latency between pages is measured in a real browser by
tests/browser/test_classroom_browser.py (it prints its median and maximum). Linux only (/proc).
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

from housing_lab.commands.classroom import voila_command
from housing_lab.rooms import open_store
from housing_lab.rooms.links import page_base, room_links

TEAMS = ("Red", "Blue", "Green", "Yellow", "Purple", "Orange")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def marked(marker: str) -> dict[int, str]:
    """Processes whose environment holds `marker`: pid -> command line."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                if marker.encode() in (entry / "environ").read_bytes():
                    found[int(entry.name)] = (
                        (entry / "cmdline").read_bytes().decode(errors="replace")
                    )
            except OSError:
                continue
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--teams", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-classroom-") as folder:
        port = free_port()
        store_url = "sqlite:///" + str(Path(folder) / "rooms.sqlite")
        base = page_base("127.0.0.1", port)
        with open_store(store_url) as store:
            created = store.create_room(list(TEAMS[: args.teams]), seed=1, join_base=base)
        links = room_links(created, base)
        env = dict(os.environ, HOUSING_LAB_ROOMS=store_url, BENCH_MARK=folder)
        voila = subprocess.Popen(
            voila_command("127.0.0.1", port),
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            urls = [links["teacher"], *links["teams"].values()]
            started = time.monotonic()
            for url in urls:
                deadline = time.monotonic() + 120
                while True:
                    try:
                        with urllib.request.urlopen(url, timeout=120) as answer:
                            answer.read()
                        break
                    except OSError:
                        if time.monotonic() > deadline:
                            raise
                        time.sleep(0.5)
            opened = time.monotonic() - started
            time.sleep(2)
            processes = marked(folder)
            kernels = [rss_mb(p) for p, cmd in processes.items() if "ipykernel" in cmd]
            server = [rss_mb(p) for p, cmd in processes.items() if "ipykernel" not in cmd]
            print(
                json.dumps(
                    {
                        "pages": len(urls),
                        "seconds_to_open_all": round(opened, 1),
                        "kernels": len(kernels),
                        "kernel_rss_mb": [round(k, 1) for k in kernels],
                        "kernel_rss_mb_median": round(statistics.median(kernels), 1)
                        if kernels
                        else None,
                        "voila_server_rss_mb": round(sum(server), 1),
                    },
                    indent=2,
                )
            )
        finally:
            os.killpg(voila.pid, signal.SIGTERM)
            voila.wait(timeout=30)


if __name__ == "__main__":
    main()

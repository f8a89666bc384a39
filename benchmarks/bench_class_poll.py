"""A bounded soak of a class poll: 200 simulated devices answering over HTTP on loopback.

    python benchmarks/bench_class_poll.py [--devices 200] [--seconds 20] \
        [--backends sqlite,postgresql]

For each backend it starts `housing-lab class --lesson 3` (its own Tornado server, as a teacher
would) and drives it as a class does: the projector asks for the tally every 0.5 s (class.js),
each device joins at a random moment of the first quarter, asks for its view every second
(join.js) and answers the first question once at a random moment of the middle half, a quarter
of them changing their mind once. Everything goes through the HTTP API with the pages' XSRF
cookie and headers. It reports:

- propagation: from the moment the k-th answer was sent to the first projector response whose
  count reached k (p50 / p95 / max): what the teacher sees, the projector's 0.5 s poll included;
- the answer requests' latency (p50 / p95) and any refused or failed request;
- nothing lost: the final tally against every device's last choice, choice by choice;
- the server's memory (RSS) before the devices joined and with all of them polling, per device,
  and the server's CPU seconds.

Loopback only; bounded by --seconds. The figures go in docs/classroom.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest

from housing_lab.rooms.stores.pg_server import free_port, temporary_server

PROJECTOR_POLL_S = 0.5
DEVICE_POLL_S = 1.0
QUESTION = "l3-vacancy-control"
CHOICES = ("more", "same", "fewer")


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


class Soak:
    """One soak against a running class server."""

    def __init__(self, teacher_url: str, devices: int, seconds: float, seed: int) -> None:
        parts = urlsplit(teacher_url)
        self.origin = f"{parts.scheme}://{parts.netloc}"
        self.code = re.search(r"class=([A-Z0-9]+)", parts.query).group(1)
        self.token = parts.fragment.split("key=", 1)[1]
        self.api = f"{self.origin}/housing-lab/class/api/"
        self.devices = devices
        self.seconds = seconds
        self.rng = random.Random(seed)
        self.client = AsyncHTTPClient(max_clients=devices + 10)
        self.sent: list[float] = []  # when each answer was sent (monotonic)
        self.latencies: list[float] = []
        self.last_choice: dict[str, str] = {}
        self.seen: list[tuple[float, int]] = []  # projector responses: (time, answered)
        self.failures: list[str] = []
        self.joined = 0
        self.headers: dict[str, str] = {}

    async def setup(self) -> None:
        page = await self.client.fetch(f"{self.origin}/housing-lab/class/join?class={self.code}")
        token = re.search(r'data-xsrf="([^"]+)"', page.body.decode()).group(1)
        cookie = page.headers.get_list("Set-Cookie")[0].split(";", 1)[0]
        self.headers = {"Cookie": cookie, "X-XSRFToken": token}

    async def call(self, method: str, path: str, extra: dict[str, str], data: Any = None) -> Any:
        request = HTTPRequest(
            self.api + path,
            method=method,
            headers={**self.headers, **extra, "Content-Type": "application/json"},
            body=None if data is None else json.dumps(data),
            request_timeout=30,
        )
        try:
            response = await self.client.fetch(request)
        except HTTPClientError as error:
            self.failures.append(f"{method} {path}: {error.code}")
            return None
        except OSError as error:
            self.failures.append(f"{method} {path}: {error}")
            return None
        return json.loads(response.body)

    async def projector(self, until: float) -> None:
        header = {"X-Housing-Lab-Key": self.token}
        while time.monotonic() < until:
            tally = await self.call("GET", f"teacher?class={self.code}", header)
            if tally is not None:
                rounds = tally["questions"][0]["rounds"][0]
                self.seen.append((time.monotonic(), rounds["answered"]))
                self.final = tally
            await asyncio.sleep(PROJECTOR_POLL_S)

    async def device(self, number: int, start: float, until: float) -> None:
        key = f"soak-device-{number:04d}-{self.rng.getrandbits(48):012x}"
        header = {"X-Housing-Lab-Device": key}
        span = self.seconds
        await asyncio.sleep(self.rng.uniform(0, span / 4))
        if await self.call("POST", "device", header, {"class": self.code, "action": "join"}):
            self.joined += 1
        answers = [start + self.rng.uniform(span / 4, 3 * span / 4)]
        if self.rng.random() < 0.25:  # a quarter change their mind once
            answers.append(answers[0] + self.rng.uniform(0.5, span / 8))
        while time.monotonic() < until:
            if answers and time.monotonic() >= answers[0]:
                answers.pop(0)
                choice = self.rng.choice(CHOICES)
                body = {"class": self.code, "action": "answer"}
                body |= {"question": QUESTION, "choice": choice}
                new = key not in self.last_choice
                sent = time.monotonic()
                if await self.call("POST", "device", header, body) is not None:
                    self.latencies.append(time.monotonic() - sent)
                    self.last_choice[key] = choice
                    if new:
                        self.sent.append(sent)
            else:
                await self.call("GET", f"device?class={self.code}", header)
            await asyncio.sleep(DEVICE_POLL_S * self.rng.uniform(0.9, 1.1))

    def propagation(self) -> list[float]:
        """For the k-th first answer sent: until the projector's count first reached k."""
        delays = []
        for k, sent in enumerate(sorted(self.sent), start=1):
            reached = next((t for t, n in self.seen if n >= k and t >= sent), None)
            delays.append(float("inf") if reached is None else reached - sent)
        return delays


async def run_soak(teacher_url: str, pid: int, devices: int, seconds: float, seed: int) -> dict:
    soak = Soak(teacher_url, devices, seconds, seed)
    await soak.setup()
    before = rss_kb(pid)
    cpu_before = cpu_seconds(pid)
    start = time.monotonic()
    until = start + seconds
    tasks = [asyncio.create_task(soak.projector(until + 2 * PROJECTOR_POLL_S))]
    tasks += [asyncio.create_task(soak.device(n, start, until)) for n in range(devices)]
    await asyncio.sleep(seconds / 2)
    polling = rss_kb(pid)  # every device joined and polling
    await asyncio.gather(*tasks)
    delays = soak.propagation()
    counts = soak.final["questions"][0]["rounds"][0]["counts"]
    expected = {choice: 0 for choice in CHOICES}
    for choice in soak.last_choice.values():
        expected[choice] += 1
    return {
        "devices": devices,
        "joined": soak.final["joined"],
        "answers": len(soak.sent),
        "answer_requests": len(soak.latencies),
        "failed_requests": soak.failures[:5],
        "failed": len(soak.failures),
        "nothing_lost": counts == expected and soak.final["joined"] == devices,
        "propagation_ms": {
            "p50": round(1000 * statistics.median(delays)),
            "p95": round(1000 * percentile(delays, 0.95)),
            "max": round(1000 * max(delays)),
        },
        "answer_latency_ms": {
            "p50": round(1000 * statistics.median(soak.latencies)),
            "p95": round(1000 * percentile(soak.latencies, 0.95)),
        },
        "server_rss_mb": {"before": round(before / 1024, 1), "polling": round(polling / 1024, 1)},
        "rss_kb_per_device": round((polling - before) / devices, 1),
        "server_cpu_s": round(cpu_seconds(pid) - cpu_before, 2),
    }


def soak_backend(store: str, devices: int, seconds: float, seed: int) -> dict[str, Any]:
    port = free_port()
    command = [sys.executable, "-m", "housing_lab.cli", "class", "--lesson", "3"]
    command += ["--port", str(port), "--store", store, "--no-browser"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        teacher = ""
        for line in process.stdout:
            if line.startswith("Teacher (projector): "):
                teacher = line.split(": ", 1)[1].strip()
            if line.startswith("Ctrl-C"):
                break
        time.sleep(0.5)  # the server listens a moment after it prints
        return asyncio.run(run_soak(teacher, process.pid, devices, seconds, seed))
    finally:
        process.terminate()
        process.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--devices", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--backends", default="sqlite")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        for backend in args.backends.split(","):
            if backend == "sqlite":
                store = "sqlite:///" + str(folder / "rooms.sqlite")
            else:
                store = stack.enter_context(temporary_server())
            result = soak_backend(store, args.devices, args.seconds, args.seed)
            print(json.dumps({"backend": backend, **result}))


if __name__ == "__main__":
    main()

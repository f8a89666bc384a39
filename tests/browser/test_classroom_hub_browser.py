"""A room through a real JupyterHub (issue 24, item 9): the hub with its dummy login, the local
spawner and configurable-http-proxy, every user's server reading a PostgreSQL store, and two
teams who log in, then open the `--hub` links `housing-lab classroom` printed.

Each team's page holds its own hand and never the other's (DOM and websocket frames); a move
on one page shows on the other; no token is in any log (hub, proxy, single-user servers); a
page whose server the hub stops says "Connection lost". It prints the figures
docs/classroom.md gives: time to the first page through the hub, propagation, memory per user.
One hub serves the whole test (starting one and two servers is most of its run time).
"""

from __future__ import annotations

import json
import os
import pathlib
import statistics
import subprocess
import sys
import time
from typing import Any

import pytest

from housing_lab.north_berkeley.names import card_name
from housing_lab.rooms import open_store
from housing_lab.rooms.stores.pg_server import find_bin_dir, temporary_server

from .harness import FOREIGN_ERRORS, SCREENSHOTS, PageWatch
from .hub import Hub, jupyterhub
from .test_classroom_browser import READY, SEE_WITHIN, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TEAMS = ("Red", "Blue")
SPAWN_SECONDS = 300  # a single-user server on a loaded 2-core machine took 50 s
# Each team builds from its own page; the other page must show it (seed 3's legal moves).
MOVES = (
    ("Red", "B1", "park"),
    ("Blue", "C1", "townhouse_low"),
    ("Red", "B2", "midrise_market"),
    ("Blue", "C2", "garage"),
)


def postgres() -> Any:
    """A throwaway PostgreSQL server (as tests/rooms/conftest.py starts it)."""
    if find_bin_dir() is None:
        if os.environ.get("CI"):
            pytest.fail("CI must test rooms on PostgreSQL: apt-get install postgresql")
        pytest.skip("PostgreSQL is not installed here")
    return temporary_server()


def hub_room(hub: Hub, store_url: str, links_dir: pathlib.Path) -> dict[str, Any]:
    """`python -m housing_lab classroom --hub ... --json`, as the hub docs tell a teacher."""
    command = [sys.executable, "-m", "housing_lab", "classroom", "--teams", ",".join(TEAMS)]
    command += ["--seed", "3", "--store", store_url, "--links-dir", str(links_dir)]
    command += ["--no-server", "--json", "--hub", hub.base]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)
    return json.loads(done.stdout)


class Student:
    """One team's browser: logs in to the hub as its own user, then opens its link."""

    def __init__(self, browser: Any, hub: Hub, team: str, size: tuple[int, int]) -> None:
        self.team, self.user, self.hub = team, team.lower(), hub
        self.context = browser.new_context(viewport={"width": size[0], "height": size[1]})
        self.context.set_default_timeout(120_000)  # the hub's pages on a loaded machine
        self.page = self.context.new_page()
        self.watch = PageWatch()
        self.watch.attach(self.page)
        self.frames: list[str] = []
        self.refused: list[str] = []  # requests the hub or a server answered 4xx/5xx
        self.page.on("websocket", self._listen)
        self.page.on(
            "response",
            lambda r: r.status >= 400 and self.refused.append(f"{r.status} {r.url}"),
        )

    def _listen(self, socket: Any) -> None:
        def keep(payload: Any) -> None:
            text = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else payload
            self.frames.append(text)

        socket.on("framereceived", keep)

    def log_in(self) -> None:
        """The hub's login form (any password: the dummy login); the hub then starts the
        user's server, and the browser lands on it once it is up."""
        self.page.goto(f"{self.hub.base}hub/login")
        self.page.fill("#username_input", self.user)
        self.page.fill("#password_input", "any")
        self.page.click("#login_submit")

    def wait_for_server(self) -> None:
        """Until the browser lands on the user's server. That landing (the spawner's
        `default_url`, an API address the browser holds no cookie for yet) answers 403: it is
        not our page, so what it logged is dropped."""
        self.page.wait_for_url(f"**/user/{self.user}/**", timeout=SPAWN_SECONDS * 1000)
        self.watch.console_errors.clear()
        self.refused.clear()

    def open(self, url: str) -> float:
        """Open the link; seconds until the room page has drawn."""
        start = time.monotonic()
        self.page.goto(url)
        self.page.wait_for_selector(READY, timeout=SPAWN_SECONDS * 1000)
        return time.monotonic() - start

    def tiles(self) -> dict[str, str]:
        return self.page.evaluate(
            """() => Object.fromEntries(Array.from(document.querySelectorAll(
                 '.hl-nb-board [data-square][data-tile]')).map(
                 (n) => [n.getAttribute('data-square'), n.getAttribute('data-tile')]))"""
        )


def memory_mb(user: str) -> dict[str, float]:
    """Resident memory of a user's single-user server and of its kernels (its children)."""
    import psutil

    for process in psutil.process_iter(["cmdline"]):
        try:
            if not any("jupyterhub-singleuser" in part for part in process.info["cmdline"] or []):
                continue
            if process.environ().get("JUPYTERHUB_USER") != user:
                continue
            kernels = sum(child.memory_info().rss for child in process.children(recursive=True))
            return {"server": process.memory_info().rss / 2**20, "kernels": kernels / 2**20}
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    raise AssertionError(f"no single-user server of {user} is running")


def test_a_room_through_a_real_jupyterhub(browser, tmp_path: pathlib.Path):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with postgres() as store_url, open_store(store_url) as store:
        started = time.monotonic()
        with jupyterhub(tmp_path / "hub", {"HOUSING_LAB_ROOMS": store_url}) as hub:
            hub_up = time.monotonic() - started
            links = hub_room(hub, store_url, tmp_path / "links")
            code = links["room"]
            assert links["teams"]["Red"].startswith(hub.page_url() + f"?room={code}#key=")
            keys = {who: url.split("#key=")[1] for who, url in links["teams"].items()}
            keys["teacher"] = links["teacher"].split("#key=")[1]
            hands = {
                team: {card["card"] for card in store.view(code, keys[team])["hand"]}
                for team in TEAMS
            }
            sizes = {"Red": (1366, 768), "Blue": (390, 844)}
            students = {team: Student(browser, hub, team, sizes[team]) for team in TEAMS}
            spawn_start = time.monotonic()
            for student in students.values():  # both servers start at once, as in a class
                student.log_in()
            for student in students.values():
                student.wait_for_server()
            spawned = time.monotonic() - spawn_start
            first_page = {t: s.open(links["teams"][t]) for t, s in students.items()}

            for team, student in students.items():
                page = student.page
                assert "key=" not in page.url, f"{team}: the key is still in the address bar"
                assert f"/user/{student.user}/housing-lab/room" in page.url  # its own server
                assert f"Team {team}" in page.inner_text(READY)
                body = page.inner_text("body")
                assert "Your hand (secret)" in body
                assert all(card_name(card) in body for card in hands[team])

            delays: list[float] = []
            for team, square, tile in MOVES:
                acting = students[team].page
                acting.locator(f'.hl-nb-board [data-square="{square}"]').first.click()
                acting.locator(f'[data-tile-choice="{tile}"]').first.click()
                clicked = time.monotonic()
                other = next(s for t, s in students.items() if t != team)
                wait_until(lambda o=other, s=square, t=tile: o.tiles().get(s) == t, 20, square)
                delays.append(time.monotonic() - clicked)
            assert store.view(code, keys["teacher"])["board"]["tiles"] == {
                square: tile for _, square, tile in MOVES
            }
            memory = {s.user: memory_mb(s.user) for s in students.values()}
            students["Red"].page.screenshot(path=str(SCREENSHOTS / "room-hub-Red-1366.png"))
            students["Blue"].page.screenshot(path=str(SCREENSHOTS / "room-hub-Blue-390x844.png"))

            for team, student in students.items():  # the other team's hand: nowhere
                seen = student.page.content() + "\n".join(student.frames)
                for card in set().union(*(hands[t] for t in TEAMS if t != team)) - hands[team]:
                    assert card not in seen and card_name(card) not in seen, (team, card)
                errors = student.watch.our_errors(ignore=FOREIGN_ERRORS)
                assert errors == [], (team, student.watch.console_errors, student.refused)

            blue = students["Blue"].page
            assert blue.locator(".hl-connection-lost").count() == 0  # alive: no banner
            stop = time.monotonic()
            hub.stop_server("blue")
            blue.wait_for_selector(".hl-connection-lost", timeout=60_000)
            lost = time.monotonic() - stop
            assert "Reopen your link" in blue.inner_text(".hl-connection-lost")
            assert students["Red"].page.locator(".hl-connection-lost").count() == 0
            blue.screenshot(path=str(SCREENSHOTS / "room-hub-Blue-connection-lost.png"))
            for student in students.values():
                student.context.close()
        text = hub.log.read_text()
    assert "/user/red/housing-lab/room" in text  # the proxy and the server logged the page
    assert f"room={code}" in text  # with its query: a key there would be in the log too
    assert "ServerApp" in text and "ConfigProxy" in text  # every part wrote to this log
    leaked = [who for who, key in keys.items() if key in text]
    assert leaked == [], f"tokens of {leaked} are in the hub's, proxy's or servers' log"
    assert max(delays) < SEE_WITHIN, delays
    print(
        f"hub up {hub_up:.1f} s; two servers started {spawned:.1f} s after login; "
        f"first page {', '.join(f'{t} {s:.1f} s' for t, s in first_page.items())}; "
        f"propagation median {statistics.median(delays):.2f} s, max {max(delays):.2f} s; "
        f"'Connection lost' {lost:.1f} s after the stop; memory (MB) "
        + "; ".join(
            f"{user}: server {mb['server']:.0f}, kernel {mb['kernels']:.0f}"
            for user, mb in memory.items()
        )
    )

"""The room page served by the Jupyter server extension (`{base_url}housing-lab/room`) of a
plain `jupyter server` under a hub-like base URL, with the key in each link's #fragment.

The extension is enabled by the install itself (this test gives the server an empty user config
folder), the key reaches the page's kernel without ever being in the server's log, the address
bar drops it, a link without its key says so, and the projector's join code fits at 1920x1080
and 1366x768 while a team page works on a phone (390x844), and "Connection lost" shows within
30 s of the server stopping."""

from __future__ import annotations

import json
import os
import pathlib
import secrets
import sys
import time
import urllib.request
from typing import Any

import pytest

from housing_lab.rooms import open_store
from housing_lab.rooms.links import room_links, save_links

from .harness import FOREIGN_ERRORS, SCREENSHOTS, PageWatch, free_port, server
from .servers import ROOM_CULLING

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TEAMS = ("Red", "Blue")
READY = ".hl-classroom-title h2"


def wait_text(page: Any, text: str, seconds: float = 90.0) -> None:
    page.get_by_text(text, exact=False).first.wait_for(timeout=seconds * 1000)


def test_the_room_page_is_served_by_any_jupyter_server(browser, tmp_path: pathlib.Path):
    port, login = free_port(), secrets.token_hex(16)
    root = f"http://127.0.0.1:{port}/user/ms-lee/"
    store_url = "sqlite:///" + str(tmp_path / "rooms.sqlite")
    base = root + "housing-lab/room"
    with open_store(store_url) as store:
        created = store.create_room(list(TEAMS), seed=3, join_base=base)
        links = room_links(created, base)
        save_links(links, tmp_path / "links")
        blue_cards = {
            card["card"]
            for card in store.view(links["room"], created["teams"]["Blue"]["token"])["hand"]
        }
    keys = [created["teacher"]["token"], *(created["teams"][t]["token"] for t in TEAMS)]
    env = dict(
        os.environ,
        HOUSING_LAB_ROOMS=store_url,
        HOUSING_LAB_ROOM_LINKS=str(tmp_path / "links"),
        JUPYTER_CONFIG_DIR=str(tmp_path / "config"),  # nothing enabled by hand
    )
    command = [
        sys.executable,
        "-m",
        "jupyter_server",
        "--no-browser",
        "--allow-root",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.base_url=/user/ms-lee/",
        f"--IdentityProvider.token={login}",
        f"--ServerApp.root_dir={tmp_path}",
        # 40 s by default; shorter here, but not so short that a page slow to connect on a
        # loaded machine loses its kernel before it draws (3 s did, once in a whole run)
        *ROOM_CULLING,
    ]
    log = tmp_path / "server.log"
    with server(command, f"{root}api/status?token={login}", env, log):
        sizes = {"teacher-1920": (1920, 1080), "teacher-1366": (1366, 768), "Red": (390, 844)}
        pages: dict[str, Any] = {}
        watches: dict[str, PageWatch] = {}
        for who, (width, height) in sizes.items():
            context = browser.new_context(viewport={"width": width, "height": height})
            page = context.new_page()
            page.clock.install()  # the page's time runs as usual until it is moved on below
            watches[who] = PageWatch()
            watches[who].attach(page)
            # log in (a hub's cookie, here) by a page that lists no kernels: jupyter_server's
            # /api/status answered 500 once while another page's kernel was still starting
            page.goto(f"{root}api/me?token={login}")
            page.goto(links["teams"]["Red"] if who == "Red" else links["teacher"])
            pages[who] = page
        for who, page in pages.items():
            page.wait_for_selector(READY, timeout=120_000)
            assert "key=" not in page.url, f"{who}: the key is still in the address bar"
        red = pages["Red"]
        wait_text(red, "Your hand (secret)")
        dom = red.content()
        assert not any(card in dom for card in blue_cards)

        for who in ("teacher-1920", "teacher-1366"):
            page = pages[who]
            page.wait_for_selector(".hl-classroom-join svg")
            width = page.viewport_size["width"]
            boxes = [code.bounding_box() for code in page.locator(".hl-classroom-join svg").all()]
            assert len(boxes) == 1  # one team's code at a time
            assert all(box and box["x"] >= 0 and box["x"] + box["width"] <= width for box in boxes)
            page.screenshot(path=str(SCREENSHOTS / f"room-extension-{who}.png"))
        red.screenshot(path=str(SCREENSHOTS / "room-extension-Red-390x844.png"))

        def kernels() -> list[dict]:
            with urllib.request.urlopen(f"{root}api/kernels?token={login}") as answer:
                return json.loads(answer.read())

        assert len(kernels()) == len(pages)  # one per page
        bare = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        bare.goto(f"{root}api/me?token={login}")
        bare.goto(links["teams"]["Blue"].split("#")[0])
        wait_text(bare, "lost its key")
        bare.goto("about:blank")  # a new fragment alone would not reload the page
        bare.goto(links["teams"]["Blue"].replace("key=", "key=x"))  # a wrong key
        wait_text(bare, "opens nothing")
        bare.goto("about:blank")
        bare.goto(links["teams"]["Blue"].replace("#key=", "&key="))  # an old link: key in query
        wait_text(bare, "old kind")
        assert len(kernels()) == len(pages)  # none of the three started a kernel
        # a closed page's kernel is shut down (CULL_AFTER s after, here), the server's others stay
        pages.pop("teacher-1366").context.close()
        deadline = time.monotonic() + 30
        while len(kernels()) > len(pages) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert len(kernels()) == len(pages), kernels()
        for who, watch in watches.items():
            assert not watch.our_errors(FOREIGN_ERRORS), who
        time.sleep(0.5)
        assert red.locator(".hl-connection-lost").count() == 0  # alive: no banner
    # The server is stopped: the page must say so within 30 s. Its clock is moved on 29 s
    # (firing its timers, as if the time had passed) rather than waited for; the real wait
    # is measured at a real hub (test_classroom_hub_browser.py).
    red.wait_for_timeout(1000)
    assert red.locator(".hl-connection-lost").count() == 0  # not before its time
    red.clock.fast_forward(29_000)
    red.wait_for_selector(".hl-connection-lost", timeout=5_000)
    assert "Reopen your link" in red.inner_text(".hl-connection-lost")
    red.screenshot(path=str(SCREENSHOTS / "room-extension-Red-connection-lost.png"))
    text = log.read_text()
    assert "housing-lab/room" in text  # the log was written, and names the page
    assert "eavesdropping" not in text and "is not trusted" not in text  # room kernels: quiet
    assert not [key for key in keys if key in text]

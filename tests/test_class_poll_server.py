"""The class poll's pages and JSON API (housing_lab/server/class_poll.py) on the standalone
Tornado server of `housing-lab class`: keys in headers only, XSRF-checked writes, no secret in
the access log, nobody else's answers before the teacher shows them."""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import logging
import re
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from tornado import web

from housing_lab.rooms.class_poll import ClassStore
from housing_lab.rooms.stores.pg_server import free_port
from housing_lab.server.class_app import make_app
from housing_lab.server.class_poll import (
    DEVICE_HEADER,
    STORE_SETTING,
    TEACHER_HEADER,
    hub_join_path,
    login_routes,
)

DEVICE = "device-key-server-0001"


class Client:
    """One browser: a cookie jar, the XSRF token of the page it opened, JSON calls."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        self.xsrf = ""

    def page(self, path: str) -> str:
        text = self.opener.open(self.base + path, timeout=10).read().decode()
        self.xsrf = text.split('data-xsrf="', 1)[1].split('"', 1)[0]
        return text

    def call(
        self, method: str, path: str, data: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any]:
        body = None if data is None else json.dumps(data).encode()
        request = urllib.request.Request(self.base + "/api/" + path, data=body, method=method)
        request.add_header("Content-Type", "application/json")
        if self.xsrf:
            request.add_header("X-XSRFToken", self.xsrf)
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with self.opener.open(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            text = error.read()
            return error.code, json.loads(text) if text.startswith(b"{") else None


def scripts(page: str) -> list[str]:
    """The scripts a page loads, in order: each must be one of ours (the static route)."""
    found = re.findall(r'<script src="([^"]*)"></script>', page)
    assert page.count("<script") == len(found)
    ours = "/housing-lab/class/static/"
    assert all(src.startswith(ours) for src in found), found
    return [src.removeprefix(ours) for src in found]


@pytest.fixture
def served(tmp_path) -> Iterator[tuple[str, str]]:
    """A standalone class server on 127.0.0.1 (its own thread and event loop)."""
    store = "sqlite:///" + str(tmp_path / "rooms.sqlite")
    port = free_port()
    loop = asyncio.new_event_loop()
    ready = threading.Event()

    def run() -> None:
        asyncio.set_event_loop(loop)
        make_app(store).listen(port, address="127.0.0.1")
        loop.call_soon(ready.set)
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    ready.wait(10)
    yield f"http://127.0.0.1:{port}/housing-lab/class", store
    loop.call_soon_threadsafe(loop.stop)
    thread.join(10)


def test_devices_and_teacher_over_http(served, caplog) -> None:
    base, store = served
    with ClassStore(store) as polls:
        made = polls.create_class(3, page=base)
    code, token = made["class"], made["teacher"]["token"]
    q = made["questions"][0]
    phone = Client(base)
    assert scripts(phone.page(f"/join?class={code}")) == ["page.js", "join.js"]
    teacher = Client(base)
    assert scripts(teacher.page(f"?class={code}")) == ["page.js", "class.js"]
    with phone.opener.open(f"{base}/static/page.js", timeout=10) as shared:
        assert shared.headers["Content-Type"] == "text/javascript; charset=utf-8"
        assert b"function apiCaller(" in shared.read()  # the helpers both pages' scripts call
    key = {DEVICE_HEADER: DEVICE}
    caplog.set_level(logging.INFO, logger="tornado.access")

    status, _ = Client(base).call("POST", "device", {"class": code, "action": "join"})
    assert status == 403  # no XSRF token: a page of another site cannot answer for a device
    status, view = phone.call("POST", "device", {"class": code, "action": "join"}, headers=key)
    assert status == 200 and view["questions"][0]["mine"] is None
    answer = {"class": code, "action": "answer", "question": q["id"], "choice": q["choices"][0]}
    status, done = phone.call("POST", "device", answer, headers=key)
    assert status == 200 and done["round"] == 1
    status, bad = phone.call("POST", "device", {**answer, "choice": "nope"}, headers=key)
    assert status == 400 and "no choice 'nope'" in bad["error"]

    teacher_key = {TEACHER_HEADER: token}
    status, tally = teacher.call("GET", f"teacher?class={code}", headers=teacher_key)
    assert status == 200 and tally["joined"] == 1
    assert tally["questions"][0]["rounds"][0]["counts"][q["choices"][0]] == 1
    status, _ = phone.call("GET", f"teacher?class={code}", headers=key)
    assert status == 403

    status, view = phone.call("GET", f"device?class={code}", headers=key)
    assert "rounds" not in view["questions"][0]  # not shown yet
    show = {"class": code, "action": "show", "question": q["id"]}
    assert teacher.call("POST", "teacher", show, headers=teacher_key)[0] == 200
    status, view = phone.call("GET", f"device?class={code}", headers=key)
    assert view["questions"][0]["rounds"][0]["answered"] == 1
    reveal = {**show, "action": "reveal"}
    assert teacher.call("POST", "teacher", reveal, headers=teacher_key)[0] == 200
    status, view = phone.call("GET", f"device?class={code}", headers=key)
    assert view["questions"][0]["revealed"] and view["questions"][0]["explanation"]
    status, late = phone.call("POST", "device", answer, headers=key)
    assert status == 400 and "answers are closed" in late["error"]

    with pytest.raises(urllib.error.HTTPError) as no_key:
        urllib.request.urlopen(f"{base}/api/qr?class={code}", timeout=10)
    assert no_key.value.code == 403
    request = urllib.request.Request(f"{base}/api/qr?class={code}", headers=teacher_key)
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.read().startswith(b"<svg")

    logged = caplog.text
    assert "/api/device" in logged and "/api/teacher" in logged  # the access log was read
    assert token not in logged and DEVICE not in logged
    status, denied = teacher.call("GET", f"teacher?class={code}&key={token}")
    assert status == 403 and "opens nothing" in denied["error"]  # a key in a query opens nothing


class _LoggedIn(web.RequestHandler):
    """A stand-in for a server's login: the user is whoever the `X-Test-User` header names."""

    def get_current_user(self) -> str | None:
        return self.request.headers.get("X-Test-User")


@pytest.fixture
def behind_a_login(tmp_path) -> Iterator[tuple[str, str]]:
    """The routes as a Jupyter server adds them (every method needs its logged-in user, and a
    class can be started from the page), on a stand-in login."""
    store = "sqlite:///" + str(tmp_path / "rooms.sqlite")
    port = free_port()
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    settings = {STORE_SETTING: store, "xsrf_cookies": True, "login_url": "/login"}

    def run() -> None:
        asyncio.set_event_loop(loop)
        web.Application(login_routes("/", _LoggedIn), **settings).listen(port, "127.0.0.1")
        loop.call_soon(ready.set)
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    ready.wait(10)
    yield f"http://127.0.0.1:{port}/housing-lab/class", store
    loop.call_soon_threadsafe(loop.stop)
    thread.join(10)


def test_behind_a_login_the_page_starts_a_class(behind_a_login) -> None:
    base, store = behind_a_login
    anonymous = Client(base)
    with pytest.raises(urllib.error.HTTPError) as refused:
        anonymous.opener.open(base + "/join?class=ABCDEF", timeout=10)
    assert refused.value.code in (302, 403) or "login" in refused.value.url
    teacher = Client(base)
    teacher.opener.addheaders = [("X-Test-User", "teacher")]
    page = teacher.page("")
    assert 'data-can-create="yes"' in page and 'data-join-path="/housing-lab/class"' in page
    status, made = teacher.call("POST", "create", {"lesson": 2, "page": base})
    assert status == 200 and made["join"] == f"{base}/join?class={made['class']}"
    with ClassStore(store) as polls:
        assert polls.tally(made["class"], made["teacher"]["token"])["lesson"] == 2
    status, bad = teacher.call("POST", "create", {"lesson": 2, "page": "javascript:x"})
    assert status == 400 and "javascript" in bad["error"]


def test_on_a_hub_devices_join_through_the_user_redirect(monkeypatch) -> None:
    assert hub_join_path("/user/ana/housing-lab/class") == "/user/ana/housing-lab/class"
    monkeypatch.setenv("JUPYTERHUB_SERVICE_PREFIX", "/jupyter/user/ana/")
    monkeypatch.setenv("JUPYTERHUB_BASE_URL", "/jupyter/")
    assert hub_join_path("/x") == "/jupyter/hub/user-redirect/housing-lab/class"

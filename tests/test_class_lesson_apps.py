"""A class poll's lesson app: where the join link sends a device (server/lesson_apps.py), the
gate that gives a device of an open class a lesson page's kernel and caps them
(server/lesson_gate.py), the "Start a class poll" link on the teacher's lesson pages
(apps/class_start.py), the class routes inside the apps' Voila (no login: a class is started
from this computer only), and the commands that serve them."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from tornado import web
from tornado.httpserver import HTTPServer

from housing_lab.apps.class_start import START_LINK, StartControl, start_control
from housing_lab.errors import HousingLabError
from housing_lab.rooms.class_poll import ClassStore
from housing_lab.rooms.stores.pg_server import free_port
from housing_lab.server.class_poll import (
    LESSON_APPS_SETTING,
    LINK_HOST_SETTING,
    NOT_HERE,
    STORE_SETTING,
    voila_routes,
)
from housing_lab.server.lesson_apps import (
    jupyter_lesson_apps,
    lesson_app_link,
    lesson_notebooks,
    lesson_number,
    render_paths,
)
from housing_lab.server.lesson_gate import LessonKernels, admit, lesson_gate_page, light_page
from housing_lab.server.room_kernels import Admission
from tests.test_class_poll_server import Client

DEVICE = "device-key-lesson-0001"


def lessons_in(folder: Path) -> Path:
    folder.mkdir(parents=True)
    for name in ("01_start_here.ipynb", "03_policies.ipynb", "notes.ipynb", "how_to_play.md"):
        (folder / name).write_text("{}")
    return folder


def test_each_lesson_has_its_voila_address_under_the_servers_root(tmp_path) -> None:
    lessons = lessons_in(tmp_path / "home" / "housing lab")
    assert lesson_notebooks(lessons) == {1: "01_start_here.ipynb", 3: "03_policies.ipynb"}
    assert render_paths(lessons, tmp_path / "home", "/user/ana/") == {
        1: "/user/ana/voila/render/housing%20lab/01_start_here.ipynb",
        3: "/user/ana/voila/render/housing%20lab/03_policies.ipynb",
    }
    assert render_paths(lessons, lessons)[3] == "/voila/render/03_policies.ipynb"
    # Voila renders nothing outside its root: no lesson app there
    assert render_paths(lessons, tmp_path / "elsewhere") == {}
    assert lesson_number("/voila/render/sub/03_policies.ipynb") == 3
    assert lesson_number("/voila/render/notes.ipynb") is None


def test_a_devices_lesson_link_carries_the_class_and_key_after_the_hash() -> None:
    link = lesson_app_link("/voila/render/03_policies.ipynb", " k7m2qx ", DEVICE)
    path, fragment = link.split("#")
    assert path == "/voila/render/03_policies.ipynb"  # nothing in the query: no log holds it
    assert fragment == f"class=K7M2QX&device={DEVICE}"


def fake_server(root: Path, extensions: dict[str, bool]) -> Any:
    web_app = SimpleNamespace(settings={"base_url": "/user/ana/"})
    return SimpleNamespace(jpserver_extensions=extensions, root_dir=str(root), web_app=web_app)


def test_a_jupyter_server_opens_the_lesson_through_voilas_extension(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("HOUSING_LAB_LESSONS", raising=False)
    lessons_in(tmp_path / "housing-lab-lessons")  # `housing-lab lab`'s working copy
    on = fake_server(tmp_path, {"voila.server_extension": True})
    assert jupyter_lesson_apps(on)[3] == (
        "/user/ana/voila/render/housing-lab-lessons/03_policies.ipynb"
    )
    assert jupyter_lesson_apps(fake_server(tmp_path, {"voila.server_extension": False})) == {}
    chosen = lessons_in(tmp_path / "course")
    monkeypatch.setenv("HOUSING_LAB_LESSONS", str(chosen))
    assert jupyter_lesson_apps(on)[1] == "/user/ana/voila/render/course/01_start_here.ipynb"


class FakeManager:
    """The kernel manager as `LessonKernels` sees it: kernel ids and their connections."""

    def __init__(self) -> None:
        self.running: list[str] = []

    def list_kernel_ids(self) -> list[str]:
        return list(self.running)

    def kernel_model(self, kernel_id: str) -> dict[str, int]:
        return {"connections": 1}

    async def shutdown_kernel(self, kernel_id: str) -> None:
        self.running.remove(kernel_id)


def run(coroutine: Any) -> Any:
    """Run a coroutine on a thread of its own: a browser test earlier in the same process may
    have left Playwright's event loop running on this one."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def test_lesson_pages_are_capped_and_a_device_may_reload_its_own() -> None:
    manager = FakeManager()
    kernels = LessonKernels(manager, max_pages=2, sweep_every=0)
    devices = [Admission("K7M2QX", f"device-{n}") for n in range(3)]

    async def open_pages() -> None:
        for number, device in enumerate(devices[:2]):
            manager.running.append(f"k{number}")
            await kernels.started(f"k{number}", device)

    run(open_pages())
    assert kernels.full(devices[2])  # a third device: the light page
    assert not kernels.full(devices[0])  # a reload of a page already open
    run(kernels.sweep())
    manager.running.remove("k1")  # a page closed: its kernel gone
    run(kernels.sweep())
    assert not kernels.full(devices[2])
    assert LessonKernels(FakeManager(), max_pages=0).full(devices[0])


def test_only_a_device_of_an_open_class_is_admitted(tmp_path) -> None:
    store = "sqlite:///" + str(tmp_path / "rooms.sqlite")
    with ClassStore(store) as polls:
        made = polls.create_class(3)
        code, token = made["class"], made["teacher"]["token"]
        admission = admit(code.lower(), DEVICE, store)
        assert admission.room == code and DEVICE not in admission.holder
        assert polls.tally(code, token)["joined"] == 1  # the device joined the class
        with pytest.raises(HousingLabError, match="not a device key"):
            admit(code, "short", store)
        with pytest.raises(HousingLabError, match="no class ZZZZZZ"):
            admit("ZZZZZZ", DEVICE, store)
        polls.close_class(code, token)
        with pytest.raises(HousingLabError, match="closed"):
            admit(code, DEVICE, store)
    assert light_page("/user/ana/", code) == (
        f"/user/ana/housing-lab/class/join?class={code}&light=1"
    )
    page = lesson_gate_page("xsrf-1")
    assert "xsrf-1" in page and "#" not in page.split("window.location.pathname")[0][-40:]


def test_the_start_link_is_on_lesson_pages_asked_for_from_this_computer() -> None:
    def sent(path: str, remote: str, chunks: list[bytes]) -> bytes:
        transform = StartControl(SimpleNamespace(path=path, remote_ip=remote))
        headers = {"Content-Type": "text/html; charset=utf-8", "Content-Length": "99"}
        _, headers, first = transform.transform_first_chunk(200, headers, chunks[0], False)
        return first + b"".join(transform.transform_chunk(c, False) for c in chunks[1:])

    # Voila sends small pieces: the <body> tag may come cut in two
    page = [b"<html><head></head><bo", b'dy class="x">', b"<main>lesson</main></body></html>"]
    shown = sent("/base/voila/render/03_policies.ipynb", "127.0.0.1", page)
    assert shown.count(START_LINK.encode()) == 1
    assert shown.index(b"hl-class-start-bar") > shown.index(b'<body class="x">')
    assert b'href="/base/housing-lab/class?lesson=3"' in shown
    assert start_control("/base/", 3) in shown
    assert sent("/voila/render/03_policies.ipynb", "192.168.1.30", page) == b"".join(page)
    assert sent("/voila/render/how_to_play.md", "127.0.0.1", page) == b"".join(page)


@pytest.fixture
def in_voila(tmp_path) -> Iterator[tuple[str, str]]:
    """The class routes as the apps' Voila serves them (no login, XSRF checked by the handlers,
    the lesson apps and the LAN host in the settings), taking X-Real-Ip as the client's
    address so a request can come from "another device"."""
    store = "sqlite:///" + str(tmp_path / "rooms.sqlite")
    port = free_port()
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    settings = {
        STORE_SETTING: store,
        LESSON_APPS_SETTING: {3: "/voila/render/03_policies.ipynb"},
        LINK_HOST_SETTING: "192.168.1.20",
    }

    def run() -> None:
        asyncio.set_event_loop(loop)
        HTTPServer(web.Application(voila_routes("/"), **settings), xheaders=True).listen(
            port, "127.0.0.1"
        )
        loop.call_soon(ready.set)
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    ready.wait(10)
    yield f"http://127.0.0.1:{port}/housing-lab/class", store
    loop.call_soon_threadsafe(loop.stop)
    thread.join(10)


def attribute(page: str, name: str) -> str:
    import html

    return html.unescape(page.split(f'{name}="', 1)[1].split('"', 1)[0])


def test_in_the_apps_voila_a_class_starts_from_this_computer_only(in_voila) -> None:
    base, store = in_voila
    port = base.split(":")[2].split("/")[0]
    teacher = Client(base)
    page = teacher.page("?lesson=3")
    assert attribute(page, "data-can-create") == "yes"
    assert attribute(page, "data-link-origin") == f"http://192.168.1.20:{port}"
    status, _ = Client(base).call("POST", "create", {"lesson": 3, "page": base})
    assert status == 403  # no XSRF token: another site's page cannot start a class
    join_page = "http://192.168.1.20:" + port + "/housing-lab/class"
    status, made = teacher.call("POST", "create", {"lesson": 3, "page": join_page})
    assert status == 200 and made["join"].startswith(join_page + "/join?class=")
    with ClassStore(store) as polls:
        assert polls.tally(made["class"], made["teacher"]["token"])["lesson"] == 3

    phone = Client(base)
    away = {"X-Real-Ip": "192.168.1.30"}
    phone.opener.addheaders = list(away.items())
    joined = phone.page(f"/join?class={made['class']}")
    assert attribute(joined, "data-can-create") == "no"
    assert json.loads(attribute(joined, "data-lesson-apps")) == {
        "3": "/voila/render/03_policies.ipynb"
    }
    status, refused = phone.call("POST", "create", {"lesson": 3, "page": join_page}, away)
    assert status == 403 and refused["error"] == NOT_HERE


def test_the_class_command_serves_the_lesson_as_an_app(tmp_path, monkeypatch, capsys) -> None:
    """`housing-lab class --lesson 3`: the class is made, its links printed, and Voila on the
    lessons folder is started with the class pages, the gate and the cap (captured here, not
    run); `--lesson-pages 0` serves the light pages alone."""
    from housing_lab.cli import main
    from housing_lab.commands import lessons
    from housing_lab.server import class_app

    started: list[tuple[list[str], dict[str, str] | None]] = []
    monkeypatch.setattr(lessons, "run_server", lambda c, dry, env=None: started.append((c, env)))
    monkeypatch.setattr(class_app, "serve", lambda *a: started.append((["light", *a], None)))
    store = "sqlite:///" + str(tmp_path / "rooms.sqlite")
    port = str(free_port())
    common = ["class", "--lesson", "3", "--store", store, "--no-browser", "--port", port]
    main([*common, "--lesson-pages", "5"])
    command, env = started.pop()
    assert command[1:3] == ["-m", "housing_lab.apps.server"]
    for option in (
        "--HousingLabVoila.start_page=03_policies.ipynb",
        "--HousingLabVoila.class_polls=True",
        "--HousingLabVoila.gate_lessons=True",
        "--LessonKernels.max_pages=5",
        f"--port={port}",
        "--Voila.port_retries=0",
    ):
        assert option in command
    assert env is not None and env["HOUSING_LAB_ROOMS"] == store  # the pages' kernels' store
    assert "Devices open 03_policies.ipynb as an app (at most 5)." in capsys.readouterr().out
    main([*common, "--lesson-pages", "0"])
    assert started.pop()[0][0] == "light"
    assert "Devices answer on the join page (no lesson app)." in capsys.readouterr().out


def test_the_app_command_offers_class_polls(monkeypatch, capsys) -> None:
    from housing_lab.cli import main
    from housing_lab.commands.lessons import class_poll_options
    from housing_lab.rooms import links

    assert class_poll_options(None) == ["--HousingLabVoila.class_polls=True"]
    assert "--HousingLabVoila.gate_lessons=True" not in class_poll_options("127.0.0.1")
    monkeypatch.setattr(links, "lan_host", lambda: "192.168.1.20")
    wifi = class_poll_options("0.0.0.0")
    assert "--Voila.ip=0.0.0.0" in wifi and "--HousingLabVoila.gate_lessons=True" in wifi
    assert "--HousingLabVoila.link_host=192.168.1.20" in wifi
    assert main(["app", "3", "--dry-run", "--host", "0.0.0.0"]) == 0
    assert "--HousingLabVoila.gate_lessons=True" in capsys.readouterr().out
    assert main(["app", "3", "--dry-run", "--host", "a b"]) == 2
    assert "'a b'" in capsys.readouterr().err

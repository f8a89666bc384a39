"""Room-page kernels (housing_lab/server/room_kernels.py): tickets are one-use and short-lived,
a key holds at most `per_key` kernels (a page with no connection goes first), and a kernel
whose page has been gone `cull_after` seconds is shut down. A fake kernel manager and clock
stand in for Jupyter's; the real servers are in tests/test_room_server.py and the browser
tests."""

from __future__ import annotations

import asyncio
import concurrent.futures
import html
import json
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import pytest

from housing_lab.errors import HousingLabError
from housing_lab.rooms import AccessDenied, open_store
from housing_lab.server.room_kernels import (
    MAX_TICKETS,
    NO_KEY,
    TICKET_SECONDS,
    Admission,
    RoomKernels,
    gate_page,
    holder_of,
)

RED = Admission("K7M2QX", "team:Red")
BLUE = Admission("K7M2QX", "team:Blue")
T = TypeVar("T")


def run_alone(play: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """`asyncio.run(play())` in a thread of its own: a test run elsewhere in this process (a
    Jupyter server, nbval's kernels) may have left an event loop running in this thread, where
    `asyncio.run` refuses to start."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(play())).result()


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Manager:
    """The part of Jupyter's MappingKernelManager that RoomKernels uses."""

    def __init__(self) -> None:
        self.connections: dict[str, int] = {}
        self.shut: list[str] = []

    def start(self, kernel_id: str, connections: int = 0) -> str:
        self.connections[kernel_id] = connections
        return kernel_id

    def list_kernel_ids(self) -> list[str]:
        return list(self.connections)

    def kernel_model(self, kernel_id: str) -> dict:
        return {"id": kernel_id, "connections": self.connections[kernel_id]}

    async def shutdown_kernel(self, kernel_id: str) -> None:
        self.shut.append(kernel_id)
        del self.connections[kernel_id]


async def page_sent(room: RoomKernels, kernel_id: str, admission: Admission) -> list[str]:
    """A kernel started for a page, and the page sent (Voila finished the request)."""
    gone = await room.started(kernel_id, admission)
    room.sent(kernel_id)
    return gone


def kernels(**settings: float) -> tuple[RoomKernels, Manager, Clock]:
    manager, clock = Manager(), Clock()
    return RoomKernels(manager, clock=clock, sweep_every=0, **settings), manager, clock


def test_a_ticket_opens_one_page_and_only_before_it_expires():
    room, _, clock = kernels()
    ticket = room.issue(RED)
    assert room.redeem(ticket) == RED
    assert room.redeem(ticket) is None  # used
    assert room.redeem("") is None and room.redeem("made-up") is None
    late = room.issue(BLUE)
    clock.now += TICKET_SECONDS + 1
    assert room.redeem(late) is None


def test_unused_tickets_are_bounded():
    room, _, _ = kernels()
    first = room.issue(RED)
    for _ in range(MAX_TICKETS):
        room.issue(BLUE)
    assert room.redeem(first) is None  # dropped, the oldest, to keep MAX_TICKETS
    assert len(room._tickets) == MAX_TICKETS


def test_a_key_holds_at_most_per_key_kernels_and_a_closed_page_goes_first():
    room, manager, clock = kernels(per_key=2)

    async def play() -> None:
        assert await page_sent(room, manager.start("red-1", connections=1), RED) == []
        clock.now += 1
        assert await page_sent(room, manager.start("red-2", connections=0), RED) == []
        assert await page_sent(room, manager.start("blue-1"), BLUE) == []
        clock.now += 1
        # a third Red page: the page with no connection goes, though red-1 is older
        assert await room.started(manager.start("red-3"), RED) == ["red-2"]
        clock.now += 1
        # a fourth: red-3's page is still being sent (in use), so the oldest goes
        assert await room.started(manager.start("red-4"), RED) == ["red-1"]

    run_alone(play)
    assert manager.shut == ["red-2", "red-1"]
    assert sorted(room.room_kernel_ids("K7M2QX")) == ["blue-1", "red-3", "red-4"]


def test_a_kernel_without_its_page_is_shut_down_after_cull_after():
    room, manager, clock = kernels(cull_after=30)

    async def play() -> None:
        await page_sent(room, manager.start("open"), RED)
        await page_sent(room, manager.start("closed"), BLUE)
        manager.start("a-notebook")  # not a room page's kernel: never touched
        clock.now += 20
        manager.connections["open"] = 1
        assert (await room.sweep()).culled == []
        clock.now += 11  # "closed" never had a page for 31 s; "open" has one
        assert (await room.sweep()).culled == ["closed"]
        manager.connections["open"] = 0  # its page just closed
        clock.now += 29
        assert (await room.sweep()).culled == []
        clock.now += 2
        assert (await room.sweep()).culled == ["open"]

    run_alone(play)
    assert manager.shut == ["closed", "open"] and "a-notebook" in manager.connections
    assert room.room_kernel_ids() == []


def test_the_grace_counts_from_when_the_page_was_sent():
    room, manager, clock = kernels(cull_after=30)

    async def play() -> None:
        await room.started(manager.start("slow"), RED)
        clock.now += 50  # Voila took 50 s to run the page: its kernel is in use meanwhile
        assert (await room.sweep()).culled == []
        room.sent("slow")
        clock.now += 25
        assert (await room.sweep()).culled == []
        clock.now += 6
        assert (await room.sweep()).culled == ["slow"]

    run_alone(play)


def test_a_kernel_gone_elsewhere_is_forgotten():
    room, manager, _ = kernels()

    async def play() -> None:
        await page_sent(room, manager.start("gone"), RED)
        del manager.connections["gone"]  # shut down through Jupyter's own API
        assert (await room.sweep()).culled == []

    run_alone(play)
    assert room.room_kernel_ids() == [] and manager.shut == []


def test_only_a_key_of_the_room_admits(tmp_path):
    url = "sqlite:///" + str(tmp_path / "rooms.sqlite")
    with open_store(url) as store:
        created = store.create_room(["Red", "Blue"], seed=1)
    code = created["room"]
    assert holder_of(code.lower(), created["teams"]["Red"]["token"], url) == Admission(
        code, "team:Red"
    )
    assert holder_of(code, created["teacher"]["token"], url) == Admission(code, "teacher")
    with pytest.raises(AccessDenied, match=f"room {code}"):
        holder_of(code, "not-a-key", url)


def test_the_gate_page_carries_its_words_not_a_key():
    page = gate_page('2|ab"<cd')
    data = page.split('data-words="')[1].split('"')[0]
    words = json.loads(html.unescape(data))
    assert words["noKey"] == NO_KEY and words["xsrf"] == '2|ab"<cd'
    assert "<cd" not in page.replace("&lt;cd", "")  # escaped in the attribute
    assert "sessionStorage" in page and "ticket" in page


def test_tornados_developer_notices_stay_out_of_the_log(caplog):
    import logging

    from housing_lab.server.room_kernels import quiet_tornado_notices

    quiet_tornado_notices()
    quiet_tornado_notices()  # once is enough: no second filter
    log = logging.getLogger("tornado.general")
    assert len(log.filters) == 1
    with caplog.at_level(logging.WARNING, logger="tornado.general"):
        log.warning("Got events for closed stream %s", "<zmq stream>")
        log.warning("The websocket_ping_timeout (90000) cannot be longer than ...")
        log.warning("a real problem")
    assert [record.getMessage() for record in caplog.records] == ["a real problem"]


def test_a_kernel_that_will_not_stop_is_one_log_line_and_the_sweep_goes_on(caplog):
    room, manager, clock = kernels(cull_after=1)

    async def refuse(kernel_id: str) -> None:
        raise RuntimeError(f"{kernel_id}: no reply")

    async def play() -> list[str]:
        await page_sent(room, manager.start("red"), RED)
        await page_sent(room, manager.start("blue"), BLUE)
        clock.now += 2
        real, manager.shutdown_kernel = manager.shutdown_kernel, refuse
        first = (await room.sweep()).culled
        manager.shutdown_kernel = real
        return first

    assert run_alone(play) == ["red", "blue"]  # the first failure did not stop the sweep
    assert [r.getMessage() for r in caplog.records if "did not stop" in r.getMessage()] == [
        "housing-lab: a room page's kernel did not stop: red: no reply",
        "housing-lab: a room page's kernel did not stop: blue: no reply",
    ]


@pytest.mark.parametrize(
    ("setting", "cause"),
    [
        ("/nonexistent/rooms.db", "unknown store URL"),
        ("sqlite:////dev/null", "is a device"),
        ("postgresql://nobody@127.0.0.1:1/rooms", "unreachable"),
    ],
)
def test_a_bad_store_setting_is_one_line_naming_it(setting: str, cause: str) -> None:
    """On a hub every room page reads $HOUSING_LAB_ROOMS: a wrong one is said on the page, in
    one line naming the setting, not left to a traceback in the server's log."""
    with pytest.raises(HousingLabError) as refused:
        holder_of("K7M2QX", "a-key", setting)
    message = str(refused.value)
    assert "$HOUSING_LAB_ROOMS" in message and cause in message and "\n" not in message

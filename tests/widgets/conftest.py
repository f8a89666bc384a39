"""Widgets without a browser: a recording comm stands in for the front end."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any

import pytest


class RecordingComm:
    """Records what a widget sends, like ipywidgets' own DummyComm."""

    comm_id = "test-comm"
    kernel = "Truthy"

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    def open(self, *args: Any, **kwargs: Any) -> None: ...

    def on_msg(self, *args: Any, **kwargs: Any) -> None: ...

    def close(self, *args: Any, **kwargs: Any) -> None: ...

    def send(self, data: Any = None, metadata: Any = None, buffers: Any = None) -> None:
        self.messages.append(data)

    def updates(self) -> list[dict[str, Any]]:
        return [m["state"] for m in self.messages if m and m.get("method") == "update"]


@pytest.fixture(autouse=True)
def recording_comms(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[RecordingComm]]:
    import ipywidgets.widgets.widget as widget_module

    comms: list[RecordingComm] = []

    def create_comm(**kwargs: Any) -> RecordingComm:
        comm = RecordingComm()
        comms.append(comm)
        return comm

    monkeypatch.setattr(widget_module.comm, "create_comm", create_comm)
    yield comms


@pytest.fixture
def upload() -> Any:
    """Choose a file in an `ipywidgets.FileUpload`, as the browser reports it."""
    return choose_file


def choose_file(widget: Any, content: bytes, name: str = "file.json") -> None:
    widget.value = (
        {
            "name": name,
            "type": "application/json",
            "size": len(content),
            "content": memoryview(content),
            "last_modified": datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc),
        },
    )

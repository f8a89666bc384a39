"""Classroom rooms: one game, many devices; every view the engine's replay of a shared log.

No widget or IPython imports here: pages (Voila) and the `housing-lab room` commands both use
this API.

>>> import tempfile, os
>>> with tempfile.TemporaryDirectory() as folder:
...     with open_store("sqlite:///" + os.path.join(folder, "rooms.sqlite")) as store:
...         room = store.create_room(["Red", "Blue"], seed=3)
...         red = room["teams"]["Red"]["token"]
...         park = {"action": "place", "square": "B1", "tile": "park"}
...         placed = store.act(room["room"], red, park)
>>> placed["seq"]
1
"""

from __future__ import annotations

from housing_lab.rooms.errors import AccessDenied, ActionRefused, RoomError
from housing_lab.rooms.games import TEACHER, Role, RoomInfo
from housing_lab.rooms.registry import GAMES, room_game
from housing_lab.rooms.stores.base import RoomStore
from housing_lab.rooms.stores.rows import LoggedAction
from housing_lab.rooms.urls import default_store_url, join_url, parse_store_url

__all__ = [
    "GAMES",
    "TEACHER",
    "AccessDenied",
    "ActionRefused",
    "LoggedAction",
    "Role",
    "RoomError",
    "RoomInfo",
    "RoomStore",
    "default_store_url",
    "join_url",
    "open_store",
    "parse_store_url",
]


def open_store(url: str | None = None, **kwargs: object) -> RoomStore:
    """The store a URL names (`sqlite:///...` or `postgresql://...`); None: the default file.

    Keyword arguments go to the store (`clock=`: a function giving seconds, for tests); the
    games it can hold are the registry's.
    """
    url = default_store_url() if url is None else url
    backend, target = parse_store_url(url)
    if backend == "sqlite":
        from housing_lab.rooms.stores.sqlite import SQLiteStore

        return SQLiteStore(url, target, room_game=room_game, **kwargs)
    from housing_lab.rooms.stores.postgres import PostgresStore

    return PostgresStore(url, room_game=room_game, **kwargs)

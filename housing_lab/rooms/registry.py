"""The games a room can hold, by the name the store and the CLI use.

The names are plain strings so that `housing-lab` can list them without importing the engines
(every command's start-up pays for what the parser imports); the game objects are built on first
use.
"""

from __future__ import annotations

import functools

from housing_lab.errors import shown
from housing_lab.rooms.errors import RoomError
from housing_lab.rooms.games import RoomGame

GAMES = ("north-berkeley", "streetcar")


@functools.cache
def _room_games() -> dict[str, RoomGame]:
    from housing_lab.rooms.nb_room import NorthBerkeleyRoom
    from housing_lab.rooms.streetcar_room import StreetcarRoom

    return {"north-berkeley": NorthBerkeleyRoom(), "streetcar": StreetcarRoom()}


def room_game(name: str) -> RoomGame:
    """The RoomGame called `name` ("north-berkeley" or "streetcar")."""
    if name not in GAMES:
        raise RoomError(f"unknown game {shown(name)} (known: {', '.join(GAMES)})")
    return _room_games()[name]

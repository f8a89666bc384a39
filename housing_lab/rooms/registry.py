"""The games a room can hold, by the name the store and the CLI use."""

from __future__ import annotations

from housing_lab.errors import shown
from housing_lab.rooms.errors import RoomError
from housing_lab.rooms.games import RoomGame
from housing_lab.rooms.nb_room import NorthBerkeleyRoom
from housing_lab.rooms.streetcar_room import StreetcarRoom

ROOM_GAMES: dict[str, RoomGame] = {
    "north-berkeley": NorthBerkeleyRoom(),
    "streetcar": StreetcarRoom(),
}
GAMES = tuple(ROOM_GAMES)


def room_game(name: str) -> RoomGame:
    """The RoomGame called `name` ("north-berkeley" or "streetcar")."""
    if name not in ROOM_GAMES:
        raise RoomError(f"unknown game {shown(name)} (known: {', '.join(GAMES)})")
    return ROOM_GAMES[name]

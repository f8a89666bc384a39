"""A team's `store.info` carries no seed: `Game(teams, seed)` would rebuild every hidden hand
(issue 25). The teacher's info and the export keep it."""

from __future__ import annotations

from housing_lab.north_berkeley.play.game import Game
from housing_lab.rooms import RoomStore


def test_team_info_has_no_seed_teacher_info_and_export_do(store: RoomStore) -> None:
    room = store.create_room(["Red", "Blue"], seed=41)
    code, teacher = room["room"], room["teacher"]["token"]
    for ticket in room["teams"].values():
        info = store.info(code, ticket["token"])
        assert info.seed is None
        assert info.teams == ("Red", "Blue") and info.game == "north-berkeley"
    assert store.info(code, teacher).seed == 41
    exported = store.export(code, teacher)
    assert exported["seed"] == 41
    assert exported["hands"] == Game(["Red", "Blue"], 41).to_dict()["hands"]  # the full game


def test_streetcar_team_info_has_no_seed(store: RoomStore) -> None:
    room = store.create_room(["Red", "Blue"], seed=5, game="streetcar")
    team = room["teams"]["Blue"]["token"]
    assert store.info(room["room"], team).seed is None
    assert store.info(room["room"], room["teacher"]["token"]).seed == 5

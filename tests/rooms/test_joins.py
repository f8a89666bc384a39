"""Who has joined a room (`rooms/joins.py`), on SQLite and PostgreSQL: a team's join is
recorded once (its first time kept), only the teacher may list them, a wrong key records
nothing, and a second store on the same database (another server of a hub) agrees."""

from __future__ import annotations

import pytest

from housing_lab.rooms import AccessDenied, open_store
from housing_lab.rooms.joins import joined_teams, record_join


def test_joins_are_kept_in_the_store_and_listed_for_the_teacher(store):
    room = store.create_room(["Red", "Blue", "Green"], seed=1)
    code, teacher = room["room"], room["teacher"]["token"]
    assert joined_teams(store, code, teacher) == {}
    assert record_join(store, code, teacher) is False  # the projector is not a team
    assert record_join(store, code.lower(), room["teams"]["Green"]["token"]) is True
    first = joined_teams(store, code, teacher)
    assert list(first) == ["Green"]
    assert record_join(store, code, room["teams"]["Red"]["token"])
    assert record_join(store, code, room["teams"]["Green"]["token"])  # reopened: still one
    with open_store(store.url) as other:  # another server's store on the same database
        seen = joined_teams(other, code, teacher)
    assert list(seen) == ["Green", "Red"] and seen["Green"] == first["Green"]
    other_room = store.create_room(["Red", "Blue"], seed=2)  # rooms do not share joins
    assert joined_teams(store, other_room["room"], other_room["teacher"]["token"]) == {}
    assert store.seq(code, teacher) == 0  # a join is not an action


def test_a_wrong_key_joins_nobody_and_teams_cannot_list(store):
    room = store.create_room(["Red", "Blue"], seed=1)
    code = room["room"]
    with pytest.raises(AccessDenied, match="opens nothing"):
        record_join(store, code, "not-a-key")
    with pytest.raises(AccessDenied, match="only the teacher"):
        joined_teams(store, code, room["teams"]["Red"]["token"])
    assert joined_teams(store, code, room["teacher"]["token"]) == {}

"""Streetcar in a room: two teams take turns, the teacher watches, moves listed compactly."""

from __future__ import annotations

import random

import pytest

from housing_lab.rooms import ActionRefused
from housing_lab.rooms.streetcar_room import MAX_LISTED
from housing_lab.streetcar import Game
from housing_lab.streetcar.record import replay

from .helpers import tokens_of


def test_a_whole_streetcar_game_through_the_store(store) -> None:
    room = store.create_room(["North", "South"], seed=4, game="streetcar")
    code, tokens = room["room"], tokens_of(room)
    rng = random.Random(4)
    bare = Game(seed=4)
    first = store.view(code, tokens["North"])
    assert first["players"] == {"North": "purple", "South": "red"} and first["to_move"] == "North"
    assert first["moves"]["count"] == bare.count_legal_moves() > MAX_LISTED
    assert first["legal_actions"] == [] and not first["legal_actions_complete"]
    with pytest.raises(ActionRefused, match="teacher watches"):
        store.act(code, tokens["teacher"], bare.legal_actions()[0])
    with pytest.raises(ActionRefused, match="North's turn"):
        store.act(code, tokens["South"], bare.legal_actions()[0])
    with pytest.raises(ActionRefused, match="North plays purple"):
        store.act(code, tokens["North"], {**bare.legal_actions()[0], "player": "red"})
    turns = 0
    while True:
        views = {h: store.view(code, t) for h, t in tokens.items()}
        assert len({str(v["board"]) for v in views.values()}) == 1  # nothing hidden
        if views["teacher"]["phase"] == "over":
            break
        team = views["teacher"]["to_move"]
        moves = views[team]["moves"]
        assert moves["count"] == bare.count_legal_moves()
        assert moves["count"] == len(moves["line_choices"]) * len(moves["remove"])
        if views[team]["legal_actions_complete"]:
            assert views[team]["legal_actions"] == bare.legal_actions()
        other = next(t for t in ("North", "South") if t != team)
        assert views[other]["moves"]["count"] == 0 and views[other]["legal_actions"] == []
        action = {"lines": rng.choice(moves["line_choices"]), "remove": rng.choice(moves["remove"])}
        assert store.act(code, tokens[team], action)["seq"] == turns + 1
        bare.apply(action)
        turns += 1
    assert bare.is_over() and turns > 10
    record = store.export(code, tokens["teacher"])
    assert replay(record).snapshot() == bare.snapshot()
    final = views["teacher"]["scores"]
    assert final["totals"] == {"North": bare.scores()["purple"], "South": bare.scores()["red"]}
    assert final["winners"]


def test_an_illegal_streetcar_move_gets_the_engines_words(store) -> None:
    room = store.create_room(["North", "South"], seed=4, game="streetcar")
    code, tokens = room["room"], tokens_of(room)
    with pytest.raises(
        ActionRefused, match="drawing no line is allowed only when no edge is legal"
    ):
        store.act(code, tokens["North"], {"lines": [], "remove": [0, 0]})
    with pytest.raises(ActionRefused, match="unknown action key"):
        store.act(code, tokens["North"], {"lines": [], "teleport": True})
    assert store.seq(code, tokens["teacher"]) == 0

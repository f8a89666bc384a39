"""The room store on SQLite and PostgreSQL: rooms, who may do what, views, export, restart."""

from __future__ import annotations

import hashlib
import json
import random
import sys

import pytest

from housing_lab.north_berkeley.play.game import Game
from housing_lab.rooms import AccessDenied, ActionRefused, RoomError, open_store
from housing_lab.rooms.stores.base import CodeTaken, SeqTaken
from housing_lab.rooms.stores.rows import LoggedAction

from ..helpers import hidden_cards, mentions, play_step, tokens_of

TEAMS = ["Red", "Blue", "Green"]


class FakeClock:
    """A clock the test moves by hand (the negotiation timer)."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_create_returns_a_code_and_one_secret_link_per_holder(store) -> None:
    room = store.create_room(TEAMS, seed=3)
    assert set(room["teams"]) == set(TEAMS)
    tokens = tokens_of(room)
    assert len(set(tokens.values())) == 4 and all(len(t) >= 40 for t in tokens.values())
    for holder, ticket in [("teacher", room["teacher"]), *room["teams"].items()]:
        assert f"room={room['room']}" in ticket["url"] and tokens[holder] in ticket["url"]


def test_tokens_are_stored_only_as_sha256_hashes(store) -> None:
    room = store.create_room(TEAMS, seed=3)
    _, hashes = store._load_room(room["room"])
    tokens = tokens_of(room)
    assert set(hashes.values()) == {hashlib.sha256(t.encode()).hexdigest() for t in tokens.values()}
    assert not set(tokens.values()) & set(hashes.values())


def test_a_taken_code_or_number_is_a_clash_that_leaves_the_transaction_usable(store) -> None:
    """The primary keys catch a writer that skipped the lock; on PostgreSQL the insert's
    savepoint keeps the act's transaction alive for the retry."""
    room = store.create_room(TEAMS, seed=3)
    code = room["room"]
    info, hashes = store._load_room(code)
    with pytest.raises(CodeTaken):
        store._insert_room(info, hashes)
    with store._transaction(code) as tx:
        tx.insert(LoggedAction(1, "teacher", {"action": "first"}, 1.0))
        with pytest.raises(SeqTaken):
            tx.insert(LoggedAction(1, "teacher", {"action": "again"}, 1.0))
        assert [entry.seq for entry in tx.actions_after(0)] == [1]
        tx.insert(LoggedAction(2, "teacher", {"action": "second"}, 2.0))
    logged = store._actions_after(code, 0)
    assert [(entry.seq, entry.action["action"]) for entry in logged] == [
        (1, "first"),
        (2, "second"),
    ]


def test_views_show_the_engine_replay(store) -> None:
    room = store.create_room(TEAMS, seed=3)
    red = room["teams"]["Red"]["token"]
    result = store.act(room["room"], red, {"action": "place", "square": "B1", "tile": "park"})
    assert result["seq"] == 1
    game = Game(TEAMS, 3)
    game.place("B1", "park")
    for holder, token in tokens_of(room).items():
        view = store.view(room["room"], token)
        assert view["seq"] == 1 and view["board"]["tiles"] == {"B1": "park"}
        assert view["phase"] == "phase1" and view["you"].get("team", "teacher") == holder
    red_view = store.view(room["room"], red)
    assert [c["card"] for c in red_view["hand"]] == game.state.hands["Red"]
    assert red_view["score"] == game.current_scores()["Red"].total


@pytest.mark.parametrize("token", [None, "", "x" * 43, "not-a-token", "x" * 10_000])
def test_a_wrong_or_missing_token_sees_nothing_and_does_nothing(store, token) -> None:
    room = store.create_room(TEAMS, seed=3)
    code = room["room"]
    for call in (
        lambda: store.view(code, token),
        lambda: store.act(code, token, {"action": "place", "square": "B1", "tile": "park"}),
        lambda: store.export(code, token),
        lambda: store.seq(code, token),
        lambda: store.log(code, token),
    ):
        with pytest.raises(AccessDenied) as error:
            call()
        assert "\n" not in str(error.value) and "hand" not in str(error.value)
    assert store.log(code, room["teacher"]["token"]) == []


def test_a_token_opens_only_its_own_room(store) -> None:
    first = store.create_room(TEAMS, seed=3)
    second = store.create_room(TEAMS, seed=3)
    with pytest.raises(AccessDenied) as wrong_room:
        store.view(second["room"], first["teams"]["Red"]["token"])
    with pytest.raises(AccessDenied) as no_room:
        store.view("ZZZZZZ", first["teams"]["Red"]["token"])
    # a guessed code tells nothing about which rooms exist: the same words, the code aside
    assert str(wrong_room.value).replace(second["room"], "X") == str(no_room.value).replace(
        "ZZZZZZ", "X"
    )
    with pytest.raises(AccessDenied, match="not a room code"):
        store.view("'; DROP TABLE rooms; --", first["teacher"]["token"])


def test_who_may_play_what(store) -> None:
    room = store.create_room(TEAMS, seed=3, options={"negotiation_minutes": 0})
    code, tokens = room["room"], tokens_of(room)
    with pytest.raises(ActionRefused, match="only the teacher may advance"):
        store.act(code, tokens["Red"], {"action": "advance"})
    with pytest.raises(ActionRefused, match="team's action"):
        store.act(code, tokens["teacher"], {"action": "place", "square": "B1", "tile": "park"})
    with pytest.raises(ActionRefused, match="is not a phase-1 square"):  # the engine's words
        store.act(code, tokens["Red"], {"action": "place", "square": "A1", "tile": "park"})
    with pytest.raises(ActionRefused, match="unknown action"):
        store.act(code, tokens["Red"], {"action": "win"})
    with pytest.raises(ActionRefused, match="JSON"):
        store.act(code, tokens["Red"], {"action": float("nan")})
    store.act(code, tokens["Green"], {"action": "call_state"})
    store.act(code, tokens["teacher"], {"action": "advance"})  # 3 teams: the extra draw
    assert store.view(code, tokens["teacher"])["phase"] == "extra_draw"
    with pytest.raises(ActionRefused, match="only for itself"):
        store.act(code, tokens["Red"], {"action": "redraw", "player": "Blue"})
    store.act(code, tokens["teacher"], {"action": "advance"})
    view = store.view(code, tokens["teacher"])
    turn = view["draft"]["turn"]
    other = next(t for t in TEAMS if t != turn)
    card = view["draft"]["face_up"][0]
    with pytest.raises(ActionRefused, match="only for itself"):
        store.act(code, tokens[other], {"action": "pick", "player": turn, "card": card})
    with pytest.raises(ActionRefused, match=f"it is {turn}'s turn"):
        store.act(code, tokens[other], {"action": "pick", "player": other, "card": card})
    seq = store.act(code, tokens[turn], {"action": "pick", "card": card})["seq"]  # player implied
    assert store.log(code, tokens["teacher"])[-1].action == {
        "action": "pick",
        "card": card,
        "player": turn,
    }
    assert seq == 4 and len(store.log(code, tokens["teacher"])) == 4


def test_a_team_calls_the_state_only_when_the_room_timer_allows(store_url) -> None:
    clock = FakeClock()
    with open_store(store_url, clock=clock) as store:
        room = store.create_room(TEAMS, seed=3, options={"negotiation_minutes": 10})
        code, tokens = room["room"], tokens_of(room)
        clock.now += 20 * 60  # the phase-1 timer waits for the teacher (issue 24)
        assert store.view(code, tokens["Red"])["timer"]["state"] == "waiting"
        with pytest.raises(ActionRefused, match="timer has not started"):
            store.act(code, tokens["Red"], {"action": "call_state"})
        with pytest.raises(ActionRefused, match="only the teacher may start the timer"):
            store.act(code, tokens["Red"], {"action": "start_timer"})
        store.act(code, tokens["teacher"], {"action": "start_timer"})
        clock.now += 9 * 60
        view = store.view(code, tokens["Red"])
        assert {"action": "call_state"} not in view["legal_actions"]
        assert view["timer"]["seconds_left"] == 60
        with pytest.raises(ActionRefused, match="after 10 minutes of negotiation; only 9"):
            store.act(code, tokens["Red"], {"action": "call_state"})
        with pytest.raises(ActionRefused, match="room's clock"):
            store.act(code, tokens["Red"], {"action": "call_state", "minutes_elapsed": 99})
        assert {"action": "call_state"} in store.view(code, tokens["teacher"])["legal_actions"]
        clock.now += 60
        assert {"action": "call_state"} in store.view(code, tokens["Red"])["legal_actions"]
        store.act(code, tokens["Red"], {"action": "call_state"})
        assert store.view(code, tokens["Red"])["timer"]["state"] == "stopped"
        assert store.view(code, tokens["Red"])["timer"]["seconds_left"] == 0
        store.act(code, tokens["teacher"], {"action": "advance"})
        store.act(code, tokens["teacher"], {"action": "advance"})  # past the extra draw
        assert store.view(code, tokens["Red"])["timer"] is None  # the draft has no timer


def test_legal_actions_are_exactly_what_act_accepts(store) -> None:
    """Through a whole game: every listed action is accepted from that token, and every
    engine action not listed for a token is refused from it (a sample, to stay quick)."""
    room = store.create_room(["Red", "Blue"], seed=5, options={"negotiation_minutes": 0})
    code, tokens = room["room"], tokens_of(room)
    rng = random.Random(1)
    for _ in range(200):
        game = Game.from_dict(store.export(code, tokens["teacher"]))
        engine = game.legal_actions()
        if not engine:
            break
        listed = {h: store.view(code, t)["legal_actions"] for h, t in tokens.items()}
        for holder, actions in listed.items():
            assert all(a in engine for a in actions), holder
            others = [a for a in engine if a not in actions]
            for action in rng.sample(others, min(3, len(others))):
                with pytest.raises(ActionRefused):
                    store.act(code, tokens[holder], action)
        assert any(listed.values()), "somebody may always act until the game is over"
        holder = rng.choice([h for h, a in listed.items() if a])
        seq = store.act(code, tokens[holder], rng.choice(listed[holder]))["seq"]
        assert seq == len(store.log(code, tokens["teacher"]))
    assert store.view(code, tokens["teacher"])["phase"] == "over"


def test_no_team_sees_another_teams_hidden_cards(store) -> None:
    """A whole 3-team game (with an extra draw and a draft): at every step before the game is
    over, no view of a team holds a card of another team's hand, and the teacher's view holds
    no hand card at all. At game over every view turns every hand face up, with its scores."""
    room = store.create_room(TEAMS, seed=11, options={"negotiation_minutes": 0})
    code, tokens = room["room"], tokens_of(room)
    rng = random.Random(2)
    steps = 0
    while True:
        export = store.export(code, tokens["teacher"])
        if export["phase"] == "over":
            break
        face_up = set(export["draft_pool"])
        teacher_view = store.view(code, tokens["teacher"])
        for card in {c for hand in export["hands"].values() for c in hand}:
            assert not mentions(teacher_view, card), card
        for team in TEAMS:
            view = store.view(code, tokens[team])
            assert [c["card"] for c in view["hand"]] == export["hands"][team]
            for card in hidden_cards(export, team) - face_up:
                assert not mentions(view, card), (team, card, view["phase"])
        steps += 1
        assert play_step(store, room, rng), "the game stopped before it was over"
    assert steps > 10
    for holder in ("teacher", *TEAMS):
        final = store.view(code, tokens[holder])["scores"]
        assert set(final["totals"]) == set(TEAMS) and final["winners"]
        for team in TEAMS:
            shown = final["cards"][team]
            assert [c["card"] for c in shown] == export["hands"][team], (holder, team)
            assert sum(c["score"] for c in shown) == final["totals"][team]


def test_export_loads_in_the_engine_and_equals_a_bare_replay(store) -> None:
    room = store.create_room(TEAMS, seed=7, options={"negotiation_minutes": 0})
    rng = random.Random(3)
    for _ in range(25):
        play_step(store, room, rng)
    teacher = room["teacher"]["token"]
    export = store.export(room["room"], teacher)
    loaded = Game.from_json(json.dumps(export))
    log = [entry.action for entry in store.log(room["room"], teacher)]
    bare = Game.from_actions(TEAMS, 7, loaded.state.options, actions=log)
    assert loaded.to_dict() == bare.to_dict() == export
    with pytest.raises(AccessDenied, match="only the teacher may export"):
        store.export(room["room"], room["teams"]["Red"]["token"])


def test_reopening_the_store_resumes_every_room(store_url) -> None:
    with open_store(store_url) as store:
        room = store.create_room(TEAMS, seed=4, options={"negotiation_minutes": 0})
        rng = random.Random(4)
        for _ in range(12):
            play_step(store, room, rng)
        before = {h: store.view(room["room"], t) for h, t in tokens_of(room).items()}
        export = store.export(room["room"], room["teacher"]["token"])
    with open_store(store_url) as reopened:
        for holder, token in tokens_of(room).items():
            after = reopened.view(room["room"], token)
            for view in (before[holder], after):
                if view["timer"]:
                    view["timer"].pop("seconds_elapsed")
                    view["timer"].pop("seconds_left")
            assert after == before[holder]
        assert reopened.export(room["room"], room["teacher"]["token"]) == export
        play_step(reopened, room, rng)  # and the game goes on


def test_bad_rooms_are_refused_with_one_line(store) -> None:
    for teams, match in [
        (["Red"], "2-6|2 to 6|players"),
        (["Red", "Red"], "used twice"),
        (["Red", "a,b"], "without commas"),
        ("Red,Blue", "list of names"),
    ]:
        with pytest.raises(RoomError, match=match):
            store.create_room(teams, seed=1)
    with pytest.raises(RoomError, match="seed"):
        store.create_room(TEAMS, seed=-1)
    with pytest.raises(RoomError, match="unknown game"):
        store.create_room(TEAMS, game="chess")
    with pytest.raises(RoomError, match="rule option"):
        store.create_room(TEAMS, options={"speed": 1})
    with pytest.raises(RoomError, match="exactly 2 teams"):
        store.create_room(TEAMS, game="streetcar")


def test_store_urls_are_checked() -> None:
    for url in ("mysql://x", "rooms.sqlite", "sqlite:///", "sqlite:///:memory:", 3):
        with pytest.raises(RoomError):
            open_store(url)


@pytest.mark.skipif(sys.platform != "linux", reason="the XDG data folder is Linux's")
def test_sqlite_store_uses_wal_and_the_data_folder_by_default(tmp_path, monkeypatch) -> None:
    import sqlite3

    from housing_lab.rooms import default_store_url

    monkeypatch.delenv("HOUSING_LAB_ROOMS", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    url = default_store_url()
    assert url == "sqlite:///" + str(tmp_path / "data" / "housing-lab" / "rooms.sqlite")
    with open_store() as store:
        store.create_room(TEAMS, seed=1)
    path = tmp_path / "data" / "housing-lab" / "rooms.sqlite"
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone() == ("wal",)


@pytest.mark.parametrize("seed", [-1, 2**64, 10**400, 1.5, "3", True, float("nan")])
def test_a_rooms_seed_goes_through_the_one_number_check(store, seed) -> None:
    """A room's seed: a whole number from 0 to 2**64 - 1, else one line naming it."""
    with pytest.raises(RoomError, match="a room's seed must be"):
        store.create_room(TEAMS, seed=seed)

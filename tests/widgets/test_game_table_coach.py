"""The game table's coach: the sentence is the exact coach's, Apply plays it through the engine
only when the engine accepts it now, Undo takes it back exactly, hidden hands are never coached,
and bad questions are one line that changes nothing. Also `open_room` on a temporary store."""

from __future__ import annotations

import copy
import sqlite3
from typing import Any

import pytest

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley.coaching.exact import best_change_for_hand, coach
from housing_lab.north_berkeley.coaching.words import coach_sentence, hand_sentence
from housing_lab.north_berkeley.errors import IllegalActionError, ScenarioFormatError
from housing_lab.rooms import open_store
from housing_lab.rooms.links import qr_svg
from housing_lab.widgets import GameTable

TEAMS = ["Red", "Blue", "Green"]


def to_phase2(seed: int, hidden: bool = False) -> GameTable:
    """A table in phase 2 (the state called, extra draws skipped, the draft and policies by
    the engine's first legal choice)."""
    table = GameTable(teams=TEAMS, seed=seed, hidden_hands=hidden)
    table.call_state()
    table.next_phase()
    while table.game.phase != "phase2":
        actions = [a for a in table.game.legal_actions() if a["action"] != "redraw"]
        action = actions[0]
        if action["action"] == "advance":
            table.next_phase()
        elif action["action"] == "pick":
            table.pick(action["player"], action["card"])
        else:
            table.enact(action["policies"])
    return table


def snapshot(table: GameTable) -> dict[str, Any]:
    return {
        "state": table.state,
        "stage": table.stage,
        "view": copy.deepcopy(table.panel.view),
        "tiles": dict(table.board.tiles),
    }


def questions(table: GameTable) -> list[tuple[str, str | None]]:
    return [(team, card) for team in TEAMS for card in [None, *table.game.state.hands[team]]]


@pytest.mark.parametrize("seed", [0, 3])
def test_the_sentence_shown_is_the_coachs(seed: int) -> None:
    table = GameTable(teams=TEAMS, seed=seed)
    scenario, options = table.game.scenario(), table.game.state.options
    for team, card in questions(table):
        advice = table.coach(team, card)
        if card is None:
            expected = hand_sentence(
                best_change_for_hand(scenario, table.game.state.hands[team], options=options)
            )
        else:
            expected = coach_sentence(coach(scenario, card, "win", options=options))
        assert advice.sentence == expected
        shown = table.teams_panel.view["coach"]
        assert shown["sentence"] == expected and shown["team"] == team and shown["card"] == card
    no_loss = table.coach("Red", table.game.state.hands["Red"][0], goal="no-loss")
    assert no_loss.sentence == coach_sentence(
        coach(scenario, table.game.state.hands["Red"][0], "no-loss", options=options)
    )


def test_advice_off_the_phase_squares_is_advice_only() -> None:
    """In phase 1 the coach may answer with A1 (a phase-2 square) or a policy: no Apply."""
    table = GameTable(teams=TEAMS, seed=0)
    advice = table.coach("Blue", "refuse_capitalism")
    assert advice.actions is None and "policy step" in advice.note
    assert table.teams_panel.view["coach"]["can_apply"] is False
    advice = table.coach("Green", "eco_primitivists")
    assert advice.sentence.endswith("Put a Park on A1 (1 change).")
    assert advice.actions is None and "A1 is not a square of this phase" in advice.note
    before = snapshot(table)
    with pytest.raises(IllegalActionError, match="A1 is not a square of this phase"):
        table.apply_coach()
    assert snapshot(table)["state"] == before["state"]


@pytest.mark.parametrize("seed", [0, 1, 5])
def test_apply_reaches_the_goal_per_the_engine_and_undo_restores_exactly(seed: int) -> None:
    table = to_phase2(seed)
    applied = 0
    for team, card in questions(table):
        advice = table.coach(team, card)
        if not advice.actions:
            continue
        before = snapshot(table)
        now = table.game.result().cards
        table.apply_coach()
        applied += 1
        after = table.game.result().cards  # the engine's own scoring of the board now
        if card is None:
            hand = table.game.state.hands[team]
            assert sum(after[c].score for c in hand) == advice.answer.after
            assert advice.answer.after > sum(now[c].score for c in hand)
        else:
            assert after[card].score == 1
        for change in advice.changes:
            assert table.game.scenario().tiles.get(change.square) == change.tile
        assert table.teams_panel.view["coach"] is None  # the board changed: answer cleared
        table.undo()
        assert snapshot(table)["state"] == before["state"]
        assert snapshot(table)["tiles"] == before["tiles"]
    assert applied >= 1


def test_applying_through_a_click_and_the_stale_answer() -> None:
    table = to_phase2(5)
    table.panel._handle_message(
        table.panel, {"action": "coach", "team": "Red", "card": "bike_lobby"}, []
    )
    assert table.view["coach"]["can_apply"] is True
    state = table.state
    table.place("B3", "park")  # any decision makes the answer stale
    assert table.view["coach"] is None
    with pytest.raises(IllegalActionError, match="ask the coach first"):
        table.apply_coach()
    table.undo()
    assert table.state == state
    table.panel._handle_message(
        table.panel, {"action": "coach", "team": "Red", "card": "bike_lobby"}, []
    )
    (change,) = table._advice.changes
    table.panel._handle_message(table.panel, {"action": "apply_coach"}, [])
    assert table.game.result().cards["bike_lobby"].score == 1
    assert table.game.scenario().tiles[change.square] == change.tile


def test_hidden_hands_are_not_coached_until_revealed() -> None:
    table = GameTable(teams=TEAMS, seed=0, hidden_hands=True)
    secret = table.game.state.hands["Red"][0]
    before = snapshot(table)
    with pytest.raises(IllegalActionError, match="show Red's cards first"):
        table.coach("Red", secret)
    with pytest.raises(IllegalActionError, match="Red's hand is hidden"):
        table.coach("Red")
    assert snapshot(table) == before
    assert table.view["coachable"] == {"Red": [], "Blue": [], "Green": []}
    table.reveal("Red")
    assert table.view["coachable"]["Red"] == table.game.state.hands["Red"]
    assert table.view["coachable"]["Blue"] == []
    table.coach("Red", secret)
    assert table.teams_panel.view["coach"]["card"] == secret
    table.reveal("Blue")  # Red hidden again: its answer leaves the screen
    assert table.teams_panel.view["coach"] is None
    with pytest.raises(IllegalActionError):
        table.coach("Red", secret)


def test_hidden_hand_face_up_cards_and_the_scores() -> None:
    """Drafted cards are face up (coachable); at the final scores every card is shown."""
    table = to_phase2(0, hidden=True)
    dealt = 2
    face_up = table.game.state.hands["Green"][dealt:]
    assert face_up and table.view["coachable"]["Green"] == face_up
    table.coach("Green", face_up[0])
    with pytest.raises(IllegalActionError):
        table.coach("Green")
    table.call_state()
    table.next_phase()
    table.show_scores()
    assert table.stage == "scoring"
    advice = table.coach("Red")
    assert advice.actions is None
    assert table.view["coach"]["sentence"] == advice.sentence
    assert table.view["coachable"]["Red"] == table.game.state.hands["Red"]


@pytest.mark.parametrize(
    ("args", "error", "text"),
    [
        (("Purple",), IllegalActionError, "unknown team 'Purple'"),
        ((3,), ScenarioFormatError, "team must be text, got int 3"),
        (("Red", 7), ScenarioFormatError, "card must be a card id or None, got int 7"),
        (("Red", "developer_x"), IllegalActionError, "'developer_x' is not in Red's hand"),
        (("Red", None, "lose"), ScenarioFormatError, "unknown goal 'lose'"),
    ],
)
def test_bad_questions_are_one_line_and_change_nothing(args, error, text) -> None:
    table = GameTable(teams=TEAMS, seed=0)
    table.coach("Red")
    before = snapshot(table)
    with pytest.raises(error, match=text) as raised:
        table.coach(*args)
    assert "\n" not in str(raised.value)
    assert snapshot(table) == before
    assert table.panel.message == str(raised.value)


def test_no_coach_outside_building_and_scores() -> None:
    table = GameTable(teams=TEAMS, seed=0)
    table.call_state()
    table.next_phase()
    assert table.stage == "extra_draw"
    with pytest.raises(IllegalActionError, match="not at extra draw"):
        table.coach("Red")
    assert table.view["coachable"] == {}


# --- open_room ----------------------------------------------------------------------------
def test_open_room_creates_the_tables_room(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    url = "sqlite:///" + str(tmp_path / "rooms.sqlite")
    table = GameTable(teams=TEAMS, seed=11, options={"negotiation_minutes": 3})
    invite = table.open_room(store=url, join_base="http://10.0.0.5:8866/room")
    assert set(invite.teams) == set(TEAMS)
    assert invite.teacher.startswith(f"http://10.0.0.5:8866/room?room={invite.room}#key=")
    tokens = {team: link.rsplit("#key=", 1)[1] for team, link in invite.teams.items()}
    assert all("token=" not in link for link in [invite.teacher, *invite.teams.values()])
    assert invite.qr["Red"] == qr_svg(invite.teams["Red"], title="Red")  # the code is the link
    with open_store(url) as store:
        teacher = invite.teacher.rsplit("#key=", 1)[1]
        view = store.view(invite.room, teacher)
        assert view["teams"] == TEAMS
        assert store.export(invite.room, teacher)["seed"] == 11
        red = store.view(invite.room, tokens["Red"])
        assert red["you"] == {"role": "team", "team": "Red"}
    with sqlite3.connect(tmp_path / "rooms.sqlite") as db:
        options = db.execute("SELECT options FROM rooms").fetchone()[0]
    assert '"negotiation_minutes": 3' in options
    page = invite._repr_html_()
    assert page.count("<svg") == 0 and invite.teacher.replace("&", "&amp;") in page
    assert not any(key in page for key in tokens.values()) and invite.links_file in page
    assert (tmp_path / "data" / "housing-lab" / "rooms" / f"{invite.room}.links.json").exists()


def test_open_room_bad_store_is_one_line(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    table = GameTable(teams=TEAMS, seed=1)
    before = table.state
    with pytest.raises(HousingLabError, match="store must be a store URL") as raised:
        table.open_room(store=42)
    assert "\n" not in str(raised.value) and table.state == before
    with pytest.raises(HousingLabError, match="join_base must be"):
        table.open_room(store="sqlite:///" + str(tmp_path / "r.sqlite"), join_base=5)
    with pytest.raises(HousingLabError):
        table.open_room(store="mysql://nowhere/db")


def test_advice_the_budget_refuses_in_turn_is_advice_only_in_the_engines_words() -> None:
    from housing_lab.north_berkeley import Game
    from housing_lab.north_berkeley.coaching.answers import Change
    from housing_lab.widgets.table.coach import playable

    game = Game(["Red", "Blue"], seed=3, model={"budget": 7})
    changes = (Change(square="B1", tile="tower_public"), Change(square="B2", tile="tower_public"))
    actions, note = playable(game, "phase1", changes)
    assert actions is None
    assert note == (
        "Advice only: the rules refuse it now (Low Income Public Housing Tower on B2: the board "
        "would spend $12, over the city budget of $7)."
    )
    actions, note = playable(game, "phase1", changes[:1])
    assert actions == ({"action": "place", "square": "B1", "tile": "tower_public"},)
    assert note == "" and game.history() == []

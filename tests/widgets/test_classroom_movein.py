"""Room pages (issue 24, deliver 5-7): residents on the board all game, the move-in at the end,
phone-sized messages in words, the engine's refusal on a tap, and the teacher-started timer."""

from __future__ import annotations

import html
from typing import Any

import pytest

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley import Game, RuleOptions, scenario_from_dict, score_scenario
from housing_lab.rooms import open_store
from housing_lab.widgets.classroom.ending import card_reason, step_words
from housing_lab.widgets.classroom.page import ClassroomPage
from housing_lab.widgets.table.charts import totals
from housing_lab.widgets.table.movein import MOVEIN_STEPS, SCORING_STEP

TEAMS = ["Red", "Blue"]


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store(tmp_path, clock):
    with open_store("sqlite:///" + str(tmp_path / "rooms.sqlite"), clock=clock) as opened:
        yield opened


@pytest.fixture
def room(store) -> dict[str, Any]:
    created = store.create_room(TEAMS, seed=5)
    created["tokens"] = {"teacher": created["teacher"]["token"]}
    created["tokens"].update({t: created["teams"][t]["token"] for t in TEAMS})
    return created


def page(store, room, who: str, **kwargs: Any) -> ClassroomPage:
    return ClassroomPage(store, room["room"], room["tokens"][who], **kwargs)


def play_to_the_end(store, room) -> None:
    """Every step through the store: teams build the first legal tile on an empty square,
    pick their draft cards; the teacher does the rest."""
    tokens = room["tokens"]
    for _ in range(200):
        teacher = store.view(room["room"], tokens["teacher"])
        if teacher["phase"] == "over":
            return
        for team in TEAMS:
            for action in store.view(room["room"], tokens[team])["legal_actions"]:
                if action["action"] == "pick" or (
                    action["action"] == "place" and action["square"] in teacher["empty_squares"]
                ):
                    store.act(room["room"], tokens[team], action)
                    break
            else:
                continue
            break
        else:
            store.act(room["room"], tokens["teacher"], teacher["legal_actions"][-1])
    raise AssertionError("the game did not end")


def test_the_board_shows_the_existing_residents_all_game(store, room):
    red = page(store, room, "Red")
    existing = red.view["board"]["existing"]
    assert red.board.replay_index == 0  # before move-in: the existing residents only
    assert red.board.frames[0] == {**red.board.frames[0], **existing}
    assert sum(1 for income in red.board.frames[0].values() if income) == len(existing) == 12
    assert red.movein.box.children == ()  # no chart during play
    red.act({"action": "place", "square": "B1", "tile": "park"})
    assert red.board.tiles["B1"] == "park" and red.board.replay_index == 0


def test_the_projector_plays_the_move_in_step_by_step_then_the_scores(store, room):
    teacher = page(store, room, "teacher")
    play_to_the_end(store, room)
    teacher.refresh()
    assert teacher.view["phase"] == "over" and "hl-classroom-over" in teacher._dom_classes
    assert "Final scores" not in teacher.side.value  # move-in first
    chart = teacher.movein.playback.chart
    assert chart is not None and chart in teacher.movein.box.children
    assert teacher.movein.playback.step == 0 and chart.figure.title == "Before move-in"
    result = score_scenario(scenario_from_dict(teacher.view["board"]), RuleOptions())
    bounds = result.move_in.wave_bounds()
    seen = []
    for step in (1, 2, 3):
        teacher.movein.next.click()
        assert teacher.movein.playback.step == step
        assert teacher.board.replay_index in (bounds[step], -1)
        assert step_words(step) in teacher.movein.step_line.value
        seen.append(totals(chart.rows))
    assert seen == sorted(seen) and seen[-1] != seen[0]  # the bars grow wave by wave
    assert "Final scores" not in teacher.side.value
    teacher.movein.next.click()
    assert teacher.movein.playback.step == SCORING_STEP
    assert "Final scores" in teacher.side.value and "Winner" in teacher.side.value
    assert "Why" in teacher.side.value and " card" in teacher.side.value
    assert teacher.movein.next.disabled and not teacher.movein.back.disabled
    for team, hand in teacher.view["scores"]["cards"].items():  # every hand face up
        assert f"<h4>{team}</h4>" in teacher.face_up.value
        assert all(html.escape(card_reason(card)) in teacher.face_up.value for card in hand)
    # at the scores, the cards face up lead the board's column and the chart makes room for
    # the scores (issue 44: they were under the board, below the fold); Back brings it back
    column = teacher._board_column.children
    assert column.index(teacher.face_up) < column.index(teacher.board)
    assert chart not in teacher.movein.box.children
    teacher.movein.back.click()
    assert "Final scores" not in teacher.side.value and teacher.face_up.value == ""
    column = teacher._board_column.children
    assert column.index(teacher.board) < column.index(teacher.face_up)
    assert chart in teacher.movein.box.children


def test_team_pages_follow_the_projector_through_the_move_in(store, room):
    """Issue 44 deliverable 2: when phase 2 ends every phone showed the whole move-in, the
    scores and the winner while the projector waited at "Before move-in". Team pages now
    show the projector's step, and the scores once the teacher shows them."""
    teacher, red, blue = (page(store, room, who) for who in ("teacher", "Red", "Blue"))
    play_to_the_end(store, room)
    for p in (teacher, red, blue):
        p.poll_once()
    for team in (red, blue):
        assert team.movein.playback.step == 0 and team.movein.behind
        assert "Your cards' results" not in team.side.value
        assert "Final scores" not in team.side.value and "Winner" not in team.side.value
        assert team.movein.to_end in team.movein.controls.children[1].children
        assert "follows the projector" in team.movein.step_line.value
    teacher.movein.next.click()
    assert teacher.movein.playback.step == 1
    assert red.poll_once() and red.movein.playback.step == 1
    assert step_words(1) in red.notice.value  # read out as the projector moves on
    assert red.board.replay_index == teacher.board.replay_index
    red.movein.to_end.click()  # Red asks for the end on its own page
    assert red.movein.playback.step == SCORING_STEP and "Final scores" in red.side.value
    assert red.movein.to_end.layout.display == "none"
    blue.poll_once()
    assert blue.movein.playback.step == 1 and blue.movein.behind  # the others still follow
    assert teacher.movein.playback.step == 1
    teacher.movein.scores.click()
    assert blue.poll_once() and blue.movein.playback.step == SCORING_STEP
    assert "Final scores" in blue.side.value and not blue.movein.behind
    teacher.movein.back.click()  # the projector back to the chart: Red keeps its end
    assert red.poll_once() and red.movein.playback.step == SCORING_STEP
    reopened = page(store, room, "Blue")  # a reloaded phone opens at the projector's step
    assert reopened.movein.playback.step == teacher.movein.playback.step == MOVEIN_STEPS


def test_only_the_projector_moves_the_move_in(store, room):
    tokens = room["tokens"]
    with pytest.raises(HousingLabError, match="the projector steps through the move-in"):
        store.act(room["room"], tokens["Red"], {"action": "movein_step", "step": 4})
    with pytest.raises(HousingLabError, match="once the game is over"):
        store.act(room["room"], tokens["teacher"], {"action": "movein_step", "step": 1})
    play_to_the_end(store, room)
    for bad in (5, -1, True, "2", 1.5):
        with pytest.raises(HousingLabError, match="move-in step"):
            store.act(room["room"], tokens["teacher"], {"action": "movein_step", "step": bad})
    assert store.view(room["room"], tokens["Red"])["movein"] == {"step": 0, "last": 4}
    store.act(room["room"], tokens["teacher"], {"action": "movein_step", "step": 2})
    assert store.view(room["room"], tokens["Blue"])["movein"]["step"] == 2


def test_a_team_page_shows_the_chart_and_its_own_cards_results(store, room):
    red = page(store, room, "Red")
    red.board.selected = "A1"  # a refused tap, said on the board's line
    assert red.board.message
    play_to_the_end(store, room)
    red.poll_once()
    assert red.board.message == "" and red.board.selected == ""  # stale once it is over
    assert ".hl-gt-swatch" in red.children[0].value  # the chart's legend is styled
    store.act(room["room"], room["tokens"]["teacher"], {"action": "movein_step", "step": 4})
    red.poll_once()  # the teacher showed the scores
    assert red.movein.playback.step == SCORING_STEP and red.board.replay_index == -1
    assert red.movein.playback.chart in red.movein.box.children
    assert "Your cards' results" in red.side.value
    for card in red.view["hand"]:
        assert card_reason(card).split(":")[0] in red.side.value
    assert "<h4>Red</h4>" not in red.side.value  # its own cards are shown once, above
    for team, hand in red.view["scores"]["cards"].items():  # the others' cards, face up
        if team != "Red":
            assert f"<h4>{team}</h4>" in red.side.value
            assert all(html.escape(card_reason(card)) in red.side.value for card in hand)
    assert red.view["legal_actions"] == [] and red.offered_actions() == []


def test_card_reason_is_the_cards_printed_words():
    game = Game(TEAMS, 5)
    card = game.state.hands["Red"][0]
    from housing_lab.north_berkeley import cards

    printed = cards()[card]
    assert card_reason({"card": card, "plus": True, "minus": False}) == f"+1: {printed.plus_text}"
    assert card_reason({"card": card, "plus": False, "minus": True}) == f"-1: {printed.minus_text}"
    assert "0" in card_reason({"card": card, "plus": False, "minus": False})


def test_a_tap_on_a_square_of_the_other_phase_says_why_in_the_engines_words(store, room):
    red = page(store, room, "Red")
    red.board.selected = "A1"  # a phase-2 square in phase 1
    game = Game(TEAMS, 5)
    reason = game.refusal("A1", "park")
    assert reason and reason in red.notice.value and reason in red.board.message
    assert red.board.message_kind == "error" and "You cannot build on A1" in red.board.message
    red.board.selected = "B1"
    assert "B1 chosen" in red.board.message and red.board.message_kind == "info"


def test_another_teams_build_is_said_in_words(store, room):
    red = page(store, room, "Red")
    store.act(
        room["room"], room["tokens"]["Blue"], {"action": "place", "square": "C2", "tile": "park"}
    )
    assert red.poll_once() is True
    assert "Now on the board: a Park on C2." in red.notice.value
    store.act(room["room"], room["tokens"]["Blue"], {"action": "clear", "square": "C2"})
    red.poll_once()
    assert "C2 was cleared." in red.notice.value
    red.act({"action": "place", "square": "B2", "tile": "park"})
    assert "You built a Park on B2." in red.notice.value


@pytest.mark.slow
def test_the_timer_starts_with_the_teacher_and_stops_when_the_state_is_called(store, room, clock):
    teacher = page(store, room, "teacher", clock=clock)
    clock.now += 600
    teacher.refresh()
    assert teacher.view["timer"]["state"] == "waiting"
    assert teacher.view["timer"]["seconds_left"] == 600
    assert teacher._buttons[0][0].description.startswith("Start phase 1")
    teacher._buttons[0][0].click()
    assert "The negotiation timer has started." in teacher.notice.value
    assert teacher.view["timer"]["state"] == "running"
    assert not any(a["action"] == "start_timer" for a in teacher.view["legal_actions"])
    clock.now += 90
    teacher.poll_once()
    assert "8:30 left" in teacher.status.value
    teacher.act({"action": "call_state"})
    assert teacher.view["timer"]["state"] == "stopped"
    assert "the state was called" in teacher.status.value
    clock.now += 3600
    teacher.poll_once()
    assert "the state was called" in teacher.status.value
    teacher.act({"action": "advance"})  # two teams: the extra draw
    while teacher.view["phase"] != "policies":
        step = next(iter(teacher.view["legal_actions"]), None)
        if step is None:  # the draft: a team's turn
            turn = teacher.view["draft"]["turn"]
            team_page = page(store, room, turn)
            team_page.act(next(a for a in team_page.view["legal_actions"] if a["action"] == "pick"))
            teacher.refresh()
        else:
            teacher.act(step)
    clock.now += 1000
    teacher.act(teacher.view["legal_actions"][0])  # the teacher's enact starts phase 2
    assert teacher.view["phase"] == "phase2"
    assert teacher.view["timer"]["state"] == "running"
    assert teacher.view["timer"]["seconds_left"] == 600  # counted from the enact
    assert not any(a["action"] == "start_timer" for a in teacher.view["legal_actions"])

"""GameTable without a browser: whole games through the API for every team count, each
decision mirrored on a bare engine `Game`; refusals are the engine's and change nothing."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley.errors import (
    AffordableOnlyError,
    IllegalActionError,
    ScenarioFormatError,
    UnknownIdError,
)
from housing_lab.north_berkeley.play import saves as saves
from housing_lab.north_berkeley.play.game import Game
from housing_lab.north_berkeley.policies import RuleOptions
from housing_lab.widgets import GameTable

TEAMS = ["Red", "Blue", "Green", "Orange", "Purple", "Teal"]


def snapshot(table: GameTable) -> dict[str, Any]:
    """Everything a refused action must leave alone (the message line may change)."""
    return {
        "state": table.state,
        "stage": table.stage,
        "view": table.panel.view,
        "teams": table.teams_panel.view,
        "tiles": dict(table.board.tiles),
        "replay": table.board.replay_index,
        "timer": table.panel.timer_elapsed,
        "children": table.children,
    }


def saved(game: Game, hidden: bool = False) -> dict[str, Any]:
    """What a table holding `game` saves (version 2 and its hidden/open hands)."""
    return saves.save_dict(game, {"hidden_hands": hidden})


def engine_error(mirror: Game, action: Callable[[Game], Any]) -> HousingLabError:
    """What the engine says to the same action on a copy of the same state."""
    copy = mirror.clone()
    with pytest.raises(HousingLabError) as caught:
        action(copy)
    return caught.value


def refused_like_the_engine(
    table: GameTable,
    mirror: Game,
    on_engine: Callable[[Game], Any],
    on_table: Callable[[GameTable], Any],
) -> None:
    error = engine_error(mirror, on_engine)
    before = snapshot(table)
    with pytest.raises(type(error), match=re.escape(str(error))):
        on_table(table)
    assert snapshot(table) == before
    assert table.panel.message == str(error)
    assert table.panel.message_kind == "error"


def check_refusals(table: GameTable, mirror: Game, rng: random.Random) -> None:
    """Actions the rules refuse at this point of the game, tried through the table."""
    other = next((s for s in mirror.layout.squares if s not in mirror.phase_squares()), "A1")
    picker = next(p for p in mirror.players if p != mirror.draft_turn())
    held = mirror.state.hands[mirror.players[0]][0]  # never among the face-up cards
    tries: list[tuple[Callable[[Game], Any], Callable[[GameTable], Any]]] = [
        (lambda g: g.place(other, "park"), lambda t: t.place(other, "park")),
        (lambda g: g.place("B1", "castle"), lambda t: t.place("B1", "castle")),
        (lambda g: g.call_state(minutes_elapsed=1), lambda t: t.call_state(minutes_elapsed=1)),
        (lambda g: g.redraw("Nobody"), lambda t: t.redraw("Nobody")),
        (lambda g: g.pick(picker, held), lambda t: t.pick(picker, held)),
        (
            lambda g: g.enact(["vacancy_control", "adu", "matching_funds"]),
            lambda t: t.enact(["vacancy_control", "adu", "matching_funds"]),
        ),
    ]
    if mirror.phase in ("draft", "policies") or mirror.empty_squares():
        tries.append((lambda g: g.advance(), lambda t: t.next_phase()))
    for on_engine, on_table in rng.sample(tries, 3):
        refused_like_the_engine(table, mirror, on_engine, on_table)


def both(
    table: GameTable,
    mirror: Game,
    on_engine: Callable[[Game], Any],
    on_table: Callable[[GameTable], Any],
) -> Any:
    expected = on_engine(mirror)
    got = on_table(table)
    assert table.state == saved(mirror)
    return expected, got


def build(table: GameTable, mirror: Game, rng: random.Random) -> None:
    allowed = [
        t
        for t in mirror.catalogue
        if not (mirror.phase == "phase2" and "affordable_100" in mirror.state.policies)
        or mirror.catalogue[t].affordable_only
    ]
    for square in mirror.phase_squares():
        if rng.random() < 0.6:
            tile = rng.choice(allowed)
            both(
                table,
                mirror,
                lambda g, s=square, t=tile: g.place(s, t),
                lambda tb, s=square, t=tile: tb.place(s, t),
            )
    placed = [s for s in mirror.phase_squares() if s in mirror.state.tiles]
    if placed and rng.random() < 0.3:
        both(table, mirror, lambda g: g.clear(placed[0]), lambda tb: tb.clear(placed[0]))
    check_refusals(table, mirror, rng)
    if mirror.empty_squares():
        minutes = mirror.state.options.negotiation_minutes if rng.random() < 0.5 else None
        filled, got = both(
            table, mirror, lambda g: g.call_state(minutes), lambda tb: tb.call_state(minutes)
        )
        assert filled == got
    both(table, mirror, lambda g: g.advance(), lambda tb: tb.next_phase())


def play(teams: int, seed: int) -> tuple[GameTable, Game]:
    """A whole game, every decision through the table and mirrored on the engine."""
    rng = random.Random(f"table:{teams}:{seed}")
    names = TEAMS[:teams]
    table = GameTable(teams=names, seed=seed)
    mirror = Game(names, seed=seed)
    assert table.state == saved(mirror) and table.stage == "phase1"
    build(table, mirror, rng)
    if teams <= 3:
        assert table.stage == "extra_draw"
        for team in names:
            while mirror.can_redraw(team):
                both(table, mirror, lambda g, t=team: g.redraw(t), lambda tb, t=team: tb.redraw(t))
            if mirror.can_redraw(team) is False:
                refused_like_the_engine(
                    table, mirror, lambda g, t=team: g.redraw(t), lambda tb, t=team: tb.redraw(t)
                )
        both(table, mirror, lambda g: g.advance(), lambda tb: tb.next_phase())
    assert table.stage == "draft"
    while mirror.phase == "draft":
        turn = mirror.draft_turn()
        card = rng.choice(mirror.state.draft_pool)
        check_refusals(table, mirror, rng)
        both(
            table,
            mirror,
            lambda g, p=turn, c=card: g.pick(p, c),
            lambda tb, p=turn, c=card: tb.pick(p, c),
        )
    assert table.stage == "policies"
    check_refusals(table, mirror, rng)
    chosen = rng.sample(mirror.state.policies_drawn, rng.choice((1, 2)))
    both(table, mirror, lambda g: g.enact(chosen), lambda tb: tb.enact(chosen))
    assert table.stage == "phase2"
    if "affordable_100" in mirror.state.policies:
        refused_like_the_engine(
            table,
            mirror,
            lambda g: g.place("A1", "tower_market"),
            lambda tb: tb.place("A1", "tower_market"),
        )
    build(table, mirror, rng)
    assert mirror.phase == "over" and table.stage == "movein"
    return table, mirror


@pytest.mark.slow
@pytest.mark.parametrize("teams", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", [0, 1, 7, 12])
def test_whole_game_through_the_api(teams: int, seed: int) -> None:
    table, mirror = play(teams, seed)
    for step, stage in ((1, "movein"), (2, "movein"), (3, "movein"), (4, "scoring")):
        assert table.next_phase() == stage and table.movein_step == step
    decision = table.view["decision"]
    scores = mirror.final_scores()
    assert {t["team"]: (t["total"], t["minus_cards"]) for t in decision["teams"]} == {
        p: (s.total, s.minus_cards) for p, s in scores.items()
    }
    assert decision["winners"] == mirror.winners()
    assert decision["tie_break"] == mirror.tie_break_explanation()
    for team in decision["teams"]:
        assert [c["id"] for c in team["cards"]] == mirror.state.hands[team["team"]]
        assert all(c["score"] == scores[team["team"]].cards[c["id"]].score for c in team["cards"])
    with pytest.raises(IllegalActionError, match="the game is over"):
        table.next_phase()
    assert json.loads(json.dumps(table.state)) == saved(mirror)  # JSON-able


def test_affordable_100_refusal_names_the_square_and_changes_nothing() -> None:
    table = GameTable(teams=["A", "B", "C", "D"], seed=1)  # seed 1 draws affordable_100
    table.call_state()
    table.next_phase()
    while table.stage == "draft":
        table.pick(table.game.draft_turn(), table.game.state.draft_pool[0])
    table.enact(["affordable_100"])
    before = snapshot(table)
    with pytest.raises(AffordableOnlyError, match=r"A3 \(Market Rate Midrise\)$") as raised:
        table.place("A3", "midrise_market")
    assert raised.value.ids == ("affordable_100", "A3", "midrise_market")  # for programs
    assert snapshot(table) == before
    assert table.board.message == str(raised.value)  # where the teacher clicked, in words
    assert table.board.refused["A3"].startswith("100% Affordable Housing allows only")  # why greyed
    assert table.panel.message == table.board.message and table.panel.message_kind == "error"
    assert table.view["decision"]["affordable_only"]
    filled = table.call_state()
    assert all(table.game.catalogue[t].affordable_only for t in filled.values())


def test_timer_minutes_are_checked_by_the_engine_and_reset_each_phase() -> None:
    table = GameTable(teams=["A", "B"], seed=2, options=RuleOptions(negotiation_minutes=4))
    assert table.view["decision"]["minutes"] == 4
    table.panel.timer_elapsed, table.panel.timer_started = 100.0, 0.0
    table.panel._handle_message(table.panel, {"action": "call_state", "minutes_elapsed": 1.7}, [])
    assert table.game.empty_squares() == ["B1", "C1", "B2", "C2"]
    assert "only 1.7 have passed" in table.panel.message
    table.place("B1", "park")
    assert table.panel.timer_elapsed == 100.0  # a decision inside the phase keeps the clock
    table.panel._handle_message(table.panel, {"action": "call_state", "minutes_elapsed": 4}, [])
    assert table.game.empty_squares() == [] and table.game.state.tiles["B1"] == "park"
    table.next_phase()
    assert table.panel.timer_elapsed == 0.0 and table.panel.timer_started == 0.0


def test_call_it_now_override_skips_the_timer_and_stops_the_countdown() -> None:
    table = GameTable(teams=["A", "B", "C"], seed=2, options=RuleOptions(negotiation_minutes=4))
    table.panel.timer_elapsed, table.panel.timer_started = 30.0, 1.7e12  # running in a browser
    table.panel._handle_message(table.panel, {"action": "call_state", "override": True}, [])
    assert len(table.game.state.tiles) == 4 and table.panel.message.startswith("The state")
    assert (table.panel.timer_started, table.panel.timer_elapsed) == (0.0, 240.0)


def test_a_refused_call_leaves_the_countdown_running() -> None:
    table = GameTable(teams=["A", "B", "C"], seed=2, options=RuleOptions(negotiation_minutes=4))
    table.panel.timer_elapsed, table.panel.timer_started = 30.0, 1.7e12
    table.panel._handle_message(table.panel, {"action": "call_state", "minutes_elapsed": 1}, [])
    assert (table.panel.timer_started, table.panel.timer_elapsed) == (1.7e12, 30.0)


def test_clicks_route_to_the_engine_and_refusals_only_show() -> None:
    table = GameTable(teams=["A", "B", "C", "D"], seed=3)
    board = table.board
    board._handle_message(board, {"action": "place", "square": "C2", "tile": "park"}, [])
    assert table.game.state.tiles == {"C2": "park"} and board.selected == "C2"
    before = snapshot(table)
    board._handle_message(board, {"action": "place", "square": "A1", "tile": "park"}, [])
    assert snapshot(table) == before
    assert "not a phase-1 square" in board.message and board.message_kind == "error"
    board._handle_message(board, {"action": "clear", "square": "C2"}, [])
    assert table.game.state.tiles == {}
    table.panel._handle_message(table.panel, {"action": "next"}, [])
    assert table.stage == "phase1" and "still empty" in table.panel.message
    table.panel._handle_message(table.panel, {"action": "fly"}, [])
    assert table.panel.message == "unknown action 'fly'"


def test_undo_is_the_engines_undo() -> None:
    table = GameTable(teams=["A", "B", "C"], seed=5)
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        table.undo()
    empty = table.state
    table.place("B1", "tower_market")
    table.undo()
    assert table.state == empty and table.board.tiles == {}
    table.call_state()
    table.next_phase()
    table.undo()
    assert table.stage == "phase1" and len(table.game.state.tiles) == 4


def test_undo_after_the_board_is_complete_returns_to_phase_2() -> None:
    table, _ = play(4, 3)
    table.step_move_in()
    table.panel._handle_message(table.panel, {"action": "undo"}, [])
    assert table.stage == "phase2" and table.movein_step == 0
    table.next_phase()
    assert table.stage == "movein" and table.board.replay_index == 0


def test_save_and_resume_continue_the_same_game(tmp_path) -> None:
    table, mirror = play(3, 4)
    table.undo()  # back to phase 2, so there is a game left to finish
    mirror = Game.from_dict(table.state)
    path = tmp_path / "game.json"
    assert table.save(path) == table.state
    for source in (path, str(path), path.read_text(), json.loads(path.read_text())):
        resumed = GameTable.from_json(source)
        assert resumed.state == table.state and resumed.stage == "phase2"
    resumed.next_phase()
    mirror.advance()
    assert resumed.state == saved(mirror)
    table.panel._handle_message(table.panel, {"action": "load", "text": path.read_text()}, [])
    assert table.state == json.loads(path.read_text())


@pytest.mark.parametrize(
    ("source", "error", "text"),
    [
        ('{"format": "x"', HousingLabError, "a saved game: malformed JSON"),
        ({"format": "chess"}, ScenarioFormatError, "not a saved North Berkeley game"),
        ("missing-file.json", HousingLabError, "cannot read 'missing-file.json'"),
    ],
)
def test_a_bad_saved_game_changes_nothing(source, error, text, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    table = GameTable(teams=["A", "B"], seed=1)
    table.place("C1", "park")
    before = snapshot(table)
    with pytest.raises(error, match=text):
        table.load(source)
    assert snapshot(table) == before and text in table.panel.message


def test_setup_screen_starts_a_game_or_shows_why_not() -> None:
    table = GameTable()
    assert table.stage == "setup" and table.children == (table.panel,)
    assert table.view["decision"]["kind"] == "setup" and repr(table) == "GameTable(setup)"
    with pytest.raises(IllegalActionError, match="no game yet"):
        table.place("B1", "park")
    start = {
        "action": "start",
        "teams": ["Owls", "Owls"],
        "seed": 4,
        "options": {"negotiation_minutes": 3, "current_score": "projected"},
        "hidden_hands": True,
    }
    table.panel._handle_message(table.panel, start, [])
    assert table.stage == "setup" and "used twice" in table.panel.message
    table.panel._handle_message(table.panel, dict(start, teams=["Owls", "Hawks"]), [])
    assert table.stage == "phase1" and table.hidden_hands
    assert table.state == saved(
        Game(
            ["Owls", "Hawks"],
            seed=4,
            options=RuleOptions(negotiation_minutes=3, current_score="projected"),
        ),
        hidden=True,
    )
    table.panel._handle_message(table.panel, {"action": "new_game"}, [])
    assert table.stage == "setup" and table.view["setup"]["teams"] == ["Owls", "Hawks"]
    table.panel._handle_message(table.panel, {"action": "back_to_game"}, [])
    assert table.stage == "phase1"


@pytest.mark.parametrize(
    ("kwargs", "error", "text"),
    [
        ({"teams": ["Solo"]}, IllegalActionError, "2 to 6"),
        ({"teams": ["A", "B"], "options": {"bogus": 1}}, UnknownIdError, "bogus"),
        ({"teams": ["A", "B"], "options": {"current_score": "later"}}, UnknownIdError, "later"),
        ({"teams": ["A", "B"], "seed": "x"}, ScenarioFormatError, "seed must be a whole number"),
    ],
)
def test_bad_setup_raises_the_engines_error(kwargs, error, text) -> None:
    with pytest.raises(error, match=text):
        GameTable(**kwargs)


def test_tie_order_set_on_the_table_orders_the_draft() -> None:
    names = ["A", "B", "C", "D"]
    table = GameTable(teams=names, seed=4)  # A and B tie on -1, C and D on 0
    for team in ("D", "D", "D", "C"):  # the table moves D to the front, then C up one
        table.panel._handle_message(table.panel, {"action": "tie_up", "team": team}, [])
    assert table.tie_order == ["D", "A", "C", "B"]
    table.call_state()
    table.next_phase()
    mirror = Game(names, seed=4)
    mirror.call_state()
    mirror.advance(tie_order=["D", "A", "C", "B"])
    assert table.state == saved(mirror)
    assert table.game.state.draft_order == ["A", "B", "D", "C"]
    with pytest.raises(IllegalActionError, match="every team exactly once"):
        table.set_tie_order(["A", "A", "B", "C"])


def test_repr_is_stable() -> None:
    assert repr(GameTable(teams=["A", "B"], seed=1)) == (
        "GameTable(teams=['A', 'B'], seed=1, stage='phase1')"
    )


def test_under_a_budget_the_palette_greys_what_the_engine_refuses_in_its_words() -> None:
    """The table draws the engine's palette (`Game.palettes`): tiles over the city budget are
    greyed with the engine's words, the same the lab shows."""
    table = GameTable(["Red", "Blue"], seed=3, options={"model": {"budget": 3}})
    table.place("B1", "park")
    game = table.game
    for square in game.phase_squares():
        for tile in game.catalogue:
            why = game.placement_refusal(square, tile)
            assert (tile in table.board.allowed[square]) is (why is None), (square, tile)
            if why is not None:
                assert table.board.refused[square][tile] == why
    assert "tower_public" not in table.board.allowed["C1"]  # $1 + $6 > $3
    line = table.board.refused["C1"][""]
    assert line.startswith("over the city budget of $3: ") and "Low Income Public" in line
    assert table.board.refused["A1"].startswith("square A1 is not a phase-1 square")

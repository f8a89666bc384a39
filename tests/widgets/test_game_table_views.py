"""What the game table shows: hidden hands, the draft explanation, move-in wave by wave with a
growing chart, the final scoreboard, handouts as downloads, and the messages sent."""

from __future__ import annotations

import json

import pytest

from housing_lab.north_berkeley.card_standing import card_standing
from housing_lab.north_berkeley.constituents import cards
from housing_lab.north_berkeley.engine.scoring import facts_as_is
from housing_lab.north_berkeley.play.autoplay import play_random_game
from housing_lab.north_berkeley.play.game import Game, cards_dealt
from housing_lab.north_berkeley.policies import INCOMES, RuleOptions
from housing_lab.widgets import GameTable
from housing_lab.widgets.table.charts import (
    WAITING,
    chart_rows,
    outcomes_so_far,
    totals,
)
from housing_lab.widgets.table.views import draft_explanation, group_lines


def to_draft(table: GameTable, tie_order: list[str] | None = None) -> None:
    table.call_state()
    table.next_phase(tie_order)
    if table.stage == "extra_draw":
        table.next_phase(tie_order)


def to_movein(table: GameTable) -> None:
    to_draft(table)
    while table.stage == "draft":
        table.pick(table.game.draft_turn(), table.game.state.draft_pool[0])
    table.enact(table.game.state.policies_drawn)
    table.call_state()
    table.next_phase()


def shown(table: GameTable) -> str:
    return json.dumps([table.panel.view, table.teams_panel.view])


# --- hidden hands -------------------------------------------------------------------------
def test_hidden_hands_keep_starting_cards_off_the_screen_until_revealed() -> None:
    table = GameTable(teams=["Red", "Blue", "Green"], seed=6, hidden_hands=True)
    secret = {t: table.game.state.hands[t][: cards_dealt(3)] for t in table.teams}
    for hand in secret.values():
        for card in hand:
            assert card not in shown(table)
    views = {t["name"]: t for t in table.teams_panel.view["teams"]}
    assert views["Red"]["secret_count"] == 2 and views["Red"]["cards"] == []
    assert views["Red"]["score"] is None  # totals would give the cards away
    table.teams_panel._handle_message(table.teams_panel, {"action": "reveal", "team": "Red"}, [])
    views = {t["name"]: t for t in table.teams_panel.view["teams"]}
    assert [c["id"] for c in views["Red"]["cards"]] == secret["Red"]
    assert all(c["secret"] and c["now"] is not None for c in views["Red"]["cards"])
    assert views["Blue"]["cards"] == []
    table.reveal("Blue")  # one team at a time
    assert all(card not in shown(table) for card in secret["Red"])
    table.reveal("Blue")
    table.call_state()
    table.next_phase()  # a new phase hides the cards again; the extra card is face up
    assert all(card not in shown(table) for hand in secret.values() for card in hand)
    views = {t["name"]: t for t in table.teams_panel.view["teams"]}
    assert [c["id"] for c in views["Red"]["cards"]] == [table.game.state.extra["Red"]]
    with pytest.raises(ValueError, match="unknown team 'Pink'"):
        table.reveal("Pink")


def test_open_hands_show_every_card_with_its_score_now_and_projected() -> None:
    table = GameTable(teams=["A", "B", "C", "D"], seed=2)
    table.place("B1", "tower_market")
    game = table.game
    now = game.current_card_scores()
    projected = game.result().cards
    for team in table.teams_panel.view["teams"]:
        hand = game.state.hands[team["name"]]
        assert [c["id"] for c in team["cards"]] == hand and team["secret_count"] == 0
        assert team["score"] == {
            "now": sum(now[c].score for c in hand),
            "projected": sum(projected[c].score for c in hand),
        }
        for card in team["cards"]:
            assert card["now"] == now[card["id"]].to_dict()
            assert card["projected"] == projected[card["id"]].to_dict()
            assert card["plus_text"] == cards()[card["id"]].plus_text
            # where the board stands on it, in the engine's words, on the "now" chip's board
            standing = card_standing(card["id"], facts_as_is(game.scenario()))
            assert card["standing"] == standing.to_dict()
            assert card["standing"]["score"] == card["now"]["score"]


def test_open_hands_say_where_the_board_stands_live() -> None:
    """Issue 44: the words under a hand's card follow the board (a tower that costs moves
    the spending every card with a budget reads)."""
    table = GameTable(teams=["A", "B", "C"], seed=2)

    def words() -> dict[str, str]:
        return {
            c["id"]: c["standing"]["text"]
            for t in table.teams_panel.view["teams"]
            for c in t["cards"]
        }

    before = words()
    table.place("B1", "tower_social")
    after = words()
    assert before != after
    game = table.game
    assert after == {card: card_standing(card, facts_as_is(game.scenario())).text for card in after}


def test_handouts_are_offered_as_downloads_and_written(tmp_path) -> None:
    table = GameTable(teams=["Red", "Blue"], seed=3, hidden_hands=True)
    table.panel._handle_message(table.panel, {"action": "handout", "team": "Blue"}, [])
    offer = table.panel.download
    assert offer["name"] == "north-berkeley-team-2-blue.html"
    assert all(cards()[c].name in offer["content"] for c in table.game.state.hands["Blue"])
    assert not any(cards()[c].name in offer["content"] for c in table.game.state.hands["Red"])
    table.panel._handle_message(table.panel, {"action": "handout", "team": None}, [])
    assert table.panel.download["name"] == "north-berkeley-all-teams.html"
    assert table.panel.download["n"] == 2
    paths = table.write_handouts(tmp_path)
    assert sorted(p.name for p in paths) == sorted(
        [*table.handouts(), "north-berkeley-all-teams.html"]
    )
    with pytest.raises(ValueError, match="unknown team"):
        table.offer_handout("Nobody")


def test_save_offers_the_engine_state_as_a_download() -> None:
    table = GameTable(teams=["Red", "Blue"], seed=3)
    table.panel._handle_message(table.panel, {"action": "save"}, [])
    assert table.panel.download["name"] == "north-berkeley-game-seed3.json"
    assert json.loads(table.panel.download["content"]) == table.state


# --- the steps ------------------------------------------------------------------------------
def test_step_strip_and_decisions_follow_the_engine_phases() -> None:
    table = GameTable(teams=["A", "B", "C", "D", "E"], seed=1)
    strip = {s["stage"]: s["status"] for s in table.view["steps"]}
    assert strip["setup"] == "done" and strip["phase1"] == "current"
    assert strip["extra_draw"] == "skipped"  # 4+ teams have no extra draw
    assert table.view["decision"]["kind"] == "build"
    assert table.view["decision"]["tie_order"] == ["A", "B", "C", "D", "E"]
    to_draft(table)
    assert table.view["decision"]["kind"] == "draft"
    assert table.view["decision"]["turn"] == table.game.draft_turn()
    assert [c["id"] for c in table.view["decision"]["pool"]] == table.game.state.draft_pool


def test_draft_order_is_explained_with_its_tie_breaks() -> None:
    seating = ["A", "B", "C", "D"]
    game = Game(seating, seed=4)
    game.call_state()
    scores = {p: s.total for p, s in game.current_scores().items()}
    assert len(set(scores.values())) < 4, "this seed is chosen for a tie"
    table = GameTable(teams=seating, seed=4)
    to_draft(table, tie_order=list(reversed(seating)))
    lines = table.view["decision"]["explanation"]
    assert lines == draft_explanation(table.game)
    assert "lowest score picks first" in lines[0]
    order = table.game.state.draft_order
    assert lines[1].startswith(f"Order: 1. {order[0]} (")
    assert order == ["B", "A", "D", "C"]  # ties -1 and 0, each broken by the reversed order
    assert lines[2:] == [
        "B and A tie on −1: the order the table gave (whoever last took part in a political "
        "activity) decides.",
        "D and C tie on 0: the order the table gave (whoever last took part in a political "
        "activity) decides.",
    ]
    seated = GameTable(teams=seating, seed=4)
    to_draft(seated)
    assert any("seating order decides" in line for line in seated.view["decision"]["explanation"])


def test_extra_draw_says_who_may_redraw_and_why() -> None:
    table = GameTable(teams=["A", "B"], seed=3)
    table.call_state()
    table.next_phase()
    game = table.game
    for row in table.view["decision"]["rows"]:
        assert row["can_redraw"] == game.can_redraw(row["team"])
        assert row["card"]["id"] == game.state.extra[row["team"]]
        assert ("may discard" in row["why"]) == row["can_redraw"]


def test_policies_offer_one_or_both() -> None:
    table = GameTable(teams=["A", "B", "C", "D"], seed=8)
    to_draft(table)
    while table.stage == "draft":
        table.pick(table.game.draft_turn(), table.game.state.draft_pool[-1])
    drawn = table.game.state.policies_drawn
    choices = [c["policies"] for c in table.view["decision"]["choices"]]
    assert choices == [[drawn[0]], [drawn[1]], drawn]
    table.panel._handle_message(table.panel, {"action": "enact", "policies": [drawn[1]]}, [])
    assert table.game.state.policies == [drawn[1]] and table.stage == "phase2"
    assert table.view["game"]["policies"][0]["id"] == drawn[1]


# --- move-in --------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(40))
def test_chart_replays_the_engine_outcomes(seed: int) -> None:
    options = RuleOptions(displaced_first=seed % 2 == 0, low_income_in_adus=seed % 3 == 0)
    game = play_random_game(2 + seed % 5, seed=seed, options=options)
    move_in = game.result().move_in
    final = outcomes_so_far(move_in)
    assert {
        i: {k: v for k, v in row.items() if k != WAITING} for i, row in final.items()
    } == move_in.outcomes()
    assert all(row[WAITING] == 0 for row in final.values())
    counted = [
        sum(totals(chart_rows(outcomes_so_far(move_in, n)))) for n in range(len(move_in.events) + 1)
    ]
    assert counted[0] == 12 and counted[-1] == 36
    assert counted == sorted(counted), "the chart never shrinks"


def test_move_in_is_played_out_wave_by_wave() -> None:
    table = GameTable(teams=["A", "B", "C"], seed=3)
    to_movein(table)
    assert table.chart is not None and table.chart in table.children[1].children
    result = table.game.result()
    events = result.move_in.events
    bounds = result.move_in.wave_bounds()
    assert bounds[-1] == len(events)
    waiting = sum(e.kind == "displaced" and e.income == "low" for e in events)
    assert waiting, "this game is chosen for displaced low income residents"
    seen = []
    for step in range(4):
        decision = table.view["decision"]
        assert decision["step"] == step
        low_header = "Low income: 8 newcomers" + (f" + {waiting} displaced" if step >= 2 else "")
        assert decision["groups"][2]["header"] == low_header  # not known before its turn
        assert [g["done"] for g in decision["groups"]] == [i < step for i in range(3)]
        assert table.board.replay_index == (bounds[step] if step < 3 else -1)
        assert table.chart.rows == chart_rows(outcomes_so_far(result.move_in, bounds[step]))
        seen.append(sum(totals(table.chart.rows)))
        if step:
            income = INCOMES[step - 1]
            assert decision["groups"][step - 1]["lines"] == group_lines(events, income)
            assert all(e.step.startswith(("high:", "middle:", "low:")) for e in events)
        table.step_move_in()
    assert seen == sorted(seen) and seen[0] == 12 and seen[-1] == 36
    assert table.stage == "scoring" and table.teams_panel not in table.children
    table.back_move_in()
    assert table.stage == "movein" and table.movein_step == 3
    table.show_scores()
    assert table.stage == "scoring"


def test_wave_text_counts_moves_and_displacements() -> None:
    game = Game(["A", "B", "C", "D"], seed=0)
    for square, tile in (("B1", "tower_market"), ("C1", "park"), ("B2", "park"), ("C2", "park")):
        game.place(square, tile)
    events = game.result().move_in.events
    lines = group_lines(events, "high")
    assert lines[0] == "New market-rate homes: 4 moved in."  # 8 newcomers, 4 market homes
    houses = [e for e in events if e.step == "high:displace_houses" and e.kind == "displaced"]
    flats = [e for e in events if e.step == "high:displace_apartments" and e.kind == "displaced"]
    assert len(houses) + len(flats) == 4
    for line, victims in zip(lines[1:], (houses, flats), strict=False):
        low = sum(e.income == "low" for e in victims)
        assert f"{len(victims)} moved in, displacing" in line and f"{low} low" in line


def test_charts_are_made_only_when_move_in_is_shown() -> None:
    table = GameTable(teams=["A", "B", "C", "D"], seed=4)
    assert table.chart is None  # a hidden bqplot figure complains in the browser
    assert table.children == (table.panel, table.board, table.teams_panel)
    assert "hl-gt-building" in table._dom_classes and "hl-gt-stage-phase1" in table._dom_classes
    to_draft(table)
    assert table.chart is None and "hl-gt-building" not in table._dom_classes


# --- messages to the browser --------------------------------------------------------------
def test_a_placement_sends_one_board_update_and_one_panel_view(recording_comms) -> None:
    table = GameTable(teams=["A", "B", "C"], seed=5)
    board, panel = table.board.comm, table.panel.comm
    board.messages.clear()
    panel.messages.clear()
    table.place("C2", "midrise_public")
    full = [u for u in board.updates() if "tiles" in u]
    assert len(full) == 1 and full[0]["tiles"] == {"C2": "midrise_public"}
    assert full[0]["replay_index"] == 0  # before move-in: only the existing residents
    views = [u for u in panel.updates() if "view" in u]
    assert len(views) == 1 and views[0]["view"]["decision"]["empty"] == ["B1", "C1", "B2"]
    assert any(
        u.get("message") == "C2: Low Income Public Housing Midrise." for u in panel.updates()
    )


def test_rule_numbers_on_screen_come_from_the_rules_module(monkeypatch) -> None:
    from housing_lab.north_berkeley import rules
    from housing_lab.widgets.table import views as views

    table = GameTable(teams=["A", "B", "C"], seed=3)
    table.call_state()
    table.next_phase()
    assert table.stage == "extra_draw"
    assert "With 2 or 3 teams" in table.view["decision"]["text"]
    assert table.view["decision"]["kept_for_draft"] == 7
    assert [s["status"] for s in views.steps("draft", 4)].count("skipped") == 1
    assert "skipped" not in [s["status"] for s in views.steps("draft", 3)]
    monkeypatch.setattr(rules, "DRAFT_SIZE", 5)
    monkeypatch.setattr(rules, "EXTRA_DRAW_MAX_PLAYERS", 4)
    assert "With 2, 3 or 4 teams" in views.extra_view(table.game, table.teams)["text"]
    assert views.extra_view(table.game, table.teams)["kept_for_draft"] == 5
    assert "skipped" not in [s["status"] for s in views.steps("draft", 4)]
    table.next_phase()
    assert views.draft_view(table.game)["text"].startswith("Five cards lie face up")


def test_move_in_header_counts_newcomers_and_waiting_from_the_engine() -> None:
    table = GameTable(teams=["A", "B", "C"], seed=3)
    to_movein(table)
    move_in = table.game.result().move_in
    bounds = move_in.wave_bounds()
    table.show_scores()
    table.back_move_in()
    for number, group in enumerate(table.view["decision"]["groups"], start=1):
        income = group["income"]
        waiting = move_in.outcomes_after(bounds[number - 1])[income]["displaced_waiting"]
        expected = f"{move_in.newcomers()[income]} newcomers" + (
            f" + {waiting} displaced" if waiting else ""
        )
        assert group["header"].endswith(expected)


def test_the_palette_offers_what_the_engine_allows() -> None:
    table = GameTable(teams=["A", "B", "C", "D"], seed=3)
    assert table.view["decision"]["affordable_only"] is None
    assert table.view["decision"]["tie_order"] == table.teams  # 4 teams: no extra draw
    game = table.game
    assert table.board.allowed["B1"] == list(game.catalogue) and table.board.allowed["A1"] == []
    to_draft(table)
    assert all(tiles == [] for tiles in table.board.allowed.values())  # nothing to build now
    while table.stage == "draft":
        table.pick(game.draft_turn(), game.state.draft_pool[0])
    assert "affordable_100" in game.state.policies_drawn  # this seed is chosen for it
    table.enact(["affordable_100"])
    allowed = table.board.allowed["A1"]
    assert allowed == list(game.allowed_tiles("A1")) and len(allowed) < len(game.catalogue)
    names = {t["id"]: t["name"] for t in table.board.catalogue}
    assert table.view["decision"]["affordable_only"] == [names[t] for t in allowed]


def test_policy_choices_are_the_engines_legal_enact_actions() -> None:
    table = GameTable(teams=["A", "B", "C"], seed=3)
    to_draft(table)
    while table.stage == "draft":
        table.pick(table.game.draft_turn(), table.game.state.draft_pool[0])
    legal = [a["policies"] for a in table.game.legal_actions()]
    assert [c["policies"] for c in table.view["decision"]["choices"]] == legal


def test_the_setup_screen_offers_the_team_counts_of_the_rules() -> None:
    from housing_lab.north_berkeley.rules import MAX_PLAYERS, MIN_PLAYERS

    setup = GameTable().view["setup"]
    assert (setup["min_teams"], setup["max_teams"]) == (MIN_PLAYERS, MAX_PLAYERS) == (2, 6)

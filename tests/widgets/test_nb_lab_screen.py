"""NorthBerkeleyLab's one screen, in Python: change cues, words, palette, read-only board,
argument checks, scenario= and save/load round trips."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley import POLICIES, make_scenario, score_scenario
from housing_lab.north_berkeley.layout import default_layout
from housing_lab.north_berkeley.scenario import tile_allowed
from housing_lab.north_berkeley.tiles import default_catalogue
from housing_lab.widgets import NorthBerkeleyBoard, NorthBerkeleyLab
from housing_lab.widgets.lab.changes import machine_ids

SQUARES = list(default_layout().squares)
TILES = list(default_catalogue())
CATALOGUE = default_catalogue()


def state(lab: NorthBerkeleyLab) -> dict:
    return {
        "scenario": lab.scenario,
        "result": lab.result,
        "tiles": dict(lab.board.tiles),
        "message": lab.board.message,
        "change": lab.last_change,
        "checkboxes": {p: box.value for p, box in lab.policy_panel.checkboxes.items()},
    }


def test_any_whole_seed_is_shown_as_it_is() -> None:
    for seed in (-1, 2**40):
        lab = NorthBerkeleyLab(seed=seed)
        assert lab.seed == seed and lab.seed_box.value == seed


def test_scenario_argument_is_honoured() -> None:
    board = {"tiles": {"B2": "tower_social", "C3": "park"}, "policies": ["adu"], "seed": 4}
    lab = NorthBerkeleyLab(scenario=board)
    assert lab.scenario["tiles"] == board["tiles"] and lab.scenario["policies"] == ["adu"]
    assert lab.seed == 4 and lab.board.tiles == board["tiles"]
    assert lab.policy_panel.checkboxes["adu"].value is True
    assert NorthBerkeleyLab(scenario=json.dumps(board)).scenario == lab.scenario


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"seed": "7"}, "'7'"),
        ({"seed": True}, "True"),
        ({"seed": 1.5}, "1.5"),
        ({"hand": "developer"}, "'developer'"),
        ({"hand": 3}, "3"),
        ({"hand": [["developer"]]}, "[['developer']]"),
        ({"options": {"displaced_first": False}}, "displaced_first"),
        ({"layout": "north"}, "'north'"),
        ({"catalogue": ["park"]}, "['park']"),
        ({"scenario": 12}, "12"),
        ({"scenario": {"tiles": []}}, "[]"),
        ({"scenario": '{"tiles": {"A1": "castle"}}'}, "'castle'"),
    ],
)
def test_bad_constructor_arguments_are_one_line_errors(kwargs: dict, named: str) -> None:
    with pytest.raises(HousingLabError) as caught:
        NorthBerkeleyLab(**kwargs)
    message = str(caught.value)
    assert named in message and "\n" not in message


@pytest.mark.parametrize(
    "call",
    [
        lambda lab: lab.place("A1", 3),
        lambda lab: lab.place(None, "park"),
        lambda lab: lab.clear(["A1"]),
        lambda lab: lab.set_policy(None),
        lambda lab: lab.set_policy("adu", 1),
        lambda lab: lab.reshuffle("2"),
        lambda lab: lab.load_scenario(None),
        lambda lab: lab.load_scenario(b"\xff\xfe"),
        lambda lab: lab.load_scenario("-"),
        lambda lab: lab.save(3),
        lambda lab: lab.keep_snapshot(5),
    ],
)
def test_bad_method_arguments_change_nothing(call) -> None:
    lab = NorthBerkeleyLab(seed=3)
    lab.place("B2", "park")
    before = state(lab)
    with pytest.raises(HousingLabError) as caught:
        call(lab)
    assert "\n" not in str(caught.value)
    after = state(lab)
    after.pop("message"), before.pop("message")
    assert after == before


def test_non_utf8_and_deep_files_are_refused_whole(tmp_path) -> None:
    lab = NorthBerkeleyLab(seed=3)
    lab.place("A2", "townhouse_low")
    before = state(lab)
    latin = tmp_path / "latin.json"
    latin.write_bytes('{"tiles": {"A1": "park"}, "seed": "é"}'.encode("latin-1"))
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 5000 + "]" * 5000)
    half = tmp_path / "half.json"  # a good tile then a bad one: nothing of it is kept
    half.write_text(json.dumps({"tiles": {"A1": "park", "B1": "castle"}}))
    for path in (latin, deep, half):
        with pytest.raises(HousingLabError):
            lab.load_scenario(path)
        assert {k: v for k, v in state(lab).items() if k != "message"} == {
            k: v for k, v in before.items() if k != "message"
        }


boards = st.fixed_dictionaries(
    {
        "tiles": st.dictionaries(st.sampled_from(SQUARES), st.sampled_from(TILES), max_size=9),
        "policies": st.lists(st.sampled_from(POLICIES), unique=True),
        "seed": st.integers(0, 10_000),
    }
)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(boards)
def test_save_load_round_trip(board: dict) -> None:
    try:
        make_scenario(board["tiles"], board["policies"], seed=board["seed"])
    except HousingLabError:
        return  # the engine refuses this board (market homes under 100% affordable)
    lab = NorthBerkeleyLab(scenario=board)
    saved = lab.save()
    again = NorthBerkeleyLab(seed=99)
    again.load_scenario(json.dumps(saved, sort_keys=True))
    assert again.save() == saved and again.result == lab.result
    assert NorthBerkeleyLab(scenario=saved).save() == saved


def test_every_action_says_what_changed_in_words() -> None:
    lab = NorthBerkeleyLab(seed=1)
    lab.place("C1", "tower_market")
    assert lab.board.message == "Placed the Market Rate Tower on C1."
    assert lab.last_change.startswith("Placed the Market Rate Tower on C1. ")
    assert "What changed:" in lab.change_line.value
    lab.place("C1", "tower_social")
    assert lab.board.message.startswith("Replaced the Market Rate Tower on C1 with the Mixed")
    lab.set_policy("vacancy_control")
    assert lab.board.message == "Enacted Vacancy Control."
    for text in (lab.board.message, lab.last_change, lab.change_line.value):
        assert machine_ids(text) == [], text
    with pytest.raises(HousingLabError):
        lab.place("Q7", "park")
    assert machine_ids(lab.board.message.split("(squares")[0]) == []


def test_board_marks_what_changed_and_chart_shows_the_previous_state() -> None:
    lab = NorthBerkeleyLab(seed=1)
    assert lab.board.changed == [] and lab.outcome_chart.ghost.visible is False
    before = lab.result
    lab.place("B2", "tower_social")
    after = lab.result
    assert "B2" in lab.board.changed
    moved_homes = [h for h in lab.board.changed if h != "B2"]
    assert moved_homes and all(h in lab.board.occupants for h in moved_homes)
    assert lab.outcome_chart.ghost.visible is (before["housed"] != after["housed"])
    assert list(lab.outcome_chart.ghost.y) == [before["housed"][i] for i in after["housed"]]
    delta = after["housed"]["low"] - before["housed"]["low"]
    assert f"{after['housed']['low']} housed (+{delta})" in lab.outcome_chart.deltas.value


def test_palette_greys_what_the_engine_refuses_with_the_reason() -> None:
    lab = NorthBerkeleyLab(seed=1)
    assert all(len(tiles) == len(TILES) for tiles in lab.board.allowed.values())
    assert lab.board.refused == {}
    lab.set_policy("affordable_100")
    layout = default_layout()
    for square in SQUARES:
        want = [
            t
            for t in TILES
            if tile_allowed(CATALOGUE[t], {"affordable_100"}, layout.phase_of_square[square])
        ]
        assert lab.board.allowed[square] == want
    phase2 = [s for s in SQUARES if len(lab.board.allowed[s]) < len(TILES)]
    assert phase2, "100% affordable must grey something"
    reason = lab.board.refused[phase2[0]]
    assert "100% Affordable Housing" in reason and machine_ids(reason) == []


def test_costs_follow_matching_funds() -> None:
    lab = NorthBerkeleyLab(seed=1)
    printed = {t: float(tile.cost) for t, tile in CATALOGUE.items()}
    assert lab.board.costs == printed and lab.board.cost_note == ""
    lab.set_policy("matching_funds")
    assert lab.board.costs == printed and "not in effect yet" in lab.board.cost_note
    for square in ("A1", "B1", "C1"):
        lab.place(square, "tower_public")  # 12 low income homes
    assert lab.board.costs["tower_public"] == printed["tower_public"] / 2
    assert lab.board.costs["park"] == printed["park"]  # parks and garages keep their price
    assert "in effect" in lab.board.cost_note
    assert lab.result["spending"] == 3 * printed["tower_public"] / 2


def test_scoreboard_gives_each_card_a_net_score_and_reason() -> None:
    lab = NorthBerkeleyLab(seed=1)
    lab.place("B2", "tower_market")
    for row in lab.scoreboard.rows:
        assert row["net"] in ("+1", "0", "−1")
        assert row["net"] == {1: "+1", 0: "0", -1: "−1"}[row["after"]]
        if row["net"] == "+1":
            assert row["reason"] == row["plus_text"]
        if row["net"] == "−1":
            assert row["reason"] == row["minus_text"]
    assert "Net score and why" in lab.scoreboard.value


def test_a_result_board_is_read_only() -> None:
    result = score_scenario(make_scenario({"A1": "park"}, seed=2))
    example = NorthBerkeleyBoard(result)
    assert example.interactive is False and example.tiles == {"A1": "park"}
    assert len(example.event_texts) == len(example.events) > 0
    assert all(machine_ids(text) == [] for text in example.event_texts)
    assert NorthBerkeleyBoard().interactive is True
    assert NorthBerkeleyBoard(result, interactive=True).interactive is True
    with pytest.raises(HousingLabError, match="'A1'"):
        NorthBerkeleyBoard("A1")


def test_homes_chart_tab_is_filled_when_first_shown() -> None:
    """The chart is made on first showing (not at opening, nor redrawn while unseen), and then
    shows the board as it stands."""
    lab = NorthBerkeleyLab(seed=1)
    assert lab._homes_box.children == () and lab._homes_chart is None
    lab.place("B1", "tower_market")
    assert lab._homes_chart is None
    lab.tabs.selected_index = 1
    assert lab._homes_box.children == (lab.homes_chart,)
    assert lab.homes_chart.figure.title == "4 new homes, spending $0"
    lab.clear("B1")
    assert lab.homes_chart.figure.title == "0 new homes, spending $0"
    lab.keep_snapshot()
    assert lab.tabs.selected_index == 2


def test_the_lab_chart_and_coach_buttons_are_told_apart_without_colour() -> None:
    """Issue 27: the lab's "Who is housed?" segments have white separators at least 3:1 against
    every segment, and the coach's goal buttons keep white text at 4.5:1 or more."""
    from housing_lab.widgets.lab.charts import CHART_CATEGORIES, CHART_COLORS, SEPARATOR
    from tests.support import contrast

    lab = NorthBerkeleyLab(seed=1)
    chart = next(w for w in _walk(lab) if hasattr(w, "bars") and hasattr(w, "ghost"))
    assert chart.bars.stroke == SEPARATOR and chart.bars.stroke_width >= 2
    for colour in CHART_COLORS:
        assert contrast(colour, SEPARATOR) >= 3.0, colour
    colour = dict(zip(CHART_CATEGORIES, CHART_COLORS, strict=True))
    assert contrast(colour["stayed"], colour["displaced_left"]) >= 2.0
    buttons = [w for w in _walk(lab) if getattr(w, "description", "").startswith("How could")]
    assert len(buttons) == 2
    for button in buttons:
        assert contrast(button.style.button_color, "#ffffff") >= 4.5, button.description


def _walk(widget: object) -> list[object]:
    found = [widget]
    for child in getattr(widget, "children", ()):
        found.extend(_walk(child))
    return found

"""The lab's Assumptions tab: switches re-score, the "Not the rulebook" line, the budget in the
palette, saved boards that carry their model (issue 22 deliver 3; no browser)."""

from __future__ import annotations

import itertools
import json
from typing import Any

import ipywidgets
import pytest

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley import RuleOptions, make_scenario, score_scenario
from housing_lab.north_berkeley.engine import legal
from housing_lab.north_berkeley.model import RULEBOOK, Model
from housing_lab.widgets import NorthBerkeleyLab
from housing_lab.widgets.lab.assumptions import RULEBOOK_MARK
from housing_lab.widgets.lab.charts import category_rows, count_ticks
from housing_lab.widgets.lab.lab import ASSUMPTIONS_TAB, TABS

HIGH_ONLY = {"market_homes_for": ["high"]}


def _board_args(s: Any) -> tuple[Any, ...]:
    """What `legal.placement_refusal` reads of a board, after the square and the tile."""
    return s.tiles, s.policies, s.layout, s.catalogue, s.assumptions


def market_board(lab: NorthBerkeleyLab) -> None:
    """Market-rate towers and townhouses: under the rulebook low incomes filter into them."""
    for square in ("A1", "B1", "C1", "A2", "B2"):
        lab.place(square, "tower_market")


def test_the_tab_asks_the_switches_questions_with_the_rulebook_marked() -> None:
    lab = NorthBerkeleyLab(seed=1)
    assert TABS[ASSUMPTIONS_TAB] == "Assumptions"
    panel = lab.assumptions  # made when asked for, and shown in its tab
    assert lab.tabs.children[ASSUMPTIONS_TAB].children == (panel,)
    text = " ".join(w.value for w in lab.assumptions.children if isinstance(w, ipywidgets.HTML))
    # a list's question is its label, so a screen reader names the list by it
    assert lab.assumptions.market.description == "Who can rent a new market-rate home?"
    assert lab.assumptions.protects.description.startswith("Does vacancy control cover")
    text += f" {lab.assumptions.market.description} {lab.assumptions.protects.description}"
    for question in (
        "Who can rent a new market-rate home?",
        "How many newcomers of each income?",
        "Does vacancy control cover single-family houses?",
        "City budget",
    ):
        assert question in text
    marked = [label for label, _ in lab.assumptions.market.options if label.endswith(RULEBOOK_MARK)]
    assert marked == [lab.assumptions.market.label]  # the rulebook's answer is chosen, marked
    assert lab.assumptions.protects.label.endswith(RULEBOOK_MARK)
    assert lab.assumptions.back.disabled  # already the rulebook


def test_the_tab_is_made_when_first_opened_showing_the_model_as_it_stands() -> None:
    """The controls are a quarter of the lab's widgets and most visits never open the tab: they
    are made on first opening, from the lab's model and spending at that moment."""
    lab = NorthBerkeleyLab(seed=1)
    assert lab.tabs.children[ASSUMPTIONS_TAB].children == ()  # nothing made at opening
    market_board(lab)
    lab.set_model({**HIGH_ONLY, "budget": 50})
    lab.tabs.selected_index = ASSUMPTIONS_TAB  # the student opens the tab
    (panel,) = lab.tabs.children[ASSUMPTIONS_TAB].children
    assert panel.model_dict() == lab.model.to_dict()
    assert panel.market.value == ("high",) and panel.limited.value and panel.budget.value == 50
    assert not panel.back.disabled  # not the rulebook
    panel.market.value = ("high", "middle", "low")  # and it answers, as one made at once would
    assert lab.model == Model(budget=50)


def test_a_switch_rescores_and_back_to_the_rulebook_restores() -> None:
    lab = NorthBerkeleyLab(seed=1)
    market_board(lab)
    rulebook = lab.result
    assert rulebook["housed"]["low"] > 0  # filtering: low incomes in market homes
    lab.assumptions.market.value = ("high",)  # as the student picks it
    assert lab.model == Model(market_homes_for=frozenset({"high"}))
    changed = lab.result
    expected = score_scenario(make_scenario(**_board(lab), model=HIGH_ONLY)).to_dict()
    assert changed == expected
    assert changed["housed"]["low"] < rulebook["housed"]["low"]
    assert "market-rate homes only for high income" in lab.last_change
    assert lab.board.announcement["text"] == lab.last_change  # the lab's one announcer
    lab.assumptions.back.click()
    assert lab.model == RULEBOOK and "model" not in lab.scenario
    assert lab.result == rulebook
    assert lab.assumptions.market.value == ("high", "middle", "low")


def _board(lab: NorthBerkeleyLab) -> dict:
    data = lab.scenario
    data.pop("model", None)
    return data


def test_newcomers_change_the_residents_and_the_chart_axis() -> None:
    lab = NorthBerkeleyLab(seed=2)
    lab.set_model({"newcomers": {"high": 16, "low": 2}})
    result = lab.result
    totals = {i: sum(result["outcomes"][i].values()) for i in ("high", "middle", "low")}
    assert totals == {"high": 20, "middle": 12, "low": 6}  # 4 + newcomers
    assert lab.outcome_chart.y_scale.max == 20
    assert list(lab.outcome_chart.count_axis.tick_values) == count_ticks(20) == [0, 5, 10, 15, 20]
    assert "of 38 residents housed" in lab.board.screen_summary


def test_the_not_the_rulebook_line_is_shown_beside_the_chart_only_when_it_differs() -> None:
    lab = NorthBerkeleyLab(seed=1)
    main = lab.children[2]
    column = next(w for w in main.children if lab.outcome_chart in getattr(w, "children", ()))
    assert lab.model_line in column.children
    assert column.children.index(lab.model_line) + 1 == column.children.index(lab.outcome_chart)
    assert lab.model_line.value == ""
    lab.set_model({"market_homes_for": ["high"], "vacancy_control_protects": ["apartments"]})
    line = lab.model_line.value
    assert "Not the rulebook: market-rate homes only for high income" in line
    assert "vacancy control covers apartments only" in line
    assert "Not the rulebook" in lab.board.screen_summary
    lab.set_model(None)
    assert lab.model_line.value == ""


def test_bad_switches_are_refused_in_one_line_and_change_nothing() -> None:
    lab = NorthBerkeleyLab(seed=1)
    lab.place("A1", "tower_public")
    before = (lab.scenario, lab.result)
    with pytest.raises(HousingLabError, match="'market_homes_for' must contain 'high'"):
        lab.set_model({"market_homes_for": ["low"]})
    with pytest.raises(HousingLabError, match="unknown model switch 'jobs'"):
        lab.set_model({"jobs": 3})
    assert (lab.scenario, lab.result) == before
    assert "\n" not in lab.board.message and lab.board.message_kind == "error"


def test_a_budget_below_the_spending_is_refused_and_the_control_goes_back() -> None:
    lab = NorthBerkeleyLab(seed=1)
    lab.place("A1", "tower_public")  # $6
    spent = lab.result["spending"]
    assert lab.assumptions.budget.value == spent  # ticking the limit keeps the board
    lab.assumptions.limited.value = True
    assert lab.model.budget == spent
    lab.assumptions.budget.value = spent - 1
    assert lab.model.budget == spent  # refused: the board would break it
    assert "over the city budget" in lab.board.message
    assert lab.assumptions.budget.value == spent  # the control shows the model again


def test_the_palette_greys_tiles_over_budget_with_the_engines_reason() -> None:
    lab = NorthBerkeleyLab(seed=1)
    lab.set_model({"budget": 3})
    scenario = make_scenario(seed=1, model={"budget": 3})
    for square in ("A1", "B2"):
        allowed = lab.board.allowed[square]
        refused = lab.board.refused[square]
        for tile in lab.catalogue:
            why = legal.placement_refusal(square, tile, *_board_args(scenario))
            assert (tile in allowed) == (why is None)
            if why is not None:
                assert refused[tile].endswith("over the city budget of $3")
        assert "tower_public" not in allowed  # $6 > $3
        assert "Public" in refused[""] and "over the city budget of $3" in refused[""]
    with pytest.raises(HousingLabError, match=r"on A1: the board would spend \$6, over"):
        lab.place("A1", "tower_public")
    assert lab.scenario["tiles"] == {}
    assert "spend $6" in lab.board.message and "tower_public" not in lab.board.message


def test_the_budget_counts_the_tile_replaced() -> None:
    lab = NorthBerkeleyLab(seed=1, model={"budget": 6})
    lab.place("A1", "tower_public")  # $6: the whole budget
    assert "tower_public" in lab.board.allowed["A1"]  # replacing it spends no more
    assert "tower_public" not in lab.board.allowed["B1"]
    assert "tower_market" in lab.board.allowed["B1"]  # $0


@pytest.mark.slow
def test_save_and_load_carry_the_model_only_when_not_the_rulebook(tmp_path) -> None:
    lab = NorthBerkeleyLab(seed=4)
    lab.place("A1", "tower_market")
    assert "model" not in lab.save()
    lab.set_model({"market_homes_for": ["high", "middle"], "budget": 20})
    path = tmp_path / "board.json"
    saved = lab.save(path)
    assert json.loads(path.read_text())["model"] == {
        "newcomers": {"high": 8, "middle": 8, "low": 8},
        "market_homes_for": ["high", "middle"],
        "vacancy_control_protects": ["houses", "apartments"],
        "budget": 20,
    }
    other = NorthBerkeleyLab(seed=0)
    other.load_scenario(path)
    assert other.scenario == saved and other.result == lab.result
    assert other.model == lab.model
    assert other.assumptions.market.value == ("high", "middle")
    assert other.assumptions.limited.value and other.assumptions.budget.value == 20
    assert "Not the rulebook" in other.model_line.value
    other.load_scenario({"tiles": {}, "seed": 3})  # a rulebook file: back to the rulebook
    assert other.model == RULEBOOK and other.model_line.value == ""


def test_a_rare_setting_from_a_file_is_shown_not_refused() -> None:
    lab = NorthBerkeleyLab(seed=1, model={"vacancy_control_protects": ["houses"]})
    assert lab.assumptions.protects.value == ("houses",)
    assert "vacancy control covers houses only" in lab.model_line.value


def test_every_change_keeps_the_model() -> None:
    lab = NorthBerkeleyLab(seed=1, model=HIGH_ONLY)
    lab.place("A1", "tower_market")
    lab.set_policy("adu", True)
    lab.clear("A1")
    lab.reshuffle()
    lab.undo()
    lab.reset()
    assert lab.scenario["model"]["market_homes_for"] == ["high"]


def test_the_coachs_advice_is_applied_under_the_model() -> None:
    lab = NorthBerkeleyLab(seed=1, model=HIGH_ONLY)
    answer = lab.coach("developer")  # the lab passes its scenario, model included
    assert answer.changes
    lab.apply_coach()
    assert lab.scenario["model"]["market_homes_for"] == ["high"]
    assert lab.result == score_scenario(make_scenario(**_board(lab), model=HIGH_ONLY)).to_dict()
    assert "Not the rulebook" in lab.model_line.value


def test_the_chart_follows_the_move_in_step_shown() -> None:
    lab = NorthBerkeleyLab(seed=1)
    market_board(lab)
    move_in = score_scenario(make_scenario(**_board(lab))).move_in
    final = [list(row) for row in lab.outcome_chart.bars.y]
    total = len(lab.board.events)
    assert total == len(move_in.events) > 2
    lab.board.replay_index = 0  # "Before move-in", as the board's button sends it
    assert lab.outcome_chart.figure.title == "Who is housed? Before move-in"
    assert [list(r) for r in lab.outcome_chart.bars.y] == category_rows(move_in.outcomes_after(0))
    assert "0 housed so far" not in lab.outcome_chart.deltas.value  # the stayers are housed
    step = total // 2
    lab.board.replay_index = step
    shown = [list(r) for r in lab.outcome_chart.bars.y]
    assert shown == category_rows(move_in.outcomes_after(step)) != final
    assert lab.outcome_chart.figure.title == f"Who is housed? Step {step} of {total}"
    assert "displaced, looking for a home" in lab.outcome_chart.legend.value
    lab.board.replay_index = -1  # after move-in: the result again
    assert [list(r) for r in lab.outcome_chart.bars.y] == final
    assert lab.outcome_chart.figure.title == "Who is housed?"
    assert "looking for a home" not in lab.outcome_chart.legend.value


@pytest.mark.parametrize("top", [4, 6, 12, 13, 14, 20, 38])
def test_count_axes_tick_whole_numbers(top: int) -> None:
    ticks = count_ticks(top)
    assert ticks[0] == 0 and all(isinstance(t, int) for t in ticks)
    assert len(ticks) <= 8 and top - ticks[-1] < ticks[1]
    assert len({b - a for a, b in itertools.pairwise(ticks)}) == 1


def test_the_new_homes_axis_ticks_whole_numbers() -> None:
    lab = NorthBerkeleyLab(seed=1)
    assert list(lab.homes_chart._homes_axis.tick_values) == [0, 2, 4, 6, 8, 10, 12]
    market_board(lab)
    top = lab.homes_chart.y_scale.max
    assert top == 22 and list(lab.homes_chart._homes_axis.tick_values) == count_ticks(top)


def test_no_change_cell_is_short_enough_not_to_wrap() -> None:
    lab = NorthBerkeleyLab(seed=1)
    lab.place("A1", "park")
    cells = lab.outcome_chart.deltas.value
    assert "housed (" not in cells and "white-space:nowrap" in cells  # "12 housed", one line


def test_a_model_in_the_options_is_the_labs_model_or_refused() -> None:
    """Issue 43: `NorthBerkeleyLab(options=RuleOptions(model=...))` scored under the rulebook
    and placed a $6 tile under a $1 budget."""
    lab = NorthBerkeleyLab(seed=1, options=RuleOptions(model={"budget": 1}))
    assert lab.model == Model(budget=1) and lab.options.given_model is None  # one carrier
    with pytest.raises(HousingLabError, match=r"over the city budget of \$1"):
        lab.place("B1", "tower_public")
    assert lab.scenario["tiles"] == {}
    lab.set_model(HIGH_ONLY)  # the Assumptions tab still changes it: the board carries it
    assert lab.model == Model.from_dict(HIGH_ONLY)
    with pytest.raises(HousingLabError, match="give the model in one place"):
        NorthBerkeleyLab(options=RuleOptions(model={"budget": 1}), model=HIGH_ONLY)


def test_the_tab_itself_says_why_a_budget_below_the_spending_is_refused() -> None:
    """Issue 43: the refusal was said only on the board, in another tab; the Assumptions tab
    put the control back without a word."""
    lab = NorthBerkeleyLab(seed=1)
    lab.place("A1", "tower_public")  # $6
    panel = lab.assumptions
    panel.limited.value = True
    assert panel.refusal.value == ""
    panel.budget.value = 5.5
    assert lab.model.budget == 6  # refused: the board would break it
    said = panel.refusal.value
    assert "already spends $6, more than $5.50" in said
    assert "Choose at least $6, or clear a tile first" in said and "role='alert'" in said
    panel.budget.value = 7  # a budget the board keeps within: accepted, the words go
    assert lab.model.budget == 7 and panel.refusal.value == ""

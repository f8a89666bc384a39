"""The coach panel: shows the exact coach's answer in words, applies it, undoes it."""

from __future__ import annotations

import pytest

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley.coaching.exact import apply_changes, coach
from housing_lab.north_berkeley.coaching.words import coach_sentence
from housing_lab.north_berkeley.engine.scoring import score_scenario
from housing_lab.north_berkeley.scenario import make_scenario
from housing_lab.widgets.lab.coach_panel import CoachPanel

OPEN_SPACE = {
    "A1": "tower_market",
    "B1": "park",
    "C1": "park",
    "A2": "townhouse_market",
    "B2": "garage",
    "C2": "park",
}


def board():
    return make_scenario(OPEN_SPACE, ["vacancy_control"], seed=4)


def score(scenario, card):
    return score_scenario(scenario).to_dict()["constituents"][card]["score"]


@pytest.mark.parametrize(
    ("card", "goal"), [("stop_the_shadows", "win"), ("landlords", "win"), ("urbanists", "no-loss")]
)
def test_ask_shows_the_coach_sentence_and_apply_reaches_the_goal(card, goal) -> None:
    scenario = board()
    panel = CoachPanel(scenario, card, goal)
    answer = panel.ask()
    expected = coach(scenario, card, goal)
    assert answer.changes == expected.changes and answer.changes
    assert coach_sentence(expected).replace("&", "&amp;") in panel.reply.value
    assert not panel.apply_button.disabled
    before = score(scenario, card)
    after = panel.apply()
    assert after == apply_changes(scenario, expected.changes) == panel.scenario
    reached = score(after, card)
    assert reached == expected.after and (reached == 1 if goal == "win" else reached >= 0)
    assert f"went from <b>{'+1' if before == 1 else '−1' if before == -1 else '0'}" in (
        panel.reply.value
    )
    assert panel.board.tiles == after.to_dict()["tiles"]
    assert set(panel.board.changed) == {c.square for c in expected.changes if c.square}
    assert panel.apply_button.disabled and not panel.undo_button.disabled


def test_printed_names_not_ids() -> None:
    panel = CoachPanel(board(), "stop_the_shadows")
    panel.ask()
    assert "How could Stop the Shadows win? Put a Market Rate Townhouse on A1" in panel.reply.value
    assert "townhouse_market" not in panel.reply.value
    assert "Stop the Shadows" in panel.card_text.value
    assert panel.card_picker.options[0][0] == "Affordable Housing Organizations"


def test_undo_restores_the_board_and_on_apply_follows() -> None:
    seen = []
    scenario = board()
    panel = CoachPanel(scenario, "landlords", on_apply=seen.append)
    panel.ask()
    applied = panel.apply()
    assert "vacancy_control" not in applied.policies
    assert panel.undo() == scenario and panel.scenario == scenario
    assert seen == [applied, scenario]
    assert panel.board.policies == ["vacancy_control"]
    assert panel.undo_button.disabled
    assert "Undone" in panel.reply.value


def test_goal_already_met_offers_nothing_to_apply() -> None:
    panel = CoachPanel(board(), "fiscal_conservatives")
    answer = panel.ask()
    assert answer.changes == ()
    assert "No change needed" in panel.reply.value and panel.apply_button.disabled
    with pytest.raises(HousingLabError, match="no changes to apply"):
        panel.apply()


def test_changing_the_card_drops_the_old_answer() -> None:
    scenario = board()
    panel = CoachPanel(scenario, "landlords")
    panel.ask()
    panel.choose("stop_the_shadows")
    assert panel.apply_button.disabled and panel.reply.value == ""
    with pytest.raises(HousingLabError, match="ask the coach first"):
        panel.apply()
    assert panel.scenario == scenario


def test_accepts_a_scenario_dict() -> None:
    panel = CoachPanel(board().to_dict(), "landlords")
    assert panel.scenario == board()


@pytest.mark.parametrize(
    ("make", "bad"),
    [
        (lambda: CoachPanel("board.json"), "'board.json'"),
        (lambda: CoachPanel(board(), "wizards"), "'wizards'"),
        (lambda: CoachPanel(board(), "landlords", "lose"), "'lose'"),
        (lambda: CoachPanel({"tiles": {"A1": "castle"}}), "'castle'"),
        (lambda: CoachPanel(board()).choose(goal="maybe"), "'maybe'"),
    ],
)
def test_refusals_are_one_line_naming_the_value(make, bad) -> None:
    with pytest.raises(HousingLabError) as error:
        make()
    assert bad in str(error.value) and "\n" not in str(error.value)


def test_button_mistakes_show_one_red_line_and_change_nothing() -> None:
    scenario = board()
    panel = CoachPanel(scenario, "landlords")
    panel._quietly(panel.undo)
    assert "nothing to undo" in panel.reply.value and "#b2182b" in panel.reply.value
    assert panel.scenario == scenario

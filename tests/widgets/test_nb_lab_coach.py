"""The coach in NorthBerkeleyLab: the shown answer is the engine coach's, Apply reaches the goal
(re-scored by the engine), Undo restores the scenario exactly, bad input changes nothing."""

from __future__ import annotations

import pytest

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley import make_scenario, score_scenario
from housing_lab.north_berkeley.coaching.exact import (
    CoachAnswer,
    HandAdvice,
    best_change_for_hand,
    coach,
)
from housing_lab.north_berkeley.coaching.words import coach_sentence, hand_sentence
from housing_lab.north_berkeley.constituents import CARD_IDS
from housing_lab.north_berkeley.layout import default_layout, layout_from_dict
from housing_lab.north_berkeley.policies import POLICIES
from housing_lab.widgets import NorthBerkeleyLab
from housing_lab.widgets.lab.changes import machine_ids
from housing_lab.widgets.lab.coach import HAND

GOAL_SCORE = {"win": 1, "no-loss": 0}


def engine_scenario(lab: NorthBerkeleyLab):
    data = lab.scenario
    return make_scenario(data["tiles"], data["policies"], data["existing"], data["seed"])


def first_needing_changes(lab: NorthBerkeleyLab, goal: str) -> tuple[str, CoachAnswer]:
    for card in CARD_IDS:
        answer = coach(engine_scenario(lab), card, goal)
        if answer.changes:
            return card, answer
    raise AssertionError("every card already meets the goal: the test would prove nothing")


@pytest.mark.parametrize("goal", ["win", "no-loss"])
def test_shown_answer_is_the_coachs_and_apply_reaches_the_goal(goal: str) -> None:
    lab = NorthBerkeleyLab(seed=3)
    lab.place("A1", "tower_market")
    card, expected = first_needing_changes(lab, goal)
    before = lab.scenario
    answer = lab.coach(card, goal)
    assert answer.to_dict() | {"seconds": 0} == expected.to_dict() | {"seconds": 0}
    assert lab.coach_text == coach_sentence(expected)
    assert lab.coach_text in lab.coach_panel.answer.value.replace("&#x27;", "'")
    assert machine_ids(lab.coach_text) == []
    assert not lab.coach_panel.apply_button.disabled
    assert lab.scenario == before  # asking changes nothing
    lab.apply_coach(answer)
    result = score_scenario(engine_scenario(lab)).to_dict()
    assert result["constituents"][card]["score"] >= GOAL_SCORE[goal]
    assert result == lab.result
    assert lab.scenario["existing"] == before["existing"]  # residents stay as they are
    assert lab.last_change.startswith("Applied the coach's advice: ")
    assert lab.board.changed, "the board highlights what the advice changed"
    assert lab._previous is not None and lab._previous.to_dict() != lab.result
    assert not lab.coach_panel.undo_button.disabled


def test_undo_restores_the_scenario_exactly() -> None:
    lab = NorthBerkeleyLab(seed=5)
    lab.place("B1", "tower_market")
    lab.set_policy("vacancy_control")
    saved, result = lab.scenario, lab.result
    card, _ = first_needing_changes(lab, "win")
    lab.apply_coach(lab.coach(card))
    assert lab.scenario != saved
    lab.undo()
    assert lab.scenario == saved and lab.result == result
    assert lab.policy_panel.checkboxes["vacancy_control"].value
    lab.undo()
    lab.undo()
    assert lab.scenario == NorthBerkeleyLab(seed=5).scenario
    with pytest.raises(HousingLabError, match="nothing to undo"):
        lab.undo()
    assert lab.coach_panel.undo_button.disabled


def test_the_panel_buttons_drive_the_same_actions() -> None:
    lab = NorthBerkeleyLab(seed=3)
    card, expected = first_needing_changes(lab, "win")
    lab.coach_panel.target.value = card
    lab.coach_panel.win_button.click()
    assert lab.coach_text == coach_sentence(expected)
    lab.coach_panel.apply_button.click()
    assert lab.result["constituents"][card]["score"] == 1
    assert lab.coach_panel.apply_button.disabled
    shown_text = lab.coach_panel.answer.value
    assert "Applied: " in shown_text and "now +1" in shown_text
    lab.coach_panel.undo_button.click()
    assert lab.scenario == NorthBerkeleyLab(seed=3).scenario


def test_hand_the_change_that_raises_the_total_most() -> None:
    hand = ["urbanists", "developer", "save_our_parking", "more_parks"]
    lab = NorthBerkeleyLab(seed=2, hand=hand)
    assert lab.coach_panel.target.options[0][1] == HAND
    lab.coach_panel.target.value = HAND
    assert lab.coach_panel.no_loss_button.layout.display == "none"
    lab.coach_panel.win_button.click()
    expected = best_change_for_hand(engine_scenario(lab), hand)
    answer = lab.coach_answer
    assert isinstance(answer, HandAdvice) and answer == expected
    assert lab.coach_text == hand_sentence(expected)
    assert answer.change is not None, "this hand must be improvable, or the test proves nothing"
    total = sum(lab.result["constituents"][c]["score"] for c in hand)
    assert total == answer.now
    lab.apply_coach()
    assert sum(lab.result["constituents"][c]["score"] for c in hand) == answer.after > total


def one_greenway_square():
    """The default layout with one Greenway square (C1): at most 4 homes on a Greenway."""
    site = default_layout()
    data = {
        "squares": list(site.squares),
        "phases": {str(k): list(v) for k, v in site.phases.items()},
        "tags": {tag: sorted(members) for tag, members in site.tags.items()},
        "existing": [{"id": h.id, "kind": h.kind, "street": h.street} for h in site.existing],
    }
    data["tags"]["greenway"] = ["C1"]
    return layout_from_dict(data, "one greenway square")


def test_unreachable_gives_the_reason_in_words_and_nothing_to_apply() -> None:
    """The Bike Lobby's 10 homes on a Greenway cannot fit on one square (docs/coach.md)."""
    lab = NorthBerkeleyLab(seed=0, layout=one_greenway_square())
    found = "bike_lobby"
    before = lab.scenario
    answer = lab.coach(found, "win")
    assert answer.changes is None and answer.reason
    assert "It cannot:" in lab.coach_text and answer.reason in lab.coach_text
    assert machine_ids(lab.coach_text) == []
    assert lab.coach_panel.apply_button.disabled
    with pytest.raises(HousingLabError, match="nothing to apply"):
        lab.apply_coach(answer)
    assert lab.scenario == before


def test_stale_advice_is_refused() -> None:
    lab = NorthBerkeleyLab(seed=3)
    card, _ = first_needing_changes(lab, "win")
    answer = lab.coach(card)
    touched = {c.policy for c in answer.changes or ()}
    policy = next(p for p in POLICIES if p not in touched and p != "affordable_100")
    lab.set_policy(policy)  # the board changes after the advice
    assert "ask the coach again" in lab.coach_panel.answer.value
    before = lab.scenario
    with pytest.raises(HousingLabError, match="another board"):
        lab.apply_coach(answer)
    assert lab.scenario == before


@pytest.mark.parametrize(
    ("card", "goal", "message"),
    [
        ("nobody", "win", "nobody"),
        (3, "win", "3"),
        ("urbanists", "lose", "lose"),
        (["urbanists", 4], "win", "4"),
        (None, "win", "None"),
    ],
)
def test_wrong_questions_are_one_line_errors(card: object, goal: object, message: str) -> None:
    lab = NorthBerkeleyLab(seed=1)
    before = lab.scenario
    with pytest.raises(HousingLabError, match=message) as caught:
        lab.coach(card, goal)  # type: ignore[arg-type]
    assert "\n" not in str(caught.value)
    assert lab.scenario == before and lab.coach_answer is None


@pytest.mark.parametrize("answer", ["urbanists", 7, {"changes": []}])
def test_apply_needs_an_answer(answer: object) -> None:
    lab = NorthBerkeleyLab(seed=1)
    before = lab.scenario
    with pytest.raises(HousingLabError, match="coach's answer"):
        lab.apply_coach(answer)  # type: ignore[arg-type]
    assert lab.scenario == before


def test_already_met_has_nothing_to_apply() -> None:
    lab = NorthBerkeleyLab(seed=1)
    for card in CARD_IDS:
        answer = lab.coach(card, "no-loss")
        if answer.changes == ():
            assert "No change needed" in lab.coach_text
            with pytest.raises(HousingLabError, match="nothing to apply"):
                lab.apply_coach(answer)
            return
    raise AssertionError("no card already scores 0 or more on an empty board")

"""Coalition explorer: asks the exact solver and shows its answer."""

from __future__ import annotations

import pytest

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley import scenario_from_dict, score_scenario
from housing_lab.north_berkeley.solver.exact import solve
from housing_lab.widgets.lessons.coalition import CoalitionExplorer


def test_shows_the_solver_answer_on_the_board() -> None:
    explorer = CoalitionExplorer(["developer", "urbanists"], seed=2)
    solution = explorer.find()
    expected = solve(["developer", "urbanists"], seed=2)
    assert solution.score == expected.score and solution.spending == expected.spending
    scenario = solution.scenario.to_dict()
    assert explorer.board.tiles == scenario["tiles"]
    result = score_scenario(scenario_from_dict(scenario)).to_dict()
    assert (
        sum(result["constituents"][c]["score"] for c in ("developer", "urbanists"))
        == solution.score
    )
    assert f"Best total: {solution.score:g}" in explorer.summary.value


def test_choose_and_refusals() -> None:
    explorer = CoalitionExplorer()
    explorer.choose(["landlords"])
    assert explorer.find().cards.keys() == {"landlords"}
    with pytest.raises(HousingLabError, match="'wizards'"):
        explorer.choose(["wizards"])
    explorer.picker.value = ()
    with pytest.raises(HousingLabError, match="at least one"):
        explorer.find()
    explorer._find_quietly()
    assert "at least one" in explorer.summary.value


def test_the_summary_names_policies_as_printed_not_by_id() -> None:
    from housing_lab.north_berkeley.policies import POLICY_NAMES
    from housing_lab.north_berkeley.solver.exact import solve
    from housing_lab.widgets.lessons.coalition import solution_summary

    solution = solve(["developer"], policies=["vacancy_control"])
    text = solution_summary(solution, ["developer"])
    assert POLICY_NAMES["vacancy_control"] in text
    assert "vacancy_control" not in text


def test_the_buttons_are_as_wide_as_their_words() -> None:
    """ipywidgets' default 148px button cut "Find the best board" to "Find the best bo..."."""
    from housing_lab.widgets import ChoiceQuestion
    from housing_lab.widgets.lessons.coalition import CoalitionExplorer

    buttons = [
        CoalitionExplorer(["landlords"]).button,
        ChoiceQuestion("l2-workforce-midrise").check,
    ]
    assert [b.layout.width for b in buttons] == ["max-content", "max-content"]


def test_an_assumption_solves_again_under_that_switch() -> None:
    """Lesson 8's question without code: does the coalition survive no filtering? The explorer
    answers what the solver answers under the same switch, and says which switch it used."""
    from housing_lab.widgets.lessons.coalition import ASSUMPTIONS

    pair = ["developer", "affordable_housing_orgs"]
    explorer = CoalitionExplorer(pair, assumption="no_filtering")
    solution = explorer.find()
    words, model = ASSUMPTIONS["no_filtering"]
    expected = solve(pair, seed=0, model=model)
    assert solution.scenario.to_dict() == expected.scenario.to_dict()
    assert solution.scenario.to_dict() != solve(pair, seed=0).scenario.to_dict()
    assert words in explorer.summary.value
    explorer.assumption.value = "rulebook"
    explorer.find()
    assert "Solved under" not in explorer.summary.value
    with pytest.raises(HousingLabError) as error:
        CoalitionExplorer(pair, assumption="no_jobs")
    assert str(error.value) == (
        "unknown assumption 'no_jobs': one of rulebook, no_filtering, partial_filtering, "
        "more_newcomers, fewer_newcomers, costa_hawkins, budget_15"
    )

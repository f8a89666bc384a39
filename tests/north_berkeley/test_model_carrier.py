"""One carrier for the model: a model given through `RuleOptions(model=...)` is honoured, or
refused in one line naming both models; never ignored (issues 42 and 43).

Before: `score_scenario(s, RuleOptions(model=m))` scored under the rulebook (12/12/4 housed on
the board below, 12/4/4 through the scenario), the coach advised spending $12 under a $5
budget given in the options, and a $6 tile scored under a $1 budget."""

from __future__ import annotations

import pytest

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley import (
    Model,
    RuleOptions,
    coach,
    make_scenario,
    random_boards,
    robustness,
    score_scenario,
    solve,
)
from housing_lab.north_berkeley.batch.evaluator import default_evaluator
from housing_lab.north_berkeley.errors import OverBudgetError
from housing_lab.north_berkeley.model import RULEBOOK, model_or_rulebook, one_model
from housing_lab.north_berkeley.scenario import replaced

MARKET_BOARD = {"B1": "tower_market", "C1": "tower_market", "B2": "tower_market"}
NO_FILTERING = Model(market_homes_for=["high"])


def _housed(result: dict) -> tuple[int, int, int]:
    return tuple(result["housed"][i] for i in ("high", "middle", "low"))  # type: ignore[return-value]


def test_the_issues_board_scores_alike_through_either_carrier() -> None:
    board = {**MARKET_BOARD, "C2": "tower_market"}
    plain = make_scenario(board, ["vacancy_control"])
    through_options = score_scenario(plain, RuleOptions(model=NO_FILTERING)).to_dict()
    through_scenario = score_scenario(replaced(plain, model=NO_FILTERING)).to_dict()
    assert _housed(through_options) == _housed(through_scenario) == (12, 4, 4)
    assert through_options == through_scenario  # the model is echoed the same way too
    assert _housed(score_scenario(plain).to_dict()) == (12, 12, 4)  # the rulebook differs


def test_two_different_models_are_refused_in_one_line_naming_both() -> None:
    scenario = make_scenario(MARKET_BOARD, model={"budget": 5})
    with pytest.raises(HousingLabError) as caught:
        score_scenario(scenario, RuleOptions(model=NO_FILTERING))
    said = str(caught.value)
    assert "\n" not in said and "give the model in one place" in said
    assert "city budget $5" in said and "market-rate homes only for high income" in said
    same = score_scenario(scenario, RuleOptions(model={"budget": 5})).to_dict()
    assert same == score_scenario(scenario).to_dict()
    # options under the rulebook (their default) leave the scenario's own model alone
    assert score_scenario(scenario, RuleOptions()).to_dict()["model"]["budget"] == 5


def test_a_budget_given_through_the_options_refuses_a_dearer_board() -> None:
    public = make_scenario({"B1": "tower_public"})  # a $6 tile
    with pytest.raises(OverBudgetError, match=r"spends \$6, over the city budget of \$1"):
        score_scenario(public, RuleOptions(model={"budget": 1}))


def test_coach_advice_keeps_within_the_options_budget() -> None:
    empty = make_scenario({})
    unlimited = coach(empty, "affordable_housing_orgs")
    assert unlimited.spending_after is not None and unlimited.spending_after > 5
    for budget in (0, 1, 5):
        options = RuleOptions(model={"budget": budget})
        answer = coach(empty, "affordable_housing_orgs", options=options)
        carried = coach(replaced(empty, model={"budget": budget}), "affordable_housing_orgs")
        assert answer.to_dict() == carried.to_dict() | {"seconds": answer.to_dict()["seconds"]}
        if answer.changes is None:
            assert f"${budget}" in str(answer.reason)
        else:
            assert answer.spending_after is not None and answer.spending_after <= budget


def test_the_batch_honours_or_refuses_the_options_model() -> None:
    evaluator = default_evaluator()
    boards = random_boards(40, seed=3)
    by_options = evaluator.evaluate(boards, RuleOptions(model=NO_FILTERING))
    by_keyword = evaluator.evaluate(boards, model=NO_FILTERING)
    assert by_options.to_dicts() == by_keyword.to_dicts()
    assert by_options.to_dicts() != evaluator.evaluate(boards).to_dicts()
    with pytest.raises(HousingLabError, match="give the model in one place"):
        evaluator.evaluate(boards, RuleOptions(model=NO_FILTERING), model={"budget": 3})


def test_the_solver_keeps_within_the_options_budget() -> None:
    options = RuleOptions(model={"budget": 2})
    by_options = solve(["affordable_housing_orgs"], options=options, policies=["adu"])
    by_keyword = solve(["affordable_housing_orgs"], model={"budget": 2}, policies=["adu"])
    assert by_options.to_dict() | {"seconds": 0} == by_keyword.to_dict() | {"seconds": 0}
    assert by_options.result["spending"] <= 2


def test_robustness_refuses_a_model_in_the_options() -> None:
    with pytest.raises(HousingLabError, match="give it as one of the assumptions") as caught:
        robustness([["adu"]], n=5, options=RuleOptions(model={"budget": 3}))
    assert "\n" not in str(caught.value)


def test_none_means_the_rulebook_in_one_place() -> None:
    assert model_or_rulebook(None) is RULEBOOK
    assert one_model(None, None, "a", "b") is None
    assert one_model(NO_FILTERING, None, "a", "b") is NO_FILTERING
    assert one_model(None, NO_FILTERING, "a", "b") is NO_FILTERING
    with pytest.raises(HousingLabError):
        one_model(RULEBOOK, NO_FILTERING, "a", "b")  # a scenario that asked for the rulebook

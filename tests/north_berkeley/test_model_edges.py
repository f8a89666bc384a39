"""Model switches at the edges (issue 43's third hunt): each case below was mishandled before.

Budgets are whole cents, rounded down (docs/model_switches.md, "A city budget"), and money is
shown exact to the cent, so a refusal never names two equal amounts."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley import (
    Game,
    Model,
    default_catalogue,
    make_scenario,
    robustness,
)
from housing_lab.north_berkeley.errors import OverBudgetError
from housing_lab.north_berkeley.model import dollars
from housing_lab.north_berkeley.solver.exact import every_card_nonnegative
from tests.support import Cli

# three public towers (12 low income homes: matching funds halve housing, $9), a low income
# townhouse ($0.50 halved) and a park ($1): $10.50
TEN_FIFTY = {
    "B1": "tower_public",
    "C1": "tower_public",
    "B2": "tower_public",
    "C2": "townhouse_low",
    "A1": "park",
}


def test_a_budget_just_under_the_spending_reads_as_two_different_amounts() -> None:
    with pytest.raises(OverBudgetError) as caught:
        make_scenario(TEN_FIFTY, ["matching_funds"], model={"budget": 10.4999999})
    assert str(caught.value) == "the board spends $10.50, over the city budget of $10.49"
    kept = make_scenario(TEN_FIFTY, ["matching_funds"], model={"budget": 10.5})
    assert kept.assumptions.to_dict()["budget"] == 10.5


def test_budgets_are_whole_cents_rounded_down() -> None:
    assert Model(budget=10.4999999).city_budget() == Fraction(1049, 100)
    assert Model(budget=10.4999999).to_dict()["budget"] == 10.49
    tiny = Model(budget=5e-324)
    assert tiny.city_budget() == 0 and tiny.to_dict()["budget"] == 0
    assert tiny.describe() == "Not the rulebook: city budget $0"
    assert Model(budget=0.1).city_budget() == Fraction(1, 10)  # the decimal written
    assert Model(budget=Fraction(1, 3)).city_budget() == Fraction(33, 100)
    assert [dollars(x) for x in (6, Fraction(21, 2), Fraction(1049, 100), 999)] == [
        "$6",
        "$10.50",
        "$10.49",
        "$999",
    ]
    with pytest.raises(HousingLabError, match="must be 0-999"):
        Model(budget=-5e-324)


def test_numpy_numbers_are_taken_as_python_numbers_and_bools_refused() -> None:
    model = Model(newcomers={"low": np.int64(3), "high": np.uint8(9)})
    assert model.newcomers["low"] == 3 and type(model.newcomers["low"]) is int
    assert json.loads(json.dumps(model.to_dict()))["newcomers"] == {
        "high": 9,
        "middle": 8,
        "low": 3,
    }
    assert model == Model(newcomers={"low": 3, "high": 9})
    assert Model(budget=np.int64(3)) == Model(budget=3) == Model(budget=np.float64(3.0))
    assert Model(budget=np.float32(2.5)).city_budget() == Fraction(5, 2)
    for bad in (True, np.True_, 3.0, np.float64(3.0), "3"):
        with pytest.raises(HousingLabError, match="must be a whole number") as caught:
            Model(newcomers={"low": bad})
        assert "\n" not in str(caught.value)
    for bad in (True, np.False_, "3"):
        with pytest.raises(HousingLabError, match="must be null or a number"):
            Model(budget=bad)


def test_robustness_states_its_limit_instead_of_running_out_of_memory() -> None:
    with pytest.raises(HousingLabError) as caught:
        robustness([["adu"]], n=10**12)
    said = str(caught.value)
    assert "\n" not in said and "from 1 to 100,000" in said and "1000000000000" in said


def test_fixed_tiles_that_alone_break_the_budget_are_one_line_not_no_answer() -> None:
    fixed = {"B1": "tower_public", "C1": "tower_public"}  # $6 at their cheapest (halved)
    with pytest.raises(OverBudgetError) as caught:
        every_card_nonnegative(["affordable_housing_orgs"], fixed=fixed, model={"budget": 3})
    assert str(caught.value) == (
        "the fixed tiles alone spend at least $6, over the city budget of $3: "
        "no board can keep within it"
    )


def test_nb_solve_refuses_fixed_tiles_over_the_budget_in_one_line(cli: Cli) -> None:
    for extra in ([], ["--nonnegative"], ["--pareto"]):
        code, out, err = cli(
            "nb",
            "solve",
            "--cards",
            "affordable_housing_orgs",
            "--fix",
            "B1=tower_public,C1=tower_public",
            "--model",
            '{"budget": 3}',
            *extra,
        )
        assert code == 2 and out == "", extra
        assert err.count("\n") == 1 and "fixed tiles alone spend at least $6" in err, err


def test_nb_solve_takes_null_and_a_scenario_without_a_model_as_the_rulebook(
    cli: Cli, tmp_path
) -> None:
    (tmp_path / "board.json").write_text(json.dumps({"tiles": {"B1": "park"}, "model": None}))
    (tmp_path / "plain.json").write_text(json.dumps({"tiles": {}, "policies": ["adu"]}))
    (tmp_path / "budget.json").write_text(json.dumps({"tiles": {}, "model": {"budget": 2}}))
    echoed = {}
    for given in ("null", " null ", "board.json", "plain.json", "budget.json"):
        code, out, err = cli(
            "nb", "solve", "--cards", "developer", "--policies", "adu", "--model", given,
            cwd=tmp_path,
        )  # fmt: skip
        assert code == 0, (given, err)
        echoed[given] = json.loads(out)["scenario"]["model"]
    rulebook = Model().to_dict()
    assert [echoed[g] for g in ("null", " null ", "board.json", "plain.json")] == [rulebook] * 4
    assert echoed["budget.json"]["budget"] == 2


def test_a_game_that_cannot_fill_phase_two_within_its_budget_says_why() -> None:
    """affordable_100 + matching funds + budget 0 with a teacher's catalogue that has no free
    low or middle income tile: nothing fits the phase-2 squares."""
    catalogue = {k: v for k, v in default_catalogue().items() if k != "townhouse_middle"}
    game = Game(["A", "B", "C", "D"], seed=11, model={"budget": 0}, catalogue=catalogue)
    game.call_state()
    game.advance()
    while game.phase == "draft":
        game.apply(game.legal_actions()[0])
    assert set(game.state.policies_drawn) == {"affordable_100", "matching_funds"}
    game.enact(["affordable_100", "matching_funds"])
    before = game.to_dict()
    with pytest.raises(OverBudgetError) as caught:
        game.call_state()
    said = str(caught.value)
    assert "\n" not in said and "already has a tile" not in said
    assert said.startswith("the state cannot fill square A1 within the city budget of $0")
    assert "100% Affordable Housing allows there, Workforce Housing Midrise" in said
    assert "this game cannot be finished under this budget" in said
    assert game.to_dict() == before
    # the claim: no tile fits any phase-2 square, so nothing but the refused call is offered
    assert game.legal_actions() == [{"action": "call_state"}]
    game.undo()  # "undo to the policy choice"
    assert game.phase == "policies"


def test_a_square_the_state_cannot_fill_until_a_tile_is_cleared_says_so() -> None:
    catalogue = {k: v for k, v in default_catalogue().items() if k != "townhouse_middle"}
    game = Game(["A", "B", "C", "D"], seed=45, model={"budget": 1}, catalogue=catalogue)
    game.call_state()  # seed 45: free tiles in phase 1, then both policies drawn
    game.advance()
    while game.phase == "draft":
        game.apply(game.legal_actions()[0])
    game.enact(["affordable_100", "matching_funds"])
    game.place("A1", "midrise_workforce")  # $1: the whole budget
    with pytest.raises(OverBudgetError) as caught:
        game.call_state()
    said = str(caught.value)
    assert said.startswith("the state cannot fill square A2 within the city budget of $1")
    assert said.endswith(
        "would bring the board's spending to $2; clear or change a tile of this phase first"
    )
    game.clear("A1")  # the advice holds: with A1 cleared there is room again
    assert game.placement_refusal("A2", "midrise_workforce") is None

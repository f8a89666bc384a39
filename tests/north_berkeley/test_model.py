"""The model's switches (RULES.md "Model assumptions") in the scalar engine and `nb score`."""

from __future__ import annotations

import io
import json
import sys
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from housing_lab.cli import main
from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley.batch.evaluator import default_evaluator
from housing_lab.north_berkeley.board import Board
from housing_lab.north_berkeley.engine import legal
from housing_lab.north_berkeley.engine.scoring import score_scenario
from housing_lab.north_berkeley.errors import OverBudgetError
from housing_lab.north_berkeley.layout import default_layout
from housing_lab.north_berkeley.model import RULEBOOK, SWITCH_KEYS, Model, check_model
from housing_lab.north_berkeley.policies import AFFORDABLE_100, INCOMES, POLICIES
from housing_lab.north_berkeley.scenario import (
    affordable_violations,
    board_spending,
    make_scenario,
    scenario_from_dict,
)
from housing_lab.north_berkeley.tiles import default_catalogue

LAYOUT = default_layout()
CATALOGUE = default_catalogue()

boards = st.fixed_dictionaries(
    {}, optional={square: st.sampled_from(list(CATALOGUE)) for square in LAYOUT.squares}
)
policy_sets = st.sets(st.sampled_from(POLICIES))
models = st.fixed_dictionaries(
    {},
    optional={
        "newcomers": st.fixed_dictionaries(
            {}, optional={income: st.integers(0, 16) for income in INCOMES}
        ),
        "market_homes_for": st.sets(st.sampled_from(["middle", "low"])).map(
            lambda rest: ["high", *sorted(rest)]
        ),
        "vacancy_control_protects": st.sampled_from(
            [["houses"], ["apartments"], ["houses", "apartments"]]
        ),
    },
)


def _board_args(s: Any) -> tuple[Any, ...]:
    """What `legal.placement_refusal` reads of a board, after the square and the tile."""
    return s.tiles, s.policies, s.layout, s.catalogue, s.assumptions


def board(tiles: dict[str, str], policies: set[str], model: Any, seed: int = 0):
    if affordable_violations(tiles, LAYOUT, CATALOGUE):
        policies = policies - {AFFORDABLE_100}
    return make_scenario(tiles, sorted(policies), seed=seed, model=model)


def run_score(capsys: pytest.CaptureFixture[str], stdin: str) -> tuple[int, str, str]:
    """`housing-lab nb score -` in this process: (exit code, stdout, stderr)."""
    sys.stdin = io.StringIO(stdin)
    try:
        code = main(["nb", "score", "-"])
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    finally:
        sys.stdin = sys.__stdin__
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# --- parsing ---------------------------------------------------------------------------------
def test_the_rulebook_is_the_default_and_echoes_every_switch() -> None:
    assert Model.from_dict(None) is RULEBOOK
    assert Model.from_dict({}) == RULEBOOK
    assert RULEBOOK.is_rulebook
    assert RULEBOOK.to_dict() == {
        "newcomers": {"high": 8, "middle": 8, "low": 8},
        "market_homes_for": ["high", "middle", "low"],
        "vacancy_control_protects": ["houses", "apartments"],
        "budget": None,
    }
    assert list(RULEBOOK.to_dict()) == list(SWITCH_KEYS)
    partial = Model.from_dict({"newcomers": {"high": 12}, "budget": 7.5})
    assert partial.to_dict()["newcomers"] == {"high": 12, "middle": 8, "low": 8}
    assert partial.budget == Fraction(15, 2)
    assert check_model(partial.to_dict()) == partial
    assert not partial.is_rulebook


@pytest.mark.parametrize(
    ("model", "named"),
    [
        ([], "'model' must be an object"),
        ({"demand": 3}, "'demand'"),
        ({"newcomers": 8}, "'newcomers' must be an object"),
        ({"newcomers": {"rich": 3}}, "'rich'"),
        ({"newcomers": {"low": 17}}, "got 17"),
        ({"newcomers": {"low": -1}}, "got -1"),
        ({"newcomers": {"low": 2.5}}, "got 2.5"),
        ({"newcomers": {"low": True}}, "got True"),
        ({"market_homes_for": ["middle", "low"]}, "must contain 'high'"),
        ({"market_homes_for": "high"}, "must be a list"),
        ({"market_homes_for": ["high", "poor"]}, "'poor'"),
        ({"vacancy_control_protects": []}, "non-empty list"),
        ({"vacancy_control_protects": ["condos"]}, "'condos'"),
        ({"budget": -1}, "got -1"),
        ({"budget": 1000}, "got 1000"),
        ({"budget": "10"}, "got '10'"),
        ({"budget": float("inf")}, "finite"),
        ({"budget": float("nan")}, "finite"),
    ],
)
def test_a_bad_switch_is_one_line_naming_it(model: Any, named: str) -> None:
    with pytest.raises(HousingLabError) as caught:
        scenario_from_dict({"model": model})
    message = str(caught.value)
    assert named in message and "\n" not in message


def test_results_echo_the_model_only_when_one_was_asked_for() -> None:
    plain = score_scenario(make_scenario({"B1": "tower_market"}, seed=4)).to_dict()
    asked = score_scenario(make_scenario({"B1": "tower_market"}, seed=4, model={})).to_dict()
    assert "model" not in plain
    assert asked.pop("model") == RULEBOOK.to_dict()
    assert asked == plain  # the rulebook's switches change nothing else
    scenario = make_scenario({"B1": "tower_market"}, model={"budget": 20})
    again = scenario_from_dict(json.loads(scenario.to_json()))
    assert again == scenario and again.model == scenario.model


# --- what each switch does -------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(boards, policy_sets, models, st.integers(0, 50))
def test_conservation_under_any_switches(tiles, policies, model, seed) -> None:
    scenario = board(tiles, policies, model, seed)
    result = score_scenario(scenario)
    out = result.to_dict()
    chosen = scenario.assumptions
    for income in INCOMES:
        residents = 4 + chosen.newcomers_of(income)
        assert out["housed"][income] + out["unhoused"][income] == residents
        assert sum(out["outcomes"][income].values()) == residents
        assert sum(result.move_in.outcomes_after(0)[income].values()) == residents
    # homes only hold whom the switches let in
    for home in result.move_in.new_homes:
        income = result.move_in.income_in(home.id)
        if home.type == "market" and income is not None:
            assert chosen.market_home_for(income)
    # vacancy control keeps residents of the kinds it covers
    if "vacancy_control" in scenario.policies:
        covered = {
            *(LAYOUT.houses if chosen.protects("houses") else ()),
            *(LAYOUT.apartments if chosen.protects("apartments") else ()),
        }
        displaced_from = {e.home for e in result.move_in.events if e.kind == "displaced"}
        assert not displaced_from & covered


def test_without_filtering_low_income_newcomers_cannot_rent_new_market_homes() -> None:
    tiles = dict.fromkeys(LAYOUT.squares, "tower_market")
    rulebook = score_scenario(make_scenario(tiles, seed=7)).to_dict()
    no_filtering = score_scenario(
        make_scenario(tiles, seed=7, model={"market_homes_for": ["high"]})
    ).to_dict()
    assert rulebook["housed"]["low"] > 0  # the rulebook lets them in (instant filtering)
    assert no_filtering["housed"]["low"] < rulebook["housed"]["low"]
    assert no_filtering["vacant"]["market"] > 0


def test_vacancy_control_without_houses_is_california_reading() -> None:
    # an empty board: the 8 high income newcomers can only displace existing residents
    covered_all = score_scenario(make_scenario({}, ["vacancy_control"], seed=2)).to_dict()
    apartments_only = score_scenario(
        make_scenario(
            {}, ["vacancy_control"], seed=2, model={"vacancy_control_protects": ["apartments"]}
        )
    )
    assert sum(covered_all["displaced"].values()) == 0
    displaced_homes = {e.home for e in apartments_only.move_in.events if e.kind == "displaced"}
    assert displaced_homes and displaced_homes <= set(LAYOUT.houses)


def test_more_newcomers_are_more_residents_and_the_cards_mean_all_of_them() -> None:
    tiles = {"A1": "tower_public", "B1": "tower_public", "C1": "tower_public"}
    scenario = make_scenario(tiles, ["vacancy_control"], seed=1, model={"newcomers": {"low": 16}})
    result = score_scenario(scenario)
    out = result.to_dict()
    assert out["housed"]["low"] + out["unhoused"]["low"] == 20
    ids = sorted(r for r in result.move_in.residents if r.startswith("low-"))
    assert len(ids) == 20
    plus = result.cards["affordable_housing_orgs"].plus
    assert plus == (out["unhoused"]["low"] == 0)
    fewer = score_scenario(
        make_scenario(tiles, ["vacancy_control"], seed=1, model={"newcomers": {"low": 0}})
    )
    assert fewer.to_dict()["housed"]["low"] <= 4
    assert fewer.cards["affordable_housing_orgs"].plus == (fewer.facts.unhoused["low"] == 0)


def test_a_board_over_budget_is_refused_with_its_spending_and_the_budget() -> None:
    tiles = {"A1": "tower_public", "B1": "tower_public"}
    spent = board_spending(make_scenario(tiles))
    assert spent > 0
    assert make_scenario(tiles, model={"budget": float(spent)}).model.budget == spent
    with pytest.raises(OverBudgetError, match=rf"spends \${float(spent):g}, over .* \$1\b"):
        make_scenario(tiles, model={"budget": 1})


def test_matching_funds_count_towards_the_budget() -> None:
    tiles = {s: "tower_public" for s in ("A1", "B1", "C1")}
    full = board_spending(make_scenario(tiles))
    halved = board_spending(make_scenario(tiles, ["matching_funds"]))
    assert halved == full / 2
    make_scenario(tiles, ["matching_funds"], model={"budget": float(halved)})
    with pytest.raises(OverBudgetError):
        make_scenario(tiles, model={"budget": float(halved)})


def test_the_lab_words_say_what_is_not_the_rulebook() -> None:
    assert RULEBOOK.describe() == "The rulebook's assumptions"
    said = Model.from_dict(
        {"market_homes_for": ["high"], "vacancy_control_protects": ["apartments"], "budget": 9}
    ).describe()
    assert said.startswith("Not the rulebook: ")
    assert "market-rate homes only for high income" in said
    assert "vacancy control covers apartments only" in said
    assert "$9" in said


def test_the_batch_refuses_a_batch_of_boards_under_different_models() -> None:
    switched = make_scenario({}, model={"newcomers": {"high": 2}})
    with pytest.raises(HousingLabError, match="one model") as error:
        default_evaluator().encode([switched, make_scenario({}, model={})])
    assert "\n" not in str(error.value) and "2 high income" in str(error.value)
    assert default_evaluator().encode([switched]).model == switched.model


def test_nb_score_streams_boards_with_and_without_switches_in_order(capsys) -> None:
    documents = [
        {"tiles": {"B1": "tower_market"}, "seed": 3},
        {"tiles": {"B1": "tower_market"}, "seed": 3, "model": {"market_homes_for": ["high"]}},
        {"tiles": {"C1": "tower_public"}, "seed": 5},
        {"seed": 5, "model": {"newcomers": {"middle": 0}}},
    ]
    code, out, err = run_score(capsys, "\n".join(map(json.dumps, documents)) + "\n")
    assert code == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == 4
    for document, line in zip(documents, lines, strict=True):
        assert line == score_scenario(scenario_from_dict(document)).to_dict()
    assert "model" not in lines[0] and lines[1]["model"]["market_homes_for"] == ["high"]


def test_nb_score_over_budget_is_one_line_exit_2(capsys) -> None:
    document = {"tiles": {"A1": "tower_public"}, "model": {"budget": 1}}
    code, _, err = run_score(capsys, json.dumps(document))
    assert code == 2
    assert err.count("\n") == 1 and "over the city budget of $1" in err


def test_placement_refusal_names_the_budget_and_counts_the_replaced_tile() -> None:
    from housing_lab.north_berkeley import make_scenario

    costs = Board.from_scenario(make_scenario(tiles={})).tile_costs()
    tower = max(costs, key=costs.__getitem__)
    cheap = min((t for t in costs if costs[t] > 0), key=costs.__getitem__)
    budget = costs[cheap]
    scenario = make_scenario(tiles={"C2": cheap}, model={"budget": int(budget)})
    assert (
        legal.placement_refusal("C2", cheap, *_board_args(scenario)) is None
    )  # the same tile again: same spending
    reason = legal.placement_refusal("C1", tower, *_board_args(scenario))
    assert reason is not None and "over the city budget" in reason and "C1" in reason
    assert (
        legal.placement_refusal("C1", tower, *_board_args(make_scenario(tiles={}))) is None
    )  # no budget, no limit

"""The batch under the model's switches (issue 22): it agrees with the scalar engine and with
`nb score` on random scenarios with random switches, conserves residents, keeps the rulebook
path as it was, and refuses bad switches in one line naming them."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley.batch.evaluator import default_evaluator
from housing_lab.north_berkeley.batch.sweep import (
    policy_combinations,
    random_boards,
    state_fills,
    sweep,
)
from housing_lab.north_berkeley.engine.scoring import score_scenario
from housing_lab.north_berkeley.layout import default_layout
from housing_lab.north_berkeley.model import RULEBOOK, Model
from housing_lab.north_berkeley.policies import INCOMES, POLICIES, RuleOptions
from housing_lab.north_berkeley.scenario import board_spending, make_scenario, scenario_from_dict
from housing_lab.north_berkeley.tiles import default_catalogue
from tests.support import Cli

EVALUATOR = default_evaluator()
SQUARES = default_layout().squares
TILES = list(default_catalogue())

newcomers = st.dictionaries(st.sampled_from(INCOMES), st.integers(0, 16), max_size=3)
market_homes_for = st.sets(st.sampled_from(["middle", "low"])).map(lambda s: ["high", *s])
protects = st.sampled_from([["houses"], ["apartments"], ["houses", "apartments"]])
budgets = st.one_of(st.none(), st.integers(0, 40), st.sampled_from([2.5, 7.5, 999]))


@st.composite
def models(draw: st.DrawFn) -> dict[str, Any]:
    """A JSON `model` object with any subset of the switches set to any allowed value."""
    model: dict[str, Any] = {}
    for key, strategy in (
        ("newcomers", newcomers),
        ("market_homes_for", market_homes_for),
        ("vacancy_control_protects", protects),
        ("budget", budgets),
    ):
        if draw(st.booleans()):
            model[key] = draw(strategy)
    return model


@st.composite
def documents(draw: st.DrawFn) -> dict[str, Any]:
    """A scenario document the scalar engine accepts, with random switches."""
    tiles = draw(st.dictionaries(st.sampled_from(SQUARES), st.sampled_from(TILES)))
    policies = draw(st.lists(st.sampled_from(POLICIES), unique=True, max_size=3))
    document = {"tiles": tiles, "policies": policies, "seed": draw(st.integers(0, 99))}
    document["model"] = draw(models())
    try:
        scenario_from_dict(document)
    except HousingLabError:  # affordable_100 broken, over budget: make it valid instead
        document["policies"] = [p for p in policies if p != "affordable_100"]
        document["model"].pop("budget", None)
    return document


def _options(low_income_in_adus: bool, newcomers_first: bool) -> tuple[RuleOptions, list[str]]:
    flags = ["--low-income-in-adus"] * low_income_in_adus + ["--newcomers-first"] * newcomers_first
    options = RuleOptions(
        low_income_in_adus=low_income_in_adus, displaced_first=not newcomers_first
    )
    return options, flags


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(documents(), min_size=1, max_size=6),
    st.booleans(),
    st.booleans(),
)
def test_scalar_batch_and_nb_score_agree_under_random_switches(
    cli: Cli, docs: list[dict[str, Any]], low_income_in_adus: bool, newcomers_first: bool
) -> None:
    options, flags = _options(low_income_in_adus, newcomers_first)
    expected = [score_scenario(scenario_from_dict(d), options).to_dict() for d in docs]
    for document, want in zip(docs, expected, strict=True):
        scenario = scenario_from_dict(document)
        got = EVALUATOR.evaluate(EVALUATOR.encode([scenario]), options).to_dict(0)
        assert got == want
    # nb score: a stream of boards under different models, in order, byte for byte
    code, out, err = cli("nb", "score", "-", *flags, stdin="\n".join(map(json.dumps, docs)))
    assert code == 0, err
    assert out.splitlines() == [json.dumps(want) for want in expected]


def test_scalar_and_batch_agree_on_many_boards_under_each_switch() -> None:
    """Fast inner-loop version: one batch per model, 15 random boards each."""
    rng = np.random.default_rng(7)
    switched = [
        {"newcomers": {"high": 16, "middle": 0, "low": 3}},
        {"market_homes_for": ["high"]},
        {"market_homes_for": ["high", "low"]},
        {"vacancy_control_protects": ["apartments"]},
        {"vacancy_control_protects": ["houses"], "newcomers": {"low": 16}},
    ]
    for model in switched:
        scenarios = []
        while len(scenarios) < 15:
            tiles = {q: TILES[rng.integers(len(TILES))] for q in SQUARES if rng.random() < 0.8}
            policies = list(rng.choice(POLICIES, size=rng.integers(0, 3), replace=False))
            try:
                scenarios.append(
                    make_scenario(tiles, policies, seed=int(rng.integers(99)), model=model)
                )
            except HousingLabError:
                continue
        got = EVALUATOR.evaluate(EVALUATOR.encode(scenarios)).to_dicts()
        assert got == [score_scenario(s).to_dict() for s in scenarios], model


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(models(), st.integers(0, 2**32))
def test_housed_plus_unhoused_is_existing_plus_newcomers(model: dict, seed: int) -> None:
    model.pop("budget", None)
    checked = Model.from_dict(model)
    result = EVALUATOR.evaluate(random_boards(200, seed, empty=0.3), model=checked)
    for i, income in enumerate(INCOMES):
        total = 4 + checked.newcomers[income]
        assert (result.housed[:, i] + result.unhoused[:, i] == total).all()
        assert (result.outcomes[:, i].sum(axis=1) == total).all()  # every resident has one
    frame = sweep(random_boards(50, seed), model=checked)
    for income in INCOMES:
        total = 4 + checked.newcomers[income]
        assert (frame[f"housed_{income}"] + frame[f"unhoused_{income}"] == total).all()


def test_the_switches_change_the_batch_as_the_rulebook_says() -> None:
    """Not only agreement: each switch moves the numbers the way its meaning says."""
    boards = random_boards(2000, seed=11)
    rulebook = EVALUATOR.evaluate(boards)
    no_filtering = EVALUATOR.evaluate(boards, model={"market_homes_for": ["high"]})
    assert (no_filtering.housed[:, 2] <= rulebook.housed[:, 2]).all()
    assert (no_filtering.housed[:, 2] < rulebook.housed[:, 2]).any()
    assert (no_filtering.counts.middle_market == 0).all()
    houses_exempt = EVALUATOR.evaluate(boards, model={"vacancy_control_protects": ["apartments"]})
    controlled = (boards.policies & (1 << POLICIES.index("vacancy_control"))) > 0
    assert (rulebook.displaced[controlled] == 0).all()
    assert houses_exempt.displaced[controlled].sum() > 0
    assert (houses_exempt.counts.high_apartment_low[controlled] == 0).all()
    jobs = EVALUATOR.evaluate(boards, model={"newcomers": {"high": 16}})
    assert (jobs.housed[:, 0] >= rulebook.housed[:, 0]).all()
    assert (jobs.displaced.sum(axis=1) >= rulebook.displaced.sum(axis=1)).all()


def test_the_rulebook_path_is_unchanged_and_echoes_only_when_asked() -> None:
    boards = random_boards(500, seed=3)
    plain, asked = EVALUATOR.evaluate(boards), EVALUATOR.evaluate(boards, model=RULEBOOK)
    for name in ("spending_units", "new_homes", "housed", "displaced", "outcomes", "plus"):
        assert np.array_equal(getattr(plain, name), getattr(asked, name))
        assert getattr(plain, name).dtype == getattr(asked, name).dtype
    assert plain.unhoused.dtype == plain.housed.dtype
    assert "model" not in plain.to_dict(0)
    assert asked.to_dict(0)["model"] == RULEBOOK.to_dict()
    assert asked.to_dict(0) == {**plain.to_dict(0), "model": RULEBOOK.to_dict()}
    assert "within_budget" not in sweep(boards.take(slice(0, 10))).columns


def test_a_batch_carries_one_model() -> None:
    a = make_scenario({}, model={"newcomers": {"high": 2}})
    b = make_scenario({}, model={"market_homes_for": ["high"]})
    with pytest.raises(HousingLabError, match="one model") as error:
        EVALUATOR.encode([a, b])
    assert "\n" not in str(error.value)
    boards = EVALUATOR.encode([a, a])
    assert boards.model == a.model and boards.take(slice(0, 1)).model == a.model
    with pytest.raises(HousingLabError, match="carry their own model"):
        EVALUATOR.evaluate(boards, model={"newcomers": {"high": 3}})
    assert EVALUATOR.evaluate(boards).to_dict(0) == score_scenario(a).to_dict()
    assert EVALUATOR.scenario_dict(boards, 0)["model"] == a.model.to_dict()  # type: ignore[union-attr]


def test_within_budget_is_the_scalar_budget_check() -> None:
    budget = Fraction(15, 2)
    boards = random_boards(400, seed=5, empty=0.5)
    result = EVALUATOR.evaluate(boards, model={"budget": 7.5})
    spent = [
        board_spending(scenario_from_dict(EVALUATOR.scenario_dict(boards, i)))
        for i in range(len(boards))
    ]
    assert result.within_budget.tolist() == [s <= budget for s in spent]
    assert 0 < result.within_budget.sum() < len(boards)  # both kinds occur
    frame = sweep(boards, model={"budget": 7.5})
    assert frame["within_budget"].tolist() == result.within_budget.tolist()


def test_random_boards_with_a_budget_draw_only_boards_within_it() -> None:
    model = Model(budget=Fraction(4))
    boards = random_boards(300, seed=2, model=model)
    assert boards.model == model
    assert EVALUATOR.evaluate(boards).within_budget.all()
    unlimited = random_boards(300, seed=2)
    assert not EVALUATOR.evaluate(unlimited, model=model).within_budget.all()
    assert np.array_equal(random_boards(300, seed=2, model=model).tiles, boards.tiles)  # seeded
    fills = state_fills({"A1": "park"}, 50, seed=1, policies=["adu"], model={"budget": 3})
    assert EVALUATOR.evaluate(fills).within_budget.all()
    with pytest.raises(HousingLabError, match=r"alone spend at least \$.*budget of \$0") as error:
        random_boards(10, seed=1, tiles={"A1": "tower_public"}, model={"budget": 0})
    assert "\n" not in str(error.value)
    with pytest.raises(HousingLabError, match="over the city budget"):
        policy_combinations({"A1": "tower_public"}, model={"budget": 0})


def test_sweep_scores_under_the_model_given() -> None:
    boards = random_boards(300, seed=9)
    model = {"market_homes_for": ["high"], "newcomers": {"low": 12}}
    frame = sweep(boards, model=model)
    result = EVALUATOR.evaluate(boards, model=model)
    assert frame["housed_low"].tolist() == result.housed[:, 2].tolist()
    assert frame["unhoused_low"].tolist() == (16 - result.housed[:, 2]).tolist()
    assert not frame["housed_low"].equals(sweep(boards)["housed_low"])


@pytest.mark.slow
def test_nb_sample_with_a_model_is_what_the_scalar_engine_says(cli: Cli) -> None:
    model = {"market_homes_for": ["high", "low"], "newcomers": {"high": 16}, "budget": 5}
    code, out, err = cli(
        "nb", "sample", "--boards", "20", "--seed", "4", "--model", json.dumps(model)
    )
    assert code == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == 20
    for line in lines:
        assert line["scenario"]["model"] == Model.from_dict(model).to_dict()
        expected = score_scenario(scenario_from_dict(line["scenario"])).to_dict()
        assert json.dumps(line["result"]) == json.dumps(expected)
        assert line["result"]["spending"] <= 5
    code, plain, _ = cli("nb", "sample", "--boards", "5", "--seed", "4")
    assert code == 0 and '"model"' not in plain


@pytest.mark.parametrize(
    ("model", "named"),
    [
        ('{"newcomers": {"low": 17}}', "got 17"),
        ('{"bogus": 1}', "'bogus'"),
        ('{"market_homes_for": ["middle"]}', "must contain 'high'"),
        ('{"vacancy_control_protects": ["garages"]}', "'garages'"),
        ('{"budget": -1}', "got -1"),
        ('{"newcomers": ', "malformed JSON"),
        ("[1, 2]", "got [1, 2]"),
        ("missing-model.json", "missing-model.json"),
    ],
)
def test_nb_sample_bad_model_is_one_line_exit_2(cli: Cli, tmp_path, model: str, named: str) -> None:
    code, out, err = cli("nb", "sample", "--boards", "3", "--model", model, cwd=tmp_path)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and "--model" in err and named in err, err


def test_nb_score_bad_switch_in_a_scenario_is_one_line_exit_2(cli: Cli) -> None:
    good = {"tiles": {"A1": "park"}}
    bad = {"tiles": {"A1": "park"}, "model": {"market_homes_for": ["high", "rich"]}}
    code, out, err = cli("nb", "score", "-", stdin=f"{json.dumps(good)}\n{json.dumps(bad)}\n")
    assert code == 2
    assert out.splitlines() == [json.dumps(score_scenario(scenario_from_dict(good)).to_dict())]
    assert err.count("\n") == 1 and "line 2" in err and "'rich'" in err

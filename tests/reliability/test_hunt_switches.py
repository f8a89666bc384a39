"""Hypothesis hunt over the model switches (issue 43 item 6, the third hunt's first category).

Models as JSON documents with odd values, boards scored under random models, and the same
model given by each accepted route. The contract: a model is accepted (and then it is a value:
it survives JSON, cannot be changed, and scores the same whichever way it reaches the engine)
or it is refused in one `HousingLabError` line, and the `nb score` command exits 0 or 2 with
one line."""

from __future__ import annotations

import json
import os
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley.engine.scoring import score_scenario
from housing_lab.north_berkeley.layout import default_layout
from housing_lab.north_berkeley.model import HOME_KINDS, SWITCH_KEYS, Model
from housing_lab.north_berkeley.policies import AFFORDABLE_100, INCOMES, POLICIES, RuleOptions
from housing_lab.north_berkeley.scenario import (
    affordable_violations,
    board_spending,
    make_scenario,
    replaced,
)
from housing_lab.north_berkeley.tiles import default_catalogue
from tests.support import run_cli

from .test_hunts import JUNK

LAYOUT = default_layout()
CATALOGUE = default_catalogue()
HUNT = settings(
    max_examples=int(os.environ.get("HUNT_EXAMPLES", "60")),  # more: see tests/conftest.py
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

counts = st.one_of(st.integers(-2, 18), st.sampled_from([8.0, 2.5, True, "8", None, 10**30]))
money = st.one_of(
    st.integers(-5, 1200),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([10.4999999, 5e-324, 0.005, 999.999, "12", True, None, Fraction(1, 3)]),
)
SWITCH_VALUES = {
    "newcomers": st.one_of(
        st.dictionaries(st.sampled_from([*INCOMES, "rich", ""]), counts, max_size=4), JUNK
    ),
    "market_homes_for": st.one_of(
        st.lists(st.sampled_from([*INCOMES, "everyone"]), max_size=4), JUNK
    ),
    "vacancy_control_protects": st.one_of(
        st.lists(st.sampled_from([*HOME_KINDS, "condos"]), max_size=3), JUNK
    ),
    "budget": st.one_of(money, JUNK),
}
model_documents = st.one_of(
    st.fixed_dictionaries({}, optional=SWITCH_VALUES),
    st.dictionaries(st.text(max_size=8), JUNK, max_size=2),
    JUNK,
)
valid_models = st.builds(
    Model,
    newcomers=st.fixed_dictionaries({}, optional={i: st.integers(0, 16) for i in INCOMES}),
    market_homes_for=st.sets(st.sampled_from(INCOMES)).map(lambda s: frozenset(s | {"high"})),
    vacancy_control_protects=st.sets(st.sampled_from(HOME_KINDS), min_size=1).map(frozenset),
    budget=st.one_of(st.none(), st.integers(0, 60), st.sampled_from([0.5, 7.25, 12.75])),
)
boards = st.fixed_dictionaries(
    {}, optional={square: st.sampled_from(list(CATALOGUE)) for square in LAYOUT.squares}
)
policy_sets = st.sets(st.sampled_from(POLICIES))


def one_line(error: HousingLabError) -> None:
    message = str(error)
    assert message and "\n" not in message and len(message) < 1000, message


@pytest.mark.slow  # a hunt of 60 examples
@HUNT
@given(document=model_documents)
def test_hunt_a_model_document(document) -> None:
    try:
        model = Model.from_dict(document)
    except HousingLabError as error:
        one_line(error)
        return
    echoed = json.loads(json.dumps(model.to_dict()))  # plain JSON: no Fraction, no numpy
    assert Model.from_dict(echoed) == model
    assert set(echoed) == set(SWITCH_KEYS)
    with pytest.raises(TypeError):
        model.newcomers["low"] = 99  # type: ignore[index]
    budget = model.city_budget()
    assert budget is None or (budget >= 0 and (budget * 100).denominator == 1)  # whole cents


@pytest.mark.slow  # a hunt of 60 boards, each scored twice
@HUNT
@given(tiles=boards, policies=policy_sets, model=valid_models)
def test_hunt_a_board_under_a_model_scores_alike_by_either_route(tiles, policies, model) -> None:
    if affordable_violations(tiles, LAYOUT, CATALOGUE):
        policies = policies - {AFFORDABLE_100}
    try:
        carried = make_scenario(tiles, sorted(policies), seed=3, model=model)
    except HousingLabError as error:  # over the model's budget: one line naming both sums
        one_line(error)
        assert model.over_budget(board_spending(make_scenario(tiles, sorted(policies), seed=3)))
        return
    assert not model.over_budget(board_spending(carried))
    by_scenario = score_scenario(carried).to_dict()
    by_options = score_scenario(replaced(carried, model=None), RuleOptions(model=model)).to_dict()
    assert by_options["housed"] == by_scenario["housed"]
    assert by_options["displaced"] == by_scenario["displaced"]
    for income in INCOMES:  # everyone of the model's demand is housed or not, no one else
        residents = 4 + model.newcomers_of(income)
        assert by_scenario["housed"][income] + by_scenario["unhoused"][income] == residents


@pytest.mark.slow  # 30 runs of the command in-process
@settings(HUNT, max_examples=max(HUNT.max_examples // 2, 1))
@given(document=model_documents)
def test_hunt_nb_score_under_an_odd_model_agrees_with_the_api(document) -> None:
    text = json.dumps({"tiles": {"B1": "tower_market"}, "model": document}, default=repr)
    sent = json.loads(text)["model"]  # what the command reads (JSON has no tuples, no objects)
    code, out, err = run_cli("nb", "score", "-", stdin=text)
    try:
        expected = Model.from_dict(sent)
    except HousingLabError:
        assert code == 2 and err.strip() and "\n" not in err.strip(), err
        return
    assert code == 0, err
    if sent is not None:
        assert json.loads(out)["model"] == expected.to_dict()

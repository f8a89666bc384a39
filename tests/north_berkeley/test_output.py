"""One result schema (the result JSON in `engine.scoring`): the scalar engine, the batch and
`nb score`'s streamed lines all take their keys and sections from it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from housing_lab.north_berkeley.batch import lines as batch_lines
from housing_lab.north_berkeley.batch.evaluator import ALL_POLICY_SETS, default_evaluator
from housing_lab.north_berkeley.batch.lines import ResultLines
from housing_lab.north_berkeley.batch.result import result_sections
from housing_lab.north_berkeley.batch.sweep import random_boards
from housing_lab.north_berkeley.engine import scoring
from housing_lab.north_berkeley.engine.scoring import score_scenario
from housing_lab.north_berkeley.model import Model
from housing_lab.north_berkeley.policies import RuleOptions
from housing_lab.north_berkeley.scenario import scenario_from_dict
from tests.strategies import models

MODEL = {"newcomers": {"low": 16}, "market_homes_for": ["high"]}


def three_writers(n: int, model: dict | None = None) -> list[tuple[Any, Any, Any]]:
    """(scalar dict, batch dict, streamed line parsed) for n random boards."""
    evaluator = default_evaluator()
    boards = random_boards(n, 5, policy_sets=ALL_POLICY_SETS, empty=0.2, evaluator=evaluator)
    result = evaluator.evaluate(boards, None, model)
    lines = list(ResultLines(evaluator).lines(result))
    out = []
    for i, (row, line) in enumerate(zip(result.to_dicts(), lines, strict=True)):
        document = evaluator.scenario_dict(boards, i, seed=i)
        if model is not None:
            document["model"] = model
        scalar = score_scenario(scenario_from_dict(document)).to_dict()
        assert json.dumps(scalar) == json.dumps(row) == line
        out.append((scalar, row, json.loads(line)))
    return out


@pytest.mark.parametrize("model", [None, MODEL])
def test_every_writer_has_the_schemas_keys_in_order(model: dict | None) -> None:
    expected = list(scoring.KEYS) + ([] if model is None else [scoring.MODEL])
    for scalar, row, line in three_writers(12, model):
        assert list(scalar) == list(row) == list(line) == expected
        if model is not None:
            assert scalar["model"] == Model.from_dict(MODEL).to_dict()


def test_a_section_changed_in_the_schema_changes_every_writer(monkeypatch) -> None:
    card, by_income = scoring.card, scoring.by_income
    monkeypatch.setattr(scoring, "card", lambda p, m: {**card(p, m), "schema": 1})
    monkeypatch.setattr(scoring, "by_income", lambda c: {**by_income(c), "all": sum(c)})
    for scalar, row, line in three_writers(10):
        for result in (scalar, row, line):
            assert all(entry["schema"] == 1 for entry in result["constituents"].values())
            for key in ("housed", "unhoused", "displaced"):
                assert result[key]["all"] == sum(result[key][i] for i in ("high", "middle", "low"))


def test_a_result_without_every_section_is_refused() -> None:
    with pytest.raises(ValueError, match="vacant"):
        scoring.result({key: 0 for key in scoring.KEYS if key != "vacant"})


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(models(), st.integers(0, 2**32), st.booleans(), st.booleans())
def test_the_batchs_two_writers_agree_under_random_switches(
    model: dict, seed: int, low_income_in_adus: bool, displaced_first: bool
) -> None:
    """`to_dicts` and the JSON text lines, both made from `result_sections`, give the same
    results byte for byte on random boards under random switches and rule options (and the
    scalar engine's, checked on a few of them)."""
    evaluator = default_evaluator()
    options = RuleOptions(low_income_in_adus=low_income_in_adus, displaced_first=displaced_first)
    boards = random_boards(60, seed, policy_sets=ALL_POLICY_SETS, empty=0.2, evaluator=evaluator)
    result = evaluator.evaluate(boards, options, model)
    rows = result.to_dicts()
    assert list(ResultLines(evaluator).lines(result)) == [json.dumps(row) for row in rows]
    for i in range(0, 60, 20):
        # without the budget: the scalar engine refuses a board over it, the batch flags it
        unbounded = {key: value for key, value in model.items() if key != "budget"}
        document = {**evaluator.scenario_dict(boards, i, seed=i), "model": unbounded}
        assert rows[i] == {
            **score_scenario(scenario_from_dict(document), options).to_dict(),
            "model": Model.from_dict(model).to_dict(),
        }


def test_text_lines_stay_right_when_their_caches_are_emptied(monkeypatch) -> None:
    monkeypatch.setattr(batch_lines, "SLICE", 16)  # boards looked up at once: at most MAX_CACHED
    monkeypatch.setattr(batch_lines, "MAX_CACHED", 20)
    evaluator = default_evaluator()
    boards = random_boards(200, 8, policy_sets=ALL_POLICY_SETS, evaluator=evaluator)
    result = evaluator.evaluate(boards)
    writer = ResultLines(evaluator)
    assert list(writer.lines(result)) == [json.dumps(row) for row in result.to_dicts()]
    assert writer.caches and all(len(cache) <= 20 for cache in writer.caches.values())


def test_every_section_is_read_from_its_codes_alone() -> None:
    """A section's value depends on nothing but its row of codes: boards with equal codes
    have equal sections (what lets the text writer cache and precompute them)."""
    evaluator = default_evaluator()
    result = evaluator.evaluate(random_boards(400, 9, policy_sets=ALL_POLICY_SETS))
    rows = result.to_dicts()
    for section in result_sections(evaluator):
        seen: dict[bytes, Any] = {}
        for codes, row in zip(section.codes(result), rows, strict=True):
            assert seen.setdefault(codes.tobytes(), row[section.key]) == row[section.key]
        assert len(seen) > 1

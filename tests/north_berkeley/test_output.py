"""One result schema (`engine.output`): the scalar engine, the batch and `nb score`'s streamed
lines all take their keys and sections from it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from housing_lab.north_berkeley.batch.evaluator import ALL_POLICY_SETS, default_evaluator
from housing_lab.north_berkeley.batch.lines import ResultLines
from housing_lab.north_berkeley.batch.sweep import random_boards
from housing_lab.north_berkeley.engine import output
from housing_lab.north_berkeley.engine.scoring import score_scenario
from housing_lab.north_berkeley.model import Model
from housing_lab.north_berkeley.scenario import scenario_from_dict

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
    expected = list(output.KEYS) + ([] if model is None else [output.MODEL])
    for scalar, row, line in three_writers(12, model):
        assert list(scalar) == list(row) == list(line) == expected
        if model is not None:
            assert scalar["model"] == Model.from_dict(MODEL).to_dict()


def test_a_section_changed_in_the_schema_changes_every_writer(monkeypatch) -> None:
    card, by_income = output.card, output.by_income
    monkeypatch.setattr(output, "card", lambda p, m: {**card(p, m), "schema": 1})
    monkeypatch.setattr(output, "by_income", lambda c: {**by_income(c), "all": sum(c)})
    for scalar, row, line in three_writers(10):
        for result in (scalar, row, line):
            assert all(entry["schema"] == 1 for entry in result["constituents"].values())
            for key in ("housed", "unhoused", "displaced"):
                assert result[key]["all"] == sum(result[key][i] for i in ("high", "middle", "low"))


def test_a_result_without_every_section_is_refused() -> None:
    with pytest.raises(ValueError, match="vacant"):
        output.result({key: 0 for key in output.KEYS if key != "vacant"})

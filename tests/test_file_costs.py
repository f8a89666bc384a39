"""The run order: dearest test file first, each file's tests in their own order, and the record
of seconds per file that decides it (tests/file_costs.py)."""

from __future__ import annotations

import json
import pathlib
from types import SimpleNamespace

import pytest

from tests.file_costs import RECORD, CostRecorder, costliest_files_first, load_costs


def items(*nodeids: str) -> list[SimpleNamespace]:
    return [SimpleNamespace(nodeid=n) for n in nodeids]


def order(ordered: list[SimpleNamespace]) -> list[str]:
    return [item.nodeid for item in ordered]


def test_the_dearest_file_runs_first_and_each_file_keeps_its_order() -> None:
    collected = items(
        "tests/a.py::one",
        "tests/a.py::two",
        "tests/b.py::one",
        "lessons/01.ipynb::Cell 0",
        "tests/b.py::two[x]",
    )
    costs = {"tests/a.py": 1.0, "tests/b.py": 30.0, "lessons/01.ipynb": 5.0}
    assert order(costliest_files_first(collected, costs)) == [
        "tests/b.py::one",
        "tests/b.py::two[x]",
        "lessons/01.ipynb::Cell 0",
        "tests/a.py::one",
        "tests/a.py::two",
    ]


def test_a_file_missing_from_the_record_costs_its_number_of_tests() -> None:
    collected = items(
        "tests/new.py::a", "tests/old.py::a", *(f"tests/new.py::t{i}" for i in range(99))
    )
    assert order(costliest_files_first(collected, {"tests/old.py": 1.0}))[-1] == "tests/old.py::a"
    assert order(costliest_files_first(collected, {"tests/old.py": 10.0}))[0] == "tests/old.py::a"


def test_equal_costs_keep_the_collection_order() -> None:
    collected = items("tests/z.py::a", "tests/a.py::a", "tests/m.py::a")
    assert order(costliest_files_first(collected, {})) == order(collected)


@pytest.mark.parametrize("text", ["", "not json", "[1, 2]", '{"tests/a.py": "slow"}'])
def test_an_unreadable_record_orders_nothing(tmp_path: pathlib.Path, text: str) -> None:
    record = tmp_path / "file_costs.json"
    record.write_text(text)
    assert load_costs(record) == {}
    assert load_costs(tmp_path / "missing.json") == {}


def test_the_recorder_adds_every_phase_by_file_and_saves_what_load_reads(
    tmp_path: pathlib.Path,
) -> None:
    recorder = CostRecorder()
    for nodeid, seconds in [
        ("tests/a.py::one", 1.0),  # setup
        ("tests/a.py::one", 2.25),  # call
        ("tests/a.py::two[1]", 0.5),
        ("lessons/01.ipynb::Cell 3", 4.0),
    ]:
        recorder.add(nodeid, seconds)
    record = tmp_path / "file_costs.json"
    recorder.save(record)
    assert load_costs(record) == {"tests/a.py": 3.8, "lessons/01.ipynb": 4.0}


def test_the_shipped_record_names_files_that_exist() -> None:
    root = RECORD.parents[1]
    costs = json.loads(RECORD.read_text())
    assert costs, "tests/file_costs.json is empty"
    missing = [file for file in costs if not (root / file).is_file()]
    assert missing == [], f"refresh tests/file_costs.json (see tests/file_costs.py): {missing}"

"""`nb score` on JSON Lines and `nb sample` through the batch evaluator: byte for byte the scalar
engine's lines, written as they come, memory flat."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from housing_lab.commands.score_stream import score_batched
from housing_lab.jsonio import MAX_LINE_BYTES, documents
from housing_lab.north_berkeley.batch.evaluator import ALL_POLICY_SETS, default_evaluator
from housing_lab.north_berkeley.batch.lines import ResultLines
from housing_lab.north_berkeley.batch.stream import BoardRows
from housing_lab.north_berkeley.batch.sweep import random_boards
from housing_lab.north_berkeley.engine.scoring import score_scenario
from housing_lab.north_berkeley.layout import default_layout, layout_from_dict
from housing_lab.north_berkeley.policies import RuleOptions
from housing_lab.north_berkeley.scenario import scenario_from_dict

OPTIONS = [
    RuleOptions(),
    RuleOptions(low_income_in_adus=True),
    RuleOptions(displaced_first=False),
    RuleOptions(low_income_in_adus=True, displaced_first=False),
]


def random_documents(n: int, seed: int) -> list[dict]:
    """Random boards of every kind: empty squares, all 16 policy sets, with and without an
    explicit placement (the seed's shuffle otherwise)."""
    evaluator = default_evaluator()
    boards = random_boards(n, seed, policy_sets=ALL_POLICY_SETS, empty=0.25, evaluator=evaluator)
    docs = []
    for i in range(n):
        doc = evaluator.scenario_dict(boards, i, seed=i)
        if i % 3 == 0:
            del doc["existing"]
        docs.append(doc)
    return docs


def scalar_lines(docs: list[dict], options: RuleOptions) -> str:
    return "".join(
        json.dumps(score_scenario(scenario_from_dict(d), options).to_dict()) + "\n" for d in docs
    )


def batched(text: str, options: RuleOptions, layout=None) -> str:
    out = io.StringIO()
    stream = io.BytesIO(text.encode())
    score_batched(documents(stream), layout or default_layout(), options, out)
    return out.getvalue()


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: repr(o.to_dict()))
def test_batched_lines_are_the_scalar_lines_byte_for_byte(options: RuleOptions) -> None:
    docs = random_documents(1500, seed=len(repr(options)))
    text = "".join(json.dumps(d) + "\n" for d in docs)
    assert batched(text, options) == scalar_lines(docs, options)


def test_fast_rows_agree_with_the_scalar_parser() -> None:
    evaluator = default_evaluator()
    rows = BoardRows(evaluator)
    for doc in random_documents(500, seed=9):
        scenario = scenario_from_dict(doc)
        assert rows.row(doc) == rows.scenario_row(scenario)


def test_a_custom_layout_scores_as_the_scalar_engine() -> None:
    from housing_lab._data import read_package_toml

    data = read_package_toml("housing_lab.north_berkeley", "layout.toml")
    data["tags"] = {**data["tags"], "greenway": ["A1", "B2", "C3"]}
    data["existing"] = list(reversed(data["existing"]))
    layout = layout_from_dict(data)
    docs = [{"tiles": {"A1": "tower_market", "C3": "midrise_public"}, "seed": s} for s in range(50)]
    text = "".join(json.dumps(d) + "\n" for d in docs)
    expected = "".join(
        json.dumps(score_scenario(scenario_from_dict(d, layout)).to_dict()) + "\n" for d in docs
    )
    assert batched(text, RuleOptions(), layout) == expected


def test_result_lines_cache_stays_bounded() -> None:
    lines = ResultLines(default_evaluator())
    boards = random_boards(300, 1, evaluator=default_evaluator())
    list(lines.lines(default_evaluator().evaluate(boards)))
    assert all(len(cache) <= 300 for cache in lines.caches.values())


def test_sample_lines_match_the_scalar_engine_across_draw_chunks(monkeypatch) -> None:
    from housing_lab.commands import north_berkeley_analysis as analysis

    monkeypatch.setattr(analysis, "DRAW_CHUNK", 50)
    lines = list(analysis.sample_lines(130, 3, RuleOptions()))
    assert len(lines) == 130 and len(set(lines)) == 130  # chunks draw different boards
    for line in lines[::7]:
        record = json.loads(line)
        expected = score_scenario(scenario_from_dict(record["scenario"])).to_dict()
        assert line == json.dumps({"scenario": record["scenario"], "result": expected})


def _run_measured(args: list[str], stdin_path: Path | None = None) -> tuple[float, float, int]:
    """(seconds to the first output byte, peak RSS in MB, exit code) of a CLI subprocess."""
    code = (
        "import runpy, sys; sys.argv = ['housing-lab', *sys.argv[1:]];\n"
        "try:\n    runpy.run_module('housing_lab.cli', run_name='__main__')\n"
        "finally:\n"
        "    status = open('/proc/self/status').read()\n"  # VmHWM: this program's own peak
        "    print(status.split('VmHWM:')[1].split()[0], file=sys.stderr)"
    )
    started = time.perf_counter()
    with open(stdin_path or "/dev/null", "rb") as stdin:
        process = subprocess.Popen(
            [sys.executable, "-c", code, *args],
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert process.stdout is not None
        process.stdout.read(1)
        first = time.perf_counter() - started
        while process.stdout.read(1 << 16):
            pass
        _, err = process.communicate()
    return first, int(err.split()[-1]) / 1024, process.returncode


@pytest.mark.slow
def test_sample_memory_stays_flat_and_output_starts_at_once() -> None:
    first, peak_mb, code = _run_measured(["nb", "sample", "--boards", "300000"])
    assert code == 0 and peak_mb < 300, peak_mb
    assert first < 30, first  # interpreter + numpy start: seconds, more on a loaded machine


@pytest.mark.slow
def test_score_memory_stays_flat_on_a_large_input(tmp_path: Path) -> None:
    docs = random_documents(2000, seed=1)
    path = tmp_path / "in.jsonl"
    with path.open("w") as handle:
        for _ in range(30):  # 60,000 lines, about 20 MB
            handle.writelines(json.dumps(d) + "\n" for d in docs)
    first, peak_mb, code = _run_measured(["nb", "score", "-"], stdin_path=path)
    assert code == 0 and peak_mb < 300, peak_mb
    assert first < 30, first


@pytest.mark.parametrize("events", [False, True], ids=["batched", "events"])
@pytest.mark.parametrize("good_lines", [1, 3])
def test_a_line_over_the_limit_comes_after_the_results_before_it(
    cli, tmp_path: Path, events: bool, good_lines: int
) -> None:
    docs = random_documents(good_lines, seed=4)
    path = tmp_path / "in.jsonl"
    too_long = json.dumps({"tiles": {}, "pad": "x" * MAX_LINE_BYTES})
    path.write_text("".join(json.dumps(d) + "\n" for d in docs) + too_long + "\n")
    code, out, err = cli("nb", "score", *(["--events"] if events else []), str(path))
    expected = [score_scenario(scenario_from_dict(d)).to_dict() for d in docs]
    got = [json.loads(line) for line in out.splitlines()]
    assert [{k: v for k, v in g.items() if k != "events"} for g in got] == expected
    assert code == 2
    assert err.count("\n") == 1 and f"line {good_lines + 1}: longer than" in err, err


@pytest.mark.slow
def test_a_huge_second_line_is_refused_in_bounded_memory(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    with path.open("w") as handle:
        handle.write(json.dumps(random_documents(1, seed=2)[0]) + "\n")
        handle.write('{"pad": "' + "x" * (200 << 20) + '"}\n')  # 200 MB on one line
    _, peak_mb, code = _run_measured(["nb", "score", str(path)])
    assert code == 2 and peak_mb < 300, peak_mb

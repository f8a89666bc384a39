"""`housing-lab nb sample` and `nb solve`: JSON out, the scalar engine agrees, one-line errors."""

from __future__ import annotations

import json

import pytest

from housing_lab.north_berkeley import scenario_from_dict, score_scenario
from housing_lab.north_berkeley.layout import default_layout
from housing_lab.north_berkeley.scenario import shuffled_existing


@pytest.mark.slow
def test_sample_writes_json_lines_the_scalar_engine_agrees_with(tmp_path, cli) -> None:
    out = tmp_path / "boards.jsonl"
    code, stdout, stderr = cli("nb", "sample", "--boards", "300", "--seed", "4", "--out", str(out))
    assert (code, stdout, stderr) == (0, "", "")
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 300
    for line in lines:
        assert set(line) == {"scenario", "result"}
        scenario = scenario_from_dict(line["scenario"])  # valid: affordable_100 respected
        assert len(scenario.tiles) == 9 and 1 <= len(scenario.policies) <= 2
        assert line["result"] == score_scenario(scenario).to_dict()
    assert any("affordable_100" in line["scenario"]["policies"] for line in lines)


def test_sample_is_seeded_and_prints_to_stdout_without_out(cli) -> None:
    _, first, _ = cli("nb", "sample", "--boards", "20", "--seed", "1")
    _, again, _ = cli("nb", "sample", "--boards", "20", "--seed", "1")
    _, other, _ = cli("nb", "sample", "--boards", "20", "--seed", "2")
    assert first == again != other and len(first.splitlines()) == 20


def test_sample_rule_options(cli) -> None:
    code, out, _ = cli(
        "nb",
        "sample",
        "--boards",
        "50",
        "--seed",
        "3",
        "--low-income-in-adus",
        "--newcomers-first",
        "--all-policy-sets",
    )
    assert code == 0
    from housing_lab.north_berkeley import RuleOptions

    options = RuleOptions(low_income_in_adus=True, displaced_first=False)
    for line in map(json.loads, out.splitlines()):
        assert (
            line["result"]
            == score_scenario(scenario_from_dict(line["scenario"]), options).to_dict()
        )


def test_solve_prints_the_best_board(cli) -> None:
    code, out, err = cli(
        "nb",
        "solve",
        "--cards",
        "developer,urbanists",
        "--weights",
        "2,1",
        "--fix",
        "A1=park",
        "--fix",
        "B1=garage,C3=park",
    )
    assert code == 0 and err == ""
    answer = json.loads(out)
    assert {"scenario", "result", "score", "seconds"} <= set(answer)
    scenario = scenario_from_dict(answer["scenario"])
    assert answer["scenario"]["existing"] == shuffled_existing(default_layout(), 0)
    assert {s: scenario.tiles[s] for s in ("A1", "B1", "C3")} == {
        "A1": "park",
        "B1": "garage",
        "C3": "park",
    }
    assert answer["result"] == score_scenario(scenario).to_dict()
    cards = answer["result"]["constituents"]
    assert answer["score"] == 2 * cards["developer"]["score"] + cards["urbanists"]["score"]
    assert answer["score"] == 3  # developer +1 (x2), urbanists +1
    assert 0 <= answer["seconds"] < 60


def test_solve_with_policies_existing_and_seed(tmp_path, cli) -> None:
    existing = shuffled_existing(default_layout(), 5)
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps({"tiles": {}, "existing": existing}))
    code, out, _ = cli(
        "nb",
        "solve",
        "--cards",
        "landlords",
        "--policies",
        "adu,matching_funds",
        "--existing",
        str(path),
    )
    answer = json.loads(out)
    assert code == 0 and answer["scenario"]["policies"] == ["adu", "matching_funds"]
    assert answer["scenario"]["existing"] == existing
    _, inline, _ = cli(
        "nb",
        "solve",
        "--cards",
        "landlords",
        "--policies",
        "adu,matching_funds",
        "--existing",
        json.dumps(existing),
    )
    assert json.loads(inline)["scenario"] == answer["scenario"]
    _, seeded, _ = cli("nb", "solve", "--cards", "landlords", "--seed", "5", "--policies", "none")
    assert json.loads(seeded)["scenario"]["existing"] == existing
    assert json.loads(seeded)["scenario"]["policies"] == []


def test_solve_nonnegative_and_pareto(cli) -> None:
    code, out, _ = cli(
        "nb",
        "solve",
        "--cards",
        "landlords",
        "--nonnegative",
        "--policies",
        "vacancy_control",
        "--seed",
        "0",
    )
    answer = json.loads(out)
    assert code == 0 and answer["scenario"] is None and answer["every_card_nonnegative"] is False
    code, out, _ = cli("nb", "solve", "--cards", "developer", "--pareto", "--policies", "adu")
    frontier = json.loads(out)["pareto"]
    assert frontier and [p["spending"] for p in frontier] == sorted(p["spending"] for p in frontier)
    for point in frontier:
        result = score_scenario(scenario_from_dict(point["scenario"])).to_dict()
        assert (result["spending"], result["housed"]["low"]) == (
            point["spending"],
            point["low_housed"],
        )


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["solve", "--cards", "developer,castle"], "'castle'"),
        (["solve", "--cards", "developer", "--fix", "A1=castle"], "'castle'"),
        (["solve", "--cards", "developer", "--fix", "K9=park"], "'K9'"),
        (["solve", "--cards", "developer", "--fix", "A1"], "'A1'"),
        (["solve", "--cards", "developer", "--weights", "1,2"], "2 weights"),
        (["solve", "--cards", "developer", "--weights", "heavy"], "'heavy'"),
        (
            [
                "solve",
                "--cards",
                "developer",
                "--fix",
                "A3=tower_market",
                "--policies",
                "affordable_100",
            ],
            "A3 (Market Rate Tower)",
        ),
        (["solve", "--cards", "developer", "--policies", "rent_control"], "'rent_control'"),
        (["solve", "--cards", "developer", "--existing", '{"house-1": "rich"}'], "'rich'"),
        (["solve", "--cards", "developer", "--existing", "missing.json"], "missing.json"),
        (["sample", "--boards", "-3"], "'-3'"),
        (["sample", "--boards", "10", "--out", "/nonexistent/dir/x.jsonl"], "x.jsonl"),
    ],
)
def test_mistakes_are_one_line_on_stderr(cli, args, names) -> None:
    code, out, err = cli("nb", *args)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and names in err

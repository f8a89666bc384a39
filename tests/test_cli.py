"""The `housing-lab nb` command: JSON, JSON Lines, stdin, and bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from housing_lab.north_berkeley import scenario_from_dict, score_scenario

SCENARIO = {"tiles": {"A1": "tower_market", "C3": "park"}, "policies": ["adu"], "seed": 7}


def test_score_file_prints_the_engine_result(tmp_path, cli) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps(SCENARIO, indent=2))
    code, out, err = cli("nb", "score", str(path))
    assert code == 0 and err == ""
    assert json.loads(out) == score_scenario(scenario_from_dict(SCENARIO)).to_dict()


def test_score_json_lines_from_stdin_in_order(cli) -> None:
    lines = [dict(SCENARIO, seed=s) for s in range(5)]
    stdin = "\n".join(json.dumps(line) for line in lines) + "\n"
    code, out, _ = cli("nb", "score", "-", stdin=stdin)
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(results) == 5
    for scenario, result in zip(lines, results, strict=True):
        assert result == score_scenario(scenario_from_dict(scenario)).to_dict()


def test_score_events_flag(cli) -> None:
    code, out, _ = cli("nb", "score", "--events", "-", stdin=json.dumps(SCENARIO))
    events = json.loads(out)["events"]
    assert code == 0 and {e["kind"] for e in events} <= {"placed", "displaced", "left"}


@pytest.mark.parametrize(
    ("stdin", "names"),
    [
        ('{"tiles": {"A1": "tower_markt"}}', "'tower_markt'"),
        # an unknown id: the tiles as printed, then the ids a command line is written in
        ('{"tiles": {"A1": "tower_markt"}}', "Market Rate Tower, 25% Inclusionary"),
        ('{"tiles": {"A1": "tower_markt"}}', "; the ids: tower_market, tower_inclusionary_25,"),
        ('{"policies": ["rent_control"]}', "; the ids: vacancy_control, affordable_100, adu,"),
        ('{"tiles": {"K1": "park"}}', "'K1'"),
        ('{"policies": ["rent_control"]}', "'rent_control'"),
        ('{"tiles": {"A3": "tower_market"}, "policies": ["affordable_100"]}', "A3"),
        ('{"tiles": ', "malformed JSON"),
        ('{"existing": {"house-1": "rich"}}', "'rich'"),
        ('{"tiles": []}', "'tiles' must be an object"),
        ('{"tiles": {"A1": ["park"]}}', "['park']"),
        ('{"seed": 1, "seed": 2}', "'seed' appears twice"),
        ('{"seed": NaN}', "NaN"),
        ("[" * 5000 + "]" * 5000, "nested deeper"),
        ('{"seed": ' + "9" * 5000 + "}", "5000 digits"),
    ],
)
def test_bad_input_one_line_exit_2_nothing_on_stdout(cli, stdin: str, names: str) -> None:
    code, out, err = cli("nb", "score", "-", stdin=stdin)
    assert code == 2
    assert out == ""
    assert names in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("stdin", "names", "written"),
    [
        ('{"seed": 1}\n{"seed": 2}\n{"tiles": {"A1": "lighthouse"}}\n', "line 3", 2),
        ('{"seed": 1}\n{"seed": \n', "line 2", 1),
        ('{"seed": 1}\n\n\n{"seed": 2, "seed": 3}\n', "line 4", 1),  # physical lines
        ('{"seed": 1}\n{"tiles": 0}\n', "line 2", 1),
    ],
)
def test_bad_line_stops_after_the_results_before_it(
    cli, stdin: str, names: str, written: int
) -> None:
    code, out, err = cli("nb", "score", "-", stdin=stdin)
    assert code == 2
    assert names in err and err.count("\n") == 1
    documents = [json.loads(line) for line in stdin.splitlines()[:written] if line.strip()]
    expected = [json.dumps(score_scenario(scenario_from_dict(d)).to_dict()) for d in documents]
    assert out.splitlines() == expected


def test_missing_file(cli) -> None:
    code, out, err = cli("nb", "score", "/no/such/file.json")
    assert (code, out) == (2, "") and "/no/such/file.json" in err and err.count("\n") == 1


def test_play_log_has_the_promised_keys(cli) -> None:
    code, out, _ = cli("nb", "play", "--players", "3", "--seed", "4")
    log = json.loads(out)
    assert code == 0
    for key in (
        "players",
        "hands",
        "draft_order",
        "policies_drawn",
        "scenario",
        "result",
        "scores",
        "winners",
        "events",
    ):
        assert key in log, key
    assert set(log["scenario"]["existing"]) == {f"house-{i}" for i in range(1, 7)} | {
        f"apartment-{i}" for i in range(1, 7)
    }
    # the printed result is the engine's result for the printed scenario
    assert log["result"] == score_scenario(scenario_from_dict(log["scenario"])).to_dict()
    assert cli("nb", "play", "--players", "3", "--seed", "4")[1] == out


@pytest.mark.parametrize("args", [["--players", "9"], ["--players", "two"], ["--seed", "x"]])
def test_play_bad_arguments(cli, args: list[str]) -> None:
    code, out, err = cli("nb", "play", *args)
    assert (code, out) == (2, "") and err.count("\n") == 1


@pytest.mark.slow
def test_console_script_is_installed(cli) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "housing_lab.cli", "nb", "score", "-"],
        input=json.dumps(SCENARIO),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and json.loads(done.stdout)["new_homes"]["total"] == 4


@pytest.mark.parametrize(
    ("args", "commands"),
    [((), ("lab", "classroom", "nb", "streetcar", "room")), (("nb",), ("score", "play", "coach"))],
)
def test_no_command_lists_the_commands_exit_2(cli, args: tuple[str, ...], commands) -> None:
    """Issue 44: `housing-lab` alone said only "arguments are required: group"; it now lists
    the commands as --help does (on stderr: nothing on stdout, exit 2)."""
    code, out, err = cli(*args)
    assert (code, out) == (2, "")
    assert err.startswith(f"usage: housing-lab {' '.join(args)}".replace("  ", " "))
    for command in commands:
        assert f"\n    {command} " in err, command
    assert err.splitlines()[-1] == (
        f"housing-lab: error: choose a command: housing-lab {' '.join([*args, 'COMMAND'])} "
        "(the commands are listed above)"
    )
    assert "group" not in err


def test_other_usage_errors_stay_one_line(cli) -> None:
    code, out, err = cli("nb", "score", "--no-such-option")
    assert (code, out) == (2, "") and err.count("\n") == 1


@pytest.mark.slow
def test_python_dash_m_without_a_command_lists_the_commands() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "housing_lab"], capture_output=True, text=True, check=False
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert "    classroom " in done.stderr and "choose a command" in done.stderr

"""`housing-lab streetcar simulate | replay | perft`, run in-process through cli.main."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from housing_lab.streetcar import read_record


def test_simulate_writes_one_record_per_game_and_a_summary(cli, tmp_path: Path) -> None:
    out = tmp_path / "games"
    code, stdout, stderr = cli(
        "streetcar",
        "simulate",
        "--games",
        "4",
        "--seed",
        "9",
        "--bots",
        "greedy,random",
        "--out",
        str(out),
    )
    assert (code, stderr) == (0, "")
    summary = json.loads(stdout)
    assert stdout.count("\n") == 1
    assert summary["games"] == 4 and summary["bots"] == ["greedy", "random"]
    assert sum(summary["wins"]) + summary["shared"] == 4
    assert len(summary["mean_scores"]) == 2
    files = sorted(p.name for p in out.iterdir())
    assert files == ["game-0001.json", "game-0002.json", "game-0003.json", "game-0004.json"]
    # Seats alternate: bot A (greedy) is purple in game 1 and red in game 2.
    for path in out.iterdir():
        assert read_record(path).is_over()


def test_simulate_is_reproducible(cli, tmp_path: Path) -> None:
    for name in ("a", "b"):
        cli(
            "streetcar",
            "simulate",
            "--games",
            "2",
            "--seed",
            "3",
            "--bots",
            "random,random",
            "--out",
            str(tmp_path / name),
        )
    for game in ("game-0001.json", "game-0002.json"):
        assert (tmp_path / "a" / game).read_text() == (tmp_path / "b" / game).read_text()


def test_simulate_options_reach_the_records(cli, tmp_path: Path) -> None:
    code, _, _ = cli(
        "streetcar",
        "simulate",
        "--bots",
        "random,greedy",
        "--penalty",
        "5",
        "--goals",
        "parks,cycling",
        "--out",
        str(tmp_path),
    )
    record = json.loads((tmp_path / "game-0001.json").read_text())
    assert code == 0 and record["penalty"] == 5 and record["goals"] == ["parks", "cycling"]


def test_simulate_refuses_unknown_bots_with_one_line(cli, tmp_path: Path) -> None:
    code, stdout, stderr = cli(
        "streetcar", "simulate", "--bots", "greedy,clever", "--out", str(tmp_path / "x")
    )
    assert (code, stdout) == (2, "")
    assert stderr.strip().count("\n") == 0 and "unknown bot 'clever'" in stderr
    assert not (tmp_path / "x").exists()
    code, _, stderr = cli("streetcar", "simulate", "--games", "0", "--out", str(tmp_path))
    assert code == 2 and "at least 1" in stderr
    code, _, stderr = cli("streetcar", "simulate", "--bots", "greedy", "--out", str(tmp_path))
    assert code == 2 and "needs 2 bots" in stderr
    code, _, stderr = cli("streetcar", "simulate", "--goals", "zoo", "--out", str(tmp_path))
    assert code == 2 and "unknown development goal 'zoo'" in stderr


def test_replay_prints_the_final_block(cli, tmp_path: Path) -> None:
    cli("streetcar", "simulate", "--seed", "4", "--out", str(tmp_path))
    path = tmp_path / "game-0001.json"
    code, stdout, stderr = cli("streetcar", "replay", str(path))
    assert (code, stderr) == (0, "")
    assert json.loads(stdout) == json.loads(path.read_text())["final"]


def test_replay_of_an_illegal_record_exits_2_naming_the_turn(cli, tmp_path: Path) -> None:
    cli("streetcar", "simulate", "--seed", "4", "--out", str(tmp_path))
    path = tmp_path / "game-0001.json"
    record = json.loads(path.read_text())
    record["turns"][5]["lines"] = record["turns"][2]["lines"]
    path.write_text(json.dumps(record))
    code, stdout, stderr = cli("streetcar", "replay", str(path))
    assert (code, stdout) == (2, "")
    lines = stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("housing-lab: error: turn 6 (red): ")
    assert "already drawn" in lines[0]


def test_replay_of_missing_or_broken_files(cli, tmp_path: Path) -> None:
    code, stdout, stderr = cli("streetcar", "replay", str(tmp_path / "none.json"))
    assert (code, stdout) == (2, "") and len(stderr.splitlines()) == 1
    broken = tmp_path / "broken.json"
    broken.write_text("not json")
    code, stdout, stderr = cli("streetcar", "replay", str(broken))
    assert (code, stdout) == (2, "") and "malformed JSON" in stderr and "broken.json" in stderr


@pytest.mark.slow
def test_simulate_mcts_reports_seconds_per_move_per_bot(cli, tmp_path: Path) -> None:
    code, stdout, stderr = cli(
        "streetcar",
        "simulate",
        "--bots",
        "mcts,greedy",
        "--iterations",
        "2",
        "--seed",
        "5",
        "--out",
        str(tmp_path / "games"),
    )
    assert (code, stderr) == (0, "")
    summary = json.loads(stdout)
    assert summary["bots"] == ["mcts", "greedy"]
    seconds = summary["seconds_per_move"]
    assert len(seconds) == 2 and all(isinstance(s, float) and s > 0 for s in seconds)
    assert read_record(tmp_path / "games" / "game-0001.json").is_over()


@pytest.mark.slow
def test_simulate_mcts_is_reproducible_with_an_iteration_budget(cli, tmp_path: Path) -> None:
    for name in ("a", "b"):
        args = ["--bots", "random,mcts", "--iterations", "2", "--seed", "8"]
        cli("streetcar", "simulate", *args, "--out", str(tmp_path / name))
    game = "game-0001.json"
    assert (tmp_path / "a" / game).read_text() == (tmp_path / "b" / game).read_text()


def test_simulate_refuses_bad_search_budgets(cli, tmp_path: Path) -> None:
    out = str(tmp_path / "x")
    cases = [
        (["--bots", "greedy,random", "--iterations", "5"], "is a search bot's budget (mcts)"),
        (["--bots", "mcts,random", "--iterations", "0"], "at least 1"),
        (["--bots", "mcts,random", "--seconds", "0"], "seconds must be a number above 0"),
        (["--bots", "mcts,random", "--seconds", "soon"], "got 'soon'"),
        (["--bots", "mcts,random", "--seconds", "1", "--iterations", "3"], "not allowed with"),
    ]
    for args, message in cases:
        code, stdout, stderr = cli("streetcar", "simulate", *args, "--out", out)
        assert (code, stdout) == (2, ""), args
        assert len(stderr.splitlines()) == 1 and message in stderr, stderr
    assert not (tmp_path / "x").exists()

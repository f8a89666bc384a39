"""`housing-lab nb coach`: the coach's answer as JSON, one-line errors with nothing on stdout."""

from __future__ import annotations

import json

import pytest

from housing_lab.north_berkeley.coaching.exact import coach
from housing_lab.north_berkeley.engine.scoring import score_scenario
from housing_lab.north_berkeley.layout import default_layout
from housing_lab.north_berkeley.scenario import scenario_from_dict

KEYS = {"card", "goal", "now", "changes", "after", "spending_after", "seconds"}
SCENARIO = {
    "tiles": {"A1": "tower_market", "B2": "midrise_public", "C1": "garage"},
    "policies": ["adu"],
    "seed": 3,
}


@pytest.fixture
def scenario_file(tmp_path):
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(SCENARIO))
    return path


@pytest.mark.parametrize(("card", "goal"), [("urbanists", "win"), ("labor_unions", "no-loss")])
def test_prints_the_coachs_answer(cli, scenario_file, card, goal) -> None:
    code, out, err = cli("nb", "coach", str(scenario_file), "--card", card, "--goal", goal)
    assert (code, err) == (0, "")
    answer = json.loads(out)
    assert set(answer) == KEYS
    expected = coach(scenario_from_dict(SCENARIO), card, goal).to_dict()
    assert {k: v for k, v in answer.items() if k != "seconds"} == {
        k: v for k, v in expected.items() if k != "seconds"
    }
    assert answer["changes"] and answer["seconds"] >= 0
    # the changes, applied, give `after` and `spending_after` in the scalar engine
    tiles, policies = dict(SCENARIO["tiles"]), set(SCENARIO["policies"])
    for change in answer["changes"]:
        if "policy" in change:
            (policies.add if change["enacted"] else policies.discard)(change["policy"])
        elif change["tile"] is None:
            tiles.pop(change["square"])
        else:
            tiles[change["square"]] = change["tile"]
    after = score_scenario(
        scenario_from_dict({**SCENARIO, "tiles": tiles, "policies": sorted(policies)})
    )
    assert after.to_dict()["constituents"][card]["score"] == answer["after"]
    assert after.to_dict()["spending"] == answer["spending_after"]


def test_goal_defaults_to_win_and_stdin_works(cli, monkeypatch, scenario_file) -> None:
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(json.dumps(SCENARIO).encode())))
    code, out, err = cli("nb", "coach", "-", "--card", "developer")
    assert (code, err) == (0, "")
    answer = json.loads(out)
    assert answer["goal"] == "win" and answer["card"] == "developer" and answer["after"] == 1


def test_unreachable_goal_prints_null_changes_and_a_reason(cli, tmp_path) -> None:
    """A teacher's board with one Greenway square: 10 homes there cannot be built."""
    layout = default_layout()
    lines = [f"squares = {json.dumps(list(layout.squares))}", "[phases]"]
    lines += [f"{phase} = {json.dumps(list(squares))}" for phase, squares in layout.phases.items()]
    lines.append("[tags]")
    for tag, members in layout.tags.items():
        lines.append(f"{tag} = {json.dumps(['C1'] if tag == 'greenway' else sorted(members))}")
    for home in layout.existing:
        lines += ["[[existing]]", f'id = "{home.id}"', f'kind = "{home.kind}"']
        if home.street:
            lines.append(f'street = "{home.street}"')
    (tmp_path / "board.toml").write_text("\n".join(lines) + "\n")
    (tmp_path / "s.json").write_text(json.dumps({"seed": 1}))
    code, out, err = cli(
        "nb",
        "coach",
        str(tmp_path / "s.json"),
        "--card",
        "bike_lobby",
        "--layout",
        str(tmp_path / "board.toml"),
    )
    assert (code, err) == (0, "")
    answer = json.loads(out)
    assert set(answer) == KEYS | {"reason"}
    assert answer["changes"] is None and answer["after"] is None
    assert "Bike Lobby" in answer["reason"]


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["--card", "nope"], "nope"),
        (["--card", "developer", "--goal", "lose"], "lose"),
        (["--goal", "win"], "--card"),
    ],
)
def test_bad_arguments_are_one_line_errors(cli, scenario_file, args, names) -> None:
    code, out, err = cli("nb", "coach", str(scenario_file), *args)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and names in err


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ('{"tiles": {"A3": "tower_market"}, "policies": ["affordable_100"]}', "A3"),
        ('{"tiles": {"Z9": "park"}}', "Z9"),
        ('{"tiles": {"A1": "castle"}}', "castle"),
        ('{"tiles": ', "malformed JSON"),
        ('{"colour": "red"}', "colour"),
        ("[1, 2]", "JSON object"),
    ],
)
def test_bad_scenarios_are_one_line_errors(cli, tmp_path, text, names) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    code, out, err = cli("nb", "coach", str(path), "--card", "developer")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and names in err


def test_missing_file_is_a_one_line_error(cli, tmp_path) -> None:
    code, out, err = cli("nb", "coach", str(tmp_path / "none.json"), "--card", "developer")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "none.json" in err

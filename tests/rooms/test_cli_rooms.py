"""`housing-lab room create | view | act | export`: JSON on stdout; refusals one line, exit 2."""

from __future__ import annotations

import json

import pytest

from housing_lab.north_berkeley.play.game import Game


def refused(cli, *args: str) -> str:
    code, out, err = cli(*args)
    assert code == 2 and out == "" and err.count("\n") == 1, (code, out, err)
    return err


def test_create_view_act_export(store_url, cli) -> None:
    code, out, err = cli(
        "room", "create", "--teams", "Red,Blue,Green", "--seed", "3", "--store", store_url
    )
    assert code == 0 and err == ""
    room = json.loads(out)
    assert set(room) == {"room", "game", "teacher", "teams"} and set(room["teams"]) == {
        "Red",
        "Blue",
        "Green",
    }
    red, teacher = room["teams"]["Red"]["token"], room["teacher"]["token"]
    for ticket in [room["teacher"], *room["teams"].values()]:  # the key only after "#"
        assert ticket["url"].endswith("#key=" + ticket["token"]) and "token=" not in ticket["url"]
    common = (room["room"], "--store", store_url)

    code, out, _ = cli("room", "view", *common, "--token", red)
    view = json.loads(out)
    assert code == 0 and view["you"] == {"role": "team", "team": "Red"} and view["seq"] == 0
    action = view["legal_actions"][0]
    code, out, _ = cli("room", "act", *common, "--token", red, "--action", json.dumps(action))
    assert code == 0 and json.loads(out)["seq"] == 1 and json.loads(out)["view"]["seq"] == 1

    err = refused(cli, "room", "act", *common, "--token", red, "--action", '{"action":"advance"}')
    assert "only the teacher may advance" in err
    assert "malformed JSON" in refused(
        cli, "room", "act", *common, "--token", red, "--action", "{nope"
    )
    assert "opens nothing" in refused(cli, "room", "view", *common, "--token", "wrong")
    assert "only the teacher may export" in refused(cli, "room", "export", *common, "--token", red)

    code, out, _ = cli("room", "export", *common, "--token", teacher)
    saved = Game.from_json(out)
    assert code == 0 and saved.history() == [action]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--teams", "Red"], "players"),
        (["--teams", "Red,Blue", "--seed", "-3"], "seed"),
        (["--teams", "Red,Blue", "--game", "chess"], "invalid choice"),
        (["--teams", "Red,Blue,Green", "--game", "streetcar"], "exactly 2 teams"),
        (["--teams", "Red,Blue", "--options", "[1]"], "options"),
        (["--teams", "Red,Blue", "--store", "mysql://x"], "unknown store URL"),
    ],
)
def test_bad_create_arguments_are_one_line(tmp_path, cli, args, words) -> None:
    store = ["--store", "sqlite:///" + str(tmp_path / "r.sqlite")]
    assert words in refused(cli, "room", "create", *store, *args)


def test_streetcar_room_from_the_command_line(tmp_path, cli) -> None:
    store = ("--store", "sqlite:///" + str(tmp_path / "r.sqlite"))
    _, out, _ = cli("room", "create", "--teams", "A,B", "--game", "streetcar", *store)
    room = json.loads(out)
    code, out, _ = cli("room", "view", room["room"], "--token", room["teams"]["A"]["token"], *store)
    moves = json.loads(out)["moves"]
    action = {"lines": moves["line_choices"][0], "remove": None}
    args = ("room", "act", room["room"], "--token", room["teams"]["A"]["token"], *store)
    code, out, _ = cli(*args, "--action", json.dumps(action))
    assert code == 0 and json.loads(out)["view"]["to_move"] == "B"


def test_tokens_never_look_like_options(monkeypatch) -> None:
    """`--token -abc` would be read as an option: a token never starts with "-"."""
    from housing_lab.rooms import tokens

    drawn = iter(["-starts-with-a-dash", "fine-token"])
    monkeypatch.setattr(tokens.secrets, "token_urlsafe", lambda _n: next(drawn))
    assert tokens.new_token() == "fine-token"

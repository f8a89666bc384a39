"""Files people really have (issue 43 item 2): UTF-8 with a byte-order mark (Windows Notepad)
is read; a lesson that is not UTF-8 is one line naming it; a misspelt key in a Streetcar
record is refused naming the key; a look-alike letter in an id is shown for what it is; an
emoji family (joined by zero-width joiners) is a team name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from housing_lab import jsonio
from housing_lab.cli import main
from housing_lab.errors import HousingLabError, shown_id
from housing_lab.north_berkeley.errors import UnknownIdError
from housing_lab.north_berkeley.layout import load_layout
from housing_lab.north_berkeley.scenario import scenario_from_dict
from housing_lab.streetcar import Game, make_bot, to_record
from housing_lab.streetcar.errors import RecordError
from housing_lab.streetcar.record import replay
from housing_lab.team_names import check_name

BOM = b"\xef\xbb\xbf"
SCENARIO = {"tiles": {"B1": "park"}, "policies": [], "seed": 2}
CYRILLIC_A = "\u0430"  # prints as a Latin "a"


# --- a byte-order mark ---------------------------------------------------------------------


def test_a_scenario_with_a_byte_order_mark_is_scored(tmp_path, capsys) -> None:
    plain, marked = tmp_path / "plain.json", tmp_path / "marked.json"
    plain.write_text(json.dumps(SCENARIO), encoding="utf-8")
    marked.write_bytes(BOM + json.dumps(SCENARIO).encode())
    assert main(["nb", "score", str(plain)]) == 0
    expected = capsys.readouterr().out
    assert main(["nb", "score", str(marked)]) == 0
    assert capsys.readouterr().out == expected
    lines = BOM + (json.dumps(SCENARIO) + "\n").encode() * 2  # JSON Lines with a mark
    assert [doc for _, doc in jsonio.documents(_Bytes(lines))] == [SCENARIO, SCENARIO]


class _Bytes:
    def __init__(self, data: bytes) -> None:
        import io

        self.stream = io.BytesIO(data)
        self.readline, self.read = self.stream.readline, self.stream.read


def test_text_and_toml_with_a_byte_order_mark_are_read(tmp_path) -> None:
    source = Path(__file__).resolve().parents[2] / "housing_lab/north_berkeley/data/layout.toml"
    layout = tmp_path / "layout.toml"
    layout.write_bytes(BOM + source.read_bytes())
    assert load_layout(layout).squares == load_layout(source).squares
    assert jsonio.read_text(layout).startswith(source.read_text(encoding="utf-8")[:20])
    assert jsonio.loads("\ufeff[1]") == [1]


def test_a_lab_file_with_a_byte_order_mark_is_read(tmp_path) -> None:
    from housing_lab.widgets.common import read_json_object

    path = tmp_path / "board.json"
    path.write_bytes(BOM + json.dumps(SCENARIO).encode())
    assert read_json_object(str(path), "a scenario") == SCENARIO


def test_a_streetcar_record_with_a_byte_order_mark_replays(tmp_path, capsys) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(BOM + json.dumps(played_record()).encode())
    assert main(["streetcar", "replay", str(path)]) == 0
    assert "scores" in json.loads(capsys.readouterr().out)


# --- lessons that are not UTF-8 ------------------------------------------------------------


@pytest.mark.parametrize("name", ["02_b.ipynb", "docs/notes.md"])
def test_a_lesson_or_doc_not_in_utf8_is_one_line_naming_it(tmp_path, name) -> None:
    from housing_lab.commands.lessons import copy_lessons

    source = tmp_path / "lessons"
    (tmp_path / "docs").mkdir()
    source.mkdir()
    (source / "01_a.ipynb").write_text('{"cells": [], "x": "[notes](../docs/notes.md)"}')
    (tmp_path / "docs" / "notes.md").write_text("# Notes\n", encoding="utf-8")
    bad = (source if name.endswith(".ipynb") else tmp_path) / name
    bad.write_bytes('{"x": "café"} [more](other.md)'.encode("latin-1"))
    with pytest.raises(HousingLabError) as caught:
        copy_lessons(source, tmp_path / "work")
    message = str(caught.value)
    assert f"'{bad}' is not UTF-8 text" in message and "\n" not in message
    assert not (tmp_path / "work").exists()


# --- misspelt keys in a Streetcar record ---------------------------------------------------


def played_record() -> dict:
    game = Game()
    bot = make_bot("random", seed=1)
    while not game.is_over():
        game.push(bot.choose(game))
    return to_record(game)


@pytest.fixture(scope="module")
def record() -> dict:
    return played_record()


def test_a_misspelt_record_key_is_refused_by_name(record) -> None:
    bad = {**record, "penatly": 3}
    with pytest.raises(RecordError) as caught:
        replay(bad)
    message = str(caught.value)
    assert "unknown record key 'penatly'" in message and "did you mean 'penalty'?" in message
    assert "known: board, final, goals, houses, penalty, players, turns, version" in message


def test_a_misspelt_turn_key_is_refused_by_name(record) -> None:
    turns = [dict(turn) for turn in record["turns"]]
    with_removal = next(i for i, turn in enumerate(turns) if turn.get("remove") is not None)
    turns[with_removal]["remvoe"] = turns[with_removal].pop("remove")
    with pytest.raises(RecordError) as caught:
        replay({**record, "turns": turns})
    message = str(caught.value)
    assert f"turn {with_removal + 1}: unknown turn key 'remvoe'" in message
    assert "did you mean 'remove'?" in message


def test_a_misspelt_final_key_is_refused_by_name(record) -> None:
    final = {**record["final"], "scroes": record["final"]["scores"]}
    with pytest.raises(RecordError, match="unknown key of final 'scroes'"):
        replay({**record, "final": final})


# --- look-alike letters in ids -------------------------------------------------------------


def test_a_cyrillic_letter_in_a_tile_id_is_made_visible() -> None:
    with pytest.raises(UnknownIdError) as caught:
        scenario_from_dict({"tiles": {"B1": f"p{CYRILLIC_A}rk"}})
    message = str(caught.value)
    assert "U+0430 CYRILLIC SMALL LETTER A, not ASCII" in message
    with pytest.raises(UnknownIdError, match=r"U\+0430"):
        scenario_from_dict({"tiles": {f"B{CYRILLIC_A}": "park"}})  # no such square either
    with pytest.raises(UnknownIdError, match=r"U\+0430"):
        scenario_from_dict({"policies": [f"{CYRILLIC_A}du_legalization"]})
    assert shown_id("park") == "'park'" and shown_id(5) == "5"


# --- emoji team names ----------------------------------------------------------------------

ZWJ = "\u200d"


@pytest.mark.parametrize(
    "name",
    [
        ZWJ.join(["\U0001f468", "\U0001f469", "\U0001f467", "\U0001f466"]),  # a family
        "\U0001f3f3\ufe0f" + ZWJ + "\U0001f308",  # the rainbow flag
        "\U0001f469\U0001f3fd" + ZWJ + "\U0001f4bb",  # a technologist, skin tone
        "Team " + ZWJ.join(["\U0001f468", "\U0001f469", "\U0001f467"]),
    ],
)
def test_an_emoji_sequence_is_a_team_name(name) -> None:
    assert check_name(name) == name


@pytest.mark.parametrize("name", ["R" + ZWJ + "ed", ZWJ + "\U0001f469", "\U0001f469" + ZWJ])
def test_a_joiner_outside_an_emoji_sequence_is_refused(name) -> None:
    """Between letters it makes a name that looks like another team's."""
    with pytest.raises(HousingLabError, match="printable"):
        check_name(name)

"""`ClassStore` on both backends: what a device may see, what is stored, what is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from housing_lab.rooms import RoomError, open_store
from housing_lab.rooms.class_poll import ClassStore

KEYS = ("device-key-1111111111", "device-key-2222222222")


@pytest.fixture
def polls(store_url):
    with ClassStore(store_url) as opened:
        yield opened


def test_a_device_sees_only_its_own_answer_until_shown(polls) -> None:
    made = polls.create_class(1)
    code, token = made["class"], made["teacher"]["token"]
    q = made["questions"][0]
    polls.join(code, KEYS[1])
    polls.answer(code, KEYS[0], q["id"], q["choices"][0])
    view = polls.device_view(code, KEYS[1])
    first = view["questions"][0]
    assert first["mine"] is None and "rounds" not in first and "joined" not in view
    assert "explanation" not in first and first["answer"] is None
    assert polls.device_view(code, KEYS[0])["questions"][0]["mine"] == q["choices"][0]
    assert polls.tally(code, token)["joined"] == 2

    polls.show(code, token, q["id"])
    shown = polls.device_view(code, KEYS[1])["questions"][0]
    assert shown["rounds"][0]["counts"][q["choices"][0]] == 1
    polls.reveal(code, token, q["id"])
    revealed = polls.device_view(code, KEYS[1])["questions"][0]
    assert revealed["revealed"] and revealed["answer"] in q["choices"]
    assert revealed["explanation"]
    with pytest.raises(RoomError, match="revealed: answers are closed"):
        polls.answer(code, KEYS[1], q["id"], q["choices"][0])
    assert polls.device_view(code, KEYS[1])["questions"][0]["mine"] is None  # nothing recorded


def test_a_second_round_starts_empty_and_hidden(polls) -> None:
    made = polls.create_class(2)
    code, token = made["class"], made["teacher"]["token"]
    q = made["questions"][0]
    polls.answer(code, KEYS[0], q["id"], q["choices"][1])
    polls.show(code, token, q["id"])
    polls.vote_again(code, token, q["id"])
    asked = polls.tally(code, token)["questions"][0]
    assert asked["round"] == 2 and not asked["shown"]
    assert [r["answered"] for r in asked["rounds"]] == [1, 0]
    assert polls.device_view(code, KEYS[0])["questions"][0]["mine"] is None  # round 2: fresh


def test_the_store_keeps_no_device_key_nor_teacher_token(tmp_path: Path) -> None:
    path = tmp_path / "rooms.sqlite"
    with ClassStore("sqlite:///" + str(path)) as polls:
        made = polls.create_class(3)
        q = made["questions"][0]
        polls.answer(made["class"], KEYS[0], q["id"], q["choices"][0])
    with open_store("sqlite:///" + str(path)):  # the rooms' own check still accepts the file
        pass
    data = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    assert data and KEYS[0].encode() not in data
    assert made["teacher"]["token"].encode() not in data


def test_bad_arguments_are_one_line(polls) -> None:
    with pytest.raises(RoomError, match="a lesson is a number"):
        polls.create_class("3")
    with pytest.raises(RoomError, match="no lesson 9"):
        polls.create_class(9)
    with pytest.raises(RoomError, match="not a class code"):
        polls.join("no such!", KEYS[0])
    with pytest.raises(RoomError, match="no class ABCDEF"):
        polls.join("ABCDEF", KEYS[0])
    with pytest.raises(RoomError, match="show takes True or False"):
        polls.show("ABCDEF", "t", "q", "yes")  # type: ignore[arg-type]


def test_a_taken_code_is_drawn_again(polls, monkeypatch) -> None:
    codes = iter(["TAKEN2", "TAKEN2", "FRESH3"])
    monkeypatch.setattr("housing_lab.rooms.tokens.new_room_code", lambda: next(codes))
    first = polls.create_class(3)
    second = polls.create_class(4)
    assert (first["class"], second["class"]) == ("TAKEN2", "FRESH3")
    assert polls.tally("TAKEN2", first["teacher"]["token"])["lesson"] == 3


def test_class_tables_of_another_shape_are_one_line() -> None:
    """The class tables are checked as the rooms' are (`sql.check_tables`), in their own words."""
    from housing_lab.rooms.errors import RoomError
    from housing_lab.rooms.stores import class_sql

    whole = {table: set(columns) for table, columns in class_sql.TABLES.items()}
    assert class_sql.check_tables(whole, "'s.db'") is True
    assert class_sql.check_tables({}, "'s.db'") is False
    with pytest.raises(RoomError, match="table that is not a class poll's"):
        class_sql.check_tables({"class_polls": {"id"}}, "'s.db'")
    first = next(iter(class_sql.TABLES))
    with pytest.raises(RoomError, match=r"is damaged: its table .* is missing"):
        class_sql.check_tables({first: whole[first]}, "'s.db'")

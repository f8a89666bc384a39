"""`housing-lab class create | answer | tally | show | reveal | vote-again | close | export`:
the round trip on both stores; every refusal one line, exit 2, nothing recorded."""

from __future__ import annotations

import csv
import json

from housing_lab.questions import lesson_questions

DEVICES = ("device-key-aaaaaaaa", "device-key-bbbbbbbb", "device-key-cccccccc")


def ok(cli, *args: str) -> dict:
    code, out, err = cli(*args)
    assert code == 0 and err == "", (code, out, err)
    return json.loads(out)


def refused(cli, *args: str) -> str:
    code, out, err = cli(*args)
    assert code == 2 and out == "" and err.count("\n") == 1, (code, out, err)
    return err


def test_class_round_trip(store_url, cli, tmp_path) -> None:
    made = ok(cli, "class", "create", "--lesson", "3", "--json", "--store", store_url)
    assert set(made) == {"class", "lesson", "teacher", "join", "questions"}
    polled = [q for q in lesson_questions(3) if q.kind in ("predict", "choice")]
    assert made["questions"] == [{"id": q.id, "choices": [c.id for c in q.choices]} for q in polled]
    code, token = made["class"], made["teacher"]["token"]
    assert made["teacher"]["url"].endswith("#key=" + token) and "token" not in made["join"]
    assert f"join?class={code}" in made["join"] and token not in made["join"]
    first = made["questions"][0]
    q, (a, b, c) = first["id"], first["choices"][:3]
    store = ("--store", store_url)
    teacher = ("--token", token, *store)

    def answer(device: str, choice: str, question: str = q) -> list[str]:
        return ["class", "answer", code, "--device", device, "--question", question]

    for device, choice in zip(DEVICES, (a, a, b), strict=True):
        assert ok(cli, *answer(device, choice), "--choice", choice, *store)["round"] == 1
    ok(cli, *answer(DEVICES[1], b), "--choice", b, *store)  # changed before the reveal
    tally = ok(cli, "class", "tally", code, "--json", *teacher)
    asked = tally["questions"][0]
    assert tally["joined"] == 3 and asked["id"] == q and not asked["shown"]
    assert asked["rounds"] == [{"round": 1, "answered": 3, "counts": {a: 1, b: 2, c: 0}}]
    assert asked["answer"] is None  # the projector is public: no answer before the reveal

    before = ok(cli, "class", "tally", code, *teacher)
    bad = [
        ([*answer(DEVICES[0], a), "--choice", "nope", *store], "no choice 'nope'"),
        ([*answer(DEVICES[0], a, "l3-nope"), "--choice", a, *store], "no question 'l3-nope'"),
        ([*answer("short", a), "--choice", a, *store], "not a device key"),
        (["class", "reveal", code, "--question", q, "--token", "wrong", *store], "opens nothing"),
        (["class", "tally", "ZZZZZZ", "--token", token, *store], "opens nothing"),
        (["class", "vote-again", code, "--question", "l1-x", *teacher], "no question 'l1-x'"),
    ]
    for args, words in bad:
        assert words in refused(cli, *args)
    assert ok(cli, "class", "tally", code, *teacher) == before  # nothing recorded

    assert ok(cli, "class", "show", code, "--question", q, *teacher)["shown"] is True
    again = ok(cli, "class", "vote-again", code, "--question", q, *teacher)
    assert again == {"class": code, "question": q, "round": 2, "shown": False, "revealed": False}
    for device, choice in zip(DEVICES, (b, b, c), strict=True):
        assert ok(cli, *answer(device, choice), "--choice", choice, *store)["round"] == 2
    assert "rounds: reveal it" in refused(
        cli, "class", "vote-again", code, "--question", q, *teacher
    )
    ok(cli, "class", "reveal", code, "--question", q, *teacher)
    assert "revealed: answers are closed" in refused(
        cli, *answer(DEVICES[0], a), "--choice", a, *store
    )
    assert "already revealed" in refused(cli, "class", "reveal", code, "--question", q, *teacher)
    asked = ok(cli, "class", "tally", code, *teacher)["questions"][0]
    assert asked["revealed"] and asked["answer"] == polled[0].answer
    assert asked["rounds"] == [
        {"round": 1, "answered": 3, "counts": {a: 1, b: 2, c: 0}},
        {"round": 2, "answered": 3, "counts": {a: 0, b: 2, c: 1}},
    ]

    out = tmp_path / "class.csv"
    ok(cli, "class", "export", code, "--out", str(out), *teacher)
    rows = list(csv.DictReader(out.open()))
    assert list(rows[0]) == ["class", "lesson", "question", "round", "choice", "count"]
    mine = [(r["round"], r["choice"], r["count"]) for r in rows if r["question"] == q]
    assert mine[:3] == [("1", a, "1"), ("1", b, "2"), ("1", c, "0")]
    assert mine[3:6] == [("2", a, "0"), ("2", b, "2"), ("2", c, "1")]
    assert not any(device in out.read_text() for device in DEVICES)
    assert "already exists" in refused(cli, "class", "export", code, "--out", str(out), *teacher)

    ok(cli, "class", "close", code, *teacher)
    other = made["questions"][1]
    assert "is closed" in refused(
        cli, *answer(DEVICES[0], "x", other["id"]), "--choice", other["choices"][0], *store
    )
    assert "is closed" in refused(cli, "class", "reveal", code, "--question", q, *teacher)
    assert ok(cli, "class", "tally", code, *teacher)["closed"] is True


def test_create_refuses_a_bad_lesson_or_url(cli, tmp_path) -> None:
    store = ("--store", "sqlite:///" + str(tmp_path / "rooms.sqlite"))
    assert "a lesson" in refused(cli, "class", "create", "--lesson", "9", *store)
    assert "javascript" in refused(
        cli, "class", "create", "--lesson", "3", "--url", "javascript:alert(1)//", *store
    )
    assert "name the lesson" in refused(cli, "class", *store)

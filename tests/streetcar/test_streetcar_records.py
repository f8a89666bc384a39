"""Game records: the RULES.md format, replay checks, and refusals that name the turn."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from housing_lab.streetcar import (
    COLOURS,
    Board,
    Game,
    GreedyBot,
    RandomBot,
    RecordError,
    Rules,
    StreetcarError,
    final_block,
    make_bot,
    play_game,
    read_record,
    replay,
    to_record,
    write_record,
)

BOT_PAIRS = [("random", "random"), ("greedy", "random"), ("random", "greedy")]


@pytest.fixture(scope="module")
def record() -> dict:
    game = play_game([GreedyBot(1), RandomBot(2)], seed=11)
    return json.loads(json.dumps(to_record(game)))


def test_record_has_the_rules_md_shape(record: dict) -> None:
    assert list(record) == ["version", "board", "houses", "players", "penalty", "turns", "final"]
    assert record["version"] == 1
    assert record["board"][:2] == [[0, -4], [1, -4]]
    assert len(record["board"]) == len(record["houses"]) == 52
    colours = [colour for _, _, colour in record["houses"]]
    assert {c: colours.count(c) for c in set(colours)} == {
        "blue": 13,
        "black": 13,
        "white": 13,
        "yellow": 13,
    }
    assert record["players"] == ["purple", "red"] and record["penalty"] == 10
    first, second = record["turns"][:2]
    assert first["player"] == "purple" and first["remove"] is None
    assert len(first["lines"]) == 2 and all(a < b for a, b in first["lines"])
    assert second["player"] == "red" and len(second["remove"]) == 2
    final = record["final"]
    assert set(final) == {"scores", "removed", "buildings", "lines", "winners"}
    assert set(final["scores"]) == {"purple", "red"}
    assert all(b[2] in COLOURS and 0 <= b[3] <= 3 for b in final["buildings"])


def test_replay_recomputes_the_final_block(record: dict) -> None:
    game = replay(record)
    assert game.is_over()
    assert final_block(game) == record["final"]
    assert len(game.move_stack) == len(record["turns"])


def test_write_and_read(tmp_path: Path) -> None:
    game = play_game([RandomBot(5), RandomBot(6)], seed=5, rules=Rules(goals=frozenset({"parks"})))
    path = tmp_path / "game.json"
    write_record(path, game)
    again = read_record(path)
    assert json.loads(path.read_text())["goals"] == ["parks"]
    assert again.rules == game.rules
    assert final_block(again) == final_block(game)


def tampered(record: dict, turn: int, **changes: object) -> dict:
    bad = copy.deepcopy(record)
    bad["turns"][turn - 1].update(changes)
    return bad


def test_illegal_move_names_the_turn_and_reason(record: dict) -> None:
    # Turn 4 redraws one of turn 2's edges.
    taken = record["turns"][1]["lines"][0]
    bad = tampered(record, 4, lines=[taken])
    with pytest.raises(RecordError, match=r"^turn 4 \(red\): .*already drawn") as caught:
        replay(bad)
    assert caught.value.turn == 4


def test_wrong_player_is_refused(record: dict) -> None:
    with pytest.raises(RecordError, match=r"^turn 3: it is purple's turn, not 'red'"):
        replay(tampered(record, 3, player="red"))


def test_removal_of_a_flipped_or_missing_house(record: dict) -> None:
    gone = record["turns"][1]["remove"]
    with pytest.raises(RecordError, match=r"^turn 4 \(red\): .*holds no house"):
        replay(tampered(record, 4, remove=gone))
    with pytest.raises(RecordError, match=r"^turn 1 \(purple\): .*removes no house"):
        replay(tampered(record, 1, remove=[0, 0]))


def test_malformed_turn_names_the_turn(record: dict) -> None:
    with pytest.raises(RecordError, match=r"^turn 2: a hex is a pair of integers"):
        replay(tampered(record, 2, remove=[0, "x"]))
    bad = copy.deepcopy(record)
    bad["turns"][2] = "pass"
    with pytest.raises(RecordError, match=r"^turn 3: a turn is an object"):
        replay(bad)


def test_turns_after_the_end_and_records_that_stop_early(record: dict) -> None:
    longer = copy.deepcopy(record)
    longer["turns"].append(dict(longer["turns"][-2]))
    with pytest.raises(
        RecordError, match=rf"^turn {len(longer['turns'])}: the game is already over"
    ):
        replay(longer)
    shorter = copy.deepcopy(record)
    del shorter["turns"][5:]
    del shorter["final"]
    with pytest.raises(RecordError, match=r"ends after turn 5 but the game is not over"):
        replay(shorter)
    assert replay(shorter, require_complete=False).turn == 6


def test_final_block_must_match(record: dict) -> None:
    bad = copy.deepcopy(record)
    bad["final"]["scores"]["purple"] += 1
    with pytest.raises(RecordError, match="final scores does not match the replay"):
        replay(bad)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"board": "standard"}, "board must be a list"),
        ({"board": [[0, 0], [0, 0]]}, "listed twice"),
        ({"players": ["red", "purple"]}, "players must be"),
        ({"penalty": "ten"}, "penalty must be an integer"),
        ({"goals": ["skyscraper"]}, "unknown development goal 'skyscraper'"),
        ({"goals": [["parks"]]}, r"a goal is a name \(a string\), not \['parks'\]"),
        ({"houses": [[0, -4, "green"]]}, "unknown colour 'green'"),
        ({"houses": []}, "has no house"),
        ({"turns": {}}, "turns must be a list"),
    ],
)
def test_bad_setup(record: dict, change: dict, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        replay({**record, **change})


def test_bad_json_and_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{")
    with pytest.raises(RecordError, match="malformed JSON"):
        read_record(path)
    with pytest.raises(RecordError, match="cannot read"):
        read_record(tmp_path / "missing.json")
    path.write_text('{"board": [], "board": []}')
    with pytest.raises(RecordError, match="board"):
        read_record(path)  # duplicate keys are refused, not last-one-wins
    with pytest.raises(RecordError, match="JSON object"):
        replay([])


def test_custom_board_record_round_trip() -> None:
    board = Board.from_hexes([(0, 0), (1, 0), (1, -1), (0, -1), (2, -1)])
    game = play_game([RandomBot(1), GreedyBot(2)], seed=3, board=board)
    record = to_record(game)
    assert record["board"] == [[0, -1], [1, -1], [2, -1], [0, 0], [1, 0]]  # reading order
    assert final_block(replay(record)) == record["final"]


def test_constructed_positions_have_no_record() -> None:
    game = Game.from_position(Board.from_hexes([(0, 0)]), houses={(0, 0): "blue"})
    with pytest.raises(StreetcarError, match="played from its first turn"):
        to_record(game)


# --- version 1, the kit, and round trips ---------------------------------------------------
def test_version_1_is_written_first_and_a_missing_version_reads_as_1(record: dict) -> None:
    assert next(iter(record)) == "version" and record["version"] == 1
    old = {key: value for key, value in record.items() if key != "version"}
    assert to_record(replay(old)) == record


@pytest.mark.parametrize("version", [2, 0, -1, "1", 1.0, True, None, [1], {"v": 1}])
def test_other_versions_are_refused_in_one_line(record: dict, version: object) -> None:
    with pytest.raises(RecordError, match="unsupported record version") as raised:
        replay({**record, "version": version})
    assert "\n" not in str(raised.value)


def test_houses_must_be_the_kit(record: dict) -> None:
    blue = [[q, r, "blue"] for q, r, _ in record["houses"]]
    with pytest.raises(RecordError, match="not the game's kit: 52 hexes take 13 houses"):
        replay({**record, "houses": blue})
    swapped = [list(house) for house in record["houses"]]
    swapped[0][2], swapped[1][2] = swapped[1][2], swapped[0][2]  # another arrangement: fine
    arrangement = {**record, "houses": swapped}
    del arrangement["turns"], arrangement["final"]
    assert replay({**arrangement, "turns": []}, require_complete=False).turn == 1


def test_read_record_source_takes_a_dict_text_or_path(record: dict, tmp_path: Path) -> None:
    from housing_lab.streetcar.record import parse_record_text, read_record_source

    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert read_record_source(record) is record
    assert read_record_source(json.dumps(record)) == record == read_record_source(path)
    assert read_record_source(str(path)) == record
    for bad, message in [
        (5, "dict, JSON text or a file path"),
        (b"{}", "dict, JSON text or a file path"),
        ("-", "dict, JSON text or a file path"),
        ("[1]" * 1, "cannot read"),  # not JSON text: read as a path, which does not exist
        ('{"a": ' + "[" * 100 + "]" * 100 + "}", "nested"),
    ]:
        with pytest.raises(RecordError, match=message):
            read_record_source(bad)
    path.write_bytes(b'{"board": "\xff"}')
    with pytest.raises(RecordError, match="UTF-8"):
        read_record_source(path)
    with pytest.raises(RecordError, match="JSON object, not list"):
        parse_record_text("[1, 2]")


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 80), bots=st.sampled_from(BOT_PAIRS))
def test_records_round_trip_over_random_games(seed: int, plies: int, bots: tuple) -> None:
    """to_record -> JSON -> replay -> to_record is identical, byte for byte, in any key order."""
    game = Game(seed=seed)
    players = [make_bot(bots[0], seed), make_bot(bots[1], seed + 1)]
    for _ in range(plies):
        if game.is_over():
            break
        game.push(players[(game.turn - 1) % 2].choose(game))
    text = json.dumps(to_record(game))
    shuffled = json.dumps(json.loads(text), sort_keys=True)
    again = replay(json.loads(shuffled), require_complete=False)
    assert json.dumps(to_record(again)) == text

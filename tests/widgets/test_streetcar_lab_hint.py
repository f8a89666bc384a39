"""StreetcarLab hints and words: the hint is the registry bot's move, shown and never played;
moves, prompts and replay steps name places as the board labels them, never coordinates."""

from __future__ import annotations

import re
from typing import Any

import pytest

from housing_lab.streetcar import BOTS, Board, Game, Move, RandomBot, make_bot
from housing_lab.streetcar.play import bots as bot_registry
from housing_lab.widgets import StreetcarLab
from housing_lab.widgets.streetcar.board import edge_keys, hex_key
from housing_lab.widgets.streetcar.controls import opponent_choices
from housing_lab.widgets.streetcar.places import describe_lines, place_names, row_labels
from housing_lab.widgets.streetcar.view import describe_move

COORDINATES = re.compile(r"\[\s*-?\d+\s*,\s*-?\d+\s*\]|-?\d+\s*,\s*-?\d+\s*\|")
CENTRE = [[[0, 0], [1, 0]], [[0, 0], [0, 1]]]


def lab_of(seed: int = 1, opponent: str | None = "greedy", **options: Any) -> StreetcarLab:
    return StreetcarLab(seed=seed, opponent=opponent, bot_delay=0, **options)


def play_random(lab: StreetcarLab, turns: int, seed: int) -> None:
    bot = RandomBot(seed)
    for _ in range(turns):
        if lab.phase == "over":
            return
        move = bot.choose(lab.game)
        lab.play(list(move.lines), move.remove)


# --- place names -------------------------------------------------------------------------
def test_the_standard_board_has_rows_a_to_i_numbered_from_the_west() -> None:
    names = place_names(Board.standard())
    assert len(set(names.values())) == 52
    assert names[(0, -4)] == "A1" and names[(3, -4)] == "A4"  # the north row: 4 hexes
    assert names[(-4, 0)] == "E1" and names[(0, 0)] == "E5" and names[(3, 0)] == "E8"
    assert names[(-4, 4)] == "I1"  # the south row
    rows = row_labels(Board.standard())
    assert list(rows) == list("ABCDEFGHI") and rows["E"] == [(-4, 0), (3, 0)]


def test_lines_are_described_by_the_hexes_around_them() -> None:
    names = place_names(Board.standard())
    two = describe_lines(names, Move(CENTRE).lines)
    assert two == "2 lines meeting at the corner of E5, E6 and F5"
    rim = describe_lines(names, Move([[[0, -5], [0, -4]]]).lines)
    assert rim == "1 line along the board's edge by A1"


def test_move_sentences_name_places_not_coordinates() -> None:
    game = Game(seed=3)
    game.push(Move(CENTRE))
    house = game.removable_houses()[0]
    colour = game.houses[house]
    move = next(m for m in game.legal_moves() if m.remove == house and len(m.lines) == 2)
    game.push(move)
    said = describe_move("Red", move, colour, game)
    assert f"removed the {colour} house at {place_names(game.board)[house]}" in said
    assert not COORDINATES.search(said), said


def test_nothing_a_student_reads_shows_coordinates_in_a_whole_game() -> None:
    lab = lab_of(seed=4)
    seen = []
    bot = RandomBot(4)
    while lab.phase != "over":
        move = bot.choose(lab.game)
        lab.draw_lines(list(move.lines))
        seen += [lab.board.message, lab.board.prompt]
        if move.remove is not None and lab.phase == "remove":
            lab.remove_house(move.remove)
            seen += [lab.board.message, lab.board.prompt]
        if lab.phase != "over":
            seen.append(lab.hint().reason)
    lab.start_replay()
    for _ in range(6):
        lab.replay_step()
        seen.append(lab.board.message)
    lab.replay_to(5)
    seen += [lab.board.message, lab.board.prompt, lab.score.table.value]
    leaks = [text for text in seen if COORDINATES.search(text)]
    assert leaks == []
    assert any(re.search(r"\b[A-I]\d\b", text) for text in seen)


# --- hints ---------------------------------------------------------------------------------
@pytest.mark.parametrize("bot", ["greedy", "random"])
def test_the_hint_is_what_the_bot_would_play_and_nothing_is_played(bot: str) -> None:
    lab = lab_of(seed=6)
    lab.draw_lines(CENTRE)
    play_random(lab, 3, seed=6)
    before = lab.record
    game = lab.game
    hint = lab.hint(bot)
    assert hint.move == make_bot(bot, lab.seed).choose(game.copy())
    assert lab.record == before and lab.game.snapshot() == game.snapshot()  # not played
    assert lab.board.hint == {
        "player": game.current_player,
        "lines": edge_keys(hint.move.lines),
        "remove": hex_key(hint.move.remove),
    }
    assert lab.board.message == hint.reason and lab.board.message_kind == "info"
    trial = game.copy()
    trial.push(hint.move)
    player = game.current_player
    assert hint.points == trial.scores()[player] - game.scores()[player]
    assert f"({bot} bot)" in hint.reason and "remove the" in hint.reason


def test_the_default_hint_bot_is_greedy_and_the_button_asks_for_it() -> None:
    lab = lab_of(seed=2, opponent=None)
    lab.draw_lines(CENTRE)  # purple's opening; red (a classmate) asks for a hint
    lab.board._handle_message(lab.board, {"action": "hint"}, [])
    assert lab.last_hint is not None and lab.last_hint.bot == "greedy"
    assert lab.last_hint.move == make_bot("greedy", 2).choose(lab.game)
    assert lab.board.hint["lines"] == edge_keys(lab.last_hint.move.lines)
    lab.cancel_lines()  # any later change clears the highlight
    assert lab.board.hint == {}


@pytest.mark.slow
def test_the_hint_names_the_buildings_it_connects_and_the_points() -> None:
    """Over a few seeded games, a hint that reaches buildings names them and its points."""
    found = []
    for seed in range(6):
        lab = lab_of(seed=seed, opponent="greedy")
        lab.draw_lines(CENTRE)
        play_random(lab, 8, seed)
        if lab.phase == "over":
            continue
        hint = lab.hint()
        if hint.connects:
            found.append(hint)
            assert "it connects the " in hint.reason and "building at " in hint.reason
            # the change and its reason in the score panel's words ("a new separate line
            # costs −10", "blue points +6"), one minus sign
            change = re.search(
                r"your score goes from −?\d+ to −?\d+ \(([+−]?\d+)(: [^)]+)?\)", hint.reason
            )
            assert change, hint.reason
            if hint.points:
                assert change.group(2), hint.reason
                assert re.search(r"points [+−]\d+|separate line|saves", change.group(2))
            assert not re.search(r"-\d", hint.reason)
    assert found, "no seed gave a hint that connects a building"


def test_a_bot_added_to_the_registry_gives_hints_and_can_be_the_opponent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class FirstMove:
        name = "first"

        def __init__(self, seed: int | None = 0) -> None:
            self.seed = seed

        def choose(self, game: Game) -> Move:
            return next(game.legal_moves())

    monkeypatch.setitem(bot_registry.BOTS, "first", FirstMove)
    assert ("first bot", "first") in opponent_choices()
    lab = lab_of(seed=3, opponent="first", hint_bot="first")
    lab.draw_lines(CENTRE)  # the "first" bot replies
    assert len(lab.record["turns"]) == 2
    assert lab.hint().move == next(lab.game.legal_moves())
    assert "first" in BOTS


def test_hints_are_refused_when_there_is_no_move_to_suggest() -> None:
    lab = lab_of(seed=5, opponent="random")
    with pytest.raises(Exception, match="unknown bot 'wizard'"):
        lab.hint("wizard")
    while lab.phase != "over":
        play_random(lab, 1, seed=5)
    with pytest.raises(Exception, match="the game is over") as raised:
        lab.hint()
    assert "\n" not in str(raised.value) and lab.board.hint == {}

"""The plumbing every widget shares (widgets/common.py, common.js) and the small objects the
widgets own, each tried on its own with explicit inputs."""

from __future__ import annotations

import json
import re

import ipywidgets
import pytest

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley.errors import IllegalActionError, ScenarioFormatError
from housing_lab.streetcar import Board, Game, Move, make_bot
from housing_lab.widgets.common import (
    COMMON_JS,
    MadeWhenOpened,
    parse_json_object,
    read_json_object,
    save_json,
    signed,
    widget_esm,
)
from housing_lab.widgets.lab.board import NorthBerkeleyBoard
from housing_lab.widgets.streetcar.board import StreetcarBoard, TurnStager
from housing_lab.widgets.streetcar.bot import BotOpponent
from housing_lab.widgets.streetcar.replay import ReplayCursor, rewound
from housing_lab.widgets.table.movein import SCORING_STEP, MoveInPlayback
from housing_lab.widgets.table.panel import TablePanel

BOARDS = [StreetcarBoard, NorthBerkeleyBoard, TablePanel]
SHARED_FUNCTIONS = ("el", "html", "batched", "showMessage", "saveDownload", "listen")


# --- common.js ------------------------------------------------------------------------------
@pytest.mark.parametrize("widget", BOARDS, ids=lambda w: w.__name__)
def test_each_front_end_is_common_js_then_its_own_file(widget: type) -> None:
    esm = widget._esm
    assert isinstance(esm, str) and esm.startswith(COMMON_JS.read_text(encoding="utf-8"))
    for name in SHARED_FUNCTIONS:  # defined once: a second definition is a SyntaxError in JS
        assert len(re.findall(rf"\bfunction {name}\(", esm)) == 1, name
    assert esm.count("export default") == 1
    assert "https://" not in esm and "import " not in esm.replace("// ", "")


def test_the_download_handler_puts_its_link_in_the_page() -> None:
    common = COMMON_JS.read_text(encoding="utf-8")
    assert "document.body.appendChild(link)" in common
    for widget in BOARDS:
        own = widget._esm[len(common) :]
        assert "createObjectURL" not in own and "saveDownload(model" in own


def test_widget_esm_names_a_missing_file() -> None:
    with pytest.raises(FileNotFoundError, match=r"nowhere\.js"):
        widget_esm("nowhere.js")


# --- the Python side of the boards ----------------------------------------------------------
def test_say_offer_and_actions() -> None:
    board = StreetcarBoard()
    board.say("refused", "error")
    assert (board.message, board.message_kind) == ("refused", "error")
    with pytest.raises(ValueError, match="'loud'"):
        board.say("x", "loud")
    board.offer_json("a.json", {"b": 1}, indent=1)
    board.offer_json("a.json", {"b": 1}, indent=1)
    assert board.download == {"name": "a.json", "content": '{\n "b": 1\n}', "n": 2}
    seen = []
    board.on_action = seen.append
    board._handle_message(board, {"action": "edge"}, [])
    board._handle_message(board, "not a dict", [])
    assert seen == [{"action": "edge"}]


# --- loading, saving, numbers ---------------------------------------------------------------
def test_read_json_object_from_a_dict_text_or_path(tmp_path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"a": 1}', encoding="utf-8")
    for source in ({"a": 1}, '  {"a": 1}', path, str(path)):
        assert read_json_object(source, "a thing") == {"a": 1}


@pytest.mark.parametrize(
    ("source", "text"),
    [
        ('{"a": ', "not a thing: malformed JSON"),
        ("missing.json", "cannot read 'missing.json'"),
        (3, "a thing is a dict, JSON text or a file path, not 3"),
    ],
)
def test_read_json_object_refuses_by_name(source, text, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ScenarioFormatError, match=re.escape(text)):
        read_json_object(source, "a thing", ScenarioFormatError)


def test_parse_json_object_wants_an_object() -> None:
    with pytest.raises(HousingLabError, match="a record is a JSON object, not list"):
        parse_json_object("[1, 2]", "a record")


def test_save_json_returns_the_data_and_writes_it(tmp_path) -> None:
    data = {"b": [1, 2]}
    assert save_json(data, None) is data
    path = tmp_path / "s.json"
    assert save_json(data, path, indent=1) is data
    assert json.loads(path.read_text(encoding="utf-8")) == data
    assert path.read_text(encoding="utf-8").endswith("\n")


@pytest.mark.parametrize(
    ("value", "plus", "text"),
    [
        (-3, False, "−3"),
        (0, False, "0"),
        (4, False, "4"),
        (-1, True, "−1"),
        (0, True, "0"),
        (1, True, "+1"),
    ],
)
def test_signed(value: int, plus: bool, text: str) -> None:
    assert signed(value, plus=plus) == text


# --- Streetcar's small objects --------------------------------------------------------------
def small_game(turn_one_done: bool = True) -> Game:
    game = Game(Board.standard(), seed=2)
    if turn_one_done:
        edge = game.legal_edges()[0]
        game.push(Move([edge, game.legal_second_edges(edge)[0]]))
    return game


def test_turn_stager_stages_checked_lines_and_finishes_the_move() -> None:
    game = small_game()
    stager = TurnStager()
    edge = game.legal_edges()[0]
    partner = game.legal_second_edges(edge)[0]
    assert stager.stage(game, [edge, partner]) is None
    assert stager.staged is not None and len(game.move_stack) == 1  # nothing pushed
    with pytest.raises(HousingLabError, match="already drawn"):
        stager.stage(game, [edge, partner])
    house = game.removable_houses()[0]
    assert stager.finish(house) == Move(stager.staged, house)
    stager.clear()
    with pytest.raises(HousingLabError, match="draw this turn's lines first"):
        stager.finish(house)


def test_turn_stager_on_turn_one_plays_at_once() -> None:
    game = small_game(turn_one_done=False)
    edge = game.legal_edges()[0]
    move = TurnStager().stage(game, [edge])
    assert move is not None and move.lines == Move([edge]).lines and not game.move_stack


def test_turn_stager_edge_clicks() -> None:
    game = small_game()
    stager = TurnStager()
    edge = game.legal_edges()[0]
    chosen = stager.choose_edge(game, edge)
    assert chosen.lines is None and chosen.kind == "info" and stager.first is not None
    partner = game.legal_second_edges(edge)[0]
    assert stager.choose_edge(game, partner).lines == [stager.first, partner]
    assert stager.choose_edge(game, edge).message == "First line dropped: choose again."
    assert stager.first is None


def test_bot_opponent_replies_and_holds_the_score_until_shown() -> None:
    game = small_game()  # turn 2: red to play
    bot = BotOpponent(delay=0.5)
    bot.start(None, None, "purple")
    assert bot.reply(game, shows=1) == (None, "") and bot.moves == 0  # a classmate: no reply
    bot.start("greedy", make_bot("greedy", 2), "purple")
    before = game.copy()
    shown, said = bot.reply(game, shows=7)
    assert shown is not None and shown["n"] == 1 and shown["shows"] == 7
    assert len(game.move_stack) == 2 and said.startswith("Red (greedy bot) drew")
    assert bot.game_to_score(game).move_stack == before.move_stack
    assert not bot.shown(2) and bot.shown(1)
    assert bot.game_to_score(game) is game
    assert bot.moves_to_undo(game) == 2  # the bot's reply and the student's move


def test_replay_cursor_moves_the_game_it_is_given() -> None:
    game = small_game()
    start, moves = rewound(game)
    cursor = ReplayCursor(game)
    assert cursor.moves == moves
    assert cursor.go_to(start, 1, lambda g: "words").startswith("Move 1 of")
    assert cursor.go_to(start, 0, str) == "The start of the game." and not start.move_stack
    with pytest.raises(HousingLabError, match="move 5 is not in this game"):
        cursor.go_to(start, 5, str)


# --- the game table's move-in playback ------------------------------------------------------
def test_move_in_playback_steps_only_in_move_in() -> None:
    playback = MoveInPlayback()
    with pytest.raises(IllegalActionError, match="at phase1"):
        playback.forward("phase1")
    with pytest.raises(IllegalActionError, match="already at its start"):
        playback.back("movein")
    playback.forward("movein")
    assert playback.step == 1 and playback.stage_after_play() == "movein"
    playback.to_scores("movein")
    assert playback.step == SCORING_STEP and playback.stage_after_play() == "scoring"


def test_a_part_is_made_once_when_first_asked_for_and_shown_in_its_box() -> None:
    shown: list[str] = []
    made: list[ipywidgets.HTML] = []

    def make() -> ipywidgets.HTML:
        made.append(ipywidgets.HTML("part"))
        return made[-1]

    part: MadeWhenOpened[ipywidgets.HTML] = MadeWhenOpened(
        make, lambda: shown.append(part.made.value if part.made else "nothing")
    )
    assert part.made is None and part.box.children == () and made == []
    first = part.get()
    assert part.get() is first and made == [first] and part.made is first
    assert part.box.children == (first,)
    assert shown == ["part"]  # shown once, after it was made and before it was handed out

"""StreetcarLab without a browser: turns, clicks, refusals, bot, score panel, engine agreement."""

from __future__ import annotations

import json
import re

import pytest

from housing_lab.errors import HousingLabError
from housing_lab.streetcar import (
    Board,
    Game,
    GreedyBot,
    IllegalMoveError,
    Move,
    RandomBot,
    RecordError,
    StreetcarError,
    make_bot,
    replay,
    to_record,
)
from housing_lab.widgets import StreetcarLab
from housing_lab.widgets.streetcar.board import edge_key, edge_keys, hex_key, position_view
from housing_lab.widgets.streetcar.places import line_refusal
from housing_lab.widgets.streetcar.score import score_chart_data
from housing_lab.widgets.streetcar.words import outcome_words

CENTRE = [[[0, 0], [1, 0]], [[0, 0], [0, 1]]]


def lab_of(seed: int = 1, opponent: str | None = None, **options) -> StreetcarLab:
    return StreetcarLab(seed=seed, opponent=opponent, bot_delay=0, **options)


def engine(lab: StreetcarLab) -> Game:
    """The engine's game for the lab's record, rebuilt independently."""
    return replay(lab.record, require_complete=False)


def widget_state(lab: StreetcarLab) -> dict:
    board = lab.board
    names = [
        "houses",
        "flipped",
        "buildings",
        "lines",
        "new_buildings",
        "phase",
        "player",
        "prompt",
        "legal_edges",
        "first_edge",
        "second_edges",
        "staged",
        "removable",
        "can_undo",
        "can_pass",
        "bot_move",
    ]
    return {
        **{name: getattr(board, name) for name in names},
        "record": lab.record,
        "staged_lines": lab.staged_lines,
        "rows": lab.score.rows,
        "bars": lab.score.bars.y.tolist(),
        "table": lab.score.table.value,
    }


def assert_follows_engine(lab: StreetcarLab) -> None:
    game = engine(lab)
    view = position_view(game)
    board = lab.board
    assert board.houses == view["houses"]
    assert board.flipped == view["flipped"]
    assert board.buildings == view["buildings"]
    assert board.lines == view["lines"]
    assert lab.game.snapshot()[:-1] == game.snapshot()[:-1]  # all but the undo stack's records
    if lab.phase == "lines":
        assert board.legal_edges == edge_keys(game.legal_edges())
    if lab.phase == "remove":
        assert board.removable == [hex_key(h) for h in game.removable_houses()]
    assert lab.score.rows == [game.score_breakdown()[p].to_dict() for p in ("purple", "red")]
    assert lab.score.bars.y.tolist() == score_chart_data(game.score_breakdown())


def play_random_turns(lab: StreetcarLab, turns: int, seed: int = 0) -> None:
    """Whole turns chosen by a seeded random bot, played through the lab's Python API."""
    bot = RandomBot(seed)
    for _ in range(turns):
        move = bot.choose(lab.game)
        lab.draw_lines(list(move.lines))
        if move.remove is not None:
            lab.remove_house(move.remove)


def test_new_lab_shows_the_engines_opening() -> None:
    lab = lab_of(seed=3)
    game = Game(seed=3)
    assert lab.board.houses == {hex_key(h): c for h, c in game.houses.items()}
    assert len(lab.board.hexes) == 52 and len(lab.board.edges) == 181
    assert lab.board.legal_edges == edge_keys(game.legal_edges())
    assert lab.phase == "lines" and lab.board.removable == [] and not lab.board.can_undo
    expected = to_record(game)
    del expected["final"]
    assert lab.record == expected
    assert repr(lab) == "StreetcarLab(seed=3, opponent=classmate, turn 1)"
    assert "Turn 1" in lab.board.prompt and lab.board.players["red"]["kind"] == "human"


def test_turn_one_plays_at_once_and_the_bot_replies() -> None:
    lab = StreetcarLab(seed=1, opponent="greedy", bot_delay=0)
    lab.draw_lines(CENTRE)
    game = Game(seed=1)
    game.push(Move(CENTRE))
    before = position_view(game)
    game.push(make_bot("greedy", 1).choose(game))
    assert [t["player"] for t in lab.record["turns"]] == ["purple", "red"]
    assert lab.record["turns"] == to_record(game)["turns"]
    assert lab.board.bot_move["before"] == before and lab.board.bot_move["delay"] == 0
    assert lab.board.bot_move["shows"] == lab.board.position_id
    assert "Red (greedy bot) drew" in lab.board.message
    assert_follows_engine(lab)


def test_draw_lines_stages_and_remove_house_completes_the_turn() -> None:
    lab = lab_of()
    lab.draw_lines(CENTRE)
    game = lab.game
    lines = next(choice for choice in game.legal_line_choices() if len(choice) == 2)
    house = game.removable_houses()[5]
    lab.draw_lines([list(map(list, edge)) for edge in reversed(lines)])  # any spelling
    assert lab.phase == "remove" and len(lab.record["turns"]) == 1  # nothing pushed yet
    assert lab.staged_lines == [[list(a), list(b)] for a, b in lines]
    assert lab.board.staged == edge_keys(lines) and lab.board.legal_edges == []
    assert lab.board.removable == [hex_key(h) for h in game.removable_houses()]
    lab.remove_house(list(house))
    game.push(Move(lines, house))
    assert lab.record["turns"] == to_record(game)["turns"]
    assert lab.phase == "lines" and lab.staged_lines is None
    assert_follows_engine(lab)


def first_pair(lab: StreetcarLab):
    return next(c for c in lab.game.legal_line_choices() if len(c) == 2)


def stage(lab: StreetcarLab) -> None:
    lab.draw_lines(first_pair(lab))


# (name, set-up before the refused call or None, the refused call, error class, rule id or text)
REFUSALS = [
    (
        "drawn edge",
        None,
        lambda lab: lab.draw_lines([lab.game.lines["red"][0]]),
        IllegalMoveError,
        "edge-already-drawn",
    ),
    (
        "touches red",
        None,
        lambda lab: lab.draw_lines(
            [
                next(
                    e
                    for e in lab.game.board.edges
                    if "touches a red line" in (lab.game.explain_illegal_line(e) or "")
                )
            ]
        ),
        IllegalMoveError,
        "edge-touches-other-colour",
    ),
    (
        "not adjacent",
        None,
        lambda lab: lab.draw_lines([[[0, -4], [1, -4]], [[-4, 4], [-3, 4]]]),
        IllegalMoveError,
        None,
    ),
    (
        "lone edge with a partner",
        None,
        lambda lab: lab.draw_lines([first_pair(lab)[0]]),
        IllegalMoveError,
        "single-edge-with-partner",
    ),
    (
        "no line while legal",
        None,
        lambda lab: lab.draw_lines([]),
        IllegalMoveError,
        "no-edge-while-legal",
    ),
    (
        "off the board",
        None,
        lambda lab: lab.draw_lines([[[9, 9], [10, 9]]]),
        IllegalMoveError,
        "edge-not-on-board",
    ),
    (
        "not neighbours",
        None,
        lambda lab: lab.draw_lines([[[0, 0], [2, 0]]]),
        IllegalMoveError,
        "edge-not-on-board",
    ),
    ("malformed", None, lambda lab: lab.draw_lines(["nonsense"]), StreetcarError, "pair"),
    (
        "house before lines",
        None,
        lambda lab: lab.remove_house([0, 0]),
        HousingLabError,
        "draw this turn's lines first",
    ),
    (
        "flipped house",
        stage,
        lambda lab: lab.remove_house(lab.game.flipped_houses()[0]),
        IllegalMoveError,
        "house-next-to-building",
    ),
    (
        "no house there",
        stage,
        lambda lab: lab.remove_house(lab.game.buildings[0].hex),
        IllegalMoveError,
        "no-house",
    ),
    (
        "off-board house",
        stage,
        lambda lab: lab.remove_house([7, 7]),
        IllegalMoveError,
        "hex-not-on-board",
    ),
    (
        "lines twice",
        stage,
        lambda lab: lab.draw_lines(first_pair(lab)),
        HousingLabError,
        "already drawn this turn",
    ),
    (
        "whole turn while staged",
        stage,
        lambda lab: lab.play(first_pair(lab), [0, 0]),
        HousingLabError,
        "cancel them first",
    ),
    (
        "replay without a record",
        None,
        lambda lab: lab.replay_to(1),
        HousingLabError,
        "load a record first",
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "setup", "action", "error", "rule"), REFUSALS, ids=[r[0] for r in REFUSALS]
)
def test_refused_calls_change_nothing_and_show_the_engines_message(
    name, setup, action, error, rule
) -> None:
    lab = lab_of(seed=2)
    play_random_turns(lab, 10, seed=2)
    assert lab.game.buildings and lab.game.flipped_houses()
    if setup is not None:
        setup(lab)
    before = widget_state(lab)
    with pytest.raises(error) as raised:
        action(lab)
    assert widget_state(lab) == before
    if isinstance(raised.value, IllegalMoveError):
        assert rule is None or raised.value.rule == rule
    else:
        assert rule in str(raised.value)
    assert lab.board.message == str(raised.value) and lab.board.message_kind == "error"


def test_clicks_select_explain_and_complete() -> None:
    lab = lab_of(seed=4)
    lab.play(CENTRE)
    game = lab.game
    board = lab.board
    # A red click on an edge touching purple's line is refused by the engine and said in
    # places on the board (never coordinates); nothing changes.
    touching = [[0, 0], [-1, 1]]
    assert "touches a purple line" in (game.explain_illegal_line(touching) or "")
    before = widget_state(lab)
    board._handle_message(board, {"action": "edge", "edge": "-1,1|0,0"}, [])
    assert board.message == f"Not allowed: {line_refusal(game, touching)}."
    assert board.message_kind == "error" and widget_state(lab) == before
    assert "touches Purple's line at a corner" in board.message
    assert not re.search(r"\[|-?\d+,\s*-?\d+", board.message), board.message
    # First edge: its legal partners arrive as a trait for instant hover.
    first = game.legal_edges()[0]
    board._handle_message(board, {"action": "edge", "edge": edge_key(first)}, [])
    assert board.first_edge == edge_key(first)
    assert board.second_edges == edge_keys(game.legal_second_edges(first))
    # A second edge that does not touch the first is explained; the first stays chosen.
    far = next(e for e in game.legal_edges() if e != first and game.explain_illegal_line(e, first))
    lab.click_edge(list(map(list, far)))
    assert line_refusal(game, far, first) in board.message
    assert "does not meet your first line" in board.message
    assert board.first_edge == edge_key(first)
    # Clicking the first again drops it; clicking it and a partner stages the pair.
    lab.click_edge(edge_key(first))
    assert board.first_edge == "" and board.second_edges == []
    lab.click_edge(edge_key(first))
    second = game.legal_second_edges(first)[0]
    lab.click_edge(edge_key(second))
    assert lab.phase == "remove" and sorted(board.staged) == sorted(edge_keys([first, second]))
    # A click on a grid line now says what to do; a house click finishes the turn.
    lab.click_edge(edge_key(first))
    assert "click a house" in board.message
    house = game.removable_houses()[0]
    board._handle_message(board, {"action": "house", "hex": hex_key(house)}, [])
    game.push(Move([first, second], house))
    assert lab.record["turns"] == to_record(game)["turns"]
    assert_follows_engine(lab)


def test_house_click_before_lines_and_cancel() -> None:
    lab = lab_of(seed=4)
    lab.play(CENTRE)
    lab.click_house("0,-4")
    assert "First draw your lines" in lab.board.message and lab.phase == "lines"
    lab.click_edge(edge_key(lab.game.legal_edges()[3]))
    lab.board._handle_message(lab.board, {"action": "cancel_lines"}, [])
    assert lab.board.first_edge == "" and lab.phase == "lines"


def test_a_lone_edge_is_staged_when_the_engine_says_it_has_no_partner() -> None:
    game = Game(seed=0)
    bots = [RandomBot(0), RandomBot(1000)]
    while not any(not game.legal_second_edges(e) for e in game.legal_edges()):
        game.push(bots[(game.turn - 1) % 2].choose(game))
    lone = next(e for e in game.legal_edges() if not game.legal_second_edges(e))
    lab = lab_of(seed=0)
    for move in game.move_stack:
        lab.play(list(move.lines), move.remove)
    assert lab.board.legal_edges == edge_keys(game.legal_edges())
    lab.click_edge(edge_key(lone))
    assert lab.phase == "remove" and lab.board.staged == [edge_key(lone)]


def test_no_line_possible_is_a_pass() -> None:
    """No legal edge anywhere is rare in play, so the position is constructed."""
    board = Board.from_hexes([(0, 0), (1, 0)])
    position = Game.from_position(
        board, houses={(0, 0): "blue", (1, 0): "white"}, lines={"red": list(board.edges)}, turn=3
    )
    assert not position.legal_edges() and not position.is_over()
    lab = lab_of(seed=0)
    lab._start(lab._setup_from(position), "constructed")  # a teacher's position: no record
    assert lab.board.can_pass and "No line possible" in lab.board.prompt
    lab.board._handle_message(lab.board, {"action": "pass_lines"}, [])
    assert lab.phase == "remove" and lab.staged_lines == []
    lab.remove_house([0, 0])
    assert lab._game.peek() == Move([], (0, 0))
    assert "could draw no line" in lab.board.message


def test_undo_in_practice_takes_back_the_turn_and_the_bot_reply() -> None:
    lab = StreetcarLab(seed=5, opponent="greedy", bot_delay=0)
    with pytest.raises(HousingLabError, match="no move of yours"):
        lab.undo()
    lab.draw_lines(CENTRE)
    after_one = lab.record
    play_random_turns(lab, 1, seed=5)
    assert len(lab.record["turns"]) == 4 and lab.board.can_undo
    lab.board._handle_message(lab.board, {"action": "undo"}, [])
    assert lab.record == after_one
    assert_follows_engine(lab)
    lab.new_game(practice=False)
    lab.draw_lines(CENTRE)
    assert not lab.board.can_undo
    with pytest.raises(HousingLabError, match="practice mode"):
        lab.undo()


@pytest.mark.slow
def test_bot_move_is_shown_after_the_delay_and_then_scored() -> None:
    lab = StreetcarLab(seed=6, opponent="greedy", bot_delay=0.6)
    lab.draw_lines(CENTRE)
    play_random_turns(lab, 6, seed=6)
    before = lab.game
    before.pop()  # the position the student saw before the bot's reply
    bot_move = lab.board.bot_move
    assert bot_move["delay"] == 0.6 and bot_move["before"] == position_view(before)
    assert lab.score.rows == [before.score_breakdown()[p].to_dict() for p in ("purple", "red")]
    lab.board._handle_message(lab.board, {"action": "bot_shown", "n": bot_move["n"] - 1}, [])
    assert lab.score.rows == [before.score_breakdown()[p].to_dict() for p in ("purple", "red")]
    lab.board._handle_message(lab.board, {"action": "bot_shown", "n": bot_move["n"]}, [])
    assert_follows_engine(lab)


def test_a_whole_game_against_the_bot_ends_with_the_outcome() -> None:
    lab = StreetcarLab(seed=7, opponent="greedy", bot_delay=0)
    student = GreedyBot(70)
    while lab.phase != "over":
        move = student.choose(lab.game)
        lab.play(list(move.lines), move.remove)
        assert_follows_engine(lab)
    game = engine(lab)
    outcome = game.outcome()
    assert lab.record["final"] == to_record(game)["final"]
    assert replay(lab.record).move_stack == game.move_stack  # a complete, legal record
    words = outcome_words(outcome, lab.opponent_bot.label)  # the engine's outcome, worded
    assert lab.score.sentence == f"Game over: {words}."
    assert words in lab.board.prompt and lab.board.phase == "over"
    assert "single-colour" not in words and "-" not in words.replace("(", "")
    for winner in outcome.winners:
        assert (
            f"data-player='{winner}' data-total='{outcome.scores[winner]}' class=sc-winner"
            in lab.score.table.value
        )
    before = widget_state(lab)
    with pytest.raises(IllegalMoveError) as raised:
        lab.draw_lines(CENTRE)
    assert raised.value.rule == "game-over" and widget_state(lab) == before


def test_human_can_play_red_against_a_bot_that_opens() -> None:
    lab = StreetcarLab(seed=8, opponent="random", human="red", bot_delay=0)
    assert len(lab.record["turns"]) == 1 and lab.board.player == "red"
    assert lab.board.players["purple"]["kind"] == "bot"
    play_random_turns(lab, 2, seed=8)
    assert [t["player"] for t in lab.record["turns"]] == [
        "purple",
        "red",
        "purple",
        "red",
        "purple",
    ]
    assert_follows_engine(lab)


def test_save_load_and_replay_move_by_move(tmp_path) -> None:
    lab = StreetcarLab(seed=9, opponent="greedy", bot_delay=0)
    lab.draw_lines(CENTRE)
    play_random_turns(lab, 3, seed=9)
    path = tmp_path / "game.json"
    saved = lab.save(path)
    assert json.loads(path.read_text()) == saved == lab.record
    moves = engine(lab).move_stack

    other = lab_of(seed=0)
    other.load_record(path)
    assert other.phase == "replay" and other.replay_index == 0
    assert other.replay_bar.layout.display == "" and other.board.legal_edges == []
    game = Game(seed=9)
    assert other.board.houses == position_view(game)["houses"]
    for index, move in enumerate(moves, start=1):
        other.replay_step()
        game.push(move)
        assert other.replay_index == index and other.board.lines == position_view(game)["lines"]
        assert other.board.buildings == position_view(game)["buildings"]
    other.replay_step()  # stays at the end
    assert other.replay_index == len(moves)
    other.replay_back()
    other.replay_bar.buttons["start"].click()
    assert other.replay_index == 0
    with pytest.raises(HousingLabError, match="replaying"):
        other.draw_lines(CENTRE)
    other.replay_to(3)
    other.play_from_here()  # two students: nobody replies; the record is cut at move 3
    assert other.phase == "lines" and len(other.record["turns"]) == 3
    assert other.record["turns"] == saved["turns"][:3]
    assert other.replay_bar.layout.display == "none"


def test_bad_records_are_refused_and_change_nothing(tmp_path) -> None:
    lab = StreetcarLab(seed=9, opponent="greedy", bot_delay=0)
    lab.draw_lines(CENTRE)
    record = lab.record
    record["turns"][1]["lines"] = record["turns"][0]["lines"]  # red redraws purple's lines
    other = lab_of(seed=0)
    before = widget_state(other)
    with pytest.raises(RecordError, match="turn 2") as raised:
        other.load_record(record)
    assert "already drawn" in str(raised.value) and widget_state(other) == before
    with pytest.raises(HousingLabError, match="malformed JSON"):
        other.load_record('{"board": ')
    with pytest.raises(HousingLabError, match="cannot read"):
        other.load_record(tmp_path / "missing.json")
    assert widget_state(other) == before and other.board.message_kind == "error"


def test_upload_loads_a_record_or_shows_the_error(upload) -> None:
    lab = StreetcarLab(seed=9, opponent="greedy", bot_delay=0)
    lab.draw_lines(CENTRE)
    data = json.dumps(lab.record).encode()
    other = lab_of(seed=0)
    upload(other.upload, b"[1, 2]")
    assert "JSON object" in other.board.message and other.phase == "lines"
    upload(other.upload, data)
    assert other.phase == "replay" and other.replay_cursor.moves == engine(lab).move_stack


def test_options_start_a_new_game_or_are_refused() -> None:
    lab = lab_of(seed=1)
    lab.options.penalty.value = 5
    lab.options.goals["parks"].value = True
    lab.options.board.value = "small"
    lab.options.opponent.value = "random"
    lab.options.seed.value = 12
    lab.options.start.click()
    assert len(lab.board.hexes) == 19 and lab.seed == 12 and lab.opponent == "random"
    assert lab.record["penalty"] == 5 and lab.record["goals"] == ["parks"]
    assert lab.record["houses"] == to_record(Game(lab.game.board, seed=12))["houses"]
    lab.new_game(board=[[0, 0], [1, 0], [0, 1]], opponent=None)
    assert len(lab.board.hexes) == 3 and lab.options.board.value == "custom"
    before = widget_state(lab)
    with pytest.raises(StreetcarError, match="unknown development goal 'castles'"):
        lab.new_game(goals=["castles"])
    with pytest.raises(StreetcarError, match="unknown bot"):
        lab.new_game(opponent="wizard")
    lab.options.board.value = "custom"
    lab.options.custom.value = "[[0, 0], [0, 0]]"
    lab.options.start.click()  # refused: the message names the hex, the widgets are put back
    assert "listed twice" in lab.board.message and widget_state(lab) == before
    assert lab.options.custom.value == "[[0, 0], [1, 0], [0, 1]]"


def test_the_options_are_made_when_first_opened_and_show_the_game_as_it_stands() -> None:
    lab = StreetcarLab(seed=3, opponent="random", bot_delay=0)
    accordion = lab.children[-1]
    assert lab._options.made is None and accordion.children[0].children == ()
    lab.new_game(seed=7, penalty=25, goals=["parks"], opponent=None)
    assert lab._options.made is None
    accordion.selected_index = 0  # a student opens "Game options"
    panel = accordion.children[0].children[0]
    assert panel is lab.options
    assert panel.values() == {
        "seed": 7,
        "board": "standard",
        "penalty": 25,
        "goals": ["parks"],
        "opponent": None,
        "human": lab.human,
        "practice": lab.practice,
    }


def test_a_move_sends_one_board_update(recording_comms) -> None:
    lab = StreetcarLab(seed=10, opponent="greedy", bot_delay=0.6)
    lab.board.comm.messages.clear()
    lab.draw_lines(CENTRE)
    updates = lab.board.comm.updates()
    assert len(updates) == 1
    state = updates[0]
    assert {"lines", "houses", "bot_move", "legal_edges", "message"} <= set(state)
    assert state["bot_move"]["shows"] == state["position_id"]


@pytest.mark.slow
def test_random_clicks_never_disagree_with_the_engine() -> None:
    """Students click anything. A click on what the traits offer (legal edges, partners,
    removable houses) is never refused; any other click changes nothing; and the board always
    shows the engine's position."""
    import random

    rng = random.Random(11)
    lab = StreetcarLab(seed=11, opponent="random", bot_delay=0)
    board = lab.board
    games = moves = 0
    for _ in range(500):
        before = lab.record
        offered = board.second_edges if board.first_edge else board.legal_edges
        roll = rng.random()
        if roll < 0.5 and (offered or board.removable):
            if board.removable:
                lab.click_house(rng.choice(board.removable))
            else:
                lab.click_edge(rng.choice(offered))
            assert board.message_kind == "info", board.message
        elif roll < 0.75:
            lab.click_edge(rng.choice(board.edges))
        elif roll < 0.97:
            lab.click_house(rng.choice(board.hexes))
        elif roll < 0.99:
            lab.cancel_lines()
        else:
            board._handle_message(board, {"action": "undo"}, [])
        if board.message_kind == "error":
            assert lab.record == before
        moves += len(lab.record["turns"]) > len(before["turns"])
        assert_follows_engine(lab)
        if lab.phase == "over":
            games += 1
            lab.new_game(seed=rng.randrange(100))
    assert games >= 1 and moves >= 40

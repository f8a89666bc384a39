"""legal_actions() / apply(action): every listed action applies, nothing else does, pop undoes.

Actions are the record's turn objects without `player`; the refusal checks compare against the
listed actions only, so they test that `legal_actions()` and `apply` agree on every input.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from housing_lab.streetcar import (
    Board,
    Game,
    IllegalMoveError,
    Move,
    RandomBot,
    final_block,
    make_bot,
    play_game,
    to_record,
)
from housing_lab.streetcar.hexgrid import DIRECTIONS

from ..strategies import coords

small_boards = st.sets(coords, min_size=1, max_size=12)  # the standard board: see below
CENTRE = [[[0, 0], [1, 0]], [[0, 0], [0, 1]]]
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def played(seed: int, hexes: set | None, plies: int) -> Game:
    """A game on the standard (None) or a custom board after up to `plies` random turns.

    It stops short of the end (game over has its own test), so there is always a turn to play.
    """
    game = Game(Board.standard() if hexes is None else Board.from_hexes(hexes), seed=seed)
    bot = make_bot("random", seed)
    for _ in range(plies):
        game.push(bot.choose(game))
        if game.is_over():
            game.pop()
            break
    return game


def key(action: dict) -> str:
    """An action's canonical spelling (edges and their hexes sorted), for set membership."""
    return json.dumps(Move.from_action(action).to_action())


def check_applies_and_undoes(game: Game, actions: list[dict]) -> None:
    before = game.snapshot()
    turn = game.turn
    for action in actions:
        game.apply(action)
        assert game.turn == turn + 1
        assert game.peek().to_action() == action
        game.pop()
        assert game.snapshot() == before


def check_listed_actions(game: Game) -> None:
    """The actions are the legal moves, JSON-ready, distinct; each applies and pop undoes it."""
    actions = game.legal_actions()
    assert len(actions) == game.count_legal_moves()
    assert actions == [move.to_action() for move in game.legal_moves()]
    assert json.loads(json.dumps(actions)) == actions
    assert len({key(action) for action in actions}) == len(actions)
    check_applies_and_undoes(game, actions)


@pytest.mark.slow
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), hexes=small_boards, plies=st.integers(0, 12))
def test_every_listed_action_applies_and_pop_restores(seed: int, hexes: set, plies: int) -> None:
    check_listed_actions(played(seed, hexes, plies))


def test_every_opening_action_applies_on_the_standard_board() -> None:
    game = Game(seed=7)
    assert len(game.legal_actions()) == 334
    check_listed_actions(game)


@pytest.mark.slow
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(1, 40))
def test_every_listed_action_applies_on_the_standard_board(seed: int, plies: int) -> None:
    check_listed_actions(played(seed, None, plies))  # about 15000 actions a position


edges_off_board = st.builds(
    lambda h, d: [list(h), [h[0] + d[0], h[1] + d[1]]], coords, st.sampled_from(DIRECTIONS)
)


@st.composite
def candidates(draw: st.DrawFn, game: Game) -> dict:
    """Any action-shaped value: a listed action, a near miss made from one, or a random one.

    Edges and houses come from the board as well as from anywhere nearby, so drawn edges, edges
    touching the other colour, empty hexes and flipped houses all turn up.
    """
    board_edges = st.sampled_from(game.board.edges).map(lambda e: [list(e[0]), list(e[1])])
    edges_near = st.one_of(board_edges, edges_off_board)
    flipped = game.flipped_houses() or [(9, 9)]
    removals = st.one_of(
        st.none(), st.sampled_from(game.board.hexes), st.sampled_from(flipped), coords
    ).map(lambda h: None if h is None else list(h))
    listed = game.legal_actions()
    kind = draw(st.sampled_from(["listed", "near", "random"]))
    if kind == "random" or not listed:
        lines = draw(st.lists(edges_near, max_size=3))
        return {"lines": lines, "remove": draw(removals)}
    action = draw(st.sampled_from(listed))
    if kind == "listed":
        return action
    lines = list(action["lines"])
    change = draw(st.sampled_from(["drop", "add", "swap", "remove", "reverse"]))
    if change == "drop" and lines:
        lines.pop(draw(st.integers(0, len(lines) - 1)))
    elif change == "add" and len(lines) < 2:
        lines.append(draw(edges_near))
    elif change == "swap" and lines:
        lines[-1] = draw(edges_near)
    elif change == "reverse" and lines:
        lines[0] = lines[0][::-1]  # the same edge written the other way round: still legal
    return {"lines": lines, "remove": draw(removals) if change == "remove" else action["remove"]}


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    hexes=small_boards,
    plies=st.integers(0, 30),
    data=st.data(),
)
def test_apply_accepts_exactly_the_listed_actions(
    seed: int, hexes: set, plies: int, data: st.DataObject
) -> None:
    game = played(seed, hexes, plies)
    listed = {key(action) for action in game.legal_actions()}
    action = data.draw(candidates(game))
    before = game.snapshot()
    if key(action) in listed:
        game.apply(action)
        assert game.snapshot() != before
        game.pop()
    else:
        with pytest.raises(IllegalMoveError) as refused:
            game.apply(action)
        assert "\n" not in str(refused.value)
        assert refused.value.turn == game.turn
    assert game.snapshot() == before


@pytest.mark.parametrize(
    ("action", "rule", "names"),
    [
        (5, "malformed-action", "not 5"),
        ({"lines": "x", "remove": None}, "malformed-action", "'x'"),
        ({"lines": [[[0, 0]]], "remove": None}, "malformed-action", "[[0, 0]]"),
        ({"lines": [], "remove": [0]}, "malformed-action", "[0]"),
        ({"lines": [], "house": [0, 0]}, "malformed-action", "'house'"),
        ({"remove": None}, "malformed-action", "needs lines"),
        ({"lines": [[[0, 0], [2, 0]]], "remove": None}, "edge-not-on-board", "[[0, 0], [2, 0]]"),
        ({"lines": [[[0, 0], [1, 0]]], "remove": None}, "single-edge-with-partner", "[[0, 0]"),
        ({"lines": CENTRE, "remove": [0, 0]}, "removal-on-turn-1", "turn 1"),
        ({"lines": [], "remove": None, "player": "red"}, "wrong-player", "'red'"),
    ],
)
def test_bad_actions_are_refused_in_one_line(action: object, rule: str, names: str) -> None:
    game = Game(seed=3)
    before = game.snapshot()
    with pytest.raises(IllegalMoveError) as refused:
        game.apply(action)
    assert refused.value.rule == rule
    assert names in str(refused.value)
    assert "\n" not in str(refused.value)
    assert game.snapshot() == before


def test_actions_after_the_game_ends_are_refused() -> None:
    game = play_game([RandomBot(5), RandomBot(6)], seed=5, board=Board.from_hexes([(0, 0), (1, 0)]))
    assert game.is_over() and game.legal_actions() == []
    with pytest.raises(IllegalMoveError, match="the game is over") as refused:
        game.apply({"lines": [], "remove": None})
    assert refused.value.rule == "game-over"


def test_a_records_turns_are_actions() -> None:
    """Applying a record's turn objects (with their `player`) replays the game."""
    game = play_game([RandomBot(11), RandomBot(12)], seed=11)
    record = json.loads(json.dumps(to_record(game)))
    again = Game(seed=11)
    for turn in record["turns"]:
        again.apply(turn)
    assert again.is_over()
    assert final_block(again) == final_block(game)

"""The Streetcar room page without a browser: the shared board, the to-move team's clicks and
the store."""

from __future__ import annotations

from typing import Any

import pytest

from housing_lab.rooms import open_store
from housing_lab.streetcar import Game
from housing_lab.widgets.classroom.page import ClassroomPage
from housing_lab.widgets.classroom.streetcar import game_from_view
from housing_lab.widgets.streetcar.board import edge_key, position_view


@pytest.fixture
def store(tmp_path):
    with open_store("sqlite:///" + str(tmp_path / "rooms.sqlite")) as opened:
        yield opened


@pytest.fixture
def room(store) -> dict[str, Any]:
    return store.create_room(["Red", "Blue"], seed=1, game="streetcar")


def page(store, room, who: str) -> ClassroomPage:
    token = room["teacher"]["token"] if who == "teacher" else room["teams"][who]["token"]
    return ClassroomPage(store, room["room"], token)


def store_moves(view: dict[str, Any]) -> dict[str, Any]:
    """The store's `moves` in the shape `RoomStreetcar.offered` gives."""

    def choice(edges: list[Any]) -> tuple[str, ...]:
        return tuple(sorted(edge_key((tuple(a), tuple(b))) for a, b in edges))

    moves = view["moves"]
    return {
        "line_choices": sorted({choice(c) for c in moves["line_choices"]}),
        "remove": sorted(moves["remove"], key=lambda h: (h is not None, h or [])),
    }


def board_state(p: ClassroomPage) -> dict[str, Any]:
    assert p.streetcar is not None
    b = p.streetcar.board
    return {"houses": b.houses, "lines": b.lines, "buildings": b.buildings, "flipped": b.flipped}


def click(p: ClassroomPage, **message: Any) -> None:
    assert p.streetcar is not None
    p.streetcar.board.on_action(message)


def play_turn(p: ClassroomPage) -> None:
    """Poll, then click the first legal line, its first partner, then (after turn 1) the first
    house."""
    p.poll_once()
    board = p.streetcar.board
    first = board.legal_edges[0]
    click(p, action="edge", edge=first)
    if board.first_edge:
        click(p, action="edge", edge=board.second_edges[0])
    if board.phase == "remove":
        click(p, action="house", hex=board.removable[0])


def test_every_page_shows_the_board_and_only_the_team_to_move_may_play(store, room):
    red, blue, teacher = (page(store, room, who) for who in ("Red", "Blue", "teacher"))
    for p in (red, blue, teacher):
        assert p.streetcar is not None and len(p.streetcar.board.hexes) > 30
        assert len(p.streetcar.board.houses) == len(p.streetcar.board.hexes)
        assert p.actions.children == ()  # no buttons: the board is the way to play
    assert red.streetcar.board.legal_edges and red.streetcar.board.phase == "lines"
    for p in (blue, teacher):
        assert p.streetcar.board.legal_edges == [] and p.streetcar.offered()["line_choices"] == []
        assert "Red (purple) is playing" in p.streetcar.board.prompt
    assert "Your turn" in red.side.value and "Your turn" not in blue.side.value


def test_the_to_move_page_offers_exactly_the_store_moves(store, room):
    red, blue = page(store, room, "Red"), page(store, room, "Blue")
    assert red.streetcar.offered() == store_moves(red.view)  # turn 1: 334 moves, no house
    play_turn(red)
    blue.poll_once()
    assert blue.view["turn"] == 2 and blue.view["moves"]["count"] > 1000
    assert blue.streetcar.offered() == store_moves(blue.view)  # turn 2: houses are removed
    red.poll_once()
    assert red.streetcar.offered() == {"line_choices": [], "remove": []}


def test_a_click_sequence_plays_one_turn_through_the_store(store, room):
    red, blue, teacher = (page(store, room, who) for who in ("Red", "Blue", "teacher"))
    before = board_state(blue)
    board = red.streetcar.board
    (first,) = board.legal_edges[:1]
    click(red, action="edge", edge=first)
    assert board.first_edge == first and board.second_edges and red.seq == 0
    second = board.second_edges[0]
    click(red, action="edge", edge=second)  # turn 1: no house, so the turn goes at once
    assert red.seq == 1 and store.seq(room["room"], room["teams"]["Red"]["token"]) == 1
    assert sorted(red.streetcar.board.lines["purple"]) == sorted([first, second])
    assert board_state(blue) == before  # not yet polled
    assert blue.poll_once() and teacher.poll_once()
    assert board_state(blue) == board_state(red) == board_state(teacher)
    assert blue.streetcar.board.legal_edges and red.streetcar.board.legal_edges == []
    # Blue's turn 2: lines, then a house; the store holds the whole turn as one action
    play_turn(blue)
    assert blue.seq == 2 and red.poll_once() and teacher.poll_once()
    assert board_state(blue) == board_state(red) == board_state(teacher)
    assert len(red.streetcar.board.houses) == len(red.streetcar.board.hexes) - 1
    assert red.view["turn"] == 3
    last = red.streetcar.board.last_move  # highlighted from the page's own before/after
    assert last["player"] == "red" and len(last["lines"]) == 2
    assert last["lines"] == sorted(red.streetcar.board.lines["red"]) and last["remove"]
    assert last["remove"] not in red.streetcar.board.houses
    assert red.streetcar.board.message == ""  # nothing stale from the old position


def test_the_board_is_the_engine_position_of_the_room(store, room):
    red, blue = page(store, room, "Red"), page(store, room, "Blue")
    play_turn(red)
    play_turn(blue)
    game = Game(seed=1)
    for action in store.log(room["room"], room["teacher"]["token"]):
        game.apply(action.action)
    assert red.poll_once()
    drawn = position_view(game)
    assert red.streetcar.board.houses == drawn["houses"]
    assert red.streetcar.board.lines == drawn["lines"]
    assert red.streetcar.board.flipped == drawn["flipped"]
    rebuilt = game_from_view(red.view, {})
    assert rebuilt.legal_line_choices() == game.legal_line_choices()
    assert rebuilt.removable_houses() == game.removable_houses()


def test_the_other_team_and_the_teacher_cannot_play(store, room):
    blue, teacher = page(store, room, "Blue"), page(store, room, "teacher")
    edge = page(store, room, "Red").streetcar.board.legal_edges[0]
    for p in (blue, teacher):
        click(p, action="edge", edge=edge)
        assert p.streetcar.board.message_kind == "error"
        assert p.streetcar.board.first_edge == "" and p.seq == 0
    assert "Your turn comes next" in blue.streetcar.board.message
    assert store.seq(room["room"], room["teacher"]["token"]) == 0


def test_an_illegal_click_is_one_line_from_the_engine_and_changes_nothing(store, room):
    red = page(store, room, "Red")
    board = red.streetcar.board
    first = board.legal_edges[0]
    click(red, action="edge", edge=first)
    apart = next(e for e in board.edges if e not in board.second_edges and e != first)
    click(red, action="edge", edge=apart)  # does not meet the first line
    assert board.message_kind == "error" and board.message.startswith("Not allowed: ")
    assert "\n" not in board.message and board.first_edge == first and red.seq == 0
    click(red, action="edge", edge=first)  # dropped: choose again
    assert board.first_edge == ""
    click(red, action="house", hex=board.hexes[0])
    assert board.message_kind == "error" and "draw your lines" in board.message
    click(red, action="edge", edge="nonsense")
    assert board.message_kind == "error" and "nonsense" in board.message and red.seq == 0


def test_a_refusal_from_the_store_is_shown_and_the_turn_dropped(store, room):
    red, red_too = page(store, room, "Red"), page(store, room, "Red")
    play_turn(red_too)  # the same team's second device plays first
    board = red.streetcar.board  # this page has not polled: it still offers turn 1
    click(red, action="edge", edge=board.legal_edges[0])
    click(red, action="edge", edge=board.second_edges[0])
    assert board.message_kind == "error" and "Blue's turn" in board.message
    assert "Blue" in red.notice.value and red.streetcar.turn.first is None
    assert store.seq(room["room"], room["teacher"]["token"]) == 1


@pytest.mark.slow
def test_a_whole_room_game_offers_the_store_moves_every_turn(store, room):
    """A bot plays both teams through the store; at every turn the page of the team to move
    offers exactly the store's moves, and the other page shows the same board."""
    from housing_lab.streetcar import make_bot

    pages = {"purple": page(store, room, "Red"), "red": page(store, room, "Blue")}
    bot = make_bot("random", 5)
    game = Game(seed=1)
    while not game.is_over():
        mover, other = pages[game.current_player], pages[PLAYERS_AFTER[game.current_player]]
        mover.poll_once()
        other.poll_once()
        assert mover.streetcar.offered() == store_moves(mover.view), game.turn
        assert board_state(mover) == board_state(other)
        move = bot.choose(game)
        action = move.to_action()
        assert mover.act(action), mover.notice.value
        game.push(move)
    for p in pages.values():
        p.poll_once()
        assert p.streetcar.board.phase == "over" and p.streetcar.offered()["remove"] == []
    assert board_state(pages["purple"]) == board_state(pages["red"])


PLAYERS_AFTER = {"purple": "red", "red": "purple"}

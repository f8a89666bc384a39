"""Property tests over many random games (hypothesis): invariants, undo, records, move lists.

The checks use only the public API and RULES.md's own definitions (hexgrid), not the engine's
integer tables, so they are an independent reading of the rules.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from housing_lab.streetcar import (
    COLOURS,
    Board,
    Game,
    Rules,
    final_block,
    make_bot,
    replay,
    to_record,
)
from housing_lab.streetcar.hexgrid import edge_endpoints

from ..strategies import streetcar_boards

boards = streetcar_boards(30)
bot_names = st.sampled_from(["random", "random", "greedy"])
goal_sets = st.sets(st.sampled_from(["parks", "low_rise", "cycling", "arts_district"]))
SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def new_game(seed: int, hexes: set | None, goals: set[str] = frozenset()) -> Game:
    board = Board.standard() if hexes is None else Board.from_hexes(hexes)
    return Game(board, seed=seed, rules=Rules(goals=frozenset(goals)))


def check_invariants(game: Game) -> None:
    colour_at: dict = {}
    for player, edges in game.lines.items():
        for edge in edges:
            for corner in edge_endpoints(edge):
                assert colour_at.setdefault(corner, player) == player, corner
    placed = Counter()
    for building in game.buildings:
        placed[building.colour] += building.cubes
        assert building.hex not in game.houses
    for colour in COLOURS:
        assert placed[colour] <= 16
        assert placed[colour] + game.supply[colour] == 16
    removed = sum(sum(counts.values()) for counts in game.removed.values())
    assert removed + len(game.houses) == len(game.board.hexes)


def reference_line_choices(game: Game) -> set[frozenset]:
    """The legal line parts straight from RULES.md's wording."""
    player = game.current_player
    colour_at = {
        corner: owner
        for owner, edges in game.lines.items()
        for edge in edges
        for corner in edge_endpoints(edge)
    }
    drawn = {edge for edges in game.lines.values() for edge in edges}
    ends = {edge: set(edge_endpoints(edge)) for edge in game.board.edges}
    legal = [
        e
        for e in game.board.edges
        if e not in drawn and all(colour_at.get(v, player) == player for v in ends[e])
    ]
    pairs = {frozenset((e, f)) for e, f in itertools.combinations(legal, 2) if ends[e] & ends[f]}
    paired = set().union(*pairs) if pairs else set()
    singles = {frozenset((e,)) for e in legal if e not in paired}
    return pairs | singles if legal else {frozenset()}


@pytest.mark.slow
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), hexes=boards, bots=st.tuples(bot_names, bot_names))
def test_random_games_keep_the_invariants_and_undo_exactly(
    seed: int, hexes: set | None, bots: tuple[str, str]
) -> None:
    game = new_game(seed, hexes)
    players = [make_bot(bots[0], seed), make_bot(bots[1], seed + 1)]
    check_invariants(game)
    while not game.is_over():
        move = players[(game.turn - 1) % 2].choose(game)
        assert game.is_legal(move)
        before = game.snapshot()
        game.push(move)
        after = game.snapshot()
        check_invariants(game)
        assert game.pop() == move
        assert game.snapshot() == before
        twin = game.copy()
        game.push(move)
        assert game.snapshot() == after
        assert twin.snapshot() == before  # the copy did not follow
    assert game.outcome() is not None
    assert game.removable_houses() == []


@pytest.mark.slow
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), hexes=boards, goals=goal_sets, penalty=st.integers(0, 20))
def test_every_record_replays_to_the_same_final_block(
    seed: int, hexes: set | None, goals: set[str], penalty: int
) -> None:
    board = Board.standard() if hexes is None else Board.from_hexes(hexes)
    game = Game(board, seed=seed, rules=Rules(penalty=penalty, goals=frozenset(goals)))
    bot = make_bot("random", seed)
    while not game.is_over():
        game.push(bot.choose(game))
    record = json.loads(json.dumps(to_record(game)))
    again = replay(record)
    assert final_block(again) == final_block(game)
    assert json.loads(json.dumps(final_block(game))) == record["final"]
    assert again.move_stack == game.move_stack


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), hexes=boards, plies=st.integers(0, 30))
def test_move_generation_matches_the_rules_text(seed: int, hexes: set | None, plies: int) -> None:
    game = new_game(seed, hexes)
    bot = make_bot("random", seed)
    for _ in range(plies):
        if game.is_over():
            break
        game.push(bot.choose(game))
    if game.is_over():
        assert list(game.legal_moves()) == []
        return
    choices = game.legal_line_choices()
    assert len(set(choices)) == len(choices)
    assert {frozenset(c) for c in choices} == reference_line_choices(game)
    removals = 1 if game.turn == 1 else len(game.removable_houses())
    assert game.count_legal_moves() == len(choices) * removals

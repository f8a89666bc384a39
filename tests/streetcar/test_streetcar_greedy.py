"""GreedyBot against its reference (the plain first version, in greedy_reference.py): the same
moves, the same ranked candidates, from the same seeds, with every rule option."""

from __future__ import annotations

import pytest

from housing_lab.streetcar import Board, Game, GreedyBot, RandomBot, Rules, play_game

from .greedy_reference import ReferenceGreedyBot

RING3 = [(q, r) for q in range(-3, 4) for r in range(-3, 4) if abs(q + r) <= 3]  # 37 hexes
RULES = [
    Rules(),
    Rules(penalty=3),
    Rules(penalty=0),
    # whole games with goals take ~0.5 s each: the full run plays them
    pytest.param(Rules(goals=frozenset({"parks"})), marks=pytest.mark.slow),
    pytest.param(
        Rules(penalty=25, goals=frozenset({"diversity", "cycling", "low_rise"})),
        marks=pytest.mark.slow,
    ),
]


def both_greedy(bot: type[GreedyBot], seed: int, rules: Rules, board: Board | None) -> Game:
    return play_game([bot(seed), bot(seed + 1)], seed=seed, rules=rules, board=board)


def rules_id(rules: Rules) -> str:
    """A test id that is the same in every process (a frozenset's order is not: pytest-xdist
    workers must collect the same ids)."""
    return f"penalty={rules.penalty}-goals={','.join(sorted(rules.goals)) or 'none'}"


@pytest.mark.parametrize("rules", RULES, ids=rules_id)
def test_greedy_plays_the_references_moves(rules: Rules) -> None:
    game = both_greedy(GreedyBot, 1, rules, None)
    assert game.is_over()
    assert game.move_stack == both_greedy(ReferenceGreedyBot, 1, rules, None).move_stack


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULES, ids=rules_id)
def test_greedy_plays_the_references_moves_in_many_games(rules: Rules) -> None:
    for seed in range(2, 8):
        board = Board.from_hexes(RING3) if seed % 2 else None
        fast = play_game([GreedyBot(seed), RandomBot(seed)], seed=seed, rules=rules, board=board)
        plain = play_game(
            [ReferenceGreedyBot(seed), RandomBot(seed)], seed=seed, rules=rules, board=board
        )
        assert fast.move_stack == plain.move_stack, seed
        fast = both_greedy(GreedyBot, seed, rules, board)
        assert fast.move_stack == both_greedy(ReferenceGreedyBot, seed, rules, board).move_stack


@pytest.mark.slow
def test_ranked_candidates_match_the_reference() -> None:
    game = Game(seed=5, rules=Rules(goals=frozenset({"arts_district"})))
    opponent = RandomBot(5)
    while not game.is_over():
        seed = game.turn
        ranked = GreedyBot(seed).ranked_moves(game)
        assert ranked == ReferenceGreedyBot(seed).ranked_moves(game)
        assert len(ranked) == (
            game.count_legal_moves() if game.turn == 1 else len(game.removable_houses())
        )
        game.push(opponent.choose(game))

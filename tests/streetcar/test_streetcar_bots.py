"""Bots: determinism, uniform random play, greedy's exactness and its win rate over random."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from housing_lab.streetcar import Board, Game, GreedyBot, RandomBot, Rules, make_bot, play_game
from housing_lab.streetcar.play.match import play_match, summarise

RING2 = [(q, r) for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2]  # 19 hexes


def test_same_seeds_same_game() -> None:
    one = play_game([GreedyBot(1), RandomBot(2)], seed=3)
    two = play_game([GreedyBot(1), RandomBot(2)], seed=3)
    assert one.move_stack == two.move_stack
    other = play_game([GreedyBot(1), RandomBot(9)], seed=3)
    assert other.move_stack != one.move_stack


def test_random_bot_is_uniform_over_legal_moves() -> None:
    # A lone hex: 6 opening pairs, each should come up about 1/6 of the time.
    game = Game(Board.from_hexes([(0, 0)]))
    bot = RandomBot(7)
    counts = Counter(bot.choose(game) for _ in range(3000))
    assert set(counts) == set(game.legal_moves())
    assert all(400 < n < 600 for n in counts.values())


def brute_force_best(game: Game) -> int:
    """max over every legal move of (own score - opponent's score) after it, by push/pop."""
    me = game.current_player
    best = None
    for move in game.legal_moves():
        game.push(move)
        scores = game.scores()
        game.pop()
        value = scores[me] - sum(v for k, v in scores.items() if k != me)
        best = value if best is None else max(best, value)
    return best


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_greedy_picks_a_best_move(seed: int) -> None:
    # Play a few random turns on a small board, then compare greedy's choice with the best
    # move found by brute force at several points of the game.
    game = Game(Board.from_hexes(RING2), seed=seed)
    opener = RandomBot(seed)
    greedy = GreedyBot(seed)
    checked = 0
    while not game.is_over():
        if game.turn > 3 and game.turn % 3 == 0:
            me = game.current_player
            move = greedy.choose(game)
            game.push(move)
            scores = game.scores()
            game.pop()
            value = scores[me] - sum(v for k, v in scores.items() if k != me)
            assert value == brute_force_best(game)
            checked += 1
        game.push(opener.choose(game))
    assert checked >= 2


def test_greedy_with_goals_plays_legal_moves() -> None:
    rules = Rules(goals=frozenset({"parks", "diversity", "cycling"}))
    game = play_game([GreedyBot(1), GreedyBot(2)], seed=4, rules=rules)
    assert game.is_over()


@pytest.mark.slow
def test_greedy_beats_random_in_200_seeded_games() -> None:
    summary = summarise(["greedy", "random"], play_match(["greedy", "random"], 200, seed=2024))
    assert summary.games == 200
    assert summary.wins[0] / 200 >= 0.80, summary.to_dict()


def test_make_bot_and_match_checks() -> None:
    assert make_bot("greedy", 1).name == "greedy"
    assert make_bot("mcts", 1).name == "mcts"
    with pytest.raises(ValueError, match=r"unknown bot 'smart' \(known: random, greedy, mcts\)"):
        make_bot("smart")
    with pytest.raises(ValueError, match="needs 2 bots"):
        list(itertools.islice(play_match(["random"], 1), 1))

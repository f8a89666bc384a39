"""The search bot `mcts`: determinism, legal moves, strength over random, registry, budgets."""

from __future__ import annotations

import pytest

from housing_lab.streetcar import (
    BOTS,
    Board,
    Game,
    GreedyBot,
    RandomBot,
    Rules,
    StreetcarError,
    make_bot,
    play_game,
)
from housing_lab.streetcar.greedy import QuickGreedyBot
from housing_lab.streetcar.match import play_match, summarise
from housing_lab.streetcar.mcts import MctsBot

RING2 = [(q, r) for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2]  # 19 hexes
RING3 = [(q, r) for q in range(-3, 4) for r in range(-3, 4) if abs(q + r) <= 3]  # 37 hexes


def moves_of(seed: int, iterations: int, turns: int) -> list[object]:
    """The moves mcts plays against a seeded random opponent for `turns` turns."""
    game = Game(seed=4)
    bots = [MctsBot(seed, iterations=iterations, depth=3), RandomBot(8)]
    while game.turn <= turns:
        game.push(bots[(game.turn - 1) % 2].choose(game))
    return game.move_stack


def test_same_seed_and_budget_give_the_same_moves() -> None:
    first = moves_of(1, 6, 6)
    assert moves_of(1, 6, 6) == first
    # The seed matters (tie-breaks and rollouts): another seed plays another game here.
    assert moves_of(2, 6, 6) != first


def test_every_move_is_legal_to_the_end_of_a_game() -> None:
    game = Game(Board.from_hexes(RING2), seed=3)
    bots = [RandomBot(3), MctsBot(5, iterations=6)]
    while not game.is_over():
        move = bots[(game.turn - 1) % 2].choose(game)
        assert game.is_legal(move), move
        game.push(move)
    assert game.outcome() is not None


def test_goal_rules_and_the_last_moves_are_handled() -> None:
    rules = Rules(goals=frozenset({"parks", "diversity"}))
    game = play_game(
        [MctsBot(1, iterations=3, depth=2), GreedyBot(2)],
        seed=6,
        board=Board.from_hexes(RING2),
        rules=rules,
    )
    assert game.is_over()
    with pytest.raises(StreetcarError, match="game is over"):
        MctsBot(1).choose(game)


def test_a_small_budget_beats_random() -> None:
    summary = summarise(
        ["mcts", "random"],
        play_match(["mcts", "random"], 4, seed=11, board=Board.from_hexes(RING3), iterations=2),
    )
    assert summary.wins[0] == 4, summary.to_dict()


def test_the_time_budget_stops_the_search() -> None:
    game = Game(seed=2)
    bot = MctsBot(1, seconds=0.01)
    move = bot.choose(game)
    assert game.is_legal(move)
    assert bot.last_iterations >= 1


def test_registry_and_budgets() -> None:
    assert "mcts" in BOTS and set(BOTS) >= {"random", "greedy"}
    bot = make_bot("mcts", 3)
    assert bot.name == "mcts" and isinstance(bot, MctsBot)
    assert make_bot("mcts", 3, iterations=7).iterations == 7
    assert make_bot("mcts", 3, seconds=0.5).seconds == 0.5
    assert make_bot("greedy", 3, iterations=7).name == "greedy"  # nothing to budget
    with pytest.raises(StreetcarError, match="iterations must be at least 1, not 0"):
        make_bot("mcts", iterations=0)
    with pytest.raises(StreetcarError, match="seconds must be more than 0, not -1"):
        make_bot("mcts", seconds=-1)


def test_match_records_each_bots_thinking_time() -> None:
    series = play_match(["mcts", "random"], 1, seed=1, board=Board.from_hexes(RING2), iterations=2)
    played = next(series)
    turns = len(played.game.move_stack)
    assert len(played.seconds[0]) + len(played.seconds[1]) == turns
    assert len(played.seconds[0]) == (turns + 1) // 2  # bot A is purple in game 0
    summary = summarise(["mcts", "random"], iter([played])).to_dict()
    assert all(s is not None and s >= 0 for s in summary["seconds_per_move"])


def test_ranked_moves_lead_with_greedys_choice() -> None:
    game = Game(seed=9)
    for turn in range(8):
        ranked = GreedyBot(turn).ranked_moves(game, 5)
        assert ranked[0][1] == GreedyBot(turn).choose(game)
        assert len(ranked) == 5 and [v for v, _ in ranked] == sorted(
            (v for v, _ in ranked), reverse=True
        )
        game.push(ranked[-1][1])


@pytest.mark.parametrize("rules", [Rules(), Rules(penalty=3), Rules(goals=frozenset({"parks"}))])
def test_quick_greedy_plays_greedys_moves(rules: Rules) -> None:
    for seed in (1, 2):
        plain = play_game([GreedyBot(seed), RandomBot(seed)], seed=seed, rules=rules)
        quick = play_game([QuickGreedyBot(seed), RandomBot(seed)], seed=seed, rules=rules)
        assert quick.move_stack == plain.move_stack

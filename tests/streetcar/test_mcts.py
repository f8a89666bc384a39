"""The search bot `mcts`: determinism, legal moves, strength over random, registry, budgets."""

from __future__ import annotations

import itertools

import pytest

from housing_lab.streetcar import (
    BOTS,
    Board,
    Game,
    GreedyBot,
    Move,
    RandomBot,
    Rules,
    StreetcarError,
    make_bot,
    play_game,
)
from housing_lab.streetcar.play.match import play_match, summarise
from housing_lab.streetcar.play.mcts import MctsBot, RolloutEvaluator, greedy_evaluator

RING2 = [(q, r) for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2]  # 19 hexes
RING3 = [(q, r) for q in range(-3, 4) for r in range(-3, 4) if abs(q + r) <= 3]  # 37 hexes


def moves_of(seed: int, iterations: int, turns: int) -> list[object]:
    """The moves mcts plays against a seeded random opponent for `turns` turns."""
    game = Game(seed=4)
    bots = [MctsBot(seed, iterations=iterations, depth=3), RandomBot(8)]
    while game.turn <= turns:
        game.push(bots[(game.turn - 1) % 2].choose(game))
    return game.move_stack


@pytest.mark.slow
def test_same_seed_and_budget_give_the_same_moves() -> None:
    first = moves_of(1, 6, 6)
    assert moves_of(1, 6, 6) == first
    # The seed matters (tie-breaks and rollouts): another seed plays another game here.
    assert moves_of(2, 6, 6) != first


@pytest.mark.slow
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


@pytest.mark.slow
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


def play_turns(bot: MctsBot, turns: int) -> list[object]:
    game = Game(seed=4)
    bots = [bot, RandomBot(8)]
    while game.turn <= turns:
        game.push(bots[(game.turn - 1) % 2].choose(game))
    return game.move_stack


@pytest.mark.slow
def test_the_default_evaluator_is_greedy_for_candidates_and_rollouts() -> None:
    default = play_turns(MctsBot(3, iterations=5, depth=3), 5)
    explicit = play_turns(MctsBot(3, iterations=5, evaluator=lambda s: greedy_evaluator(s, 3)), 5)
    assert explicit == default
    # Separate greedy objects for the two jobs draw their tie-breaks from separate RNGs.
    split = play_turns(
        MctsBot(3, iterations=5, evaluator=lambda s: RolloutEvaluator(GreedyBot(s), GreedyBot(s))),
        5,
    )
    replayed = Game(seed=4)
    for move in split:
        assert replayed.is_legal(move), move
        replayed.push(move)
    assert len(split) == 5


class CountingEvaluator:
    """Random candidates (the first `limit` legal moves) and random rollouts, counted."""

    def __init__(self, seed: int) -> None:
        self.inner = RolloutEvaluator(GreedyBot(seed), RandomBot(seed), depth=2)
        self.limits: list[int] = []
        self.rollouts = 0

    def candidates(self, game: Game, limit: int) -> list[Move]:
        self.limits.append(limit)
        return list(itertools.islice(game.legal_moves(), limit))

    def evaluate(self, game: Game) -> float:
        self.rollouts += 1
        return self.inner.evaluate(game)


def test_a_custom_evaluator_chooses_the_candidates_and_rollouts() -> None:
    made: list[CountingEvaluator] = []

    def factory(seed: int) -> CountingEvaluator:
        made.append(CountingEvaluator(seed))
        return made[-1]

    game = Game(seed=6)
    game.push(GreedyBot(1).choose(game))
    bot = MctsBot(2, iterations=9, candidates=4, evaluator=factory)
    move = bot.choose(game)
    assert len(made) == 1 and made[0].rollouts == 9 and set(made[0].limits) == {4}
    assert move in list(itertools.islice(game.legal_moves(), 4))  # one of its candidates


def test_rollout_evaluator_leaves_the_game_as_it_was() -> None:
    game = Game(seed=3)
    for _ in range(4):
        game.push(GreedyBot(game.turn).choose(game))
    before = game.snapshot()
    full = RolloutEvaluator(GreedyBot(1), RandomBot(1), depth=None)
    margin = full.evaluate(game)
    assert game.snapshot() == before
    end = game.copy()
    bot = RandomBot(1)
    while not end.is_over():
        end.push(bot.choose(end))
    scores = end.scores()
    assert margin == scores["purple"] - scores["red"]

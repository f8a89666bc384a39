"""The search bot `mcts`: Monte Carlo tree search (UCT) over greedy's best candidate moves.

A turn has hundreds of legal moves (334 on turn 1, line choices x houses later), far too many
for a tree to try each. So every node lists only its best few moves by greedy's exact one-turn
value (`GreedyBot.ranked_moves`), and opens them one at a time as the node is visited more
(progressive widening). Each iteration walks down by UCT (OpenSpiel's `SearchNode.uct_value`:
mean value plus `c * sqrt(ln N / n)`; unvisited children first, in greedy's order), opens a node,
plays the game on with greedy for both players (a rollout), for at most `depth` turns; the
score margin then is backed up. Greedy rollouts make the bot ask, of each candidate, "how does
this end if both sides then play greedily?", which is what one-turn greedy cannot see (a house
that hands the opponent a building next turn, lines placed for later buildings).

What the search asks of a position is one object, an `Evaluator` (OpenSpiel's pattern in
`open_spiel/python/algorithms/mcts.py`: `prior` and `evaluate`): `candidates(game, limit)`, the
moves worth a branch, best first, and `evaluate(game)`, purple's score margin after playing on.
`MctsBot(evaluator=...)` takes a factory `seed -> Evaluator` (a fresh, seeded one per move);
`RolloutEvaluator(ranker, rollout, depth)` builds one from a candidate policy (anything with
`ranked_moves`, e.g. `GreedyBot`) and a rollout policy (any bot). The default is greedy for both,
one `GreedyBot` sharing its RNG, cut at `depth` turns.

The budget is an iteration count (deterministic: the same seed and budget always give the same
move) or, with `seconds`, wall-clock time (not reproducible: it depends on the machine's load).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from housing_lab.numbers import check_number
from housing_lab.streetcar.errors import StreetcarError
from housing_lab.streetcar.game import Game
from housing_lab.streetcar.moves import Move
from housing_lab.streetcar.play.greedy import GreedyBot
from housing_lab.streetcar.play.seeded import SeededBot

DEFAULT_ITERATIONS = 24
SCALE = 20.0  # score margin that counts as a clear win (value tanh(margin / SCALE))


class Evaluator(Protocol):
    """What the search asks of a position (OpenSpiel's `Evaluator`: `prior`, `evaluate`)."""

    def candidates(self, game: Game, limit: int) -> list[Move]:
        """Up to `limit` legal moves worth a branch, best first (`game` not over)."""
        ...

    def evaluate(self, game: Game) -> float:
        """Purple's score minus red's after playing on from `game`; `game` is left as it was."""
        ...


class Ranker(Protocol):
    """A candidate policy: legal moves with a value, best first (`GreedyBot.ranked_moves`)."""

    def ranked_moves(self, game: Game, limit: int | None = None) -> list[tuple[float, Move]]: ...


class Policy(Protocol):
    """A rollout policy: any bot (`choose(game) -> Move`)."""

    def choose(self, game: Game) -> Move: ...


class RolloutEvaluator:
    """Candidates from `ranker`; value from playing `rollout` for both players for at most
    `depth` turns (None: to the end). Pass one object as both to share its seeded RNG."""

    def __init__(self, ranker: Ranker, rollout: Policy, depth: int | None = 6) -> None:
        self.ranker = ranker
        self.rollout = rollout
        self.depth = depth

    def candidates(self, game: Game, limit: int) -> list[Move]:
        return [move for _, move in self.ranker.ranked_moves(game, limit)]

    def evaluate(self, game: Game) -> float:
        played = 0
        while not game.is_over() and (self.depth is None or played < self.depth):
            game.push(self.rollout.choose(game))
            played += 1
        scores = game.scores()
        margin = scores["purple"] - scores["red"]
        for _ in range(played):
            game.pop()
        return float(margin)


def greedy_evaluator(seed: int, depth: int | None = 6) -> RolloutEvaluator:
    """The default: one `GreedyBot(seed)` ranks the candidates and plays the rollouts."""
    greedy = GreedyBot(seed)
    return RolloutEvaluator(greedy, greedy, depth)


@dataclass
class _Node:
    """A position in the tree; `value` is summed from the view of the player who moved into it."""

    player: int  # index of the player to move here (-1 when the game is over)
    moves: list[Move] | None = None  # candidate moves, best first (filled on first visit)
    children: list[_Node] = field(default_factory=list)  # for moves[:len(children)]
    visits: int = 0
    value: float = 0.0


class MctsBot(SeededBot):
    """UCT over an evaluator's candidate moves and rollouts (greedy's unless `evaluator` is
    given: a factory `seed -> Evaluator`; `depth` is the default evaluator's rollout length);
    seeded and deterministic."""

    name = "mcts"

    def __init__(
        self,
        seed: int | None = 0,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        candidates: int = 6,
        depth: int | None = 6,
        exploration: float = 0.7,
        evaluator: Callable[[int], Evaluator] | None = None,
    ) -> None:
        super().__init__(seed)  # the seed is checked first
        if iterations is not None:
            check_number(iterations, "iterations", whole=True, error=StreetcarError)
            if iterations < 1:
                raise StreetcarError(f"iterations must be at least 1, not {iterations}")
        if seconds is not None:  # finite: a NaN or infinite budget would never run out
            check_number(seconds, "seconds", high=3600, error=StreetcarError)  # an hour at most
            if not seconds > 0:
                raise StreetcarError(f"seconds must be more than 0, not {seconds}")
        check_number(candidates, "candidates", whole=True, error=StreetcarError)
        if candidates < 1:
            raise StreetcarError(f"candidates must be at least 1, not {candidates}")
        if depth is not None:
            check_number(depth, "depth", low=0, whole=True, error=StreetcarError)
        check_number(exploration, "exploration", low=0, error=StreetcarError)
        self.iterations = iterations if iterations is not None or seconds else DEFAULT_ITERATIONS
        self.seconds = seconds
        self.candidates = candidates
        self.depth = depth
        self.exploration = exploration
        self.evaluator = evaluator
        self.last_iterations = 0

    def choose(self, game: Game) -> Move:
        """The root child visited most after the budget (`last_iterations` says how many ran)."""
        if game.is_over():
            raise StreetcarError("the game is over: there is no move to choose")
        seed = self.rng.getrandbits(32)
        if self.evaluator is None:
            evaluator: Evaluator = greedy_evaluator(seed, self.depth)
        else:
            evaluator = self.evaluator(seed)
        root = _Node(game.player_index)
        self._expand(root, game, evaluator)
        assert root.moves
        self.last_iterations = 0
        if len(root.moves) == 1:  # one candidate: nothing to search
            return root.moves[0]
        trial = game.copy()
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            self._iterate(root, trial, evaluator)
            done += 1
        self.last_iterations = done
        best = max(
            range(len(root.children)),
            key=lambda i: (root.children[i].visits, root.children[i].value, -i),
        )
        return root.moves[best]

    def _expand(self, node: _Node, game: Game, evaluator: Evaluator) -> None:
        node.moves = evaluator.candidates(game, self.candidates)

    def _iterate(self, root: _Node, game: Game, evaluator: Evaluator) -> None:
        """One selection, expansion, rollout and backup; `game` is left as it was."""
        path = [root]
        node = root
        pushed = 0
        while node.moves:
            width = min(len(node.moves), 1 + int(math.sqrt(node.visits)))
            if len(node.children) < width:
                move = node.moves[len(node.children)]
                game.push(move)
                pushed += 1
                child = _Node(-1 if game.is_over() else game.player_index)
                node.children.append(child)
                path.append(child)
                node = child
                if not game.is_over():
                    self._expand(child, game, evaluator)
                break
            index = self._select(node)
            game.push(node.moves[index])
            pushed += 1
            node = node.children[index]
            path.append(node)
        margin = evaluator.evaluate(game)  # purple's score minus red's, after the rollout
        for _ in range(pushed):
            game.pop()
        for depth, item in enumerate(path):
            item.visits += 1
            if depth:
                mover = path[depth - 1].player
                sign = 1.0 if mover == 0 else -1.0
                item.value += math.tanh(sign * margin / SCALE)

    def _select(self, node: _Node) -> int:
        log_n = math.log(node.visits)
        best, best_score = 0, -math.inf
        for i, child in enumerate(node.children):
            score = child.value / child.visits + self.exploration * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = i, score
        return best

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

The budget is an iteration count (deterministic: the same seed and budget always give the same
move) or, with `seconds`, wall-clock time (not reproducible: it depends on the machine's load).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from housing_lab.numbers import check_number
from housing_lab.streetcar.errors import StreetcarError
from housing_lab.streetcar.game import Game
from housing_lab.streetcar.greedy import QuickGreedyBot
from housing_lab.streetcar.moves import Move

DEFAULT_ITERATIONS = 24
SCALE = 20.0  # score margin that counts as a clear win (value tanh(margin / SCALE))


@dataclass
class _Node:
    """A position in the tree; `value` is summed from the view of the player who moved into it."""

    player: int  # index of the player to move here (-1 when the game is over)
    moves: list[Move] | None = None  # candidate moves, best first (filled on first visit)
    children: list[_Node] = field(default_factory=list)  # for moves[:len(children)]
    visits: int = 0
    value: float = 0.0


class MctsBot:
    """UCT over greedy's candidate moves with greedy rollouts; seeded and deterministic."""

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
    ) -> None:
        if seed is not None:
            check_number(seed, "seed", whole=True, error=StreetcarError)
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
        self.rng = random.Random(seed)
        self.iterations = iterations if iterations is not None or seconds else DEFAULT_ITERATIONS
        self.seconds = seconds
        self.candidates = candidates
        self.depth = depth
        self.exploration = exploration
        self.last_iterations = 0

    def choose(self, game: Game) -> Move:
        """The root child visited most after the budget (`last_iterations` says how many ran)."""
        if game.is_over():
            raise StreetcarError("the game is over: there is no move to choose")
        greedy = QuickGreedyBot(self.rng.getrandbits(32))
        root = _Node(game.player_index)
        self._expand(root, game, greedy)
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
            self._iterate(root, trial, greedy)
            done += 1
        self.last_iterations = done
        best = max(
            range(len(root.children)),
            key=lambda i: (root.children[i].visits, root.children[i].value, -i),
        )
        return root.moves[best]

    def _expand(self, node: _Node, game: Game, greedy: QuickGreedyBot) -> None:
        node.moves = [move for _, move in greedy.ranked_moves(game, self.candidates)]

    def _iterate(self, root: _Node, game: Game, greedy: QuickGreedyBot) -> None:
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
                    self._expand(child, game, greedy)
                break
            index = self._select(node)
            game.push(node.moves[index])
            pushed += 1
            node = node.children[index]
            path.append(node)
        margin = self._rollout(game, greedy)  # purple's score minus red's, after the rollout
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

    def _rollout(self, game: Game, greedy: QuickGreedyBot) -> float:
        """Play on greedily for up to `depth` turns; purple's margin then; the game restored."""
        played = 0
        while not game.is_over() and (self.depth is None or played < self.depth):
            game.push(greedy.choose(game))
            played += 1
        scores = game.scores()
        margin = scores["purple"] - scores["red"]
        for _ in range(played):
            game.pop()
        return float(margin)

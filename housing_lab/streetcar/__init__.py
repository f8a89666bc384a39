"""Streetcar as a pure rules engine (RULES.md part 2): no widget or IPython imports.

    >>> from housing_lab.streetcar import Game
    >>> game = Game(seed=7)
    >>> game.count_legal_moves()
    334
    >>> game.push(next(game.legal_moves()))

Modules: `hexgrid` (coordinates and names), `board` (geometry tables), `rules` (kit and
options), `moves`, `lines` (line legality), `buildings` (the cube rule), `game` (state, push,
pop), `scoring` and `goals`, `position` (constructed positions), `record` (game record JSON);
beside the rules, `play/`: `bots`, `greedy`, `mcts` (search, with `RolloutEvaluator`), `match`
(series of bot games) and `line_experiment`.
"""

from housing_lab.streetcar.board import Board
from housing_lab.streetcar.buildings import Building, building_for
from housing_lab.streetcar.errors import (
    BoardError,
    IllegalMoveError,
    RecordError,
    StreetcarError,
)
from housing_lab.streetcar.game import Game
from housing_lab.streetcar.hexgrid import Edge, Hex, Vertex
from housing_lab.streetcar.moves import Move
from housing_lab.streetcar.play.bots import BOTS, Bot, RandomBot, make_bot, play_game
from housing_lab.streetcar.play.greedy import GreedyBot
from housing_lab.streetcar.play.line_experiment import line_experiment
from housing_lab.streetcar.play.line_experiment import summary as line_experiment_summary
from housing_lab.streetcar.play.match import MatchGame, MatchSummary, play_match, summarise
from housing_lab.streetcar.play.mcts import Evaluator, MctsBot, RolloutEvaluator, greedy_evaluator
from housing_lab.streetcar.record import (
    final_block,
    read_record,
    replay,
    to_record,
    write_record,
)
from housing_lab.streetcar.rules import COLOURS, GOAL_BONUS, PLAYERS, Rules
from housing_lab.streetcar.scoring import Outcome, ScoreBreakdown

__all__ = [
    "BOTS",
    "COLOURS",
    "GOAL_BONUS",
    "PLAYERS",
    "Board",
    "BoardError",
    "Bot",
    "Building",
    "Edge",
    "Evaluator",
    "Game",
    "GreedyBot",
    "Hex",
    "IllegalMoveError",
    "MatchGame",
    "MatchSummary",
    "MctsBot",
    "Move",
    "Outcome",
    "RandomBot",
    "RecordError",
    "RolloutEvaluator",
    "Rules",
    "ScoreBreakdown",
    "StreetcarError",
    "Vertex",
    "building_for",
    "final_block",
    "greedy_evaluator",
    "line_experiment",
    "line_experiment_summary",
    "make_bot",
    "play_game",
    "play_match",
    "read_record",
    "replay",
    "summarise",
    "to_record",
    "write_record",
]

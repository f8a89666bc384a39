"""The North Berkeley rules engine (RULES.md part 1): pure Python, no widget imports.

Hold a board and ask it everything (`Board`, the one front door: what is legal and why not,
the palette, push and pop, the result)::

    from housing_lab.north_berkeley import Board
    board = Board(seed=7, model={"budget": 20})
    board.push({"action": "place", "square": "A1", "tile": "tower_market"})
    board.refusal({"action": "set_policy", "policy": "affordable_100", "enacted": True}).words
    board.result().to_dict()["housed"]

Score one board::

    from housing_lab.north_berkeley import make_scenario, score_scenario
    result = score_scenario(make_scenario({"A1": "tower_market"}, ["adu"], seed=7))
    result.to_dict()["housed"]

Play a whole game with `Game` (see `game.py`); every decision is also an action dict::

    from housing_lab.north_berkeley import Game
    game = Game(["Red", "Blue"], seed=3)
    game.legal_actions()[0]           # {'action': 'place', 'square': 'B1', 'tile': ...}
    game.apply({"action": "call_state"})

The numbers of the game flow (cards dealt, the draft's 7 cards, ...) are in `rules.py`.

Lessons, widgets and users import from here only. The numpy parts (the batch evaluator, sweeps,
the solver, the coach) are loaded when first asked for (`__getattr__` below), so that
`housing-lab nb score -` starts in a fraction of a second.
"""

from typing import Any

from housing_lab.north_berkeley.board import Board, PaletteTile, Refusal
from housing_lab.north_berkeley.card_standing import CardStanding, card_standing
from housing_lab.north_berkeley.constituents import CARD_IDS, cards, score_card
from housing_lab.north_berkeley.engine.movein import MoveEvent, MoveInResult, run_move_in
from housing_lab.north_berkeley.engine.scoring import ScenarioResult, score_scenario
from housing_lab.north_berkeley.errors import (
    AffordableOnlyError,
    IllegalActionError,
    NorthBerkeleyError,
    ScenarioFormatError,
    UnknownIdError,
)
from housing_lab.north_berkeley.layout import Layout, load_layout
from housing_lab.north_berkeley.model import RULEBOOK, Model
from housing_lab.north_berkeley.names import (
    INCOME_NAMES,
    MEASURE_NAMES,
    describe_home,
    event_rows,
    outcome_rows,
    policy_name,
    policy_set_name,
    vacant_rows,
)
from housing_lab.north_berkeley.play.autoplay import play_random_game
from housing_lab.north_berkeley.play.game import Game
from housing_lab.north_berkeley.policies import INCOMES, POLICIES, RuleOptions
from housing_lab.north_berkeley.rules import (
    DRAFT_SIZE,
    EXTRA_DRAW_MAX_PLAYERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    POLICIES_DRAWN,
    cards_dealt,
    has_extra_draw,
)
from housing_lab.north_berkeley.scenario import (
    Scenario,
    make_scenario,
    scenario_from_dict,
    scenario_from_json,
)
from housing_lab.north_berkeley.tiles import Tile, default_catalogue, load_catalogue

# name -> module, imported on first use (numpy and the searches)
_LAZY = {
    "evaluate": "housing_lab.north_berkeley.batch.evaluator",
    "random_boards": "housing_lab.north_berkeley.batch.sweep",
    "state_fills": "housing_lab.north_berkeley.batch.sweep",
    "sweep": "housing_lab.north_berkeley.batch.sweep",
    "robustness": "housing_lab.north_berkeley.batch.robust",
    "robustness_table": "housing_lab.north_berkeley.batch.robust",
    "sweep_switches": "housing_lab.north_berkeley.batch.robust",
    "DEFAULT_ASSUMPTIONS": "housing_lab.north_berkeley.batch.robust",
    "solve": "housing_lab.north_berkeley.solver.exact",
    "pareto_frontier": "housing_lab.north_berkeley.solver.exact",
    "coach": "housing_lab.north_berkeley.coaching.exact",
    "apply_changes": "housing_lab.north_berkeley.coaching.exact",
    "coach_sentence": "housing_lab.north_berkeley.coaching.words",
    "changes_words": "housing_lab.north_berkeley.coaching.words",
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])


__all__ = [
    "CARD_IDS",
    "DEFAULT_ASSUMPTIONS",
    "DRAFT_SIZE",
    "EXTRA_DRAW_MAX_PLAYERS",
    "INCOMES",
    "INCOME_NAMES",
    "MAX_PLAYERS",
    "MEASURE_NAMES",
    "MIN_PLAYERS",
    "POLICIES",
    "POLICIES_DRAWN",
    "RULEBOOK",
    "AffordableOnlyError",
    "Board",
    "CardStanding",
    "Game",
    "IllegalActionError",
    "Layout",
    "Model",
    "MoveEvent",
    "MoveInResult",
    "NorthBerkeleyError",
    "PaletteTile",
    "Refusal",
    "RuleOptions",
    "Scenario",
    "ScenarioFormatError",
    "ScenarioResult",
    "Tile",
    "UnknownIdError",
    "apply_changes",
    "card_standing",
    "cards",
    "cards_dealt",
    "changes_words",
    "coach",
    "coach_sentence",
    "default_catalogue",
    "describe_home",
    "evaluate",
    "event_rows",
    "has_extra_draw",
    "load_catalogue",
    "load_layout",
    "make_scenario",
    "outcome_rows",
    "pareto_frontier",
    "play_random_game",
    "policy_name",
    "policy_set_name",
    "random_boards",
    "robustness",
    "robustness_table",
    "run_move_in",
    "scenario_from_dict",
    "scenario_from_json",
    "score_card",
    "score_scenario",
    "solve",
    "state_fills",
    "sweep",
    "sweep_switches",
    "vacant_rows",
]

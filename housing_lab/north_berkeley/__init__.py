"""The North Berkeley rules engine (RULES.md part 1): pure Python, no widget imports.

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
"""

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
from housing_lab.north_berkeley.tiles import Tile, load_catalogue

__all__ = [
    "CARD_IDS",
    "DRAFT_SIZE",
    "EXTRA_DRAW_MAX_PLAYERS",
    "INCOMES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "POLICIES",
    "POLICIES_DRAWN",
    "AffordableOnlyError",
    "Game",
    "IllegalActionError",
    "Layout",
    "MoveEvent",
    "MoveInResult",
    "NorthBerkeleyError",
    "RuleOptions",
    "Scenario",
    "ScenarioFormatError",
    "ScenarioResult",
    "Tile",
    "UnknownIdError",
    "cards",
    "cards_dealt",
    "has_extra_draw",
    "load_catalogue",
    "load_layout",
    "make_scenario",
    "run_move_in",
    "scenario_from_dict",
    "scenario_from_json",
    "score_card",
    "score_scenario",
]

"""The North Berkeley rules engine (RULES.md part 1): pure Python, no widget imports.

Score one board::

    from housing_lab.north_berkeley import make_scenario, score_scenario
    result = score_scenario(make_scenario({"A1": "tower_market"}, ["adu"], seed=7))
    result.to_dict()["housed"]

Play a whole game with `Game` (see `game.py`).
"""

from housing_lab.north_berkeley.constituents import CARD_IDS, cards, score_card
from housing_lab.north_berkeley.errors import (
    AffordableOnlyError,
    IllegalActionError,
    NorthBerkeleyError,
    ScenarioFormatError,
    UnknownIdError,
)
from housing_lab.north_berkeley.layout import Layout, load_layout
from housing_lab.north_berkeley.movein import MoveEvent, MoveInResult, run_move_in
from housing_lab.north_berkeley.policies import INCOMES, POLICIES, RuleOptions
from housing_lab.north_berkeley.scenario import (
    Scenario,
    make_scenario,
    scenario_from_dict,
    scenario_from_json,
)
from housing_lab.north_berkeley.scoring import ScenarioResult, score_scenario
from housing_lab.north_berkeley.tiles import Tile, load_catalogue

__all__ = [
    "CARD_IDS",
    "INCOMES",
    "POLICIES",
    "AffordableOnlyError",
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
    "load_catalogue",
    "load_layout",
    "make_scenario",
    "run_move_in",
    "scenario_from_dict",
    "scenario_from_json",
    "score_card",
    "score_scenario",
]

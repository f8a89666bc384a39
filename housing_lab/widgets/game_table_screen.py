"""What the game table's panels show: the `view` dict, rebuilt from the engine after each change.

Pure functions, so the screen can never drift from the game: the stage decides which decision
the panel draws (the decision builders live in `game_table_views`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from housing_lab.north_berkeley.game import Game
from housing_lab.north_berkeley.policies import POLICY_NAMES, POLICY_TEXT
from housing_lab.north_berkeley.scoring import ScenarioResult
from housing_lab.widgets import game_table_views as views


def setup_decision() -> dict[str, Any]:
    """What the panel shows while no game is on screen."""
    return {
        "kind": "setup",
        "heading": "Set up a new game",
        "text": "Choose the teams and the rules, then start. The same seed "
        "shuffles the same residents and deals the same cards.",
    }


def game_summary(game: Game, hidden_hands: bool) -> dict[str, Any]:
    """The game's settings and enacted policies, as the panel shows them."""
    return {
        "seed": game.state.seed,
        "teams": game.players,
        "hidden_hands": hidden_hands,
        "minutes": game.state.options.negotiation_minutes,
        "score_mode": game.state.options.current_score,
        "policies": [
            {"id": p, "name": POLICY_NAMES[p], "text": POLICY_TEXT[p]} for p in game.state.policies
        ],
    }


def decision_view(
    stage: str,
    game: Game,
    result: ScenarioResult,
    tile_names: Mapping[str, str],
    tie_order: Sequence[str],
    movein_step: int,
) -> dict[str, Any]:
    """The decision the class takes at this stage, as the panel draws it."""
    if stage in ("phase1", "phase2"):
        return views.build_view(game, tile_names, tie_order)
    if stage == "extra_draw":
        return views.extra_view(game, tie_order)
    if stage == "draft":
        return views.draft_view(game)
    if stage == "policies":
        return views.policies_view(game)
    if stage == "movein":
        return views.movein_view(game, result, movein_step)
    return views.scoring_view(game)


def table_view(
    stage: str,
    game: Game | None,
    result: ScenarioResult | None,
    *,
    setup: Mapping[str, Any],
    hidden_hands: bool,
    revealed: str | None,
    tile_names: Mapping[str, str],
    tie_order: Sequence[str],
    movein_step: int,
) -> dict[str, Any]:
    """Everything both panels draw (the browser gets it as the `view` trait)."""
    view: dict[str, Any] = {
        "stage": stage,
        "has_game": game is not None,
        "setup": dict(setup),
        "steps": views.steps(stage, len(game.players) if game else 3),
        "game": None,
        "teams": [],
        "handouts": [],
        "decision": setup_decision(),
    }
    if game is not None and result is not None and stage != "setup":
        view["game"] = game_summary(game, hidden_hands)
        view["decision"] = decision_view(stage, game, result, tile_names, tie_order, movein_step)
        view["teams"] = views.team_views(game, stage, hidden_hands, revealed, result)
        view["handouts"] = game.players
    return view

"""What the game table shows: the `view` dict and which parts are on screen.

Rebuilt from the engine after each change, so the screen can never drift from the game: the
stage decides which decision the panel draws (the decision builders live in
`widgets/table/views.py`) and which parts `TableScreen` puts on screen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import ipywidgets

from housing_lab.north_berkeley.engine.scoring import ScenarioResult
from housing_lab.north_berkeley.play.game import Game
from housing_lab.north_berkeley.policies import POLICY_NAMES, POLICY_TEXT
from housing_lab.widgets.lab.board import NorthBerkeleyBoard
from housing_lab.widgets.table import views as views
from housing_lab.widgets.table.coach import COACH_STAGES, TableAdvice, visible_cards
from housing_lab.widgets.table.movein import MoveInPlayback
from housing_lab.widgets.table.panel import TablePanel


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
    advice: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Everything both panels draw (the browser gets it as the `view` trait); `advice`: the
    coach's answer on screen (`TableAdvice.to_view` in `widgets/table/coach.py`), or None."""
    view: dict[str, Any] = {
        "stage": stage,
        "has_game": game is not None,
        "setup": dict(setup),
        "steps": views.steps(stage, len(game.players) if game else 3),
        "game": None,
        "teams": [],
        "handouts": [],
        "decision": setup_decision(),
        "coach": None,
    }
    if game is not None and result is not None and stage != "setup":
        view["game"] = game_summary(game, hidden_hands)
        view["decision"] = decision_view(stage, game, result, tile_names, tie_order, movein_step)
        view["teams"] = views.team_views(game, stage, hidden_hands, revealed, result)
        view["handouts"] = game.players
        view["coach"] = dict(advice) if advice is not None else None
        view["coachable"] = coachable(game, stage, hidden_hands, revealed)
    return view


def coachable(
    game: Game, stage: str, hidden_hands: bool, revealed: str | None
) -> dict[str, list[str]]:
    """Team -> the cards the coach may be asked about now (cards on screen, in a coaching
    stage); a team whose whole hand is on screen may also ask for its hand."""
    if stage not in COACH_STAGES:
        return {}
    return {team: visible_cards(game, team, hidden_hands, revealed, stage) for team in game.players}


class TableScreen:
    """The table's parts and which of them are on screen, redrawn from the engine each time.

    Owns no game state: `show` is given the stage, the game and the table's presentation
    choices, and returns the children and CSS classes the table should have.
    """

    def __init__(
        self,
        panel: TablePanel,
        teams_panel: TablePanel,
        board: NorthBerkeleyBoard,
        playback: MoveInPlayback,
        tile_names: Mapping[str, str],
    ) -> None:
        self.panel = panel
        self.teams_panel = teams_panel
        self.board = board
        self.playback = playback
        self.tile_names = dict(tile_names)

    def show(
        self,
        stage: str,
        game: Game | None,
        *,
        setup: Mapping[str, Any],
        hidden_hands: bool,
        revealed: str | None,
        tie_order: Sequence[str],
        reset_timer: bool = False,
        advice: TableAdvice | None = None,
    ) -> tuple[list[ipywidgets.Widget], tuple[str, ...]]:
        """Redraw both panels, the board and the chart; returns (children, CSS classes)."""
        result = None
        if game is not None and stage != "setup":
            result = game.result()
            self.playback.show(self.board, stage, result)
            self.board.allowed, self.board.refused = views.palette(game)
            building = game.phase_squares() if stage in ("phase1", "phase2") else None
            # the other phase's squares: shown, marked and refused without a click (issue 27)
            self.board.locked = (
                [s for s in self.board.site["squares"] if s not in building] if building else []
            )
        view = table_view(
            stage,
            game,
            result,
            setup=setup,
            hidden_hands=hidden_hands,
            revealed=revealed,
            tile_names=self.tile_names,
            tie_order=tie_order,
            movein_step=self.playback.step,
            advice=advice.to_view() if advice is not None else None,
        )
        with self.panel.hold_sync():
            if reset_timer:
                self.panel.reset_timer()
            self.panel.view = view
        self.teams_panel.view = view
        return self.children(stage), css_classes(stage)

    def children(self, stage: str) -> list[ipywidgets.Widget]:
        """Which parts are on screen at this stage."""
        chart = self.playback.chart
        if stage == "setup":
            return [self.panel]
        if stage in ("movein", "scoring") and chart is not None:
            row = ipywidgets.HBox([self.board, chart])
            row.add_class("hl-gt-movein-row")
            return [self.panel, row, *([self.teams_panel] if stage == "movein" else [])]
        return [self.panel, self.board, self.teams_panel]


def css_classes(stage: str) -> tuple[str, ...]:
    """The classes the CSS uses (e.g. to dim the squares of the other phase while building)."""
    building = ("hl-gt-building",) if stage in ("phase1", "phase2") else ()
    return ("hl-game-table", f"hl-gt-stage-{stage}", *building)

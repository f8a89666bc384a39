"""What is on screen: the view dict for the panels and which parts are shown (a mixin of
`GameTable`).

Everything is rebuilt from the engine after each change, so the screen can never drift from
the game; the stage decides which decision the panel draws and which widgets are children.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets

from housing_lab.north_berkeley.game import Game
from housing_lab.north_berkeley.policies import POLICY_NAMES, POLICY_TEXT
from housing_lab.north_berkeley.scoring import ScenarioResult
from housing_lab.widgets import game_table_views as views
from housing_lab.widgets.game_table_setup import setup_decision

if TYPE_CHECKING:
    from housing_lab.widgets.game_table import GameTable


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


class ScreenMixin:
    """`_refresh` (view dict, board, chart) and `_arrange` (children and CSS classes)."""

    def _decision(
        self: GameTable, stage: str, game: Game, result: ScenarioResult
    ) -> dict[str, Any]:
        if stage in ("phase1", "phase2"):
            return views.build_view(game, self._tile_names, self._tie_order)
        if stage == "extra_draw":
            return views.extra_view(game, self._tie_order)
        if stage == "draft":
            return views.draft_view(game)
        if stage == "policies":
            return views.policies_view(game)
        if stage == "movein":
            return views.movein_view(game, result, self._movein_step)
        return views.scoring_view(game)

    def _refresh(self: GameTable, reset_timer: bool = False) -> None:
        game = self.game
        stage = self.stage
        view: dict[str, Any] = {
            "stage": stage,
            "has_game": game is not None,
            "setup": self._setup,
            "steps": views.steps(stage, len(game.players) if game else 3),
            "game": None,
            "teams": [],
            "handouts": [],
            "decision": setup_decision(),
        }
        if game is not None and stage != "setup":
            if self._revealed is not None and self._revealed not in game.players:
                self._revealed = None
            view["game"] = game_summary(game, self.hidden_hands)
            result = game.result()
            view["decision"] = self._decision(stage, game, result)
            view["teams"] = views.team_views(game, stage, self.hidden_hands, self._revealed, result)
            view["handouts"] = game.players
            self._show_board(stage, result)
        with self.panel.hold_sync():
            if reset_timer:
                self.panel.reset_timer()
            self.panel.view = view
        self.teams_panel.view = view
        self._arrange(stage)

    def _arrange(self: GameTable, stage: str) -> None:
        """Which parts are on screen, and the classes the CSS uses to dim other squares."""
        building = stage in ("phase1", "phase2")
        self._dom_classes = (
            "hl-game-table",
            f"hl-gt-stage-{stage}",
            *(("hl-gt-building",) if building else ()),
        )
        if stage == "setup":
            children: list[ipywidgets.Widget] = [self.panel]
        elif stage in ("movein", "scoring") and self.chart is not None:
            row = ipywidgets.HBox([self.board, self.chart])
            row.add_class("hl-gt-movein-row")
            children = [self.panel, row]
            if stage == "movein":
                children.append(self.teams_panel)
        else:
            children = [self.panel, self.board, self.teams_panel]
        if list(self.children) != children:
            self.children = children

"""GameTable: a teacher runs a whole game of North Berkeley with a class, on a projector.

The table is a thin view over the engine's state machine (`Game`): every decision (place,
call the state, redraw, pick, enact, next phase, undo) goes to the engine, and a refused one
shows the engine's message and changes nothing. What the table adds is presentation: a setup
screen, the negotiation timer, hidden hands with a per-team reveal and printable handouts,
and move-in played out wave by wave before the final scoreboard.

This module holds the table's state and its reporting; each job lives in a mixin of its own:
`game_table_setup` (starting a game), `game_table_decisions` (calls routed to the engine),
`game_table_movein` (the move-in waves and scores), `game_table_files` (save, load, handouts,
reveal), `game_table_screen` (what is on screen) and `game_table_clicks` (browser clicks).

>>> table = GameTable(teams=["A", "B", "C"], seed=3)
>>> table.stage
'phase1'
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import ipywidgets

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley.errors import IllegalActionError
from housing_lab.north_berkeley.game import Game
from housing_lab.north_berkeley.policies import RuleOptions
from housing_lab.widgets import game_table_views as views
from housing_lab.widgets.game_table_charts import MoveInChart
from housing_lab.widgets.game_table_clicks import ClicksMixin
from housing_lab.widgets.game_table_decisions import DecisionsMixin
from housing_lab.widgets.game_table_files import FilesMixin
from housing_lab.widgets.game_table_movein import SCORING_STEP, MoveInMixin
from housing_lab.widgets.game_table_panel import TablePanel
from housing_lab.widgets.game_table_screen import ScreenMixin
from housing_lab.widgets.game_table_setup import DEFAULT_TEAMS, SetupMixin, rule_options
from housing_lab.widgets.nb_board import NorthBerkeleyBoard


class GameTable(
    SetupMixin, DecisionsMixin, MoveInMixin, FilesMixin, ScreenMixin, ClicksMixin, ipywidgets.VBox
):
    """The classroom game table. Without `teams` it opens on the setup screen.

    Every action method raises the engine's error (and shows it) when the rules refuse it;
    clicks in the browser call the same methods and only show the message.
    """

    def __init__(
        self,
        teams: Sequence[str] | None = None,
        seed: int = 0,
        options: RuleOptions | Mapping[str, Any] | None = None,
        hidden_hands: bool = False,
    ) -> None:
        self.game: Game | None = None
        self.hidden_hands = bool(hidden_hands)
        self._setup = views.setup_defaults(
            teams or DEFAULT_TEAMS[:3], seed, rule_options(options), self.hidden_hands
        )
        self._movein_step = 0
        self._on_setup = teams is None
        self._revealed: str | None = None
        self._tie_order: list[str] = []
        self.panel = TablePanel(part="top")
        self.teams_panel = TablePanel(part="teams")
        self.board = NorthBerkeleyBoard()
        self.chart: MoveInChart | None = None  # made when first shown (bqplot hates hiding)
        for panel in (self.panel, self.teams_panel):
            panel.on_action = self._on_panel_action
        self.board.on_action = self._on_board_action
        self._tile_names = {t["id"]: t["name"] for t in self.board.catalogue}
        super().__init__([self.panel])
        if teams is not None:
            self.start(teams, seed, options, hidden_hands)
        else:
            self._refresh()

    def __repr__(self) -> str:
        if self.game is None:
            return "GameTable(setup)"
        return (
            f"GameTable(teams={self.game.players!r}, seed={self.game.state.seed}, "
            f"stage={self.stage!r})"
        )

    # --- what lessons and tests read ------------------------------------------------------
    @property
    def state(self) -> dict[str, Any]:
        """The engine's saved-game dict (JSON-able); `GameTable.from_json` resumes it."""
        return self._need_game().to_dict()

    @property
    def stage(self) -> str:
        """setup, phase1, extra_draw, draft, policies, phase2, movein or scoring."""
        if self.game is None or self._on_setup:
            return "setup"
        if self.game.phase != "over":
            return self.game.phase
        return "scoring" if self._movein_step >= SCORING_STEP else "movein"

    @property
    def teams(self) -> list[str]:
        return self._need_game().players

    @property
    def movein_step(self) -> int:
        """0 before move-in, 1-3 after high / middle / low income moved in, 4 scores."""
        return self._movein_step

    @property
    def view(self) -> dict[str, Any]:
        """Everything the decision panel shows (the same dict the browser draws)."""
        return self.panel.view

    @property
    def tie_order(self) -> list[str]:
        return list(self._tie_order)

    # --- internals shared by the mixins ---------------------------------------------------
    def _need_game(self) -> Game:
        if self.game is None:
            raise self._refused(
                IllegalActionError(
                    "no game yet: start one on the setup screen or with table.start(teams)"
                )
            )
        return self.game

    def _refused(self, error: HousingLabError) -> HousingLabError:
        self._say(str(error), "error")
        return error

    @contextlib.contextmanager
    def _reported(self) -> Iterator[None]:
        """A refusal is shown and re-raised (for calls that replace the whole game)."""
        try:
            yield
        except HousingLabError as error:
            self._say(str(error), "error")
            raise

    @contextlib.contextmanager
    def _shown(self, on_board: bool = False) -> Iterator[None]:
        """Run an engine call; a refusal is shown and re-raised, a success redrawn.

        A new phase restarts the timer, hides revealed cards and clears the board selection.
        """
        before = self.game.phase if self.game is not None else None
        try:
            yield
        except HousingLabError as error:
            self._say(str(error), "error", on_board)
            raise
        changed = self.game is None or self.game.phase != before
        if changed:
            self._revealed = None
            self.board.selected = ""
        self._on_setup = False
        self._refresh(reset_timer=changed)

    def _say(self, text: str, kind: str = "info", on_board: bool = False) -> None:
        self.panel.say(text, kind)
        self.board.say(text if on_board else "", kind)

    def _new_game_view(self) -> None:
        """A started or loaded game: setup defaults follow it, presentation starts afresh."""
        game = self._need_game()
        self._setup = views.setup_defaults(
            game.players, game.state.seed, game.state.options, self.hidden_hands
        )
        self._on_setup = False
        self._movein_step = 0
        self._revealed = None
        self._tie_order = game.players
        self.board.selected = ""
        self._refresh(reset_timer=True)

"""Move-in played out wave by wave, then the scores (a mixin of `GameTable`).

The engine scores the finished board in one go; the waves are presentation only, so stepping
changes no game state, just how much of the engine's move-in the board and the chart show.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from housing_lab.north_berkeley.errors import IllegalActionError
from housing_lab.north_berkeley.scoring import ScenarioResult
from housing_lab.widgets import game_table_views as views
from housing_lab.widgets.game_table_charts import MoveInChart

if TYPE_CHECKING:
    from housing_lab.widgets.game_table import GameTable

MOVEIN_STEPS = 3  # high, middle, low; one more step shows the scores
SCORING_STEP = MOVEIN_STEPS + 1
WAVES = ("high", "middle", "low")


def chart_title(step: int) -> str:
    """The chart's title after `step` waves (0: nobody has moved in yet)."""
    if step == 0:
        return "Before move-in"
    return f"After {views.INCOME_NAMES[WAVES[step - 1]].lower()} moved in"


class MoveInMixin:
    """`step_move_in`, `back_move_in`, `show_scores` and the board and chart for each wave."""

    def step_move_in(self: GameTable) -> str:
        """Play out the next wave of move-in (high, middle, low income), then the scores."""
        if self.stage != "movein":
            where = "the scores are shown" if self.stage == "scoring" else f"at {self.stage}"
            raise self._refused(
                IllegalActionError(f"move-in is played out after phase 2; the table is {where}")
            )
        self._movein_step += 1
        self._refresh()
        self._say(self.panel.view["decision"]["heading"] + ".")
        return self.stage

    def back_move_in(self: GameTable) -> None:
        """One wave back (from the scores: back to the end of move-in)."""
        if self.stage not in ("movein", "scoring") or self._movein_step == 0:
            raise self._refused(IllegalActionError("move-in is already at its start"))
        self._movein_step -= 1
        self._refresh()

    def show_scores(self: GameTable) -> None:
        """Skip the remaining waves: straight to the final scores."""
        if self.stage not in ("movein", "scoring"):
            raise self._refused(
                IllegalActionError(f"the scores come after phase 2; the table is at {self.stage}")
            )
        self._movein_step = SCORING_STEP
        self._refresh()
        self._say("Final scores.")

    def _show_board(self: GameTable, stage: str, result: ScenarioResult) -> None:
        """The board replayed up to the current wave; in move-in, the chart as well."""
        bounds = views.group_bounds(result.move_in.events)
        index = 0
        if stage == "scoring" or (stage == "movein" and self._movein_step >= MOVEIN_STEPS):
            index = -1
        elif stage == "movein":
            index = bounds[self._movein_step]
        with self.board.hold_sync():
            self.board.show_result(result)
            self.board.replay_index = index
        if stage in ("movein", "scoring"):
            if self.chart is None:
                self.chart = MoveInChart()
            title = chart_title(min(self._movein_step, MOVEIN_STEPS))
            self.chart.show(result.move_in, None if index < 0 else index, title)

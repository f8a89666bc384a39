"""Move-in played out wave by wave on the game table, then the scores.

The engine scores the finished board in one go; the waves are presentation only, so stepping
changes no game state, just how much of the engine's move-in the board and the chart show.
"""

from __future__ import annotations

from housing_lab.north_berkeley.engine.movein import WAVES
from housing_lab.north_berkeley.engine.scoring import ScenarioResult
from housing_lab.north_berkeley.errors import IllegalActionError
from housing_lab.widgets.lab.board import NorthBerkeleyBoard
from housing_lab.widgets.table import views as views
from housing_lab.widgets.table.charts import MoveInChart

MOVEIN_STEPS = len(WAVES)  # high, middle, low; one more step shows the scores
SCORING_STEP = MOVEIN_STEPS + 1


def chart_title(step: int) -> str:
    """The chart's title after `step` waves (0: nobody has moved in yet)."""
    if step == 0:
        return "Before move-in"
    return f"After {views.INCOME_NAMES[WAVES[step - 1]].lower()} moved in"


class MoveInPlayback:
    """How much of move-in is shown: `step` 0 before, 1-3 after each wave, 4 the scores.

    Owns the move-in chart, made when first shown (a bqplot figure drawn while hidden has no
    size and makes the browser complain). Each method takes the table's stage.
    """

    def __init__(self) -> None:
        self.step = 0
        self.chart: MoveInChart | None = None

    def stage_after_play(self) -> str:
        """The table's stage once the engine's game is over: move-in, or the scores."""
        return "scoring" if self.step >= SCORING_STEP else "movein"

    def forward(self, stage: str) -> None:
        """The next wave (high, middle, low income), then the scores."""
        if stage != "movein":
            where = "the scores are shown" if stage == "scoring" else f"at {stage}"
            raise IllegalActionError(f"move-in is played out after phase 2; the table is {where}")
        self.step += 1

    def back(self, stage: str) -> None:
        """One wave back (from the scores: back to the end of move-in)."""
        if stage not in ("movein", "scoring") or self.step == 0:
            raise IllegalActionError("move-in is already at its start")
        self.step -= 1

    def to_scores(self, stage: str) -> None:
        """Skip the remaining waves."""
        if stage not in ("movein", "scoring"):
            raise IllegalActionError(f"the scores come after phase 2; the table is at {stage}")
        self.step = SCORING_STEP

    def show(self, board: NorthBerkeleyBoard, stage: str, result: ScenarioResult) -> None:
        """The board replayed up to the current wave; in move-in, the chart as well."""
        bounds = result.move_in.wave_bounds()
        index = 0
        if stage == "scoring" or (stage == "movein" and self.step >= MOVEIN_STEPS):
            index = -1
        elif stage == "movein":
            index = bounds[self.step]
        with board.hold_sync():
            board.show_result(result)
            board.replay_index = index
        if stage in ("movein", "scoring"):
            if self.chart is None:
                self.chart = MoveInChart()
            title = chart_title(min(self.step, MOVEIN_STEPS))
            self.chart.show(result.move_in, None if index < 0 else index, title)

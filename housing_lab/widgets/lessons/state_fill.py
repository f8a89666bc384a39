"""State fill explorer: choose phase 1 and the policy, let the state fill phase 2 many times.

Lesson 5's "what if we let the state decide?" without code: a student picks the four phase-1
tiles by name and the policy the table enacted, and sees what the state's random fills give
(`north_berkeley.state_fills` scored by `sweep`), as the lesson's own table and chart do.
"""

from __future__ import annotations

import html
from collections.abc import Mapping

import ipywidgets
import pandas as pd

from housing_lab.errors import HousingLabError, shown
from housing_lab.north_berkeley import (
    MEASURE_NAMES,
    POLICIES,
    default_catalogue,
    policy_name,
    state_fills,
    sweep,
)
from housing_lab.numbers import check_number, check_seed
from housing_lab.widgets.lessons.charts import INCOME_COLOURS, bar_chart
from housing_lab.widgets.lessons.tables import lesson_table

PHASE_1_SQUARES = ("B1", "C1", "B2", "C2")  # the four squares by the station
NO_POLICY = "No policy"
MEASURES = ["housed_high", "housed_middle", "housed_low", "spending"]


def fill_summary(fills: pd.DataFrame) -> pd.DataFrame:
    """Average, lowest, middle and highest of each measure over the fills (the lesson's rows)."""
    summary = fills[MEASURES].describe().loc[["mean", "min", "50%", "max"]]
    return summary.rename(
        index={
            "mean": "Average",
            "min": "Lowest",
            "50%": "Middle value (median)",
            "max": "Highest",
        },
        columns=MEASURE_NAMES,
    ).rename_axis("Over the fills")


class StateFillExplorer(ipywidgets.VBox):
    """Pick phase 1 and a policy, press the button (or call `run()`), see the state's fills."""

    def __init__(
        self,
        phase_1: Mapping[str, str] | None = None,
        *,
        policy: str | None = None,
        fills: int = 20_000,
        seed: int = 5,
    ) -> None:
        catalogue = default_catalogue()
        phase_1 = dict(phase_1 or {})
        for square, tile in phase_1.items():
            if square not in PHASE_1_SQUARES:
                raise HousingLabError(
                    f"phase 1 is the squares {', '.join(PHASE_1_SQUARES)}, not {shown(square, 40)}"
                )
            if tile not in catalogue:
                raise HousingLabError(f"unknown tile {shown(tile, 40)} on {square}")
        if policy is not None and policy not in POLICIES:
            raise HousingLabError(f"unknown policy {shown(policy, 40)}")
        self.n = int(check_number(fills, "fills", low=1, high=100_000, whole=True))
        self.seed = check_seed(seed)
        tiles = sorted(catalogue, key=lambda t: catalogue[t].name)
        self.squares = {
            square: ipywidgets.Dropdown(
                options=[(catalogue[t].name, t) for t in tiles],
                value=phase_1.get(square, "park"),
                description=square,
                layout=ipywidgets.Layout(width="360px"),
            )
            for square in PHASE_1_SQUARES
        }
        self.policy = ipywidgets.Dropdown(
            options=[(NO_POLICY, None)] + [(policy_name(p), p) for p in POLICIES],
            value=policy,
            description="Policy",
            layout=ipywidgets.Layout(width="360px"),
        )
        self.button = ipywidgets.Button(
            description=f"Let the state fill phase 2 ({self.n:,} times)",
            button_style="primary",
            layout=ipywidgets.Layout(width="max-content", padding="0 14px"),
        )
        self.button.add_class("hl-state-fill-run")
        self.button.on_click(lambda _: self._run_quietly())
        self.summary = ipywidgets.HTML()
        self.chart = ipywidgets.VBox()
        self.fills: pd.DataFrame | None = None
        super().__init__(
            [
                ipywidgets.HTML(
                    "<b style='font-size:16px'>Let the state decide</b> "
                    "<span>(choose the four phase-1 tiles by the station and the policy; the "
                    "state fills the other five squares at random)</span>"
                ),
                ipywidgets.HBox(
                    [
                        ipywidgets.VBox(list(self.squares.values())),
                        ipywidgets.VBox([self.policy, self.button]),
                    ]
                ),
                self.summary,
                self.chart,
            ]
        )
        self.add_class("hl-state-fill")

    def __repr__(self) -> str:
        return f"StateFillExplorer({self.n} fills)"

    def run(self) -> pd.DataFrame:
        """Score the state's fills of phase 2 for the chosen phase 1 and policy."""
        phase_1 = {square: box.value for square, box in self.squares.items()}
        policies = [self.policy.value] if self.policy.value else []
        fills = sweep(state_fills(phase_1, self.n, seed=self.seed, policies=policies))
        self.fills = fills
        self.summary.value = lesson_table(
            fill_summary(fills),
            money=[MEASURE_NAMES["spending"]],
            title=f"What the state's {self.n:,} fills give (residents housed, of 12)",
        )._repr_html_()
        counts = fills["housed_low"].value_counts().reindex(range(13), fill_value=0)
        for old in self.chart.children:
            old.close()
        self.chart.children = [
            bar_chart(
                [f"{k} of 12 housed" for k in range(13)],
                {"% of fills": (100 * counts / len(fills)).round(1).tolist()},
                title="Low income residents housed when the state fills phase 2",
                value_label=f"% of the {self.n:,} fills",
                colours={"% of fills": INCOME_COLOURS["low income"]},
                whole_numbers=False,
            )
        ]
        return fills

    def _run_quietly(self) -> None:
        try:
            self.run()
        except HousingLabError as error:
            self.summary.value = f"<span style='color:#b2182b'>{html.escape(str(error))}</span>"

"""Coalition explorer: pick constituent cards, get the best board they could agree on.

The exact solver (`north_berkeley.solver`) searches every board; this widget only asks it and
draws the answer with the lab's board. An "Assumption" list solves again under one of the
model's switches (lesson 8's settings), so a student without code can ask whether a coalition
survives, say, no filtering.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import ipywidgets

from housing_lab.errors import HousingLabError, shown
from housing_lab.north_berkeley.constituents import CARD_IDS, cards, check_card
from housing_lab.north_berkeley.engine.scoring import score_scenario
from housing_lab.north_berkeley.names import policy_set_name
from housing_lab.north_berkeley.solver.exact import Solution, solve
from housing_lab.numbers import check_seed
from housing_lab.widgets.lab.board import NorthBerkeleyBoard
from housing_lab.widgets.table.checks import check_texts

# The model's switches one at a time, as lesson 8 names them (RULES.md "Model assumptions").
ASSUMPTIONS: dict[str, tuple[str, dict[str, Any] | None]] = {
    "rulebook": ("The rulebook", None),
    "no_filtering": (
        "No filtering: new market rate homes for high income only",
        {"market_homes_for": ["high"]},
    ),
    "partial_filtering": (
        "Partial filtering: high and middle income only",
        {"market_homes_for": ["high", "middle"]},
    ),
    "more_newcomers": ("More newcomers: 14 high income", {"newcomers": {"high": 14}}),
    "fewer_newcomers": (
        "Fewer newcomers: 4 high income (the others go elsewhere)",
        {"newcomers": {"high": 4}},
    ),
    "costa_hawkins": (
        "Costa-Hawkins: houses exempt from vacancy control",
        {"vacancy_control_protects": ["apartments"]},
    ),
    "budget_15": ("City budget of $15", {"budget": 15}),
}


def solution_summary(solution: Solution, chosen: Sequence[str]) -> str:
    """The answer in words: total, spending, each card's score, and the 'all >= 0' question."""
    deck = cards()
    result = solution.result
    rows = "".join(
        f"<tr><td>{html.escape(deck[card].name)}</td>"
        f"<td style='text-align:right'>{result['constituents'][card]['score']:+d}</td></tr>"
        for card in chosen
    )
    together = (
        "<b>Yes</b>: there is a board where none of these cards scores &minus;1."
        if solution.nonnegative_possible
        else "<b>No</b>: on every possible board at least one of these cards scores &minus;1."
    )
    policies = policy_set_name(solution.scenario.to_dict()["policies"], short=False)
    return (
        f"<div style='font-size:15px'><b>Best total: {solution.score:g}</b> "
        f"(spending ${float(solution.spending):g}; searched every board in "
        f"{solution.seconds:.2f} s)<br>"
        f"Policies: {html.escape(policies)}<br>"
        f"<table style='margin:6px 0'>{rows}</table>"
        f"Can every card score at least 0 together? {together}</div>"
    )


class CoalitionExplorer(ipywidgets.VBox):
    """Choose cards, press the button (or call `find()`), see the best board."""

    def __init__(
        self,
        chosen: Sequence[str] = ("developer", "affordable_housing_orgs"),
        seed: int = 0,
        assumption: str = "rulebook",
    ) -> None:
        chosen = check_texts(chosen, "chosen")
        self.seed = check_seed(seed)
        if assumption not in ASSUMPTIONS:
            raise HousingLabError(
                f"unknown assumption {shown(assumption, 40)}: one of {', '.join(ASSUMPTIONS)}"
            )
        self.assumption = ipywidgets.Dropdown(
            options=[(words, key) for key, (words, _) in ASSUMPTIONS.items()],
            value=assumption,
            description="Assumption",
            layout=ipywidgets.Layout(width="420px"),
        )
        deck = cards()
        self.picker = ipywidgets.SelectMultiple(
            options=[(deck[c].name, c) for c in CARD_IDS],
            value=[check_card(c) for c in chosen],
            rows=11,
            description="Coalition",
            layout=ipywidgets.Layout(width="420px"),
        )
        self.button = ipywidgets.Button(
            description="Find the best board",
            button_style="primary",
            icon="search",
            # never cut the label (the default 148px showed "Find the best bo...")
            layout=ipywidgets.Layout(width="max-content", padding="0 14px"),
        )
        self.button.add_class("hl-coalition-find")
        self.button.on_click(lambda _: self._find_quietly())
        self.summary = ipywidgets.HTML()
        self.board = NorthBerkeleyBoard()
        self.solution: Solution | None = None
        super().__init__(
            [
                ipywidgets.HTML(
                    "<b style='font-size:16px'>Coalition explorer</b> "
                    "<span>(Ctrl/Cmd-click to choose several cards)</span>"
                ),
                ipywidgets.HBox(
                    [
                        ipywidgets.VBox([self.picker, self.assumption]),
                        ipywidgets.VBox([self.button, self.summary]),
                    ]
                ),
                self.board,
            ]
        )
        self.add_class("hl-coalition")

    def __repr__(self) -> str:
        return f"CoalitionExplorer({len(self.picker.value)} cards)"

    def choose(self, chosen: Sequence[str]) -> None:
        self.picker.value = tuple(check_card(c) for c in chosen)

    def find(self) -> Solution:
        chosen = list(self.picker.value)
        if not chosen:
            raise HousingLabError("choose at least one constituent card")
        words, model = ASSUMPTIONS[self.assumption.value]
        self.solution = solve(chosen, seed=self.seed, model=model)
        self.summary.value = (
            f"<div>Solved under: <b>{html.escape(words)}</b></div>" if model else ""
        ) + solution_summary(self.solution, chosen)
        self.board.show_result(score_scenario(self.solution.scenario))
        return self.solution

    def _find_quietly(self) -> None:
        try:
            self.find()
        except HousingLabError as error:
            self.summary.value = f"<span style='color:#b2182b'>{html.escape(str(error))}</span>"

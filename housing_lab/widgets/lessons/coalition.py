"""Coalition explorer: pick constituent cards, get the best board they could agree on.

The exact solver (`north_berkeley.solver`) searches every board; this widget only asks it and
draws the answer with the lab's board.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

import ipywidgets

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley.constituents import CARD_IDS, cards, check_card
from housing_lab.north_berkeley.engine.scoring import score_scenario
from housing_lab.north_berkeley.names import policy_set_name
from housing_lab.north_berkeley.solver.exact import Solution, solve
from housing_lab.numbers import check_seed
from housing_lab.widgets.lab.board import NorthBerkeleyBoard
from housing_lab.widgets.table.checks import check_texts


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
        self, chosen: Sequence[str] = ("developer", "affordable_housing_orgs"), seed: int = 0
    ) -> None:
        chosen = check_texts(chosen, "chosen")
        self.seed = check_seed(seed)
        deck = cards()
        self.picker = ipywidgets.SelectMultiple(
            options=[(deck[c].name, c) for c in CARD_IDS],
            value=[check_card(c) for c in chosen],
            rows=11,
            description="Coalition",
            layout=ipywidgets.Layout(width="420px"),
        )
        self.button = ipywidgets.Button(
            description="Find the best board", button_style="primary", icon="search"
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
                ipywidgets.HBox([self.picker, ipywidgets.VBox([self.button, self.summary])]),
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
        self.solution = solve(chosen, seed=self.seed)
        self.summary.value = solution_summary(self.solution, chosen)
        self.board.show_result(score_scenario(self.solution.scenario))
        return self.solution

    def _find_quietly(self) -> None:
        try:
            self.find()
        except HousingLabError as error:
            self.summary.value = f"<span style='color:#b2182b'>{html.escape(str(error))}</span>"

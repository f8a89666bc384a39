"""The lab's "Assumptions" tab: the model's switches as questions students know.

The rulebook is one model of a neighbourhood (`north_berkeley.model`). Each switch is asked as
its `Switch.question`, the rulebook's answer marked "(rulebook)", and "Back to the rulebook"
puts every switch back. The panel holds no state of its own: a change calls
`on_change(model_dict)` with the whole model as JSON (RULES.md "Model assumptions"); the lab
asks the engine to score it (or refuses it in words) and calls `show(model)` back.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

import ipywidgets

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley.model import (
    MAX_BUDGET,
    MAX_NEWCOMERS,
    RULEBOOK,
    SWITCHES,
    Model,
    dollars,
)
from housing_lab.north_berkeley.policies import INCOMES

QUESTIONS = {switch.key: switch.question for switch in SWITCHES}
RULEBOOK_MARK = " (rulebook)"
INCOME_TITLES = {"high": "High income", "middle": "Middle income", "low": "Low income"}
# who can rent a new market-rate home: the answers students are offered (always with "high")
MARKET_CHOICES: dict[tuple[str, ...], str] = {
    ("high", "middle", "low"): "Anyone left over: high, then middle, then low income",
    ("high", "middle"): "High and middle income only (low incomes cannot afford it)",
    ("high",): "High income only (no filtering down)",
}
OTHER_MARKET = ("high", "low")  # allowed by RULES.md; offered only when a loaded file has it
OTHER_MARKET_WORDS = "High and low income only"
PROTECT_CHOICES: dict[tuple[str, ...], str] = {
    ("houses", "apartments"): "Yes: houses and apartments",
    ("apartments",): "No: apartments only (California's Costa-Hawkins Act)",
}
OTHER_PROTECT = ("houses",)
OTHER_PROTECT_WORDS = "Houses only"


def _marked(choices: Mapping[tuple[str, ...], str], rulebook: tuple[str, ...]) -> list[Any]:
    """Dropdown options (words, value) with the rulebook's answer marked."""
    return [
        (words + (RULEBOOK_MARK if key == rulebook else ""), key) for key, words in choices.items()
    ]


# A dropdown's question is its label (a screen reader names the list by it), shown above the
# list in the same bold as the other questions.
QUESTION_CSS = (
    "<style>.hl-assumptions .hl-question{flex-direction:column;align-items:flex-start;"
    "height:auto}"
    ".hl-assumptions .hl-question .widget-label{font-weight:bold;font-size:14px;"
    "text-align:left;margin:6px 0 2px;max-width:none;white-space:normal}"
    ".hl-assumptions .hl-question select{width:480px;height:28px;flex:none}</style>"
)


def _question(key: str, choices: list[Any], value: tuple[str, ...]) -> ipywidgets.Dropdown:
    dropdown = ipywidgets.Dropdown(
        options=choices,
        value=value,
        description=QUESTIONS[key],
        style={"description_width": "initial"},
        layout=ipywidgets.Layout(width="auto"),
    )
    dropdown.add_class("hl-question")
    return dropdown


def _heading(key: str) -> ipywidgets.HTML:
    return ipywidgets.HTML(
        f"<b style='font-size:14px'>{html.escape(QUESTIONS[key])}</b>",
        layout=ipywidgets.Layout(margin="6px 0 0"),
    )


class AssumptionsPanel(ipywidgets.VBox):
    """The four switches; `on_change(model_dict)` after a student's change, `show(model)` to
    set the controls from the lab without calling back."""

    def __init__(self, **kwargs: Any) -> None:
        self.on_change: Callable[[dict[str, Any]], None] | None = None
        self._quiet = False
        self._spending = Fraction(0)  # what the board spends now (the lab says, in `show`)
        rulebook = RULEBOOK.to_dict()
        self.status = ipywidgets.HTML()
        self.status.add_class("hl-assumptions-status")
        # why the last change was refused, beside the budget box (in view where it was typed)
        self.refusal = ipywidgets.HTML(layout=ipywidgets.Layout(margin="0 0 0 12px"))
        self.refusal.add_class("hl-assumptions-refusal")
        self.newcomers = {
            income: ipywidgets.BoundedIntText(
                value=rulebook["newcomers"][income],
                min=0,
                max=MAX_NEWCOMERS,
                description=INCOME_TITLES[income],
                style={"description_width": "initial"},
                layout=ipywidgets.Layout(width="170px"),
            )
            for income in INCOMES
        }
        newcomers_note = ipywidgets.HTML(
            f"<span style='font-size:13px'>0-{MAX_NEWCOMERS} each; 8 each{RULEBOOK_MARK}</span>"
        )
        market = tuple(rulebook["market_homes_for"])
        self.market = _question("market_homes_for", _marked(MARKET_CHOICES, market), market)
        self.market.add_class("hl-switch-market")
        protects = tuple(rulebook["vacancy_control_protects"])
        self.protects = _question(
            "vacancy_control_protects", _marked(PROTECT_CHOICES, protects), protects
        )
        self.protects.add_class("hl-switch-protects")
        self.limited = ipywidgets.Checkbox(
            value=False,
            description="Limit what the city can spend",
            indent=False,
            layout=ipywidgets.Layout(width="auto", margin="0 12px 0 0"),
        )
        self.limited.add_class("hl-switch-budget-on")
        self.budget = ipywidgets.BoundedFloatText(
            value=10,
            min=0,
            max=MAX_BUDGET,
            step=1,
            description="Budget $",
            disabled=True,
            style={"description_width": "initial"},
            layout=ipywidgets.Layout(width="160px"),
        )
        self.budget.add_class("hl-switch-budget")
        budget_note = ipywidgets.HTML(
            f"<span style='font-size:13px'>No limit{RULEBOOK_MARK}</span>"
        )
        self.back = ipywidgets.Button(
            description="Back to the rulebook",
            icon="undo",
            layout=ipywidgets.Layout(width="auto", align_self="flex-start", margin="8px 0 0"),
        )
        self.back.add_class("hl-rulebook")
        self.back.on_click(lambda _: self._ask(RULEBOOK.to_dict()))
        for control in (*self.newcomers.values(), self.market, self.protects, self.budget):
            control.observe(self._changed, names="value")
        self.limited.observe(self._changed, names="value")
        row = ipywidgets.Layout(align_items="center", flex_flow="row wrap")
        super().__init__(
            [
                ipywidgets.HTML(QUESTION_CSS, layout=ipywidgets.Layout(margin="0")),
                self.status,
                self.market,
                _heading("newcomers"),
                ipywidgets.HBox([*self.newcomers.values(), newcomers_note], layout=row),
                self.protects,
                _heading("budget"),
                ipywidgets.HBox([self.limited, self.budget, budget_note, self.refusal], layout=row),
                self.back,
            ],
            **kwargs,
        )
        self.add_class("hl-assumptions")
        self.show(RULEBOOK)

    def __repr__(self) -> str:
        return "AssumptionsPanel()"

    def model_dict(self) -> dict[str, Any]:
        """The switches as the controls stand, in the RULES.md `model` format."""
        return {
            "newcomers": {income: int(box.value) for income, box in self.newcomers.items()},
            "market_homes_for": list(self.market.value),
            "vacancy_control_protects": list(self.protects.value),
            "budget": float(self.budget.value) if self.limited.value else None,
        }

    def show(self, model: Model, spending: float = 0, changed_only: bool = False) -> None:
        """Set every control to `model` (without calling back) and say how it differs. With no
        budget, the budget box offers the board's `spending` (ticking the limit then keeps
        the board as it is; lowering it asks the engine).

        `changed_only` (the lab after every click): when `model` is the one shown last, only
        the offered budget follows the spending, so a lab update costs what it did before the
        switches. A refused change calls without it, to put every control back."""
        self._spending = Fraction(spending)
        if changed_only and model == getattr(self, "_shown_model", None):
            if model.city_budget() is None:
                self._quiet = True
                try:
                    self.budget.value = float(spending)
                finally:
                    self._quiet = False
            return
        self._shown_model = model
        data = model.to_dict()
        self._quiet = True
        try:
            for income, box in self.newcomers.items():
                box.value = data["newcomers"][income]
            self._choose(self.market, tuple(data["market_homes_for"]), OTHER_MARKET_WORDS)
            self._choose(
                self.protects, tuple(data["vacancy_control_protects"]), OTHER_PROTECT_WORDS
            )
            self.limited.value = data["budget"] is not None
            self.budget.disabled = data["budget"] is None
            self.budget.value = float(spending if data["budget"] is None else data["budget"])
        finally:
            self._quiet = False
        self.back.disabled = model.is_rulebook
        rulebook = model.is_rulebook
        self.status.value = (
            "<div style='font-size:14px;max-width:640px'>The rulebook is one model of the "
            "neighbourhood: change an assumption and see which results survive. "
            f"<b>{html.escape(model.describe())}.</b></div>"
            if rulebook
            else f"<div class='hl-not-rulebook-note' style='font-size:14px;max-width:640px'>"
            f"<b>{html.escape(model.describe())}.</b></div>"
        )

    @staticmethod
    def _choose(dropdown: ipywidgets.Dropdown, value: tuple[str, ...], other: str) -> None:
        """Select `value`, adding it as an option when a loaded model has a rare setting."""
        if value not in [key for _, key in dropdown.options]:
            dropdown.options = [*dropdown.options, (other, value)]
        dropdown.value = value

    def _changed(self, change: dict[str, Any]) -> None:
        if change["owner"] is self.limited:
            self.budget.disabled = not change["new"]
        if not self._quiet:
            self._ask(self.model_dict())

    def _ask(self, data: dict[str, Any]) -> None:
        """Ask the lab for the model `data`; a budget below what the board spends is refused
        by the lab, and said here too, in words, where the student typed it."""
        self.refusal.value = ""
        if self.on_change is None:
            return
        reason = self._budget_words(data)
        self.on_change(data)
        if reason is not None and getattr(self, "_shown_model", None) != _model_or_none(data):
            self.refusal.value = (
                f"<span role='alert' style='font-size:13px;color:#b00020'>"
                f"{html.escape(reason)}</span>"
            )

    def _budget_words(self, data: dict[str, Any]) -> str | None:
        """Why the budget in `data` cannot hold the board as it stands (the model's own
        `over_budget`), in words; None when it can, or when another switch is bad."""
        model = _model_or_none(data)
        if model is None or not model.over_budget(self._spending):
            return None
        spent, budget = dollars(self._spending), dollars(model.city_budget() or 0)
        return (
            f"Not changed: the board already spends {spent}, more than {budget}. "
            f"Choose at least {spent}, or clear a tile first."
        )


def _model_or_none(data: dict[str, Any]) -> Model | None:
    """The model the controls ask for, or None when a switch is bad (the lab says which)."""
    try:
        return Model.from_dict(data)
    except HousingLabError:
        return None

"""Ask the coach: pick a card and a goal, read the fewest changes that reach it, apply them.

The exact coach (`north_berkeley.coaching`) does the work and `coaching.words` says its answer with
names as printed; this panel only asks, shows, and swaps the scenario when the student presses
**Apply** (undoable). It stands alone (a board view of its own, no lab), so a lesson can put it
under any board: `CoachPanel(scenario, "urbanists")`.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from typing import Any

import ipywidgets

from housing_lab.errors import HousingLabError, shown
from housing_lab.north_berkeley.coaching.exact import GOALS, CoachAnswer, coach
from housing_lab.north_berkeley.coaching.words import coach_sentence, subject
from housing_lab.north_berkeley.constituents import CARD_IDS, cards, check_card
from housing_lab.north_berkeley.engine.scoring import score_scenario
from housing_lab.north_berkeley.scenario import Scenario, scenario_from_dict
from housing_lab.widgets.common import signed
from housing_lab.widgets.lab.board import NorthBerkeleyBoard

GOAL_LABELS = {"win": "Win (+1)", "no-loss": "Avoid losing (0 or more)"}
ERROR_STYLE = "color:#b2182b"


def check_scenario(scenario: object) -> Scenario:
    """A Scenario, or a scenario dict in the RULES.md format; anything else is one clear line."""
    if isinstance(scenario, Scenario):
        return scenario
    if isinstance(scenario, Mapping):
        return scenario_from_dict(dict(scenario))
    raise HousingLabError(
        f"the coach panel needs a scenario (a Scenario or a scenario dict), got {shown(scenario)}"
    )


def check_goal(goal: object) -> str:
    if goal not in GOALS:
        raise HousingLabError(f"unknown goal {shown(goal)} (goals: {', '.join(GOALS)})")
    return str(goal)


def card_score(scenario: Scenario, card: str) -> int:
    """The card's net score on the scenario, by the engine."""
    return int(score_scenario(scenario).to_dict()["constituents"][card]["score"])


class CoachPanel(ipywidgets.VBox):
    """A card, a goal, **Ask the coach**, the answer in words, **Apply** and **Undo**.

    `ask()` returns the coach's answer; `apply()` the scenario after its changes (also kept in
    `scenario` and drawn); `undo()` goes back one apply. `on_apply(scenario)` is called after
    each apply and undo, so a page can follow the board.
    """

    def __init__(
        self,
        scenario: Scenario | Mapping[str, Any],
        card: str = "urbanists",
        goal: str = "win",
        *,
        on_apply: Callable[[Scenario], None] | None = None,
    ) -> None:
        self.scenario = check_scenario(scenario)
        self.history: list[Scenario] = []
        self.answer: CoachAnswer | None = None
        self.on_apply = on_apply
        deck = cards()
        self.card_picker = ipywidgets.Dropdown(
            options=[(deck[c].name, c) for c in CARD_IDS],
            value=check_card(card),
            description="Card",
            layout=ipywidgets.Layout(width="380px"),
        )
        self.goal_picker = ipywidgets.ToggleButtons(
            options=[(GOAL_LABELS[g], g) for g in GOALS],
            value=check_goal(goal),
            description="Goal",
            style={"button_width": "210px"},
        )
        self.ask_button = ipywidgets.Button(
            description="Ask the coach", button_style="primary", icon="question"
        )
        self.apply_button = ipywidgets.Button(
            description="Apply", button_style="success", icon="check", disabled=True
        )
        self.undo_button = ipywidgets.Button(description="Undo", icon="undo", disabled=True)
        self.card_text = ipywidgets.HTML()
        self.reply = ipywidgets.HTML()
        self.board = NorthBerkeleyBoard(score_scenario(self.scenario))
        self.ask_button.add_class("hl-coach-ask")
        self.apply_button.add_class("hl-coach-apply")
        self.ask_button.on_click(lambda _: self._quietly(self.ask))
        self.apply_button.on_click(lambda _: self._quietly(self.apply))
        self.undo_button.on_click(lambda _: self._quietly(self.undo))
        self.card_picker.observe(lambda _: self._forget(), names="value")
        self.goal_picker.observe(lambda _: self._forget(), names="value")
        super().__init__(
            [
                ipywidgets.HTML("<b style='font-size:16px'>Ask the coach</b>"),
                self.card_picker,
                self.goal_picker,
                self.card_text,
                ipywidgets.HBox([self.ask_button, self.apply_button, self.undo_button]),
                self.reply,
                self.board,
            ]
        )
        self.add_class("hl-coach-panel")
        self._forget()

    def __repr__(self) -> str:  # stable for nbval: no memory address
        return f"CoachPanel({self.card_picker.value}, {self.goal_picker.value})"

    @property
    def card(self) -> str:
        return str(self.card_picker.value)

    @property
    def goal(self) -> str:
        return str(self.goal_picker.value)

    def choose(self, card: str | None = None, goal: str | None = None) -> None:
        """Pick a card and/or a goal (ids; the pickers show the printed names)."""
        card = self.card if card is None else check_card(card)
        goal = self.goal if goal is None else check_goal(goal)
        self.card_picker.value, self.goal_picker.value = card, goal

    def ask(self) -> CoachAnswer:
        """The coach's answer for the chosen card and goal on the current scenario."""
        self.answer = coach(self.scenario, self.card, self.goal)
        self.apply_button.disabled = not self.answer.changes
        self.reply.value = self._answer_html(self.answer)
        return self.answer

    def apply(self) -> Scenario:
        """Make the answer's changes: the scenario after them, drawn, with the card's flip."""
        answer = self.answer
        if answer is None or answer.card != self.card or answer.goal != self.goal:
            raise HousingLabError("ask the coach first, then apply its answer")
        if not answer.changes or answer.scenario_after is None:
            raise HousingLabError("the coach's answer has no changes to apply")
        before = answer.now
        self.history.append(self.scenario)
        self._show(answer.scenario_after, [c.square for c in answer.changes if c.square])
        after = card_score(self.scenario, answer.card)
        self.reply.value = (
            f"<div class='hl-coach-flip' style='font-size:15px'>Applied: "
            f"{html.escape(_capital(subject(answer.card)))} went from <b>{signed(before, True)}"
            f"</b> to <b>{signed(after, True)}</b>. Ask again about another card: did a "
            "change for one card cost another a point?</div>"
        )
        self.answer = None
        self._forget()
        return self.scenario

    def undo(self) -> Scenario:
        """Back to the scenario before the last apply."""
        if not self.history:
            raise HousingLabError("nothing to undo: no answer has been applied")
        self._show(self.history.pop(), [])
        self.answer = None
        self._forget()
        self.reply.value = "<div class='hl-coach-answer'>Undone: the board is as it was.</div>"
        return self.scenario

    def _show(self, scenario: Scenario, changed: list[str]) -> None:
        self.scenario = scenario
        self.board.show_result(score_scenario(scenario))
        self.board.changed = changed
        self.apply_button.disabled = True
        self.undo_button.disabled = not self.history
        if self.on_apply is not None:
            self.on_apply(scenario)

    def _answer_html(self, answer: CoachAnswer) -> str:
        sentence = html.escape(coach_sentence(answer, self.scenario.catalogue))
        if answer.changes:
            sentence += (
                f"<br>Now {signed(answer.now, True)}; after the changes "
                f"{signed(int(answer.after or 0), True)}, spending "
                f"${float(answer.spending_after or 0):g}. Press <b>Apply</b> to make them."
            )
        return f"<div class='hl-coach-answer' style='font-size:15px'>{sentence}</div>"

    def _forget(self) -> None:
        """A new card or goal: show what the card wants and its score now; the old answer goes."""
        if self.answer is not None and (self.answer.card, self.answer.goal) != (
            self.card,
            self.goal,
        ):
            self.answer = None
            self.apply_button.disabled = True
            self.reply.value = ""
        card = cards()[self.card]
        self.card_text.value = (
            f"<div style='font-size:14px'><b>{html.escape(card.name)}</b> scores "
            f"{signed(card_score(self.scenario, self.card), True)} on this board. "
            f"+1 when: {html.escape(card.plus_text)} &minus;1 when: "
            f"{html.escape(card.minus_text)}</div>"
        )

    def _quietly(self, action: Callable[[], object]) -> None:
        """A button's action: a mistake becomes one red line, the state stays as it was."""
        try:
            action()
        except HousingLabError as error:
            self.reply.value = f"<span style='{ERROR_STYLE}'>{html.escape(str(error))}</span>"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]

"""The coach's controls in the lab's scoreboard tab: ask, read the answer, apply, undo.

The panel only draws and forwards clicks: the lab (`NorthBerkeleyLab.coach`,
`apply_coach`, `undo`) asks the engine's coach and applies its changes through the lab's
normal actions, then calls `show_answer` / `show_undo` back. See docs/nb_lab.md, "The coach".
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets

from housing_lab.north_berkeley.constituents import cards

HAND = "__hand__"
"""The dropdown's value for "the whole hand" (never a card id)."""
ASK_WIN = "How could they win?"
ASK_NO_LOSS = "How could they avoid losing?"
ASK_HAND = "Which change helps this hand most?"
INFO_BUTTON_COLOR = "#006d77"
HINT = "Pick a card and ask the coach: the fewest changes to this board that would do it."


class CoachPanel(ipywidgets.VBox):
    """A card (or the hand) picker, two question buttons, the answer, Apply and Undo.

    Callbacks, set by the lab: `on_ask(target, goal)` (target a card id or the hand's list),
    `on_apply()`, `on_undo()`.
    """

    def __init__(self, hand: Sequence[str], hand_chosen: bool, **kwargs: Any) -> None:
        self.hand = list(hand)
        self.on_ask: Callable[[str | list[str], str], None] | None = None
        self.on_apply: Callable[[], None] | None = None
        self.on_undo: Callable[[], None] | None = None
        deck = cards()
        options: list[tuple[str, str]] = []
        if hand_chosen:
            options.append((f"This hand ({len(self.hand)} cards)", HAND))
        options += [(deck[card].name, card) for card in self.hand]
        self.target = ipywidgets.Dropdown(
            options=options,
            description="Coach:",
            layout=ipywidgets.Layout(width="360px"),
            style={"description_width": "50px"},
        )
        self.target.add_class("hl-coach-target")
        self.target.observe(self._target_changed, names="value")
        self.win_button = self._button(ASK_WIN, "hl-coach-win", "info")
        self.no_loss_button = self._button(ASK_NO_LOSS, "hl-coach-no-loss", "info")
        self.win_button.on_click(lambda _: self._ask("win"))
        self.no_loss_button.on_click(lambda _: self._ask("no-loss"))
        self.apply_button = self._button("Apply", "hl-coach-apply", "success")
        self.apply_button.tooltip = "Make these changes on the board (Undo takes them back)"
        self.apply_button.on_click(lambda _: self.on_apply and self.on_apply())
        self.undo_button = self._button("Undo", "hl-coach-undo", "")
        self.undo_button.tooltip = "Put the board back as it was before the last change"
        self.undo_button.on_click(lambda _: self.on_undo and self.on_undo())
        self.apply_button.disabled = True
        self.undo_button.disabled = True
        self.answer = ipywidgets.HTML(layout=ipywidgets.Layout(flex="1 1 auto", min_width="0"))
        self.answer.add_class("hl-coach-answer")
        row = ipywidgets.HBox(
            [self.target, self.win_button, self.no_loss_button],
            layout=ipywidgets.Layout(flex_flow="row wrap", align_items="center"),
        )
        actions = ipywidgets.HBox(
            [self.answer, self.apply_button, self.undo_button],
            layout=ipywidgets.Layout(align_items="center"),
        )
        super().__init__([row, actions], **kwargs)
        self.add_class("hl-coach")
        self.show_answer(HINT, can_apply=False)
        self._target_changed()

    def __repr__(self) -> str:
        return f"CoachPanel({len(self.hand)} cards)"

    @staticmethod
    def _button(label: str, css: str, style: str) -> ipywidgets.Button:
        button = ipywidgets.Button(
            description=label,
            button_style=style,
            layout=ipywidgets.Layout(width="auto", flex="0 0 auto", margin="2px 4px"),
        )
        if style == "info":  # the theme's info teal is 3.5:1 under white text; this is 6:1
            button.style.button_color = INFO_BUTTON_COLOR
        button.add_class(css)
        return button

    @property
    def chosen(self) -> str | list[str]:
        """The card id picked, or the hand's card ids."""
        return list(self.hand) if self.target.value == HAND else str(self.target.value)

    def show_answer(self, sentence: str, can_apply: bool) -> None:
        self.answer.value = (
            "<div style='font-size:15px;line-height:1.35;padding:4px 8px;margin:4px 8px 4px 0;"
            "background:#e8f4fd;border-left:4px solid #0072b2;border-radius:4px'>"
            f"{html.escape(sentence)}</div>"
        )
        self.apply_button.disabled = not can_apply

    def show_undo(self, enabled: bool) -> None:
        self.undo_button.disabled = not enabled

    def _ask(self, goal: str) -> None:
        if self.on_ask is not None:
            self.on_ask(self.chosen, goal)

    def _target_changed(self, change: dict[str, Any] | None = None) -> None:
        """A hand has one question (the change that raises its total most)."""
        hand = self.target.value == HAND
        self.win_button.description = ASK_HAND if hand else ASK_WIN
        self.no_loss_button.layout.display = "none" if hand else None

"""Clicks from the browser, routed to the table's Python methods (a mixin of `GameTable`).

A click calls the same method a lesson would; a refusal has already been shown by then, so it
is swallowed here instead of surfacing as a traceback in the notebook.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from housing_lab.errors import HousingLabError

if TYPE_CHECKING:
    from housing_lab.widgets.game_table import GameTable


class ClicksMixin:
    """The board's and the panels' `on_action` handlers."""

    def _on_board_action(self: GameTable, action: dict[str, Any]) -> None:
        with contextlib.suppress(HousingLabError):
            if action.get("action") == "place":
                self.place(str(action.get("square")), str(action.get("tile")))
            elif action.get("action") == "clear":
                self.clear(str(action.get("square")))

    def _on_panel_action(self: GameTable, action: dict[str, Any]) -> None:
        """Every button of the panel; a refused action has already shown its message."""
        name = action.get("action")
        handlers: dict[str, Callable[[], object]] = {
            "start": lambda: self.start(
                list(action.get("teams") or []),
                _int(action.get("seed")),
                action.get("options") or {},
                bool(action.get("hidden_hands")),
            ),
            "new_game": self.new_game,
            "back_to_game": self.back_to_game,
            "call_state": lambda: self.call_state(
                None if action.get("override") else _float(action.get("minutes_elapsed"))
            ),
            "next": lambda: self.next_phase(),
            "redraw": lambda: self.redraw(str(action.get("team"))),
            "pick": lambda: self.pick(str(action.get("team")), str(action.get("card"))),
            "enact": lambda: self.enact(list(action.get("policies") or [])),
            "undo": self.undo,
            "save": self.offer_save,
            "load": lambda: self.load(str(action.get("text", ""))),
            "handout": lambda: self.offer_handout(action.get("team")),
            "reveal": lambda: self.reveal(action.get("team")),
            "tie_up": lambda: self._tie_up(str(action.get("team"))),
            "movein_back": self.back_move_in,
            "scores": self.show_scores,
        }
        handler = handlers.get(str(name))
        if handler is None:
            self._say(f"unknown action {name!r}", "error")
            return
        with contextlib.suppress(HousingLabError):
            handler()


def _int(value: Any) -> int:
    """Seeds typed in the browser; a bad one is left for the engine to refuse by name."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return value  # type: ignore[no-any-return]


def _float(value: Any) -> float | None:
    """Minutes from the browser timer; garbage counts as no time elapsed (the engine refuses)."""
    try:
        return None if value is None else float(value)
    except (TypeError, ValueError):
        return 0.0

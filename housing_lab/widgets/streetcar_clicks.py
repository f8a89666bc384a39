"""Browser clicks for the Streetcar lab (a mixin of `StreetcarLab`).

A click never raises: it is turned into the same Python calls a lesson makes (`draw_lines`,
`remove_house`, ...), and a refusal is only shown on the board's message line. A first edge
is held (`_first`) until its partner is clicked; one with no legal partner is drawn alone.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from housing_lab.errors import HousingLabError
from housing_lab.streetcar.hexgrid import make_edge
from housing_lab.widgets.streetcar_board import parse_edge_key, parse_hex_key

if TYPE_CHECKING:
    from housing_lab.widgets.streetcar_lab import StreetcarLab


class ClickMixin:
    """`click_edge`, `click_house` and the board's action handler; the lab provides the turn
    calls (`draw_lines`, `remove_house`, ...) and the board."""

    def click_edge(self: StreetcarLab, edge: object) -> None:
        """A click on a grid line: first line, second line, deselect, or an explanation.

        Like every click it never raises: a refusal is shown on the message line.
        """
        try:
            with self._refused_on_board():
                self._check_can_play()
                if self._staged is not None:
                    raise HousingLabError(
                        "your lines are drawn: now click a house to remove (or cancel the lines)"
                    )
                e = parse_edge_key(edge)
        except HousingLabError:
            return
        game, first = self._game, self._first
        if first is None:
            reason = game.explain_illegal_line(e)
            if reason is not None:
                self.board.say(f"Not allowed: {reason}.", "error")
                return
            if game.legal_second_edges(e):
                self._first = make_edge(*e)
                self._show(
                    "First line chosen. Click a second line that touches it "
                    "(dotted), or the first one again to choose another."
                )
                return
            with contextlib.suppress(HousingLabError):  # shown on the board already
                self.draw_lines([e])
            return
        if make_edge(*e) == first:
            self._first = None
            self._show("First line dropped: choose again.")
            return
        reason = game.explain_illegal_line(e, first)
        if reason is not None:
            self.board.say(
                f"Not allowed: {reason}. (Click the chosen line again to start over.)", "error"
            )
            return
        with contextlib.suppress(HousingLabError):
            self.draw_lines([first, e])

    def click_house(self: StreetcarLab, hex: object) -> None:
        """A click on a house: removes it when the lines are drawn, else says what to do."""
        if self.phase == "lines":
            self.board.say("First draw your lines, then remove a house.", "error")
            return
        with contextlib.suppress(HousingLabError):  # shown on the board already
            with self._refused_on_board():
                where = parse_hex_key(hex)
            self.remove_house(where)

    def _on_board_action(self: StreetcarLab, action: dict[str, Any]) -> None:
        """Clicks from the browser; refusals are already shown on the board."""
        kind = action.get("action")
        with contextlib.suppress(HousingLabError):
            if kind == "edge":
                self.click_edge(action.get("edge"))
            elif kind == "house":
                self.click_house(action.get("hex"))
            elif kind == "pass_lines":
                self.pass_lines()
            elif kind == "cancel_lines":
                self.cancel_lines()
            elif kind == "undo":
                self.undo()
            elif kind == "bot_shown":
                self._bot_shown(action.get("n"))

"""The table's decisions, each routed to the engine (a mixin of `GameTable`).

The engine decides every rule: these methods only call it inside `_shown` (a refusal is shown
and re-raised, a success redrawn) and then tell the class what happened.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from housing_lab.north_berkeley.constituents import cards
from housing_lab.north_berkeley.errors import IllegalActionError
from housing_lab.north_berkeley.policies import POLICY_NAMES
from housing_lab.widgets import game_table_views as views

if TYPE_CHECKING:
    from housing_lab.widgets.game_table import GameTable


class DecisionsMixin:
    """place, clear, call the state, redraw, pick, enact, next phase, undo and the tie order."""

    def place(self: GameTable, square: str, tile: str) -> None:
        game = self._need_game()
        with self._shown(on_board=True):
            game.place(square, tile)
        self.board.selected = square
        self._say(f"{square}: {self._tile_names[tile]}.", on_board=True)

    def clear(self: GameTable, square: str) -> None:
        game = self._need_game()
        with self._shown(on_board=True):
            game.clear(square)
        self._say(f"{square} cleared.", on_board=True)

    def call_state(self: GameTable, minutes_elapsed: float | None = None) -> dict[str, str]:
        """The state steps in: random tiles on the empty squares of this phase.

        `minutes_elapsed` (the browser timer sends it) must have reached the negotiation timer;
        None is the teacher's override ("call it now").
        """
        game = self._need_game()
        with self._shown():
            filled = game.call_state(minutes_elapsed=minutes_elapsed)
        placed = ", ".join(f"{sq} gets {self._tile_names.get(t, t)}" for sq, t in filled.items())
        self._say(f"The state stepped in: {placed}.", on_board=True)
        return filled

    def next_phase(self: GameTable, tie_order: Sequence[str] | None = None) -> str:
        """Finish this step: the engine's `advance`, or the next move-in wave, or the scores.

        `tie_order` (every team once) breaks ties in the draft order; default: the order set
        on the table (seating order unless changed).
        """
        game = self._need_game()
        if self.stage == "movein":
            return self.step_move_in()
        order = list(tie_order) if tie_order is not None else (self._tie_order or None)
        with self._shown():
            game.advance(tie_order=order)
            self._movein_step = 0
            if tie_order is not None:
                self._tie_order = list(tie_order)
        self._say(self._entered_text())
        return self.stage

    def redraw(self: GameTable, team: str) -> str:
        game = self._need_game()
        with self._shown():
            old = game.state.extra.get(team, "")
            card = game.redraw(team)
        self._say(f"{team} discards {cards()[old].name} and draws {cards()[card].name}.")
        return card

    def pick(self: GameTable, team: str, card: str) -> None:
        game = self._need_game()
        with self._shown():
            game.pick(team, card)
        text = f"{team} takes {cards()[card].name}."
        if game.phase == "policies":
            text += " The draft is over: two policy cards are drawn."
        self._say(text)

    def enact(self: GameTable, policies: str | Sequence[str]) -> None:
        game = self._need_game()
        with self._shown():
            game.enact(policies)
        names = " and ".join(POLICY_NAMES[p] for p in game.state.policies)
        self._say(f"Enacted {names}. Phase 2 begins.")

    def undo(self: GameTable) -> None:
        """The engine's undo: take back the last decision."""
        game = self._need_game()
        with self._shown():
            game.undo()
            self._movein_step = 0
        self._say("Undone: the last decision was taken back.")

    def set_tie_order(self: GameTable, order: Sequence[str]) -> None:
        """Who goes first among teams tied on score in the draft (checked when it is used)."""
        game = self._need_game()
        if sorted(order) != sorted(game.players):
            raise self._refused(
                IllegalActionError(f"tie order {list(order)} must name every team exactly once")
            )
        self._tie_order = list(order)
        self._refresh()

    def _tie_up(self: GameTable, team: str) -> None:
        """The panel's "move up" button: swap a team with the one before it in the tie order."""
        order = self.tie_order
        if team in order and order.index(team) > 0:
            i = order.index(team)
            order[i - 1], order[i] = order[i], order[i - 1]
        self.set_tie_order(order)

    def _entered_text(self: GameTable) -> str:
        """What the class is told when the engine has moved to a new phase."""
        game = self._need_game()
        return {
            "extra_draw": "Phase 1 is finished. Each team draws an extra card, face up.",
            "draft": f"The draft begins: {game.draft_turn()} picks first.",
            "phase2": "Phase 2 begins.",
            "over": "Phase 2 is finished: the board is complete. Now people move in.",
        }.get(game.phase, f"Now: {views.STAGE_LABELS[self.stage]}.")

"""What the Streetcar lab shows (a mixin of `StreetcarLab`): the engine's state copied into the
board's traits and the score panel, and the sentences on the message line.

`_refresh` is the one place the position reaches the board, so the board always shows the
engine's position (plus the staged lines, which are not in the engine yet) and nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from housing_lab.streetcar import PLAYERS, Game, Move
from housing_lab.streetcar.board import hex_json
from housing_lab.widgets.streetcar_board import edge_key, edge_keys, hex_key, position_view

if TYPE_CHECKING:
    from housing_lab.widgets.streetcar_lab import StreetcarLab


def describe_move(label: str, move: Move, colour: str | None, game: Game) -> str:
    """One sentence about a move just pushed (game is the position after it)."""
    count = len(move.lines)
    drawn = {2: "drew 2 lines", 1: "drew 1 line (no second line fitted)", 0: "could draw no line"}
    text = f"{label} {drawn[count]}"
    if move.remove is not None:
        text += f" and removed a {colour} house at {hex_json(move.remove)}"
        placed = game.last_buildings()
        if placed:
            cubes = ", ".join(f"{b.cubes} {b.colour}" for b in placed)
            text += f"; {len(placed)} new building{'s' if len(placed) > 1 else ''} ({cubes})"
    return text + "."


class ViewMixin:
    """`_show` / `_refresh` (board traits, replay bar, score panel) and the labels and prompts;
    the lab provides the game, the bot, `_staged` / `_first` and the widgets."""

    def _label(self: StreetcarLab, player: str) -> str:
        if self._bot is None:
            return player.title()
        if player == self.human:
            return f"{player.title()} (you)"
        return f"{player.title()} ({self.opponent} bot)"

    def _whose_turn_sentence(self: StreetcarLab) -> str:
        game = self._game
        if self._replay is not None:
            return ""
        if game.is_over():
            outcome = game.outcome()
            return f"Game over: {outcome.explanation}." if outcome else "Game over."
        return f"Turn {game.turn}: {self._label(game.current_player)} to play."

    def _prompt(self: StreetcarLab, legal: Sequence[str]) -> str:
        game, phase = self._game, self.phase
        if phase == "replay":
            return (
                f"Replay: after move {len(game.move_stack)} of {len(self._replay or [])}. "
                "Use the replay buttons below the board."
            )
        if phase == "over":
            outcome = game.outcome()
            return f"Game over: {outcome.explanation}." if outcome else "Game over."
        who = f"Turn {game.turn} · {self._label(game.current_player)}"
        if phase == "remove":
            return f"{who}: click a house to remove (not a flipped one with a padlock)."
        if not legal:
            return f"{who}: no line fits anywhere. Press “No line possible”."
        if self._first is not None:
            return f"{who}: click a second line touching the first (dotted)."
        if game.turn == 1:
            return f"{who}: click two grid lines that meet (no house is removed on turn 1)."
        return f"{who}: click two grid lines that meet at a corner."

    def _show(self: StreetcarLab, message: str, kind: str = "info") -> None:
        """Refresh from the engine and say `message`, in one comm message."""
        with self.board.hold_sync():
            self._refresh()
            self.board.say(message, kind)

    def _refresh(self: StreetcarLab) -> None:
        """Copy the engine's state into the board and score panel (one comm message each)."""
        game, board = self._game, self.board
        phase = self.phase
        view = position_view(game)
        legal = edge_keys(game.legal_edges()) if phase == "lines" else []
        seconds = edge_keys(game.legal_second_edges(self._first)) if self._first else []
        self._position_id = board.position_id + 1
        with board.hold_sync():
            board.houses = view["houses"]
            board.flipped = view["flipped"]
            board.buildings = view["buildings"]
            board.lines = view["lines"]
            board.new_buildings = view["new_buildings"]
            board.position_id = self._position_id
            board.phase = phase
            board.player = self._player_shown()
            board.players = {
                p: {
                    "label": self._label(p),
                    "kind": "bot" if self._bot is not None and p != self.human else "human",
                }
                for p in PLAYERS
            }
            board.legal_edges = legal
            board.first_edge = edge_key(self._first) if self._first else ""
            board.second_edges = seconds
            board.staged = edge_keys(self._staged or ())
            board.removable = (
                [hex_key(h) for h in game.removable_houses()] if phase == "remove" else []
            )
            board.can_undo = self.practice and self._replay is None and self._undo_count() > 0
            board.can_pass = phase == "lines" and not legal
            board.prompt = self._prompt(legal)
        self.replay_bar.show(
            None if self._replay is None else len(game.move_stack), len(self._replay or [])
        )
        if self._score_wait is None:
            self._show_score(game)
        else:
            self._show_score(self._score_wait[1])

    def _player_shown(self: StreetcarLab) -> str:
        """Whose colour the turn box shows: the player to move, or the sole winner at the end
        ("" for a shared win)."""
        outcome = self._game.outcome()
        if outcome is None:
            return self._game.current_player
        return outcome.winner or ""

    def _show_score(self: StreetcarLab, game: Game) -> None:
        self.score.update(
            game.score_breakdown(),
            game.outcome(),
            game.standings(),
            labels={p: self._label(p) for p in PLAYERS},
            per_line=game.rules.penalty,
        )

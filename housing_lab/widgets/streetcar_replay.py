"""Save, load and replay for the Streetcar lab (a mixin of `StreetcarLab`).

A loaded record is replayed by the engine first (every move checked), then shown from its first
move; stepping pushes and pops the engine's own moves, so every position shown is the engine's.
"Play on from here" drops the later moves and gives the game back to the students (and the bot).
"""

from __future__ import annotations

import contextlib
import json
import pathlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from housing_lab.errors import HousingLabError
from housing_lab.streetcar import PLAYERS, replay

if TYPE_CHECKING:
    from housing_lab.widgets.streetcar_lab import StreetcarLab

Source = Mapping[str, Any] | str | pathlib.Path


class ReplayMixin:
    """`save`, `load_record`, `start_replay`, `replay_to` / `replay_step` / `replay_back` and
    `play_from_here`; the lab provides the game, the board and `_start`."""

    def save(self: StreetcarLab, path: str | pathlib.Path | None = None) -> dict[str, Any]:
        """The record (as `record`); also written as JSON to `path` when given."""
        data = self.record
        if path is not None:
            pathlib.Path(path).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        return data

    def load_record(self: StreetcarLab, source: Source) -> None:
        """Load a RULES.md record (a dict, JSON text or a file path) to replay it move by move.

        The engine replays it first, checking every move; a refused record changes nothing.
        """
        with self._refused_on_board():
            data = read_source(source)
            game = replay(data, require_complete=False)
        moves = game.move_stack
        while game.move_stack:
            game.pop()
        self._start(
            self._setup_from(game),
            f"Game loaded: {len(moves)} moves. Step through it, or play on from any move.",
            replay_moves=moves,
        )

    def start_replay(self: StreetcarLab) -> None:
        """Replay the game played so far from its first move."""
        moves = self._replay if self._replay is not None else self._game.move_stack
        game = self._game.copy()
        while game.move_stack:
            game.pop()
        self._start(
            self._setup_from(game), f"Replaying this game: {len(moves)} moves.", replay_moves=moves
        )

    @property
    def replay_index(self: StreetcarLab) -> int | None:
        """Moves shown while replaying (None when not replaying)."""
        return None if self._replay is None else len(self._game.move_stack)

    def replay_to(self: StreetcarLab, index: int) -> None:
        """Show the position after `index` moves of the loaded game."""
        with self._refused_on_board():
            if self._replay is None:
                raise HousingLabError("no game to replay: load a record first")
            if not 0 <= index <= len(self._replay):
                raise HousingLabError(f"move {index} is not in this game (0-{len(self._replay)})")
        game = self._game
        while len(game.move_stack) > index:
            game.pop()
        while len(game.move_stack) < index:
            game.push(self._replay[len(game.move_stack)])
        last = game.peek()
        if last is None:
            self._show("The start of the game.")
        else:
            self._show(f"Move {index}: {PLAYERS[(index - 1) % 2]} played {last}.")

    def replay_step(self: StreetcarLab) -> None:
        self.replay_to(min((self.replay_index or 0) + 1, len(self._replay or [])))

    def replay_back(self: StreetcarLab) -> None:
        self.replay_to(max((self.replay_index or 0) - 1, 0))

    def play_from_here(self: StreetcarLab) -> None:
        """Leave the replay and play on from the position shown (later moves are dropped)."""
        if self._replay is None:
            return
        self._replay = None
        with self.board.hold_sync():
            self._bot_reply()
            self._show(
                f"Playing on from move {len(self._game.move_stack)}. {self._whose_turn_sentence()}"
            )

    def _on_replay_action(self: StreetcarLab, action: str) -> None:
        total = len(self._replay or [])
        with contextlib.suppress(HousingLabError):
            if action == "start":
                self.replay_to(0)
            elif action == "back":
                self.replay_back()
            elif action == "step":
                self.replay_step()
            elif action == "end":
                self.replay_to(total)
            elif action == "resume":
                self.play_from_here()

    def _on_upload(self: StreetcarLab, change: dict[str, Any]) -> None:
        files = change["new"]
        if not files:
            return
        content = bytes(files[0]["content"]).decode("utf-8", errors="replace")
        with contextlib.suppress(HousingLabError):
            with self._refused_on_board():
                data = parse_record_json(content)
            self.load_record(data)


def parse_record_json(text: str) -> dict[str, Any]:
    """A record object from JSON text, or a HousingLabError saying what is wrong."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise HousingLabError(
            f"not a game record: malformed JSON ({error.msg} at line {error.lineno})"
        ) from None
    if not isinstance(data, dict):
        raise HousingLabError(f"a game record is a JSON object, not {type(data).__name__}")
    return data


def read_source(source: Source) -> dict[str, Any]:
    """A record from a dict, JSON text or a file path (a missing file is a HousingLabError)."""
    if isinstance(source, Mapping):
        return dict(source)
    if isinstance(source, str) and source.lstrip().startswith("{"):
        return parse_record_json(source)
    try:
        text = pathlib.Path(source).read_text(encoding="utf-8")
    except OSError as error:
        raise HousingLabError(f"cannot read {source}: {error.strerror}") from None
    return parse_record_json(text)

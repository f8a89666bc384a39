"""The Streetcar board of a room page: the shared board, and the turn of the team to move.

A room's store sends each page a view, not an engine `Game`; Streetcar has no hidden
information, so the view holds the whole position (houses, buildings, lines and removals per
team, the turn). `game_from_view` rebuilds the engine's position from it
(`Game.from_position`), and the board's traits come from the same pure function as in
StreetcarLab (`board_traits` of `widgets/streetcar/view.py`), so legal first lines, their
partners and the removable houses are the engine's, never re-derived here.

The team to move plays as in StreetcarLab: two lines (held by a `TurnStager`, checked by the
engine), then a house; the whole turn goes to the store as one `act`. Everyone else sees the
board read-only. A refusal is one line on the board (the engine's or the store's words).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from housing_lab.errors import HousingLabError
from housing_lab.streetcar import Game, Move, Rules
from housing_lab.streetcar.board import edge_json, hex_json
from housing_lab.widgets.streetcar.board import (
    StreetcarBoard,
    TurnStager,
    edge_key,
    edge_keys,
    hex_key,
    parse_edge_key,
    parse_hex_key,
)
from housing_lab.widgets.streetcar.places import place_names, row_labels
from housing_lab.widgets.streetcar.view import board_traits

Send = Callable[[dict[str, Any]], str | None]  # sends an action; returns a refusal or None


def game_from_view(view: dict[str, Any], options: dict[str, Any]) -> Game:
    """The engine's position of a Streetcar room view (the room's rules from its options)."""
    team_player = view["players"]  # team -> colour
    board = view["board"]
    rules = Rules(penalty=options.get("penalty", Rules().penalty), goals=options.get("goals", ()))
    return Game.from_position(
        houses={(q, r): colour for q, r, colour in board["houses"]},
        buildings=board["buildings"],
        lines={team_player[team]: edges for team, edges in board["lines"].items()},
        removed={team_player[team]: counts for team, counts in board["removed"].items()},
        turn=view["turn"],
        rules=rules,
    )


def last_turn(before: Game, after: Game) -> dict[str, Any]:
    """The turn played between two positions one turn apart, as the board highlights it: the
    mover's new lines, the house gone and the buildings placed."""
    player = before.current_player
    lines = set(after.lines[player]) - set(before.lines[player])
    gone = [h for h in before.houses if h not in after.houses]
    placed = {b.hex for b in before.buildings}
    return {
        "move": {
            "player": player,
            "lines": edge_keys(sorted(lines)),
            "remove": hex_key(gone[0]) if gone else None,
        },
        "buildings": [hex_key(b.hex) for b in after.buildings if b.hex not in placed],
    }


class RoomStreetcar:
    """Keeps a `StreetcarBoard` showing the room's position; `send` plays the to-move team's
    finished turn through the store."""

    def __init__(self, send: Send, *, can_play: bool) -> None:
        self.send = send
        self.can_play = can_play  # a team's page (the teacher's page never plays)
        self.board = StreetcarBoard()
        self.board.add_class("hl-classroom-streetcar")
        self.board.on_action = self._on_action
        self.turn = TurnStager()
        self.game: Game | None = None
        self.view: dict[str, Any] | None = None
        self._labels: dict[str, str] = {}
        self._last: dict[str, Any] = {}  # the turn this page saw played, to highlight

    # --- drawing -----------------------------------------------------------------------------
    def show(self, view: dict[str, Any], options: dict[str, Any]) -> None:
        """Draw the room's position; a new position drops a half-drawn turn."""
        game = game_from_view(view, options)
        moved = self.view is None or self.view["seq"] != view["seq"]
        if moved:
            one_turn = self.view is not None and view["seq"] == self.view["seq"] + 1
            self._last = last_turn(self.game, game) if one_turn and self.game else {}
            self.turn.clear()
            self.board.say("")  # a refusal or prompt about the old position no longer holds
        self.view, self.game = view, game
        if not self.board.hexes:
            self.board.hexes = [hex_key(h) for h in game.board.hexes]
            self.board.edges = edge_keys(game.board.edges)
            self.board.names = {hex_key(h): n for h, n in place_names(game.board).items()}
            self.board.rows = {
                letter: [hex_key(h) for h in ends]
                for letter, ends in row_labels(game.board).items()
            }
        self._labels = {player: team for team, player in view["players"].items()}
        self._redraw()

    @property
    def mine(self) -> bool:
        """Whether this page may play now (its team is to move)."""
        return bool(self.can_play and self.view and self.view["moves"]["count"] > 0)

    @property
    def phase(self) -> str:
        assert self.game is not None
        if self.game.is_over():
            return "over"
        if not self.mine:
            return "watch"
        return "lines" if self.turn.staged is None else "remove"

    def _label(self, player: str) -> str:
        return f"{self._labels.get(player, player)} ({player})"

    def _redraw(self) -> None:
        assert self.game is not None and self.view is not None
        phase = self.phase
        traits = board_traits(
            self.game,
            phase="lines" if phase == "watch" else phase,
            first=self.turn.first,
            staged=self.turn.staged,
            label=self._label,
            kind=lambda _player: "human",
            can_undo=False,
            replay_total=0,
        )
        if phase == "watch":  # the board shows the position; no move is offered
            traits.update(legal_edges=[], removable=[], can_pass=False, prompt=self._waiting())
        if self._last:  # a rebuilt position has no move stack: the page's own diff stands in
            traits.update(last_move=self._last["move"], new_buildings=self._last["buildings"])
        with self.board.hold_sync():
            self.board.position_id += 1
            for name, value in traits.items():
                setattr(self.board, name, value)

    def _waiting(self) -> str:
        assert self.game is not None
        who = self._label(self.game.current_player)
        if self.can_play:
            return f"Turn {self.game.turn}: {who} is playing. Your turn comes next."
        return f"Turn {self.game.turn}: {who} is playing."

    # --- what tests read ---------------------------------------------------------------------
    def offered(self) -> dict[str, Any]:
        """The moves this board lets its page play now, as the store's `moves` writes them:
        every line choice the clicks allow (first edge, then a partner; a lone edge when it has
        none; no line when passing) and the houses it offers."""
        if not self.mine:
            return {"line_choices": [], "remove": []}
        game = self.game
        assert game is not None
        choices: set[tuple[str, ...]] = set()
        if self.board.can_pass:
            choices.add(())
        for key in self.board.legal_edges:
            first = parse_edge_key(key)
            partners = game.legal_second_edges(first)
            for second in partners:
                choices.add(tuple(sorted((key, edge_key(second)))))
            if not partners:
                choices.add((key,))
        removable = [hex_json(h) for h in game.removable_houses()] if game.turn > 1 else [None]
        return {
            "line_choices": sorted(choices),
            "remove": sorted(removable, key=lambda h: (h is not None, h or [])),
        }

    # --- clicks ------------------------------------------------------------------------------
    def _on_action(self, message: object) -> None:
        if not isinstance(message, dict):
            return
        kind = message.get("action")
        if kind not in ("edge", "house", "pass_lines", "cancel_lines"):
            return  # hint / undo are the lab's, not a room's
        try:
            if not self.mine:
                raise HousingLabError(self._waiting() if self.can_play else "the teams play here")
            if kind == "edge":
                self.click_edge(message.get("edge"))
            elif kind == "house":
                self.click_house(message.get("hex"))
            elif kind == "pass_lines":
                self._lines([])
            else:
                self.turn.clear()
                self._redraw()
                self.board.say("Lines cancelled: choose again.")
        except HousingLabError as error:
            self.board.say(str(error), "error")

    def click_edge(self, edge: object) -> None:
        """A click on a grid line: choose, pair, drop, or the engine's reason (as in the lab)."""
        assert self.game is not None
        choice = self.turn.choose_edge(self.game, parse_edge_key(edge))
        if choice.lines is not None:
            self._lines(choice.lines)
            return
        self._redraw()
        self.board.say(choice.message, choice.kind)

    def click_house(self, hex: object) -> None:
        """A click on a house: with the lines drawn, the whole turn goes to the store."""
        if self.turn.staged is None:
            raise HousingLabError("First draw your lines, then remove a house.")
        self._play(self.turn.finish(parse_hex_key(hex)))

    def _lines(self, lines: list[Any]) -> None:
        assert self.game is not None
        at_once = self.turn.stage(self.game, lines)
        if at_once is not None:
            self._play(at_once)
            return
        self._redraw()
        self.board.say("Lines drawn. Now click a house to remove.")

    def _play(self, move: Move) -> None:
        action = {
            "lines": [edge_json(edge) for edge in move.lines],
            "remove": None if move.remove is None else hex_json(move.remove),
        }
        refused = self.send(action)
        if refused is not None:
            self.turn.clear()
            self._redraw()
            raise HousingLabError(refused)
        self.board.say("Your turn is played; the other team moves next.")

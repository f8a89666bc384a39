"""Streetcar in a room: two teams, the first plays purple and the second red.

Streetcar has no hidden information, so every view shows the whole board. Only the team whose
turn it is may act, with the engine's action `{"lines": [...], "remove": [q, r] | None}`; the
teacher watches (the room log records each turn with its player, as a game record does).

A turn's legal moves are every legal line choice times every removable house, often thousands,
so a view lists them compactly (docs/rooms.md): `moves` = `{"count", "line_choices", "remove"}`
gives exactly the set `act` accepts (any line choice with any listed house; `remove` is
`[null]` on turn 1), and `legal_actions` spells the moves out only while there are at most
`MAX_LISTED` of them (else it is empty and `legal_actions_complete` is false).
"""

from __future__ import annotations

from typing import Any

from housing_lab.errors import HousingLabError, shown
from housing_lab.rooms.errors import ActionRefused, RoomError
from housing_lab.rooms.games import Clock, Role, RoomGame, RoomInfo
from housing_lab.streetcar.board import edge_json, hex_json
from housing_lab.streetcar.game import Game
from housing_lab.streetcar.moves import Move
from housing_lab.streetcar.rules import PLAYERS, Rules

MAX_LISTED = 200  # moves spelled out in `legal_actions`; the `moves` summary is always exact


class StreetcarRoom(RoomGame):
    name = "streetcar"

    def check_teams(self, teams: object) -> tuple[str, ...]:
        names = super().check_teams(teams)
        if len(names) != len(PLAYERS):
            raise RoomError(f"Streetcar is played by exactly 2 teams, got {len(names)}")
        return names

    def check_options(self, options: object) -> dict[str, Any]:
        options = {} if options is None else options
        if not isinstance(options, dict) or set(options) - {"penalty", "goals"}:
            raise RoomError(
                f"Streetcar options are an object with penalty and goals, got {shown(options)}"
            )
        try:
            rules = _rules(options)
        except HousingLabError as error:
            raise RoomError(f"Streetcar options: {error}") from None
        return {"penalty": rules.penalty, "goals": rules.sorted_goals()}

    def new_game(self, info: RoomInfo) -> Game:
        return Game(seed=info.seed, rules=_rules(info.options))

    def copy(self, game: Game) -> Game:
        return game.copy()

    def phase(self, game: Game) -> str:
        return "over" if game.is_over() else "play"

    def prepare(
        self, game: Game, info: RoomInfo, role: Role, action: object, clock: Clock
    ) -> dict[str, Any]:
        if role.team is None:
            raise ActionRefused("in Streetcar the two teams play; the teacher watches")
        player = PLAYERS[info.teams.index(role.team)]
        move = Move.from_action(action)  # the engine's shape check and message
        if isinstance(action, dict) and action.get("player", player) != player:
            raise ActionRefused(f"{role.team} plays {player}, not {shown(action['player'])}")
        if game.is_over():
            raise ActionRefused("the game is over")
        if player != game.current_player:
            to_move = info.teams[PLAYERS.index(game.current_player)]
            raise ActionRefused(f"it is {to_move}'s turn, not {role.team}'s")
        return move.to_json(player)

    def apply(self, game: Game, action: dict[str, Any]) -> None:
        game.apply(action)

    def view(self, game: Game, info: RoomInfo, role: Role, clock: Clock) -> dict[str, Any]:
        team_of = dict(zip(PLAYERS, info.teams, strict=True))
        over = game.is_over()
        view: dict[str, Any] = {
            "phase": self.phase(game),
            "players": {team: player for player, team in team_of.items()},
            "turn": game.turn,
            "to_move": None if over else team_of[game.current_player],
            "board": {
                "houses": [[h[0], h[1], colour] for h, colour in game.houses.items()],
                "buildings": [building.to_json() for building in game.buildings],
                "lines": {
                    team_of[p]: [edge_json(e) for e in edges] for p, edges in game.lines.items()
                },
                "removed": {team_of[p]: counts for p, counts in game.removed.items()},
                "supply": game.supply,
                "removable": [hex_json(h) for h in game.removable_houses()],
            },
            "scores": {
                "totals": {team_of[p]: total for p, total in game.scores().items()},
                "winners": [team_of[p] for p in game.outcome().winners] if over else [],
            },
        }
        mine = not over and role.team is not None and view["to_move"] == role.team
        view.update(_moves(game) if mine else _no_moves())
        return view

    def export(self, game: Game) -> dict[str, Any]:
        from housing_lab.streetcar.record import to_record

        return to_record(game)


def _rules(options: Any) -> Rules:
    """The engine's rules for the options (`Rules` checks the goals: a list of goal names)."""
    return Rules(penalty=options.get("penalty", Rules().penalty), goals=options.get("goals", ()))


def _moves(game: Game) -> dict[str, Any]:
    """The moves of the team to move: the exact product form, and the list when short."""
    edges, hexes = game.board.edges, game.board.hexes
    choices = [[edge_json(edges[e]) for e in choice] for choice in game.line_choice_ids()]
    removals = [None] if game.turn == 1 else [hex_json(hexes[x]) for x in game.tables().removable]
    count = len(choices) * len(removals)
    listed = count <= MAX_LISTED
    return {
        "moves": {"count": count, "line_choices": choices, "remove": removals},
        "legal_actions": game.legal_actions() if listed else [],
        "legal_actions_complete": listed,
    }


def _no_moves() -> dict[str, Any]:
    return {
        "moves": {"count": 0, "line_choices": [], "remove": []},
        "legal_actions": [],
        "legal_actions_complete": True,
    }

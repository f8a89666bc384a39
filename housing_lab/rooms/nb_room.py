"""North Berkeley in a room: who plays which action, and what the teacher and each team see.

Who may act (the engine then decides whether the rules allow it):

- a team: `place` and `clear` in the building phases, `call_state` once the negotiation timer
  has run out (the room's clock supplies `minutes_elapsed`; a team may not send its own),
  `redraw` and `pick` for itself only (the engine checks that it is its turn);
- the teacher: `advance` (drives the phases), `enact` (the policy decision) and `call_state`
  at any time (the teacher's override of the timer).

Views never carry a hand but the holder's own: the teacher's view (for the projector) holds the
board, the phase, the timer, the face-up draft cards and the final scores once the game is over;
a team's view adds that team's own hand, with each card's current score, and its total.
"""

from __future__ import annotations

import math
from typing import Any

from housing_lab.errors import HousingLabError, shown
from housing_lab.north_berkeley.names import card_name
from housing_lab.north_berkeley.play.actions import check_action
from housing_lab.north_berkeley.play.game import Game
from housing_lab.north_berkeley.play.state import check_players
from housing_lab.north_berkeley.policies import RuleOptions
from housing_lab.rooms.errors import ActionRefused, RoomError
from housing_lab.rooms.games import Clock, Role, RoomGame, RoomInfo

TEAM_KINDS = ("place", "clear", "call_state", "redraw", "pick")
TEACHER_KINDS = ("advance", "enact", "call_state")
OWN_PLAYER_KINDS = ("redraw", "pick")  # the action names its player: a team acts for itself only
BUILDING_PHASES = ("phase1", "phase2")


def timer_minutes(clock: Clock) -> float:
    """Minutes of negotiation so far, rounded down to the millisecond: the value the room
    passes to the engine, so the view's `call_state` and the act agree."""
    return math.floor(clock.minutes_elapsed * 60_000) / 60_000


class NorthBerkeleyRoom(RoomGame):
    name = "north-berkeley"

    def check_teams(self, teams: object) -> tuple[str, ...]:
        names = super().check_teams(teams)
        try:
            check_players(list(names))  # 2-6 players, as the engine deals for
        except HousingLabError as error:
            raise RoomError(f"North Berkeley teams: {error}") from None
        return names

    def check_options(self, options: object) -> dict[str, Any]:
        try:
            return RuleOptions.from_dict(options).to_dict()
        except HousingLabError as error:
            raise RoomError(f"North Berkeley options: {error}") from None

    def new_game(self, info: RoomInfo) -> Game:
        return Game(list(info.teams), info.seed, RuleOptions.from_dict(dict(info.options)))

    def copy(self, game: Game) -> Game:
        return game.clone()

    def phase(self, game: Game) -> str:
        return game.phase

    def prepare(
        self, game: Game, info: RoomInfo, role: Role, action: object, clock: Clock
    ) -> dict[str, Any]:
        if isinstance(action, dict) and action.get("action") in OWN_PLAYER_KINDS and role.team:
            action = {"player": role.team, **action}  # a team's redraw or pick: its own, unsaid
        kind, fields = check_action(action)
        if role.team is None:
            if kind not in TEACHER_KINDS:
                raise ActionRefused(
                    f"the teacher drives the phases and the policy decision; {kind} is a "
                    f"team's action"
                )
            fields.pop("minutes_elapsed", None)  # the teacher may call the state at any time
            return {"action": kind, **fields}
        team = role.team
        if kind not in TEAM_KINDS:
            raise ActionRefused(f"only the teacher may {kind}; {team} cannot")
        if kind in OWN_PLAYER_KINDS:
            player = fields["player"]
            if player != team:
                raise ActionRefused(f"{team} may {kind} only for itself, not for {shown(player)}")
        if kind == "call_state":
            if "minutes_elapsed" in fields:
                raise ActionRefused(
                    "the room's clock times the negotiation: send call_state without "
                    "minutes_elapsed"
                )
            fields["minutes_elapsed"] = timer_minutes(clock)
        return {"action": kind, **fields}

    def apply(self, game: Game, action: dict[str, Any]) -> None:
        game.apply(action)

    def legal_actions(self, game: Game, role: Role, clock: Clock) -> list[dict[str, Any]]:
        """The engine's legal actions that `role` may play now, in the engine's order."""
        allowed = []
        for action in game.legal_actions():
            kind = action["action"]
            if role.team is None:
                ok = kind in TEACHER_KINDS
            elif kind == "call_state":
                ok = timer_minutes(clock) >= game.state.options.negotiation_minutes
            else:
                ok = kind in TEAM_KINDS and action.get("player", role.team) == role.team
            if ok:
                allowed.append(action)
        return allowed

    def view(self, game: Game, info: RoomInfo, role: Role, clock: Clock) -> dict[str, Any]:
        state = game.state
        board = game.scenario().to_dict()
        board.pop("seed", None)
        view: dict[str, Any] = {
            "phase": game.phase,
            "board": board,
            "phase_squares": list(game.phase_squares()),
            "empty_squares": game.empty_squares(),
            "timer": _timer(game, clock),
            "draft": {
                "order": list(state.draft_order),
                "turn": game.draft_turn(),
                "face_up": list(state.draft_pool),
            },
            "policies_drawn": list(state.policies_drawn) if game.phase == "policies" else [],
            "scores": _public_scores(game),
            "legal_actions": self.legal_actions(game, role, clock),
        }
        if role.team is not None:
            view.update(_own_hand(game, role.team))
        return view

    def export(self, game: Game) -> dict[str, Any]:
        return game.to_dict()


def _timer(game: Game, clock: Clock) -> dict[str, float] | None:
    """The negotiation timer of a building phase (None in the other phases)."""
    if game.phase not in BUILDING_PHASES:
        return None
    minutes = game.state.options.negotiation_minutes
    elapsed = max(0.0, clock.now - clock.phase_started_at)
    return {
        "negotiation_minutes": minutes,
        "phase_started_at": clock.phase_started_at,
        "seconds_elapsed": round(elapsed, 1),
        "seconds_left": round(max(0.0, minutes * 60 - elapsed), 1),
    }


def _public_scores(game: Game) -> dict[str, Any] | None:
    """Scores everyone may see: none while hands are secret; totals and winners at the end."""
    if game.phase != "over":
        return None
    scores = game.final_scores()
    return {
        "totals": {team: score.total for team, score in scores.items()},
        "winners": game.winners(),
        "tie_break": game.tie_break_explanation(),
    }


def _own_hand(game: Game, team: str) -> dict[str, Any]:
    """A team's secret part of its view: its hand, each card scored on the board as it
    stands (final scores once the game is over), and its face-up extra-draw card."""
    state = game.state
    score = game.final_scores()[team] if game.phase == "over" else game.current_scores()[team]
    return {
        "hand": [
            {"card": card, "name": card_name(card), **score.cards[card].to_dict()}
            for card in state.hands[team]
        ],
        "score": score.total,
        "extra_card": state.extra.get(team),
    }

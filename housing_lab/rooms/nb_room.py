"""North Berkeley in a room: who plays which action, and what the teacher and each team see.

Who may act (the engine then decides whether the rules allow it):

- a team: `place` and `clear` in the building phases, `call_state` once the negotiation timer
  has run out (the room's clock supplies `minutes_elapsed`; a team may not send its own),
  `redraw` and `pick` for itself only (the engine checks that it is its turn);
- the teacher: `start_timer` (starts phase 1's negotiation timer), `advance` (drives the
  phases), `enact` (the policy decision, which starts phase 2 and its timer), `call_state`
  at any time (the teacher's override of the timer) and, once the game is over,
  `movein_step` (the step of the move-in the projector shows, which every page follows).

The negotiation timer of a building phase starts when the teacher starts the phase (phase 1:
`start_timer`, a room action the engine never sees; phase 2: the teacher's `enact`), not when
the room is created, and stops when the state is called. With `negotiation_minutes` 0 there is
no timer to start. The room keeps the timer's state beside the engine game (`TimedGame`); it is
part of the room's phase name, so the store restarts its clock when the timer starts.

Until the game is over, views never carry a hand but the holder's own: the teacher's view (for
the projector) holds the board, the phase, the timer and the face-up draft cards; a team's view
adds that team's own hand, with each card's current score and where the board stands on its
conditions in words, and its total. Once the game is over
every view holds the final scores and every team's cards face up, each with its score.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from housing_lab.errors import HousingLabError, shown
from housing_lab.north_berkeley.card_standing import card_standing
from housing_lab.north_berkeley.engine.facts import BoardFacts
from housing_lab.north_berkeley.engine.movein import WAVES
from housing_lab.north_berkeley.names import card_name
from housing_lab.north_berkeley.play.actions import check_action
from housing_lab.north_berkeley.play.game import Game
from housing_lab.north_berkeley.play.state import check_players
from housing_lab.north_berkeley.policies import RuleOptions
from housing_lab.rooms.errors import ActionRefused, RoomError
from housing_lab.rooms.games import Clock, Role, RoomGame, RoomInfo

TEAM_KINDS = ("place", "clear", "call_state", "redraw", "pick")
START_TIMER = "start_timer"  # a room action: the engine's log never has it
# The projector's step through the move-in once the game is over (0: before it, one per wave,
# then the final scores): a room action too, so every team page shows the step the projector
# shows and no phone shows the scores before the teacher does.
MOVEIN_STEP = "movein_step"
LAST_MOVEIN_STEP = len(WAVES) + 1  # the final scores
ROOM_KINDS = (START_TIMER, MOVEIN_STEP)
TEACHER_KINDS = (START_TIMER, "advance", "enact", "call_state")
OWN_PLAYER_KINDS = ("redraw", "pick")  # the action names its player: a team acts for itself only
BUILDING_PHASES = ("phase1", "phase2")
WAITING, RUNNING, STOPPED = "waiting", "running", "stopped"


@dataclass
class TimedGame:
    """The engine game and its negotiation timer: `waiting` for the teacher, `running`, or
    `stopped` (the state was called) in the current building phase; once the game is over,
    the move-in step the projector shows (`movein_step`)."""

    game: Game
    timer: str = WAITING
    movein_step: int = 0


def engine_actions(actions: list[Any]) -> list[Any]:
    """A room's logged actions without the room's own (`start_timer`, `movein_step`): what
    `Game.from_actions` replays."""
    return [a for a in actions if not (isinstance(a, dict) and a.get("action") in ROOM_KINDS)]


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

    def new_game(self, info: RoomInfo) -> TimedGame:
        game = Game(list(info.teams), info.seed, RuleOptions.from_dict(dict(info.options)))
        return TimedGame(game, RUNNING if not game.state.options.negotiation_minutes else WAITING)

    def copy(self, game: TimedGame) -> TimedGame:
        return TimedGame(game.game.clone(), game.timer, game.movein_step)

    def phase(self, game: TimedGame) -> str:
        phase = game.game.phase
        return f"{phase}:{game.timer}" if phase in BUILDING_PHASES else phase

    def prepare(
        self, game: TimedGame, info: RoomInfo, role: Role, action: object, clock: Clock
    ) -> dict[str, Any]:
        if isinstance(action, dict) and action.get("action") == START_TIMER:
            if role.team is not None:
                raise ActionRefused(f"only the teacher may start the timer; {role.team} cannot")
            return {"action": START_TIMER}
        if isinstance(action, dict) and action.get("action") == MOVEIN_STEP:
            if role.team is not None:
                raise ActionRefused(f"the projector steps through the move-in; {role.team} cannot")
            step = action.get("step")
            if isinstance(step, bool) or not isinstance(step, int):
                raise ActionRefused(f"a move-in step is a whole number, not {shown(step)}")
            if not 0 <= step <= LAST_MOVEIN_STEP:
                raise ActionRefused(
                    f"a move-in step is 0 to {LAST_MOVEIN_STEP} (the final scores), not {step}"
                )
            return {"action": MOVEIN_STEP, "step": step}
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
            if game.timer == WAITING:
                raise ActionRefused(
                    "the negotiation timer has not started: the teacher starts the phase"
                )
            minutes = game.game.state.options.negotiation_minutes
            fields["minutes_elapsed"] = minutes if game.timer == STOPPED else timer_minutes(clock)
        return {"action": kind, **fields}

    def apply(self, game: TimedGame, action: dict[str, Any]) -> None:
        if action.get("action") == MOVEIN_STEP:
            if game.game.phase != "over":
                raise ActionRefused("the move-in is shown once the game is over")
            game.movein_step = action["step"]
            return
        if action.get("action") == START_TIMER:
            if game.game.phase not in BUILDING_PHASES or game.timer != WAITING:
                raise ActionRefused(_no_start(game))
            game.timer = RUNNING
            return
        before = game.game.phase
        game.game.apply(action)
        if action.get("action") == "call_state":
            game.timer = STOPPED
        elif game.game.phase != before and game.game.phase in BUILDING_PHASES:
            game.timer = RUNNING  # phase 2 starts with the teacher's enact, its timer with it

    def legal_actions(self, game: TimedGame, role: Role, clock: Clock) -> list[dict[str, Any]]:
        """The engine's legal actions that `role` may play now, in the engine's order (the
        teacher's `start_timer` first, while phase 1's timer waits)."""
        allowed = []
        if role.team is None and game.game.phase in BUILDING_PHASES and game.timer == WAITING:
            allowed.append({"action": START_TIMER})
        for action in game.game.legal_actions():
            kind = action["action"]
            if role.team is None:
                ok = kind in TEACHER_KINDS
            elif kind == "call_state":
                minutes = game.game.state.options.negotiation_minutes
                ok = game.timer == STOPPED or (
                    game.timer == RUNNING and timer_minutes(clock) >= minutes
                )
            else:
                ok = kind in TEAM_KINDS and action.get("player", role.team) == role.team
            if ok:
                allowed.append(action)
        return allowed

    def view(self, timed: TimedGame, info: RoomInfo, role: Role, clock: Clock) -> dict[str, Any]:
        game = timed.game
        state = game.state
        board = game.scenario().to_dict()
        board.pop("seed", None)
        view: dict[str, Any] = {
            "phase": game.phase,
            "board": board,
            "phase_squares": list(game.phase_squares()),
            "empty_squares": game.empty_squares(),
            "timer": _timer(timed, clock),
            "refused": game.refusals(),
            "draft": {
                "order": list(state.draft_order),
                "turn": game.draft_turn(),
                "face_up": list(state.draft_pool),
            },
            "policies_drawn": list(state.policies_drawn) if game.phase == "policies" else [],
            "scores": _public_scores(game),
            # the step the projector shows (None until the game is over)
            "movein": (
                {"step": timed.movein_step, "last": LAST_MOVEIN_STEP}
                if game.phase == "over"
                else None
            ),
            "legal_actions": self.legal_actions(timed, role, clock),
        }
        if role.team is not None:
            view.update(_own_hand(game, role.team))
        return view

    def export(self, game: TimedGame) -> dict[str, Any]:
        return game.game.to_dict()


def _no_start(game: TimedGame) -> str:
    if game.game.phase not in BUILDING_PHASES:
        return "the negotiation timer belongs to phase 1 and phase 2"
    return "the state was called in this phase" if game.timer == STOPPED else "it is running"


def _timer(timed: TimedGame, clock: Clock) -> dict[str, Any] | None:
    """The negotiation timer of a building phase (None in the other phases): `state` waiting
    (full time left), running, or stopped (no time left: the state was called)."""
    game = timed.game
    if game.phase not in BUILDING_PHASES:
        return None
    minutes = game.state.options.negotiation_minutes
    elapsed = max(0.0, clock.now - clock.phase_started_at) if timed.timer == RUNNING else 0.0
    if timed.timer == STOPPED:
        elapsed = minutes * 60
    return {
        "state": timed.timer,
        "negotiation_minutes": minutes,
        "phase_started_at": clock.phase_started_at,
        "seconds_elapsed": round(elapsed, 1),
        "seconds_left": round(max(0.0, minutes * 60 - elapsed), 1),
    }


def _public_scores(game: Game) -> dict[str, Any] | None:
    """Scores everyone may see: none while hands are secret; at the end totals, winners and
    every team's cards face up, each with its score, as at a real table (docs/rooms.md)."""
    if game.phase != "over":
        return None
    scores = game.final_scores()
    facts = game.result().facts
    return {
        "totals": {team: score.total for team, score in scores.items()},
        "reasons": {team: _score_counts(score.cards) for team, score in scores.items()},
        "cards": {team: _scored_cards(game, team, score, facts) for team, score in scores.items()},
        "winners": game.winners(),
        "tie_break": game.tie_break_explanation(),
    }


def _score_counts(card_scores: Any) -> dict[str, int]:
    """How many of a team's cards scored +1, -1 and 0: the public reason for its total (which
    cards they were stays secret)."""
    values = [score.score for score in card_scores.values()]
    return {
        "plus": sum(v > 0 for v in values),
        "minus": sum(v < 0 for v in values),
        "zero": sum(v == 0 for v in values),
    }


def _scored_cards(game: Game, team: str, score: Any, facts: BoardFacts) -> list[dict[str, Any]]:
    """A team's hand, each card with its name, its score on the board (`score`) and where the
    board (`facts`) stands on its conditions, in words (`standing`: the engine's
    `card_standing`, "+1 now: ...; −1 if ...")."""
    return [
        {
            "card": card,
            "name": card_name(card),
            **score.cards[card].to_dict(),
            "standing": card_standing(card, facts).to_dict(),
        }
        for card in game.state.hands[team]
    ]


def _own_hand(game: Game, team: str) -> dict[str, Any]:
    """A team's secret part of its view: its hand, each card scored on the board as it
    stands (final scores once the game is over), and its face-up extra-draw card."""
    state = game.state
    over = game.phase == "over"
    score = game.final_scores()[team] if over else game.current_scores()[team]
    facts = game.result().facts if over else game.current_facts()
    return {
        "hand": _scored_cards(game, team, score, facts),
        "score": score.total,
        "extra_card": state.extra.get(team),
    }

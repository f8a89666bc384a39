"""The game table's coach: "How could the Urbanists win? Put a Park on C1 (1 change)".

The answer is the exact coach's (`north_berkeley.coaching`) on the board as it stands; the words
are those of `north_berkeley/coaching/words.py`. What the table adds is the game around it:
whose cards may be coached (a hidden hand only once revealed) and which suggestions the table
may play now. A suggestion is played only as engine actions (`place`/`clear` on the squares of
the current phase) that the engine's `Board` accepts in turn (`Board.first_refusal`): the
engine decides, and a policy change is advice only (policies are decided in the policy step,
not at the table).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from housing_lab.errors import shown
from housing_lab.north_berkeley.board import Board
from housing_lab.north_berkeley.coaching.exact import GOALS, Change, coach
from housing_lab.north_berkeley.coaching.exact import best_change_for_hand as hand_coach
from housing_lab.north_berkeley.coaching.words import coach_sentence, hand_sentence
from housing_lab.north_berkeley.constituents import cards
from housing_lab.north_berkeley.errors import IllegalActionError, ScenarioFormatError
from housing_lab.north_berkeley.play.game import Game
from housing_lab.north_berkeley.rules import cards_dealt

COACH_STAGES = ("phase1", "phase2", "scoring")


@dataclass(frozen=True)
class TableAdvice:
    """One question to the coach and its answer, as the table shows it.

    `actions`: the engine actions that play the suggestion now (None: advice only, `note`
    says why); `asked_at`: the game's log length when asked (a later action makes it stale).
    """

    team: str
    card: str | None  # None: the whole hand
    goal: str
    sentence: str
    changes: tuple[Change, ...]
    actions: tuple[dict[str, Any], ...] | None
    note: str
    asked_at: int
    answer: Any  # the coach's CoachAnswer or HandAdvice

    def to_view(self) -> dict[str, Any]:
        return {
            "team": self.team,
            "card": self.card,
            "card_name": None if self.card is None else cards()[self.card].name,
            "goal": self.goal,
            "sentence": self.sentence,
            "can_apply": self.actions is not None and bool(self.actions),
            "note": self.note,
        }


def visible_cards(game: Game, team: str, hidden: bool, revealed: str | None, stage: str) -> list:
    """The team's cards on screen now: a hidden hand shows only its face-up (extra, drafted)
    cards until revealed; at the scores every card is shown."""
    hand = list(game.state.hands[team])
    if not hidden or revealed == team or stage == "scoring":
        return hand
    return hand[cards_dealt(len(game.players)) :]


def check_question(
    game: Game,
    stage: str,
    team: object,
    card: object,
    goal: object,
    hidden: bool,
    revealed: str | None,
) -> tuple[str, str | None, str]:
    """Refuse, in one line, what the table must not coach (before the coach runs)."""
    if not isinstance(team, str):
        raise ScenarioFormatError(f"team must be text, got {type(team).__name__} {shown(team)}")
    if card is not None and not isinstance(card, str):
        raise ScenarioFormatError(
            f"card must be a card id or None, got {type(card).__name__} {shown(card)}"
        )
    if goal not in GOALS:
        raise ScenarioFormatError(f"unknown goal {shown(goal)} (goals: {', '.join(GOALS)})")
    if team not in game.players:
        raise IllegalActionError(f"unknown team {shown(team)} (teams: {', '.join(game.players)})")
    if stage not in COACH_STAGES:
        raise IllegalActionError(
            "the coach answers during the building phases and at the final scores, "
            f"not at {stage.replace('_', ' ')}"
        )
    hand = game.state.hands[team]
    shown_cards = visible_cards(game, team, hidden, revealed, stage)
    hidden_now = len(shown_cards) < len(hand)
    if card is None and hidden_now:
        raise IllegalActionError(f"{team}'s hand is hidden: show {team}'s cards first")
    if card is not None and card not in shown_cards:
        if hidden_now:  # one refusal for every card not on screen: no question reads the hand
            raise IllegalActionError(
                f"{team}'s starting cards are hidden: only the cards on screen can be coached "
                f"(show {team}'s cards first)"
            )
        raise IllegalActionError(f"{_card_words(card)} is not in {team}'s hand")
    return team, card, str(goal)


def _card_words(card: str) -> str:
    """A card as students read it: its printed name, or the unknown id shortened."""
    known = cards().get(card)
    return known.name if known is not None else shown(card)


def ask(game: Game, stage: str, team: str, card: str | None, goal: str) -> TableAdvice:
    """The coach's answer on the board as it stands (with the game's rule options)."""
    scenario = game.scenario()
    options = game.state.options
    if card is None:
        advice = hand_coach(scenario, game.state.hands[team], options=options)
        changes: tuple[Change, ...] = () if advice.change is None else (advice.change,)
        sentence, answer = hand_sentence(advice), advice
    else:
        found = coach(scenario, card, goal, options=options)
        changes = found.changes or ()
        sentence, answer = coach_sentence(found), found
    actions, note = playable(game, stage, changes)
    return TableAdvice(
        team, card, goal, sentence, changes, actions, note, len(game.state.log), answer
    )


def playable(
    game: Game, stage: str, changes: tuple[Change, ...]
) -> tuple[tuple[dict[str, Any], ...] | None, str]:
    """The engine actions that play `changes` now, or None and why not (advice only)."""
    if not changes:
        return None, ""
    if stage not in ("phase1", "phase2"):
        return None, "Advice only: the board is final."
    if any(c.policy is not None for c in changes):
        return None, "Advice only: policies are chosen in the policy step, not on the board."
    squares = game.phase_squares()
    outside = [str(c.square) for c in changes if c.square not in squares]
    if outside:
        where = outside[0] if len(outside) == 1 else ", ".join(outside[:-1]) + " and " + outside[-1]
        squares_word = "is not a square" if len(outside) == 1 else "are not squares"
        return None, f"Advice only: {where} {squares_word} of this phase."
    actions = tuple(
        {"action": "place", "square": c.square, "tile": c.tile}
        if c.tile is not None
        else {"action": "clear", "square": c.square}
        for c in changes
    )
    reason = Board.from_scenario(game.scenario()).first_refusal(actions)
    if reason is not None:
        return None, f"Advice only: the rules refuse it now ({reason.words})."
    return actions, ""

"""The coach's answers in words, for students: names as printed, never ids.

    "How could the Urbanists win? Put a Park on C1 (1 change)."
    "How could the Bike Lobby win? Put a Market Rate Tower on C1 and A3 (2 changes)."
    "How could Save Our Parking avoid losing? No change needed: the card already scores 0 or
    more."

The widgets show these sentences; the engine answers (`coach.CoachAnswer`, `coach.HandAdvice`)
carry the ids.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from housing_lab.north_berkeley.names import card_name, policy_name, tile_name
from housing_lab.north_berkeley.tiles import Catalogue, default_catalogue

if TYPE_CHECKING:
    from housing_lab.north_berkeley.coaching.answers import Change, CoachAnswer, HandAdvice

# Cards named after a slogan or a people read without "the" ("How could Save Our Parking win?");
# the others are groups ("How could the Urbanists win?").
NO_ARTICLE = frozenset(
    {
        "refuse_capitalism",
        "property_values",
        "more_parks",
        "stop_the_shadows",
        "save_our_views",
        "inclusionary_for_all",
        "save_our_parking",
    }
)
GOAL_WORDS = {"win": "win", "no-loss": "avoid losing"}
GOAL_DONE = {"win": "the card already scores +1", "no-loss": "the card already scores 0 or more"}


def subject(card: str) -> str:
    """The card as the subject of a sentence: "the Urbanists", "Save Our Parking"."""
    name = card_name(card)
    if name.startswith("The "):
        return "the " + name[4:]
    return name if card in NO_ARTICLE else f"the {name}"


def question(card: str, goal: str) -> str:
    """ "How could the Urbanists win?" """
    return f"How could {subject(card)} {GOAL_WORDS[goal]}?"


def _article(name: str) -> str:
    return "an" if name[:1].lower() in "aeiou" else "a"


def change_words(change: Change, catalogue: Catalogue | None = None) -> str:
    """ "Put a Park on C1", "Clear C1", "Enact Accessory Dwelling Units"."""
    if change.policy is not None:
        verb = "Enact" if change.enacted else "Repeal"
        return f"{verb} {policy_name(change.policy)}"
    if change.tile is None:
        return f"Clear {change.square}"
    name = tile_name(change.tile, catalogue if catalogue is not None else default_catalogue())
    return f"Put {_article(name)} {name} on {change.square}"


def _listed(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def changes_words(changes: Sequence[Change], catalogue: Catalogue | None = None) -> str:
    """ "Put a Market Rate Tower on A1 and B1; enact Vacancy Control (3 changes)": changes of
    the same kind (one tile, clearing) said once with their squares, in the answer's order."""
    groups: dict[tuple[str, str | None], list[Change]] = {}
    for change in changes:
        kind = ("policy", change.policy) if change.policy is not None else ("tile", change.tile)
        groups.setdefault(kind, []).append(change)
    phrases = []
    for (kind, _), members in groups.items():
        if kind == "policy":
            phrases.append(change_words(members[0], catalogue))
        else:
            first = change_words(members[0], catalogue)
            squares = _listed([str(c.square) for c in members])
            phrases.append(first[: first.rindex(str(members[0].square))] + squares)
    phrases = phrases[:1] + [p[:1].lower() + p[1:] for p in phrases[1:]]
    joined = "; ".join(phrases) if len(groups) < len(changes) else _listed(phrases)
    count = len(changes)
    return f"{joined} ({count} change{'' if count == 1 else 's'})"


def unreachable_reason(card: str, goal: str, budget: str | None = None) -> str:
    """Why no set of changes can do it: only the residents already here are fixed (and the
    city budget, `budget` in words such as "$10", when the model has one)."""
    wanted = "a +1 without a -1" if goal == "win" else "a score of at least 0"
    within = "" if budget is None else f" within the city budget of {budget}"
    return (
        f"no board and no set of policies gives {subject(card)} {wanted} "
        f"with the residents who live here now{within}"
    )


def coach_sentence(answer: CoachAnswer, catalogue: Catalogue | None = None) -> str:
    """The question and its answer: "How could the Urbanists win? Put a Park on C1 (1
    change)." """
    asked = question(answer.card, answer.goal)
    if answer.changes is None:
        return f"{asked} It cannot: {answer.reason}."
    if not answer.changes:
        return f"{asked} No change needed: {GOAL_DONE[answer.goal]}."
    return f"{asked} {changes_words(answer.changes, catalogue)}."


def no_better_change(now: int) -> str:
    return f"no single change raises the hand's total above {now}"


def hand_sentence(advice: HandAdvice, catalogue: Catalogue | None = None) -> str:
    """ "The change that helps this hand most: put a Park on C1 (its total goes from 1 to
    3)." """
    if advice.change is None:
        return f"No single change raises this hand's total (now {advice.now})."
    step = change_words(advice.change, catalogue)
    step = step[:1].lower() + step[1:]
    return (
        f"The change that helps this hand most: {step} "
        f"(its total goes from {advice.now} to {advice.after})."
    )

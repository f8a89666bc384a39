"""Streetcar's score and turns in the words a student reads (issue 26): each term of the score
named, one minus sign, turns counted as the players count them, the tie-break without jargon.

Everything here words numbers the engine computed (`ScoreBreakdown`, `Outcome`); nothing is
added up again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from housing_lab.streetcar import PLAYERS, Outcome, ScoreBreakdown
from housing_lab.widgets.common import signed

Label = Callable[[str], str]
# What the rulebook's "best single-colour product" is, said to a student.
BEST_COLOUR = "the most points from one colour"
# The bots as students meet them: the engine's names, but the search bot is not "mcts".
BOT_WORDS = {"mcts": "search"}


def bot_words(name: str) -> str:
    """A bot's name on screen: "greedy", "random", "search" (the engine's `mcts`)."""
    return BOT_WORDS.get(name, name)


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def turn_words(turn: int, label: Label) -> str:
    """The game's turn with the player's own count: "Turn 3 · Purple (you) · 2nd turn"
    (purple plays turns 1, 3, 5...; red 2, 4, 6...), so a player who only sees their own
    turns is not lost when the count jumps from 1 to 3."""
    player = PLAYERS[(turn - 1) % len(PLAYERS)]
    own = (turn + len(PLAYERS) - 1) // len(PLAYERS)
    # the label first: in a room a team's name differs from its colour ("Blue (red)")
    return f"Turn {turn} · {label(player)} · {ordinal(own)} turn"


def lines_words(lines: int, per_line: int) -> str:
    """ "1 separate line × −10 = −10" in words: "1 separate line costs −10"."""
    noun = "separate line" if lines == 1 else "separate lines"
    return f"{lines} {noun} × {signed(-per_line)} = {signed(-lines * per_line)}"


def score_terms(item: ScoreBreakdown, per_line: int, name: str) -> str:
    """One player's score term by term: "Purple −10: colours 0 (no house removed yet);
    1 separate line × −10 = −10"."""
    colours = sum(item.products.values())
    if not any(item.removed.values()):
        colour_part = "colours 0 (no house removed yet)"
    else:
        parts = [
            f"{colour} {item.removed[colour]} × {item.connected_cubes[colour]}"
            for colour in item.products
            if item.removed[colour]
        ]
        colour_part = f"colours {colours} ({', '.join(parts)})"
    goals = sum(item.goals.values())
    goal_part = f"; goals +{goals}" if goals else ""
    return (
        f"{name} {signed(item.total)}: {colour_part}; "
        f"{lines_words(item.lines, per_line)}{goal_part}"
    )


def why_negative(items: Mapping[str, ScoreBreakdown], per_line: int) -> str:
    """Why a score is below zero early on (both players show −10 after turn 1 and 2)."""
    if not any(item.lines for item in items.values()):
        return ""
    return (
        f"Each separate line costs {per_line} points, so a player's first line alone makes "
        f"{signed(-per_line)}; removing houses next to your connected buildings earns points "
        "back, and joining your lines into one saves the cost."
    )


def outcome_words(outcome: Outcome, label: Label) -> str:
    """The engine's outcome in words: "purple wins 12 to red −10"; a tie broken on the most
    points from one colour; a shared win."""
    scores, winner = outcome.scores, outcome.winner
    if outcome.decided_by == "score" and winner is not None:
        others = ", ".join(f"{label(p)} {signed(scores[p])}" for p in PLAYERS if p != winner)
        return f"{label(winner)} wins {signed(scores[winner])} to {others}"
    top = signed(max(scores.values()))
    best = outcome.best_products
    if outcome.decided_by == "best_product" and winner is not None:
        tied = [p for p in PLAYERS if p != winner and scores[p] == scores[winner]]
        rest = ", ".join(f"{label(p)} {best[p]}" for p in tied)
        return f"tied at {top}; {label(winner)} wins on {BEST_COLOUR}, {best[winner]} to {rest}"
    return f"tied at {top} and on {BEST_COLOUR} ({max(best.values())}): a shared win"

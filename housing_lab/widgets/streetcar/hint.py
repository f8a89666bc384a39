"""A hint in the Streetcar lab: the move a bot would play, shown (never played) with its reason.

The bot is found by name in the engine's registry (`streetcar.play.bots.BOTS`, through
`make_bot`), so any bot registered there (random, greedy, mcts...) can give hints. It is built
fresh with the lab's seed for every hint, so the same position always gets the same hint, and
the hint is exactly `make_bot(name, seed).choose(game)`: what that bot would play here. The
reason is the engine's too (`streetcar.effects.move_effect`: the score before and after, the
buildings the move newly reaches, the house it removes); this module only words it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from housing_lab.errors import HousingLabError, shown
from housing_lab.streetcar import BOTS, Game, Move, ScoreBreakdown, StreetcarError, make_bot
from housing_lab.streetcar.effects import move_effect
from housing_lab.widgets.common import signed
from housing_lab.widgets.streetcar.board import edge_keys, hex_key
from housing_lab.widgets.streetcar.places import (
    BOARD_EDGE,
    building_name,
    describe_lines,
    place_names,
)
from housing_lab.widgets.streetcar.words import bot_words

DEFAULT_HINT_BOT = "greedy"


def score_change_words(before: ScoreBreakdown, after: ScoreBreakdown, per_line: int) -> str:
    """Why a move changes the score, term by term, in the score panel's words: "a new separate
    line costs −10", "joining two lines saves +10", "blue points +6"."""
    parts = []
    for colour, points in after.products.items():
        gained = points - before.products[colour]
        if gained:
            parts.append(f"{colour} points {signed(gained, plus=True)}")
    lines = after.lines - before.lines
    if lines > 0:
        noun = "a new separate line costs" if lines == 1 else f"{lines} new separate lines cost"
        parts.append(f"{noun} {signed(-lines * per_line)}")
    elif lines < 0:
        noun = "two lines" if lines == -1 else f"{1 - lines} lines"
        parts.append(f"joining {noun} into one saves {signed(-lines * per_line, plus=True)}")
    goals = sum(after.goals.values()) - sum(before.goals.values())
    if goals:
        parts.append(f"goals {signed(goals, plus=True)}")
    return ", ".join(parts)


def check_bot_name(name: object, role: str = "") -> str:
    """A registered bot's name, or a StreetcarError naming the bad value and the known ones
    (`role`, e.g. "the opponent", says what the bot was for)."""
    if not isinstance(name, str) or name not in BOTS:
        where = f" for {role}" if role else ""
        raise StreetcarError(f"unknown bot {shown(name)}{where} (known: {', '.join(BOTS)})")
    return name


@dataclass(frozen=True)
class Hint:
    """A suggested move and why: `points` is the change in the player's score, `connects` the
    buildings the move newly connects to the player's lines (named as the board draws them)."""

    bot: str
    player: str
    move: Move
    points: int
    score_after: int
    connects: tuple[str, ...]
    reason: str

    def board_view(self) -> dict[str, Any]:
        """The board's `hint` trait: the lines and the house to highlight."""
        return {
            "player": self.player,
            "lines": edge_keys(self.move.lines),
            "remove": None if self.move.remove is None else hex_key(self.move.remove),
        }


def suggest(game: Game, bot: object = DEFAULT_HINT_BOT, seed: int = 0) -> Hint:
    """What bot `bot` (seeded with `seed`) would play for the player to move, and why."""
    name = check_bot_name(bot)
    if game.is_over():
        raise HousingLabError("the game is over: there is no move to suggest")
    move = make_bot(name, seed).choose(game.copy())
    effect = move_effect(game, move)  # the engine says what the move does; nothing is played
    names = place_names(game.board)
    connects = tuple(
        f"the {'new ' if b.hex in effect.built else ''}{building_name(b)} building at "
        f"{names[b.hex]}"
        for b in effect.newly_connected
    )
    colour = effect.removed_colour
    before, after = effect.before.total, effect.after.total
    cubes = 0 if colour is None else effect.after.connected_cubes[colour]
    why_score = score_change_words(effect.before, effect.after, game.rules.penalty)
    reason = _reason(name, move, colour, names, connects, cubes, before, after, why_score)
    return Hint(name, effect.player, move, effect.points, after, connects, reason)


def _reason(
    name: str,
    move: Move,
    colour: str | None,
    names: dict[Any, str],
    connects: tuple[str, ...],
    cubes: int,
    before: int,
    after: int,
    why_score: str = "",
) -> str:
    steps = f"draw {describe_lines(names, move.lines)}" if move.lines else "draw no line"
    if move.remove is not None:
        steps += f", then remove the {colour} house at {names.get(move.remove, BOARD_EDGE)}"
    if connects:
        joined = connects[0] if len(connects) == 1 else ", ".join(connects[:-1])
        if len(connects) > 1:
            joined += f" and {connects[-1]}"
        why = f"it connects {joined} to your lines"
    else:
        why = "it connects no new building"
    if colour is not None and cubes:
        why += f", and the {colour} house counts for each of your {cubes} connected {colour} cubes"
    change = signed(after - before, plus=True)
    score = f"your score goes from {signed(before)} to {signed(after)} ({change}"
    score += f": {why_score})" if why_score else ")"
    said = f"Hint ({bot_words(name)} bot): {steps}. Why: {why}; {score}."
    return f"{said} Nothing is played until you click."

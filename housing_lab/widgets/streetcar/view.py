"""What the Streetcar lab shows: the sentences on the message line and the board's traits.

Pure functions of the engine's game and the turn being drawn, so the board always shows the
engine's position (plus the staged lines, which are not in the engine yet) and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from housing_lab.streetcar import PLAYERS, Game, Move
from housing_lab.widgets.streetcar.board import edge_key, edge_keys, hex_key, position_view
from housing_lab.widgets.streetcar.places import (
    BOARD_EDGE,
    describe_buildings,
    describe_lines,
    place_names,
)
from housing_lab.widgets.streetcar.words import outcome_words, turn_words

Label = Callable[[str], str]


def describe_move(label: str, move: Move, colour: str | None, game: Game) -> str:
    """One sentence about a move just pushed (game is the position after it), with places
    named as the board labels them (places.py), never coordinates."""
    names = place_names(game.board)
    if move.lines:
        text = f"{label} drew {describe_lines(names, move.lines)}"
        if len(move.lines) == 1:
            text += " (no second line fitted)"
    else:
        text = f"{label} could draw no line"
    if move.remove is not None:
        text += f" and removed the {colour} house at {names.get(move.remove, BOARD_EDGE)}"
        placed = describe_buildings(names, game.last_buildings())
        if placed:
            text += f"; {placed}"
    return text + "."


def describe_last_move(game: Game) -> str:
    """The last move of `game` in words (for the replay), or "" at the start."""
    move = game.peek()
    if move is None:
        return ""
    start = game.initial_houses or {}
    colour = None if move.remove is None else start.get(move.remove)
    return describe_move(PLAYERS[(len(game.move_stack) - 1) % 2].title(), move, colour, game)


def game_over_sentence(game: Game, label: Label = str.title) -> str:
    outcome = game.outcome()
    return f"Game over: {outcome_words(outcome, label)}." if outcome else "Game over."


def whose_turn_sentence(game: Game, label: Label, replaying: bool) -> str:
    """Who plays next ("" while replaying)."""
    if replaying:
        return ""
    if game.is_over():
        return game_over_sentence(game, label)
    return f"{turn_words(game.turn, label)} to play."


def prompt(
    game: Game,
    phase: str,
    label: Label,
    legal: list[str],
    first_chosen: bool,
    replay_total: int,
) -> str:
    """What to do now, in words (the line under the turn box)."""
    if phase == "replay":
        return (
            f"Replay: after move {len(game.move_stack)} of {replay_total}. "
            "Use the replay buttons above the board."
        )
    if phase == "over":
        return game_over_sentence(game, label)
    who = turn_words(game.turn, label)
    if phase == "remove":
        return f"{who}: click a house to remove (not a flipped one with a padlock)."
    if not legal:
        return f"{who}: no line fits anywhere. Press “No line possible”."
    if first_chosen:
        return f"{who}: click a second line touching the first (dotted)."
    if game.turn == 1:
        return f"{who}: click two grid lines that meet (no house is removed on turn 1)."
    return f"{who}: click two grid lines that meet at a corner."


def player_shown(game: Game) -> str:
    """Whose colour the turn box shows: the player to move, or the sole winner at the end
    ("" for a shared win)."""
    outcome = game.outcome()
    if outcome is None:
        return game.current_player
    return outcome.winner or ""


def board_traits(
    game: Game,
    *,
    phase: str,
    first: Any,
    staged: Any,
    label: Label,
    kind: Callable[[str], str],
    can_undo: bool,
    replay_total: int,
) -> dict[str, Any]:
    """Every trait of the board that follows the position (not `position_id`)."""
    view = position_view(game)
    legal = edge_keys(game.legal_edges()) if phase == "lines" else []
    return {
        "houses": view["houses"],
        "flipped": view["flipped"],
        "buildings": view["buildings"],
        "lines": view["lines"],
        "new_buildings": view["new_buildings"],
        "last_move": view["last_move"],
        "line_turns": view["line_turns"],
        "phase": phase,
        "player": player_shown(game),
        "players": {p: {"label": label(p), "kind": kind(p)} for p in PLAYERS},
        "legal_edges": legal,
        "first_edge": edge_key(first) if first else "",
        "second_edges": edge_keys(game.legal_second_edges(first)) if first else [],
        "staged": edge_keys(staged or ()),
        "removable": [hex_key(h) for h in game.removable_houses()] if phase == "remove" else [],
        "can_undo": can_undo,
        "can_pass": phase == "lines" and not legal,
        "prompt": prompt(game, phase, label, legal, first is not None, replay_total),
    }

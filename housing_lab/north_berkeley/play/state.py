"""The plain-data state of a North Berkeley game, and the checks of who plays with what seed.

Kept apart from `game.py` (the rules of each action): the state is what `Game.to_dict` returns
and what `saves.py` compares a version-1 file against after replaying its log.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from housing_lab import numbers
from housing_lab.errors import shown
from housing_lab.north_berkeley.errors import ScenarioFormatError
from housing_lab.north_berkeley.policies import RuleOptions
from housing_lab.north_berkeley.rules import cards_dealt
from housing_lab.team_names import check_name

PHASES = ("phase1", "extra_draw", "draft", "policies", "phase2", "over")
STATE_FORMAT = "housing_lab.north_berkeley.play.game/1"


@dataclass
class GameState:
    """Everything about a game in progress, as plain JSON-friendly data."""

    players: list[str]
    seed: int
    options: RuleOptions
    existing: dict[str, str]
    deck: list[str]  # constituent cards still face down, top first
    policy_deck: list[str]
    phase: str = "phase1"
    tiles: dict[str, str] = field(default_factory=dict)
    policies: list[str] = field(default_factory=list)  # enacted
    hands: dict[str, list[str]] = field(default_factory=dict)
    discard: list[str] = field(default_factory=list)
    extra: dict[str, str] = field(default_factory=dict)  # extra draw: each face-up extra card
    draft_pool: list[str] = field(default_factory=list)
    draft_order: list[str] = field(default_factory=list)
    draft_picks: int = 0
    policies_drawn: list[str] = field(default_factory=list)
    state_calls: int = 0  # how many times the state stepped in (seeds its random tiles)
    log: list[dict[str, Any]] = field(default_factory=list)

    def copy(self) -> GameState:
        """A copy to change freely, made for every action (the engine keeps the state before
        it for undo). Every list and dict is new; what they hold is strings, never changed in
        place, and log records, never changed once written: shared, as the frozen options are.
        About eight times cheaper than `copy.deepcopy` (6 µs to 51 for a finished game)."""
        return replace(
            self,
            players=list(self.players),
            existing=dict(self.existing),
            deck=list(self.deck),
            policy_deck=list(self.policy_deck),
            tiles=dict(self.tiles),
            policies=list(self.policies),
            hands={player: list(hand) for player, hand in self.hands.items()},
            discard=list(self.discard),
            extra=dict(self.extra),
            draft_pool=list(self.draft_pool),
            draft_order=list(self.draft_order),
            policies_drawn=list(self.policies_drawn),
            log=list(self.log),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "players": list(self.players),
            "seed": self.seed,
            "options": self.options.to_dict(),
            "existing": dict(self.existing),
            "deck": list(self.deck),
            "policy_deck": list(self.policy_deck),
            "phase": self.phase,
            "tiles": dict(self.tiles),
            "policies": list(self.policies),
            "hands": {p: list(h) for p, h in self.hands.items()},
            "discard": list(self.discard),
            "extra": dict(self.extra),
            "draft_pool": list(self.draft_pool),
            "draft_order": list(self.draft_order),
            "draft_picks": self.draft_picks,
            "policies_drawn": list(self.policies_drawn),
            "state_calls": self.state_calls,
            "log": copy.deepcopy(self.log),
        }


MAX_PLAYERS_SHOWN = 60  # characters of a bad players value shown in a message


def check_players(players: object) -> list[str]:
    """Player names as the engine takes them: a list of 2-6 distinct names, each one
    `team_names.check_name` takes (printable, 1 to 40 characters, surrounding spaces dropped)."""
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise ScenarioFormatError(
            f"players must be a list of names, got {shown(players, MAX_PLAYERS_SHOWN)}"
        )
    cards_dealt(len(players))  # 2-6, before reading the names: a million names stop here
    names = []
    for player in players:
        name = check_name(player, "a player or team name", error=ScenarioFormatError)
        if name in names:
            raise ScenarioFormatError(f"player name {shown(name)} is used twice")
        names.append(name)
    return names


def check_seed(seed: object, what: str = "seed") -> int:
    """A seed as the engine takes it (`numbers.check_seed`), refused as a format error."""
    return numbers.check_seed(seed, what, error=ScenarioFormatError)

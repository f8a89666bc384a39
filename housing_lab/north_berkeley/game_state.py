"""The plain-data state of a North Berkeley game, and reading it back from saved JSON.

Kept apart from `game.py` (the rules of each action) because saving, resuming and checking a
saved file are one job: every id in a saved game is validated before a `Game` trusts it.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley.constituents import CARD_IDS, check_card
from housing_lab.north_berkeley.errors import ScenarioFormatError
from housing_lab.north_berkeley.layout import Layout
from housing_lab.north_berkeley.policies import RuleOptions, check_policy
from housing_lab.north_berkeley.rules import cards_dealt
from housing_lab.north_berkeley.scenario import check_existing, check_square, check_tile
from housing_lab.north_berkeley.tiles import Catalogue

PHASES = ("phase1", "extra_draw", "draft", "policies", "phase2", "over")
STATE_FORMAT = "housing_lab.north_berkeley.game/1"


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


def check_players(players: Sequence[str]) -> list[str]:
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise ScenarioFormatError(f"players must be a list of names, got {players!r}")
    names = [str(p).strip() for p in players]
    cards_dealt(len(names))
    for name in names:
        if not name:
            raise ScenarioFormatError("a player or team name is empty")
        if names.count(name) > 1:
            raise ScenarioFormatError(f"player name {name!r} is used twice")
    return names


def state_from_dict(data: Any, layout: Layout, catalogue: Catalogue) -> GameState:
    if not isinstance(data, Mapping):
        raise ScenarioFormatError("a saved game must be a JSON object")
    if data.get("format") != STATE_FORMAT:
        raise ScenarioFormatError(
            f"not a saved North Berkeley game: format {data.get('format')!r}, "
            f"expected {STATE_FORMAT!r}"
        )
    try:
        players = check_players(data["players"])
        state = GameState(
            players=players,
            seed=int(data["seed"]),
            options=RuleOptions.from_dict(data.get("options")),
            existing=check_existing(data["existing"], layout),
            deck=[check_card(c) for c in data["deck"]],
            policy_deck=[check_policy(p) for p in data["policy_deck"]],
            phase=str(data["phase"]),
            tiles={
                check_square(s, layout): check_tile(t, catalogue) for s, t in data["tiles"].items()
            },
            policies=[check_policy(p) for p in data["policies"]],
            hands={str(p): [check_card(c) for c in h] for p, h in data["hands"].items()},
            discard=[check_card(c) for c in data["discard"]],
            extra={str(p): check_card(c) for p, c in data["extra"].items()},
            draft_pool=[check_card(c) for c in data["draft_pool"]],
            draft_order=[str(p) for p in data["draft_order"]],
            draft_picks=int(data["draft_picks"]),
            policies_drawn=[check_policy(p) for p in data["policies_drawn"]],
            state_calls=int(data["state_calls"]),
            log=list(data.get("log", [])),
        )
    except HousingLabError:
        raise
    except KeyError as error:
        raise ScenarioFormatError(f"saved game is missing {error}") from None
    except (TypeError, ValueError, AttributeError) as error:
        raise ScenarioFormatError(f"saved game has a malformed value: {error}") from None
    if state.phase not in PHASES:
        raise ScenarioFormatError(f"saved game has unknown phase {state.phase!r}")
    if set(state.hands) != set(players):
        raise ScenarioFormatError(f"saved game hands {sorted(state.hands)} do not match players")
    everything = (
        state.deck + state.discard + state.draft_pool + [c for h in state.hands.values() for c in h]
    )
    if sorted(everything) != sorted(CARD_IDS):
        raise ScenarioFormatError("saved game does not hold each of the 22 cards exactly once")
    return state

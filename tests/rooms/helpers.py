"""Shared by the room tests: playing a whole game through a store, and what is hidden."""

from __future__ import annotations

import json
import random
from typing import Any

from housing_lab.rooms import RoomStore


def tokens_of(room: dict[str, Any]) -> dict[str, str]:
    """Holder -> token: "teacher" and each team name."""
    return {"teacher": room["teacher"]["token"]} | {
        team: ticket["token"] for team, ticket in room["teams"].items()
    }


def play_step(store: RoomStore, room: dict[str, Any], rng: random.Random) -> bool:
    """One seeded random action that moves the game on; False once nobody may act.

    The teacher advances as soon as it may; otherwise a team (or the teacher's policy
    decision) plays one of its listed actions, never a `clear` nor a tile on a full square."""
    holders = tokens_of(room)
    options = []
    for holder, token in holders.items():
        view = store.view(room["room"], token)
        empty = set(view.get("empty_squares", ()))
        for action in view["legal_actions"]:
            if action.get("action") == "clear" or action.get("square", "") not in empty | {""}:
                continue
            options.append((holder, action))
    if not options:
        return False
    advance = [(h, a) for h, a in options if a.get("action") == "advance"]
    holder, action = advance[0] if advance else rng.choice(options)
    store.act(room["room"], holders[holder], action)
    return True


def hidden_cards(export: dict[str, Any], team: str) -> set[str]:
    """Cards in every other team's hand (from the teacher's export of the same moment)."""
    return {card for other, hand in export["hands"].items() if other != team for card in hand}


def mentions(view: dict[str, Any], card: str) -> bool:
    """Whether a card id appears anywhere in a view's JSON, as a whole string."""
    return json.dumps(card) in json.dumps(view)

"""The action vocabulary of a North Berkeley game: small JSON-ready dicts, one per decision.

An action names its kind under `"action"` and carries exactly the fields of that kind, the same
words the game's log uses::

    {"action": "place", "square": "B1", "tile": "tower_market"}
    {"action": "clear", "square": "B1"}
    {"action": "call_state"}                     # optional "minutes_elapsed": 10
    {"action": "advance"}                        # optional "tie_order": ["Blue", "Red"]
    {"action": "redraw", "player": "Red"}
    {"action": "pick", "player": "Red", "card": "developer"}
    {"action": "enact", "policies": ["adu"]}

This module checks only the shape of an action (known kind, the right keys, values of the right
JSON type); whether the rules allow it now is `Game.apply`'s job. The log keeps what an action
did as well (the tiles the state drew, the card a redraw drew); `action_of_record` strips a log
record back to the action that made it, so a log replays.

>>> check_action({"action": "clear", "square": "B1"})
('clear', {'square': 'B1'})
>>> action_of_record({"action": "redraw", "player": "Red", "discarded": "x", "drew": "y"})
{'action': 'redraw', 'player': 'Red'}
>>> action_words({"action": "place", "square": "B1", "tile": "tower_market"})
'placing a tile on B1'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from housing_lab.errors import shown
from housing_lab.north_berkeley.errors import ScenarioFormatError, UnknownIdError

REQUIRED_FIELDS: dict[str, tuple[str, ...]] = {
    "place": ("square", "tile"),
    "clear": ("square",),
    "call_state": (),
    "advance": (),
    "redraw": ("player",),
    "pick": ("player", "card"),
    "enact": ("policies",),
}
OPTIONAL_FIELDS: dict[str, tuple[str, ...]] = {
    "call_state": ("minutes_elapsed",),  # checks the negotiation timer; not kept in the log
    "advance": ("tie_order",),  # who goes first among players tied for the draft
}
ACTION_KINDS = tuple(REQUIRED_FIELDS)
LIST_FIELDS = ("policies", "tie_order")
ACTION_WORDS = {  # an action as a refusal of it names it (its ids are the refusal's to name)
    "place": "placing a tile",
    "clear": "clearing a square",
    "call_state": "calling the state",
    "advance": "moving on to the next step",
    "redraw": "a redraw",
    "pick": "a draft pick",
    "enact": "enacting policies",
}
SAID_WITH = {  # the same with the square or the player it names ("{}")
    "place": ("square", "placing a tile on {}"),
    "clear": ("square", "clearing square {}"),
    "redraw": ("player", "a redraw by {}"),
    "pick": ("player", "a draft pick by {}"),
}
SHORT_TEXT = 40  # characters of a square or team name said as it is

Action = dict[str, Any]


def check_action(action: object) -> tuple[str, dict[str, Any]]:
    """The kind of a well-formed action and its fields; one clear error for anything else."""
    if not isinstance(action, Mapping):
        raise ScenarioFormatError(
            f"an action must be an object like {{'action': ...}}, got {shown(action)}"
        )
    kind = action.get("action")
    if not isinstance(kind, str) or kind not in REQUIRED_FIELDS:  # ["place"] is no kind
        raise UnknownIdError(f"unknown action {shown(kind)} (known: {', '.join(ACTION_KINDS)})")
    required = REQUIRED_FIELDS[kind]
    allowed = {"action", *required, *OPTIONAL_FIELDS.get(kind, ())}
    for key in action:
        if not isinstance(key, str) or key not in allowed:
            raise ScenarioFormatError(
                f"action {kind} has no field {shown(key)} (fields: {', '.join(sorted(allowed))})"
            )
    for key in required:
        if key not in action:
            raise ScenarioFormatError(f"action {kind} needs the field {key!r}")
    fields = {key: value for key, value in action.items() if key != "action"}
    for key, value in fields.items():
        _check_value(kind, key, value)
    return kind, fields


def _check_value(kind: str, key: str, value: object) -> None:
    if key in LIST_FIELDS:
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            raise ScenarioFormatError(
                f"action {kind}: {key} must be a list of ids, got {shown(value)}"
            )
    elif key == "minutes_elapsed":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ScenarioFormatError(f"action {kind}: {key} must be a number, got {shown(value)}")
    elif not isinstance(value, str):
        raise ScenarioFormatError(f"action {kind}: {key} must be an id (text), got {shown(value)}")


def action_words(action: object) -> str:
    """An action in a few words, for a message about it (a saved game's refused action):
    "placing a tile on B1", "a draft pick by Red". Ids are left out (the refusal names the
    tile, card or policy as printed); anything but a known kind of action is shown as it is."""
    kind = action.get("action") if isinstance(action, Mapping) else None
    if not isinstance(kind, str) or kind not in ACTION_WORDS:  # ["place"] is no kind
        return shown(action)
    field, words = SAID_WITH.get(kind, ("", ""))
    if field and field in action:
        return words.format(_said(action[field]))
    return ACTION_WORDS[kind]


def _said(value: object) -> str:
    """A square or a team as a sentence says it: short printable text as it is, else shown."""
    if isinstance(value, str) and value.isprintable() and 0 < len(value) <= SHORT_TEXT:
        return value
    return shown(value, SHORT_TEXT)


def action_of_record(record: Mapping[str, Any]) -> Action | None:
    """The action that made a log record; None for records no action made (setup, draft order)."""
    kind = record.get("action")
    if kind not in REQUIRED_FIELDS:
        return None
    keys = (*REQUIRED_FIELDS[kind], *OPTIONAL_FIELDS.get(kind, ()))
    return {"action": kind, **{key: record[key] for key in keys if key in record}}

"""What the classroom pages say: phase names, button labels and the one-line notices.

Kept apart from the widget so the wording can be read (and changed) in one place; every label
names things as printed on the cards and tiles, never by id.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from housing_lab.north_berkeley.names import card_name, policy_set_name
from housing_lab.rooms.links import KEY_IN_QUERY, NO_KEY  # noqa: F401  (the pages' words)

PHASE_NAMES = {
    "phase1": "Phase 1: build and negotiate",
    "extra_draw": "Extra card: each team may redraw",
    "draft": "Draft: pick a face-up card in turn",
    "policies": "Policy decision",
    "phase2": "Phase 2: build and negotiate",
    "over": "Game over: final scores",
    "play": "Playing",
}
NEXT_PHASE = {
    "phase1": "End phase 1 (extra cards)",
    "extra_draw": "Start the draft",
    "draft": "Go to the policy decision",
    "policies": "Start phase 2",
    "phase2": "End phase 2 (final scores)",
}
PHASE_NUMBER = {"phase1": "phase 1", "phase2": "phase 2"}
NOT_NOW = "no building goes there now"
OPENING = "Opening the room..."
NO_TOKEN = "This link has no room token. Ask the teacher for your team's link."
STREETCAR_YOUR_TURN = (
    "<p class='hl-classroom-yourturn'><b>Your turn:</b> click two grid lines that meet, then a "
    "house to remove.</p>"
)
TEACHER_BOARD_CLICK = "Teams place the tiles from their own devices; the projector only shows."
SHOW_CODES = "Show join codes"
HIDE_CODES = "Hide join codes"
PREVIOUS_CODE = "Previous team"
NEXT_CODE = "Next team"
JOINED = "joined"
NOT_JOINED = "not joined yet"
NO_LINKS_FILE = (
    "This server has no links file for this room: the team links are in the file that "
    "housing-lab classroom saved (it printed its path), or run it with --print-links."
)
NO_LINK_FOR = "The links file has no link for {team}."
MOVEIN_FIRST = (
    "Game over. Watch the move-in step by step (Next move-in step), then show the final scores."
)
SCAN = "Scan or type your team's link"
STORE_LOST = "Cannot reach the room's store just now; trying again"


def joined_html(teams: list[str], joined: list[str]) -> str:
    """The projector's line of who has joined (a team's page opened with its key)."""
    if not teams:
        return ""
    if all(team in joined for team in teams):
        return f"<p><b>All {len(teams)} teams joined.</b></p>"
    marks = "".join(
        f"<span class='hl-classroom-team-joined' data-joined='{str(team in joined).lower()}'>"
        f"{html.escape(team)}: {JOINED if team in joined else NOT_JOINED}</span>"
        for team in teams
    )
    return f"<p><b>Joined:</b> {marks}</p>"


def phase_name(phase: str) -> str:
    return PHASE_NAMES.get(phase, phase)


def now_in(phase: str) -> str:
    """The notice when the room moved to `phase` (by this page's action or another's)."""
    return f"Now: {phase_name(phase)}."


def policies_explained(drawn: list[str]) -> str:
    """The policy decision in words: each drawn policy as printed, with what it does, and the
    choice the table has (one or both; the teacher enacts what the class agrees)."""
    from housing_lab.north_berkeley.policies import POLICY_NAMES, POLICY_TEXT

    items = "".join(
        f"<li><b>{html.escape(POLICY_NAMES[p])}</b>: {html.escape(POLICY_TEXT[p])}</li>"
        for p in drawn
    )
    return (
        f"<p><b>Policies drawn:</b> the class agrees to enact one or both.</p>"
        f"<ul class='hl-classroom-policies'>{items}</ul>"
    )


def chosen(square: str) -> str:
    return f"{square} chosen: pick a building below."


def timer_text(timer: Mapping[str, Any], seconds_left: float) -> str:
    """The status line's timer: waiting for the teacher, counting down, or stopped."""
    state = timer.get("state", "running")
    if state == "waiting":
        full = clock_text(timer["negotiation_minutes"] * 60)
        return f"Negotiation: {full} (starts when the teacher starts the phase)"
    if state == "stopped":
        return "Negotiation over: the state was called"
    left = "time is up" if seconds_left <= 0 else f"{clock_text(seconds_left)} left"
    return f"Negotiation: {left}"


def board_news(before: Mapping[str, str], after: Mapping[str, str]) -> str:
    """What changed on the board since this page last looked (another team's move), in words:
    "Now on the board: a Park on C2. B1 was cleared." ("" when nothing changed)."""
    built_now = [built(tile, sq) for sq, tile in sorted(after.items()) if before.get(sq) != tile]
    cleared = [sq for sq in sorted(before) if sq not in after]
    parts = []
    if built_now:
        parts.append(f"Now on the board: {', '.join(built_now)}.")
    if cleared:
        parts.append(f"{', '.join(cleared)} {'was' if len(cleared) == 1 else 'were'} cleared.")
    return " ".join(parts)


def clock_text(seconds_left: float) -> str:
    """Minutes:seconds, rounded up so 0:00 means the time really is up."""
    whole = max(0, int(-(-seconds_left // 1)))
    return f"{whole // 60}:{whole % 60:02d}"


def action_label(action: Mapping[str, Any], *, teacher: bool, phase: str) -> str:
    """The button text for one legal action (not place/clear: the board does those)."""
    kind = action["action"]
    if kind == "start_timer":
        return f"Start {PHASE_NUMBER.get(phase, 'the phase')}: the negotiation timer"
    if kind == "advance":
        return NEXT_PHASE.get(phase, "Next phase")
    if kind == "call_state":
        return "Call the state now" if teacher else "Call the state (time is up)"
    if kind == "enact":
        policies = list(action.get("policies") or [])
        return f"Enact: {policy_set_name(policies)}" if policies else "Enact no policy"
    if kind == "redraw":
        return "Redraw our extra card"
    if kind == "pick":
        return f"Pick {card_name(str(action['card']))}"
    return kind.replace("_", " ").capitalize()


def built(tile: str, square: str) -> str:
    """ "a Park on C2": a tile as printed, with its square."""
    from housing_lab.north_berkeley.tiles import default_catalogue

    name = default_catalogue()[tile].name
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name} on {square}"


def action_done(
    action: Mapping[str, Any], view: Mapping[str, Any], before: Mapping[str, str] | None = None
) -> str:
    """The line shown after the store accepted an action: what happened, in words (`before`:
    the board's tiles before it, to name what the state built)."""
    kind = action.get("action")
    if kind == "place":
        return f"You built {built(str(action['tile']), str(action['square']))}."
    if kind == "clear":
        return f"You cleared {action['square']}."
    if kind == "enact":
        policies = list(action.get("policies") or [])
        return f"Enacted: {policy_set_name(policies)}." if policies else "No policy enacted."
    if kind == "redraw":
        return "You redrew your extra card."
    if kind == "pick":
        return f"You picked {card_name(str(action['card']))}."
    if kind == "call_state":
        tiles = dict((view.get("board") or {}).get("tiles") or {})
        new = [
            built(tile, sq) for sq, tile in sorted(tiles.items()) if (before or {}).get(sq) != tile
        ]
        return f"The state built {', '.join(new)}." if new else "The state stepped in."
    if kind == "advance":
        return now_in(str(view.get("phase", "")))
    if kind == "start_timer":
        return "The negotiation timer has started."
    return "Your turn is played."

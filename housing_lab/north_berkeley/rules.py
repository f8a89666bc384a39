"""The numbers of the North Berkeley game flow (RULES.md part 1, "Game flow"), one copy each.

The engine reads them from here, and so should every text that shows them to a class ("7 cards
stay in the deck for the draft", "with 2 or 3 teams ..."), so that a rule and its explanation
cannot drift apart.

>>> cards_dealt(2), cards_dealt(4), cards_dealt(6)
(3, 2, 1)
>>> has_extra_draw(3), has_extra_draw(4)
(True, False)
"""

from __future__ import annotations

from housing_lab.north_berkeley.errors import IllegalActionError

CARDS_DEALT = {2: 3, 3: 2, 4: 2, 5: 1, 6: 1}
"""Starting hand size by number of players (or teams), dealt face down."""
MIN_PLAYERS, MAX_PLAYERS = min(CARDS_DEALT), max(CARDS_DEALT)

EXTRA_DRAW_MAX_PLAYERS = 3
"""Only games with at most this many players have the extra face-up draw after phase 1."""

DRAFT_SIZE = 7
"""Cards laid face up for the draft; the extra draw may not dig into them (the reserve)."""

POLICIES_DRAWN = 2
"""Policy cards drawn after the draft; the table enacts at least one (one or both)."""


def cards_dealt(players: int) -> int:
    """Starting hand size: 2 players 3 each, 3-4 players 2 each, 5-6 players 1 each."""
    if players not in CARDS_DEALT:
        raise IllegalActionError(
            f"North Berkeley is for {MIN_PLAYERS} to {MAX_PLAYERS} players or teams, got {players}"
        )
    return CARDS_DEALT[players]


def has_extra_draw(players: int) -> bool:
    """Whether a game of `players` players has the extra face-up draw (2 or 3 players)."""
    cards_dealt(players)  # refuses a player count the game does not have
    return players <= EXTRA_DRAW_MAX_PLAYERS

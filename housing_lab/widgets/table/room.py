"""From the game table to a classroom room: every team then plays from its own device.

`GameTable.open_room` creates a room (`housing_lab.rooms`, docs/rooms.md) with the table's
teams, seed and rule options, and returns the join links: the teacher's and one per team, each
with a QR code. The links carry the secret tokens after `#` (no server logs them; the store
keeps only their hashes); they are written to the teacher's links file (mode 600), from which
the classroom's teacher page shows the teams' codes one at a time. In a notebook the invite
shows the teacher's link only (a projected notebook must not show a team's code).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass, field

from housing_lab.errors import shown
from housing_lab.north_berkeley.policies import RuleOptions
from housing_lab.rooms import RoomStore, open_store
from housing_lab.rooms.errors import RoomError
from housing_lab.rooms.links import qr_svg, room_links, save_links
from housing_lab.rooms.urls import DEFAULT_JOIN_BASE, check_page_url


@dataclass(frozen=True)
class RoomInvite:
    """A created room's code and join links (`qr`: each holder's code as SVG); a notebook shows
    the teacher's link only."""

    room: str
    teacher: str
    teams: dict[str, str]
    store: str
    links_file: str = ""
    qr: dict[str, str] = field(default_factory=dict, repr=False)  # holder -> inline SVG

    def _repr_html_(self) -> str:
        """The teacher's link and where the team links are; no team's code or link: a notebook
        on the projector would show every team's secret hand to anyone who scans it. The
        teacher's page shows the teams' codes one at a time, and who has joined."""
        teacher = html.escape(self.teacher)
        where = ""
        if self.links_file:
            where = f" and in {html.escape(self.links_file)} (readable only by you)"
        return (
            f'<div class="hl-gt-room" data-room="{html.escape(self.room)}">'
            f"<h3>Room {html.escape(self.room)}</h3>"
            f'<p>Open the teacher\'s link on the projector: <a href="{teacher}" target="_blank" '
            f'rel="noopener">{teacher}</a></p><p>It shows each team\'s join code, one team at a '
            f"time (Show join codes), and which teams have joined. The team links are in "
            f"<code>invite.teams</code>{where}.</p></div>"
        )


def open_table_room(
    teams: Sequence[str],
    seed: int,
    options: RuleOptions,
    store: RoomStore | str | None = None,
    join_base: str | None = None,
) -> RoomInvite:
    """Create the room in `store` (a URL, an open store or None: the default) and return the
    links; a store opened here from a URL is closed again."""
    if store is not None and not isinstance(store, (str, RoomStore)):
        raise RoomError(f"store must be a store URL or an open store, got {shown(store)}")
    base = check_page_url(join_base if join_base is not None else DEFAULT_JOIN_BASE)
    opened = store if isinstance(store, RoomStore) else open_store(store)
    try:
        created = opened.create_room(
            list(teams),
            seed=seed,
            game="north-berkeley",
            options=options.to_dict(),
            join_base=base,
        )
    finally:
        if opened is not store:
            opened.close()
    links = room_links(created, base)
    links_file = save_links(links)
    qr = {"Teacher": qr_svg(links["teacher"], title="Teacher")}
    qr.update({team: qr_svg(url, title=team) for team, url in links["teams"].items()})
    return RoomInvite(
        created["room"], links["teacher"], dict(links["teams"]), opened.url, str(links_file), qr
    )

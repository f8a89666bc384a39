"""From the game table to a classroom room: every team then plays from its own device.

`GameTable.open_room` creates a room (`housing_lab.rooms`, docs/rooms.md) with the table's
teams, seed and rule options, and returns the join links: the teacher's and one per team, each
with a QR code to scan from the projector. The links carry the secret tokens after `#` (no
server logs them; the store keeps only their hashes), so they are shown once here and written to
the teacher's links file (mode 600), from which the classroom's teacher page shows them again.
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
    """A created room's code and join links; a notebook shows it as links with QR codes."""

    room: str
    teacher: str
    teams: dict[str, str]
    store: str
    links_file: str = ""
    qr: dict[str, str] = field(default_factory=dict, repr=False)  # holder -> inline SVG

    def _repr_html_(self) -> str:
        holders = [("Teacher", self.teacher), *self.teams.items()]
        cells = "".join(
            '<figure style="display:inline-block;margin:0 16px 12px 0;text-align:center">'
            f"{self.qr.get(name, '')}<figcaption><b>{html.escape(name)}</b><br>"
            f'<a href="{html.escape(url)}" target="_blank">{html.escape(url)}</a>'
            "</figcaption></figure>"
            for name, url in holders
        )
        return (
            f'<div class="hl-gt-room" data-room="{html.escape(self.room)}">'
            f"<h3>Room {html.escape(self.room)}: scan your team's code</h3>{cells}</div>"
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

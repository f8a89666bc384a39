"""The links a classroom hands out: one page URL per token, its QR code, and the links file.

The store keeps only hashes of the tokens, so the links exist in full in two places: the
`housing-lab classroom` output and a links file in the user's data folder (mode 600, readable
by the teacher's account only). The teacher page reads that file to show each team's join link
and QR code on the projector; a team page never reads it.

>>> links = room_links({"room": "ABC234", "teacher": {"token": "t0"},
...                     "teams": {"Red": {"token": "t1"}}}, "http://10.0.0.5:8866/room/")
>>> links["teams"]["Red"]
'http://10.0.0.5:8866/room/?room=ABC234#key=t1'
>>> qr_svg(links["teacher"]).startswith("<svg")
True
"""

from __future__ import annotations

import ipaddress
import json
import re
import socket
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from housing_lab.errors import WriteError, quote_path, shown
from housing_lab.outputs import check_new, write_atomic
from housing_lab.rooms.errors import RoomError
from housing_lab.rooms.urls import check_page_url, data_folder, join_url

# What a team's page says when its link cannot open it: shown by the room page's key gate
# (housing_lab/server/room_kernels.py, before any kernel) and by the page itself.
NO_KEY = (
    "This link has lost its key (the part after #). Log in first if you have to, then open your "
    "team's link again or scan its QR code."
)
KEY_IN_QUERY = (
    "This link is an old kind: its key comes after ?, where servers record it in their logs, "
    "so it opens nothing now. Ask the teacher for your team's link with #key= in it (the "
    "teacher page's QR code, or the teacher's terminal)."
)

LINKS_DIR = "rooms"  # inside the data folder
PAGE_PATH = "/room/"  # Voila's base URL for the room page (the store's join links say /room)
QR_SCALE = 4  # pixels per module: a 3-metre projector read needs big modules
_LABEL = r"[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?"  # one part of a host name
HOST_NAME = re.compile(rf"{_LABEL}(?:\.{_LABEL})*\.?")
LEGACY_PARAMS = ("key", "token")  # where links made before the fragment carried the token


def page_base(host: str, port: int) -> str:
    """The room page's address: `housing-lab classroom` runs Voila with base URL /room/."""
    if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
        raise RoomError(f"a port is a whole number from 1 to 65535, got {shown(port)}")
    check_host(host)
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"  # an IPv6 address
    return f"http://{host}:{port}{PAGE_PATH}"


def check_host(host: object, what: str = "--host") -> str:
    """`host` if it is an address to serve on or to name in links (a name like
    `laptop.local`, an IPv4 or IPv6 address, or "" for every interface), else one line."""
    if not isinstance(host, str):
        raise RoomError(f"{what} must be a host name or address, got {shown(host)}")
    if host == "":
        return host
    bare = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    try:
        ipaddress.ip_address(bare)
        return host
    except ValueError:
        pass
    if len(host) > 253 or not HOST_NAME.fullmatch(host):
        raise RoomError(
            f"{what} {shown(host)} is not a host name or address (like 0.0.0.0, "
            "192.168.1.20 or laptop.local)"
        )
    return host


LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")
LOOPBACK_WARNING = (
    "These links name {host}: phones and other computers cannot open them. Serve with "
    "--host 0.0.0.0 (the laptop's address on the Wi-Fi) or use --hub."
)


def loopback_warning(url: str) -> str:
    """One line when a link names this machine only (no other device can open it), else ""."""
    from urllib.parse import urlsplit

    host = (urlsplit(url).hostname or "").lower()
    return LOOPBACK_WARNING.format(host=host) if host in LOOPBACK or host.startswith("127.") else ""


def lan_host() -> str:
    """This machine's address on the local network (what phones in the room can reach).

    Connecting a UDP socket sends nothing; it only makes the system pick the outgoing address.
    Offline, the loopback address is all there is.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere real
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def room_links(created: Mapping[str, Any], base: str) -> dict[str, Any]:
    """The teacher's and each team's page URL for a room `RoomStore.create_room` returned,
    each with its token in the fragment (`?room=CODE#key=TOKEN`, `urls.join_url`), which no
    server ever receives or logs.
    """
    check_page_url(base, "the room page's address")
    try:
        code = created["room"]
        teacher = created["teacher"]["token"]
        teams = {team: ticket["token"] for team, ticket in created["teams"].items()}
    except (KeyError, TypeError, AttributeError):
        raise RoomError(f"not a created room: {shown(created)}") from None

    return {
        "room": code,
        "game": created.get("game", "north-berkeley"),
        "teacher": join_url(base, code, teacher),
        "teams": {team: join_url(base, code, token) for team, token in teams.items()},
    }


def fragment_link(url: str) -> str:
    """A link made before keys moved to the fragment (`?room=CODE&token=T`), rewritten as
    `?room=CODE#key=T`; any other link unchanged. The page refuses the old form, so a links
    file written then still gives the teacher page working QR codes."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    token = next((value for name, value in query if name in LEGACY_PARAMS), None)
    if token is None or parts.fragment:
        return url
    kept = urlencode([(name, value) for name, value in query if name not in LEGACY_PARAMS])
    return urlunsplit(parts._replace(query=kept, fragment=urlencode({"key": token})))


def qr_svg(url: str, *, title: str = "", scale: int = QR_SCALE, fit: bool = False) -> str:
    """An inline SVG QR code for `url` (medium error correction: survives a glare spot).
    `fit`: no width and height, a viewBox instead, so the page's CSS sizes it."""
    import segno  # only the teacher page draws codes; the CLI's start-up should not pay for it

    code = segno.make(url, error="m")
    return str(code.svg_inline(scale=scale, title=title or None, omitsize=fit))


def links_path(room: str, folder: Path | str | None = None) -> Path:
    """Where a room's links file lives: <data folder>/rooms/<CODE>.links.json."""
    if not isinstance(room, str) or not room.isalnum():
        raise RoomError(f"{shown(room)} is not a room code (like K7M2QX)")
    base = Path(folder) if folder is not None else data_folder() / LINKS_DIR
    return base / f"{room.upper()}.links.json"


def save_links(
    links: Mapping[str, Any], folder: Path | str | None = None, *, overwrite: bool = False
) -> Path:
    """Write a room's links file, readable and writable by this user only (mode 600).

    The links are turned into JSON before the file is touched (a bad value leaves an existing
    file whole); an existing file is refused unless `overwrite`, a symbolic link is never
    followed, and the file is written whole or not at all (`outputs.write_atomic`, kept
    private: mode 600)."""
    if not isinstance(links, Mapping):
        raise RoomError(f"links are a dict of a room's page addresses, got {shown(links, 60)}")
    if not isinstance(overwrite, bool):
        raise RoomError(f"overwrite must be True or False, got {shown(overwrite, 60)}")
    path = links_path(links.get("room"), folder)
    try:
        text = json.dumps(links, indent=2, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise RoomError(f"the links of room {links['room']} are not JSON: {error}") from None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise WriteError(f"cannot write {quote_path(path)}: {error.strerror or error}") from None
    check_new(path, overwrite, path.parent)
    write_atomic(path, lambda handle: handle.write(text), private=True)
    return path


def load_links(room: str, folder: Path | str | None = None) -> dict[str, Any] | None:
    """A room's links file, or None when this machine did not create the room. Links written
    with the token in the query (before the fragment) come back in the fragment form."""
    path = links_path(room, folder)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("room") != room.upper():
        return None
    if isinstance(data.get("teacher"), str):
        data["teacher"] = fragment_link(data["teacher"])
    if isinstance(data.get("teams"), dict):
        data["teams"] = {
            team: fragment_link(url) if isinstance(url, str) else url
            for team, url in data["teams"].items()
        }
    return data

"""Store URLs (which backend, where) and the join links handed to the teacher and the teams.

Two store URL forms, chosen by their scheme:

- ``sqlite:///relative/path.sqlite`` or ``sqlite:////absolute/path.sqlite`` (SQLAlchemy's
  spelling: the path is what follows the third slash); the default is a file in the user's data
  folder, see `default_store_url`.
- ``postgresql://user:password@host:port/dbname`` (or ``postgres://``, or a ``host=/socket/dir``
  query), passed to psycopg as given.

>>> parse_store_url("sqlite:////tmp/rooms.sqlite")
('sqlite', '/tmp/rooms.sqlite')
>>> parse_store_url("postgresql://localhost/rooms")[0]
'postgresql'
>>> join_url("http://127.0.0.1:8866/room", "ABC234", "tok-en")
'http://127.0.0.1:8866/room?room=ABC234#key=tok-en'
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit

from housing_lab.errors import shown
from housing_lab.rooms.errors import RoomError

STORE_ENV = "HOUSING_LAB_ROOMS"  # a store URL that replaces the default file
DEFAULT_JOIN_BASE = "http://127.0.0.1:8866/room/"  # Voila serves the classroom page here
# The password of scheme://user:password@host... (up to the last "@" before the path) and of
# a ?password=... option. Plain text work, no URL parser: a bad port or an IPv6 host must not
# stop a message from being written (urlsplit raises on those).
_USERINFO_PASSWORD = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://[^:@/]*):([^/]*)@")
_OPTION_PASSWORD = re.compile(r"([?&]password=)([^&#]*)", re.IGNORECASE)
PAGE_SCHEMES = ("http", "https")
LINK_PARAMS = ("room", "key", "token")  # what the links add; a page address holds none


def data_folder() -> Path:
    """The user's data folder for housing-lab (XDG on Linux, the platform's folder elsewhere)."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "housing-lab"


def default_store_url() -> str:
    """`$HOUSING_LAB_ROOMS` when set, else ``sqlite:///<data folder>/rooms.sqlite``."""
    return os.environ.get(STORE_ENV) or "sqlite:///" + str(data_folder() / "rooms.sqlite")


def without_password(url: str) -> str:
    """The URL as a message may show it (a password never reaches a terminal or a log).

    >>> without_password("postgresql://ana:s3cret@[::1]:bad/db?password=x&sslmode=off")
    'postgresql://ana:***@[::1]:bad/db?password=***&sslmode=off'
    """
    text = _USERINFO_PASSWORD.sub(r"\1:***@", url, count=1)
    return _OPTION_PASSWORD.sub(r"\1***", text)


def password_of(url: str) -> list[str]:
    """Every spelling of the URL's passwords (as written and decoded), to blank out of the
    messages a database driver writes."""
    found = [m.group(2) for m in _OPTION_PASSWORD.finditer(url)]
    match = _USERINFO_PASSWORD.match(url)
    if match:
        found.append(match.group(2))
    return sorted({p for text in found for p in (text, unquote(text)) if p}, key=len, reverse=True)


def parse_store_url(url: object) -> tuple[str, str]:
    """(backend, target): ("sqlite", file path) or ("postgresql", the connection URL)."""
    if not isinstance(url, str) or not url.strip():
        raise RoomError(f"a store URL is text like sqlite:///rooms.sqlite, got {shown(url)}")
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///") :]
        if not path or path == ":memory:":
            raise RoomError(
                f"store {shown(url)} names no file (an in-memory store would not be shared)"
            )
        if "?" in path:  # SQLAlchemy and SQLite read ?mode=ro as an option, not a file name
            raise RoomError(
                f"store URL {shown(url)} has options after '?', which a room store takes none "
                "of (name the file alone: sqlite:///rooms.sqlite)"
            )
        if path != path.strip():  # copied with a space: a second store beside the class's
            raise RoomError(f"store URL {shown(url)} has spaces around its file name")
        return "sqlite", path
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql", url
    raise RoomError(
        f"unknown store URL {shown(without_password(url))}: "
        "use sqlite:///path.sqlite or postgresql://host/db"
    )


def check_page_url(url: object, what: str = "join_base") -> str:
    """`url` if links can be made from it, else one `RoomError` line naming it and `what` (the
    option or argument it came from).

    A room page's address is http(s) with a host (`http://192.168.1.20:8866/room/`), or a path
    on the server the page is opened from (Binder: `housing-lab/room`). Refused: another scheme
    (`javascript:alert(1)//` would run in a student's browser), a space or control character,
    a bad port, a `#fragment` (each link puts its key there) and a query already naming the
    room or a key.
    """
    if not isinstance(url, str) or not url:
        raise RoomError(
            f"{what} must be the room page's address like http://192.168.1.20:8866/room/, "
            f"got {shown(url)}"
        )
    if any(char.isspace() or not char.isprintable() for char in url):
        raise RoomError(f"{what} {shown(url)} has a space or control character: not an address")
    try:
        parts = urlsplit(url)
        _ = parts.port  # urlsplit checks the port only when asked for it
    except ValueError as error:
        raise RoomError(f"{what} {shown(url)} is not an address: {error}") from None
    if (parts.scheme or parts.netloc) and parts.scheme not in PAGE_SCHEMES:
        raise RoomError(f"{what} {shown(url)} must start with http:// or https://")
    if parts.scheme and not parts.hostname:
        raise RoomError(f"{what} {shown(url)} names no server after {parts.scheme}://")
    if "#" in url:
        raise RoomError(
            f"{what} {shown(url)} has a #fragment: each link puts its key there, so give the "
            "address without #..."
        )
    taken = sorted({name for name, _ in parse_qsl(parts.query)} & set(LINK_PARAMS))
    if taken:
        raise RoomError(f"{what} {shown(url)} already has {taken[0]}= in its query: drop it")
    return url


def join_url(base: str, room: str, token: str) -> str:
    """The link one holder opens: the room page with the room code in the query and the token
    in the fragment (`?room=CODE#key=TOKEN`).

    A browser never sends a fragment to any server, so the key is in no server's, proxy's or
    hub's log (a hub's user-redirect logs the whole query it passes on); the page's
    `KeyReader` hands it to its kernel over the widget connection."""
    separator = "&" if "?" in base else "?"
    return f"{base}{separator}{urlencode({'room': room})}#{urlencode({'key': token})}"

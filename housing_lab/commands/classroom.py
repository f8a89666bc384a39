"""`housing-lab classroom --teams Red,Blue,Green`: a room, its links, and Voila serving the page.

It creates the room in the store, saves the links (mode 600) for the teacher page's QR codes,
prints the teacher's link and where the links file is (each team's secret link only with
`--print-links`: a laptop mirrored to the projector shows its terminal), and runs Voila on
the room page (housing_lab/apps/classroom/room.ipynb) until Ctrl-C or SIGTERM, which stop
Voila and its kernels (as `housing-lab lab` does). The room outlives the server: start it
again with the same store and the old links work.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import pathlib
import secrets
import shlex
import socket
import sys
import threading
import time
import webbrowser
from typing import Any
from urllib.parse import parse_qs, urlsplit

from housing_lab.commands import arguments
from housing_lab.commands.lessons import require_installed, run_server
from housing_lab.commands.rooms import with_model
from housing_lab.errors import HousingLabError, quote_path, shown
from housing_lab.jsonio import JsonInputError, loads
from housing_lab.outputs import write_text
from housing_lab.rooms import default_store_url, open_store, parse_store_url
from housing_lab.rooms.links import (
    PAGE_PATH,
    check_host,
    lan_host,
    links_path,
    load_links,
    loopback_warning,
    page_base,
    room_links,
    save_links,
)
from housing_lab.rooms.registry import GAMES, room_game
from housing_lab.rooms.urls import check_page_url

ROOM_PAGE = pathlib.Path(__file__).resolve().parents[1] / "apps" / "classroom" / "room.ipynb"
DEFAULT_PORT = 8866  # `housing-lab app` defaults elsewhere (lessons.APP_PORT): both can run
PORT_TRIES = 20  # ports tried after a busy default
LINKS_FILE_BYTES = 8192  # more than a links file of six teams takes
STORE_ENV = "HOUSING_LAB_ROOMS"  # the page's kernels read the store URL from here
LINKS_ENV = "HOUSING_LAB_ROOM_LINKS"  # and the links folder (teacher page QR codes)
ANY_ADDRESS = ("0.0.0.0", "::", "")
BROWSER_WAIT_SECONDS = 30
ROOM_ROUTE = "housing-lab/room"  # the server extension's page (housing_lab/server)
HUB_PAGES = ("hub", "user")
TEAM_LINKS = (
    "Team links: the projector page's join codes, one team at a time (Show join codes), and "
    "{path} (readable only by you); --print-links prints them here."
)  # where a hub's own pages and its users' servers start


def register(groups: argparse._SubParsersAction) -> None:
    room = groups.add_parser(
        "classroom", help="start a room: every team plays from its own device (Voila)"
    )
    room.add_argument("--teams", default="", help="team names, comma-separated: Red,Blue,Green")
    room.add_argument("--game", choices=GAMES, default="north-berkeley")
    room.add_argument(
        "--host", default="127.0.0.1", help="address to serve on; 0.0.0.0 for the whole LAN"
    )
    room.add_argument(
        "--port",
        type=arguments.port,
        default=None,
        help=f"the port to serve on (default {DEFAULT_PORT}, or the next free one; a port "
        "given here must be free)",
    )
    room.add_argument("--store", help="sqlite:///file.sqlite or postgresql://... (default: ours)")
    room.add_argument(
        "--seed", type=arguments.seed, default=None, help="the deal (default: a random one)"
    )
    room.add_argument(
        "--model",
        metavar="JSON",
        help="North Berkeley: the model's assumptions (RULES.md 'Model assumptions'), "
        "e.g. '{\"budget\": 10}'; the room plays and scores under them",
    )
    room.add_argument("--links-dir", help="where the links file goes (default: the data folder)")
    room.add_argument(
        "--force",
        action="store_true",
        help="replace a links file of the same room code left by an older store",
    )
    room.add_argument(
        "--resume",
        metavar="CODE",
        help="serve a room created before (its links file must be here); --teams is ignored",
    )
    room.add_argument(
        "--page-url",
        help="links point here instead: the room page another Jupyter server serves "
        "({base_url}housing-lab/room, e.g. https://HUB/hub/user-redirect/housing-lab/room)",
    )
    room.add_argument(
        "--hub",
        metavar="URL",
        help="a JupyterHub's address (https://hub.school.org): links go through its "
        "user-redirect to each user's own server's room page",
    )
    room.add_argument(
        "--print-links",
        action="store_true",
        help="print every team's secret link too (by default they are in the links file and "
        "on the projector's join codes, not on a terminal the class may see)",
    )
    room.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object {room, teacher, teams} instead of the text lines",
    )
    room.add_argument(
        "--no-server", action="store_true", help="create the room and print its links only"
    )
    room.add_argument("--no-browser", action="store_true", help="do not open the teacher page")
    room.add_argument(
        "--dry-run", action="store_true", help="check the arguments, print the plan as JSON"
    )
    room.set_defaults(func=run_classroom)


def voila_command(host: str, port: int) -> list[str]:
    """Voila serving the room page (housing_lab/apps/room_server.py: a kernel only for a page
    with a valid key, few per key, culled when the page is gone); it never opens a browser
    itself (we open the teacher's), and never moves to another port (the links name this one:
    `serve_port` chose it free)."""
    return [
        sys.executable,
        "-m",
        "housing_lab.apps.room_server",
        str(ROOM_PAGE),
        f"--Voila.ip={host}",
        f"--port={port}",
        "--Voila.port_retries=0",
        f"--Voila.base_url={PAGE_PATH}",
        "--no-browser",
        "--theme=light",
        "--show_tracebacks=False",
    ]


def hub_page_url(hub: str) -> str:
    """The room page through a hub's user-redirect: every user lands on their own server.

    `hub` is the hub's address: `https://hub.school.org`, or with the hub's own prefix
    (`https://school.org/jupyter`). A page of the hub copied from the browser (`/hub/home`,
    `/user/ana/lab`) or a query is refused, naming the address to give instead."""
    if not isinstance(hub, str) or not hub.startswith(("http://", "https://")):
        raise HousingLabError(
            f"--hub takes the hub's address like https://hub.school.org, got {shown(hub)}"
        )
    check_page_url(hub, "--hub")
    parts = urlsplit(hub)
    segments = [segment for segment in parts.path.split("/") if segment]
    page = next((i for i, segment in enumerate(segments) if segment in HUB_PAGES), None)
    if page is not None or parts.query:
        prefix = "".join(f"/{segment}" for segment in segments[:page])
        address = f"{parts.scheme}://{parts.netloc}{prefix}"
        raise HousingLabError(
            f"--hub takes the hub's address only: give {address}, not {shown(hub)}"
        )
    return hub.rstrip("/") + "/hub/user-redirect/" + ROOM_ROUTE


def port_free(host: str, port: int) -> bool:
    """Whether the server could listen on `host`:`port` now: bound as Tornado binds (every
    address of the host, SO_REUSEADDR), then let go. A host this machine does not have, or a
    port it may not use, is one line."""
    try:
        addresses = socket.getaddrinfo(
            host or None, port, socket.AF_UNSPEC, socket.SOCK_STREAM, 0, socket.AI_PASSIVE
        )
    except (socket.gaierror, UnicodeError):
        raise HousingLabError(f"--host {shown(host)} is not an address of this machine") from None
    for family, kind, proto, _name, address in addresses:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6 and hasattr(socket, "IPPROTO_IPV6"):
                probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                probe.bind(address[:2] if family == socket.AF_INET else address)
                probe.listen(1)
            except OSError as error:
                if error.errno == errno.EADDRINUSE:
                    return False
                if error.errno == errno.EACCES:
                    raise HousingLabError(
                        f"this account may not serve on port {port}: use one above 1023"
                    ) from None
                if error.errno == errno.EADDRNOTAVAIL:
                    raise HousingLabError(
                        f"--host {shown(host)} is not an address of this machine"
                    ) from None
                raise HousingLabError(f"cannot serve on {host}:{port}: {error.strerror}") from None
    return True


def serve_port(host: str, asked: int | None, preferred: int = DEFAULT_PORT) -> int:
    """The port the room server will listen on, chosen before any link names it.

    A port given with --port must be free (one line otherwise); without one, `preferred`
    (8866, or the port a resumed room's links name) or the next free one after it, said on
    stderr when it moved."""
    if asked is not None:
        if not port_free(host, asked):
            raise HousingLabError(
                f"port {asked} is in use (another server: housing-lab app or lab, or another "
                "room): stop it or give another --port"
            )
        return asked
    for port in range(preferred, min(preferred + PORT_TRIES, 65536)):
        if port_free(host, port):
            if port != preferred:
                print(f"Port {preferred} is in use; serving on port {port}.", file=sys.stderr)
            return port
    raise HousingLabError(
        f"ports {preferred} to {preferred + PORT_TRIES - 1} are all in use: give a free --port"
    )


def link_host(host: str) -> str:
    """The address the links name: the LAN address when serving on every interface."""
    return lan_host() if host in ANY_ADDRESS else host


def run_classroom(args: argparse.Namespace) -> int:
    store_url = args.store or default_store_url()
    parse_store_url(store_url)
    if args.hub and args.page_url:
        raise HousingLabError("give --hub or --page-url, not both")
    check_host(args.host)
    if args.page_url is not None:
        check_page_url(args.page_url, "--page-url")
    page_url = hub_page_url(args.hub) if args.hub is not None else args.page_url
    serving = not (page_url or args.no_server)  # a server here, on a port chosen now
    saved = _resumed(args.resume, store_url, args.links_dir) if args.resume else None
    if serving:
        port = serve_port(args.host, args.port, _saved_port(saved) or DEFAULT_PORT)
    else:
        port = args.port or DEFAULT_PORT  # links for a server started later (--resume)
    base = page_url or page_base(link_host(args.host), port)
    command = voila_command(args.host, port)
    if saved is not None:
        rebuild = serving and not args.dry_run  # a dry run writes nothing
        links = _served_links(saved, base, args.links_dir) if rebuild else saved
        seed = None
    else:
        if not args.teams.strip():
            raise HousingLabError("name the teams: --teams Red,Blue,Green")
        names = room_game(args.game).check_teams([n.strip() for n in args.teams.split(",")])
        seed = secrets.randbelow(1_000_000) if args.seed is None else args.seed
        options = _model_options(args.model, args.game)
        _check_links_dir(args.links_dir)  # refused now, not after the room exists
        if args.dry_run:  # the real run deals this seed only when given it: say how
            plan = {"game": args.game, "teams": list(names), "seed": seed, "store": store_url}
            again = ["housing-lab", "classroom", "--teams", ",".join(names), "--game", args.game]
            again += ["--store", args.store] if args.store else []
            again += ["--model", args.model] if args.model is not None else []
            if options is not None:
                plan["options"] = options
            plan["run"] = " ".join(shlex.quote(part) for part in [*again, "--seed", str(seed)])
            print(json.dumps({**plan, "page": base, "command": command}, indent=2))
            return 0
        _links_fit(args.links_dir)  # a full disk refused now, not after the room exists
        with open_store(store_url) as store:
            created = store.create_room(
                names, seed=seed, game=args.game, options=options, join_base=base
            )
        links = room_links(created, base)
        path = save_links(links, args.links_dir, overwrite=args.force)
        game = f"{args.game}, seed {seed}"
        if not args.json:
            print(f"Room {links['room']} ({game}); store {store_url}; links saved in {path}")
    if args.dry_run:
        print(json.dumps({"room": links["room"], "store": store_url, "command": command}))
        return 0
    if args.json:
        print(json.dumps({key: links[key] for key in ("room", "teacher", "teams")}))
    else:
        print(f"Teacher (projector): {links['teacher']}")
        if args.print_links:
            for team, url in links["teams"].items():
                print(f"{team}: {url}")
        else:
            print(TEAM_LINKS.format(path=links_path(links["room"], args.links_dir)))
        warning = loopback_warning(links["teacher"])
        if warning:
            print(warning, file=sys.stderr)
    if args.no_server or page_url:
        return 0
    require_installed("voila")
    print("Ctrl-C stops the server; the room stays in the store (--resume CODE).", flush=True)
    env = {**os.environ, STORE_ENV: store_url}
    if args.links_dir:
        env[LINKS_ENV] = str(pathlib.Path(args.links_dir).resolve())
    if not args.no_browser:
        threading.Thread(
            target=_open_when_ready, args=(port, links["teacher"]), daemon=True
        ).start()
    return run_server(command, False, env)


def _model_options(model: str | None, game: str) -> dict[str, Any] | None:
    """The room options `--model` asks for, checked by the game before any room exists."""
    if model is None:
        return None
    try:
        value = loads(model, source="--model")
    except JsonInputError as error:
        raise HousingLabError(str(error)) from None
    return room_game(game).check_options(with_model(None, value, game))


def _check_links_dir(links_dir: str | None) -> None:
    """A links folder that cannot hold the links file is refused before a room is created."""
    if links_dir is None:
        return
    folder = pathlib.Path(links_dir)
    blocker = next((p for p in (folder, *folder.parents) if p.exists()), None)
    if not links_dir or (blocker is not None and not blocker.is_dir()):
        raise HousingLabError(
            f"--links-dir {shown(links_dir)} is not a folder: no room was created"
        )


def _links_fit(links_dir: str | None) -> None:
    """Write (and remove) a file the size of a links file where the links file will go: a
    disk too full for it is refused before the room is created (no orphan room)."""
    folder = links_path("PROBE", links_dir).parent
    probe = folder / f".links-probe-{secrets.token_hex(4)}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_text(probe, " " * LINKS_FILE_BYTES, private=True)
    except (OSError, HousingLabError) as error:
        reason = error.strerror if isinstance(error, OSError) else str(error)
        reason = str(reason).partition(f"{quote_path(probe)}: ")[2] or reason
        raise HousingLabError(
            f"cannot write the links file in {quote_path(folder)}: {reason}: no room was created"
        ) from None
    probe.unlink(missing_ok=True)


def _resumed(code: str, store_url: str, links_dir: str | None) -> dict[str, Any]:
    """A room created before: its saved links, checked against the store (teacher token)."""
    try:
        links = load_links(code.strip().upper(), links_dir)
        if links is not None:  # the key is in the fragment (load_links moves an older query's)
            fragment = parse_qs(urlsplit(links["teacher"]).fragment)
            for url in links["teams"].values():
                _key(url)  # every team's link is readable too (a resumed server rebuilds them)
    except HousingLabError:
        raise
    except (ValueError, KeyError, TypeError, AttributeError, OSError):
        raise HousingLabError(
            f"the links file of room {shown(code)} is damaged: create a new room"
        ) from None
    if links is None:
        raise HousingLabError(
            f"no links file for room {code!r} here; it is written where the room was created"
        )
    teacher = (fragment.get("key") or [""])[0]
    with open_store(store_url) as store:
        store.role(links["room"], teacher)  # the room is in this store, and this is its teacher
    return links


def _saved_port(links: dict[str, Any] | None) -> int | None:
    """The port a resumed room's links name when a classroom server made them (None for
    links through a hub or another page)."""
    if links is None:
        return None
    parts = urlsplit(links["teacher"])
    try:
        return parts.port if parts.path == PAGE_PATH else None
    except ValueError:
        return None


def _served_links(saved: dict[str, Any], base: str, links_dir: str | None) -> dict[str, Any]:
    """A resumed room's links for the server starting now (its host and port): the saved
    ones when they already name it, else rebuilt with the same keys and saved again, so the
    printed links and the teacher page's QR codes name the port actually served."""
    keys = {"teacher": _key(saved["teacher"])}
    keys.update({team: _key(url) for team, url in saved["teams"].items()})
    created = {
        "room": saved["room"],
        "game": saved.get("game", "north-berkeley"),
        "teacher": {"token": keys.pop("teacher")},
        "teams": {team: {"token": key} for team, key in keys.items()},
    }
    links = room_links(created, base)
    if links["teacher"] != saved["teacher"]:
        save_links(links, links_dir, overwrite=True)
        print(f"The links changed: this server is {base}. Hand out these.", file=sys.stderr)
    return links


def _key(url: str) -> str:
    return (parse_qs(urlsplit(url).fragment).get("key") or [""])[0]


def _open_when_ready(port: int, url: str) -> None:
    """Open the teacher page once Voila answers on its port (give up after 30 s)."""
    deadline = time.monotonic() + BROWSER_WAIT_SECONDS
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                webbrowser.open(url)
                return
        except OSError:
            time.sleep(0.5)

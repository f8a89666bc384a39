"""`housing-lab classroom --teams Red,Blue,Green`: a room, its links, and Voila serving the page.

It creates the room in the store, saves the links (mode 600) for the teacher page's QR codes,
prints the teacher's link and one join link per team, and runs Voila on the room page
(housing_lab/apps/classroom/room.ipynb) until Ctrl-C or SIGTERM, which stop Voila and its
kernels (as `housing-lab lab` does). The room outlives the server: start it again with
the same store and the old links work.
"""

from __future__ import annotations

import argparse
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
from housing_lab.errors import HousingLabError, shown
from housing_lab.jsonio import JsonInputError, loads
from housing_lab.rooms import default_store_url, open_store, parse_store_url
from housing_lab.rooms.links import (
    PAGE_PATH,
    lan_host,
    load_links,
    loopback_warning,
    page_base,
    room_links,
    save_links,
)
from housing_lab.rooms.registry import GAMES, room_game

ROOM_PAGE = pathlib.Path(__file__).resolve().parents[1] / "apps" / "classroom" / "room.ipynb"
DEFAULT_PORT = 8866
STORE_ENV = "HOUSING_LAB_ROOMS"  # the page's kernels read the store URL from here
LINKS_ENV = "HOUSING_LAB_ROOM_LINKS"  # and the links folder (teacher page QR codes)
ANY_ADDRESS = ("0.0.0.0", "::", "")
BROWSER_WAIT_SECONDS = 30
ROOM_ROUTE = "housing-lab/room"  # the server extension's page (housing_lab/server)


def register(groups: argparse._SubParsersAction) -> None:
    room = groups.add_parser(
        "classroom", help="start a room: every team plays from its own device (Voila)"
    )
    room.add_argument("--teams", default="", help="team names, comma-separated: Red,Blue,Green")
    room.add_argument("--game", choices=GAMES, default="north-berkeley")
    room.add_argument(
        "--host", default="127.0.0.1", help="address to serve on; 0.0.0.0 for the whole LAN"
    )
    room.add_argument("--port", type=int, default=DEFAULT_PORT)
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
    itself (we open the teacher's)."""
    return [
        sys.executable,
        "-m",
        "housing_lab.apps.room_server",
        str(ROOM_PAGE),
        f"--Voila.ip={host}",
        f"--port={port}",
        f"--Voila.base_url={PAGE_PATH}",
        "--no-browser",
        "--theme=light",
        "--show_tracebacks=False",
    ]


def hub_page_url(hub: str) -> str:
    """The room page through a hub's user-redirect: every user lands on their own server."""
    if not hub.startswith(("http://", "https://")):
        raise HousingLabError(
            f"--hub takes the hub's address like https://hub.school.org, got {hub!r}"
        )
    return hub.rstrip("/") + "/hub/user-redirect/" + ROOM_ROUTE


def link_host(host: str) -> str:
    """The address the links name: the LAN address when serving on every interface."""
    return lan_host() if host in ANY_ADDRESS else host


def run_classroom(args: argparse.Namespace) -> int:
    store_url = args.store or default_store_url()
    parse_store_url(store_url)
    if args.hub and args.page_url:
        raise HousingLabError("give --hub or --page-url, not both")
    page_url = hub_page_url(args.hub) if args.hub else args.page_url
    base = page_url or page_base(link_host(args.host), args.port)
    command = voila_command(args.host, args.port)
    if args.resume:
        links = _resumed(args.resume, store_url, args.links_dir)
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
        with open_store(store_url) as store:
            created = store.create_room(
                names, seed=seed, game=args.game, options=options, join_base=base
            )
        links = room_links(created, base, token_param="key")
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
        for team, url in links["teams"].items():
            print(f"{team}: {url}")
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
            target=_open_when_ready, args=(args.port, links["teacher"]), daemon=True
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


def _resumed(code: str, store_url: str, links_dir: str | None) -> dict[str, Any]:
    """A room created before: its saved links, checked against the store (teacher token)."""
    try:
        links = load_links(code.strip().upper(), links_dir)
        if links is not None:  # the token is in the query or (main's links) the fragment
            parts = urlsplit(links["teacher"])
            query = {**parse_qs(parts.query), **parse_qs(parts.fragment)}
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
    teacher = (query.get("key") or query.get("token") or [""])[0]
    with open_store(store_url) as store:
        store.role(links["room"], teacher)  # the room is in this store, and this is its teacher
    return links


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

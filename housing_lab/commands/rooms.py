"""`housing-lab room ...`: create a classroom room, and view, act in and export it by token.

For scripts and checks: every command prints one JSON document on stdout. A refusal (wrong
token, an action that token may not play now, a bad argument) is one line on stderr, exit 2,
nothing on stdout (`housing_lab.cli.main` words it). `--store` takes a store URL
(`sqlite:///path.sqlite` or `postgresql://...`); the default is a file in the user's data folder
(or `$HOUSING_LAB_ROOMS`). See docs/rooms.md.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from housing_lab.commands import arguments
from housing_lab.errors import shown
from housing_lab.jsonio import JsonInputError, loads
from housing_lab.rooms import GAMES, RoomError, open_store
from housing_lab.rooms.urls import DEFAULT_JOIN_BASE, check_page_url


def register(groups: argparse._SubParsersAction) -> None:
    """Add the `room` group and its `create`, `view`, `act` and `export` commands."""
    commands = arguments.command_group(
        groups,
        "room",
        help="classroom rooms: one game, every team on its own device",
        description="Create a room and view, act in or export it with a token.",
    )

    create = commands.add_parser(
        "create",
        help="create a room; prints its code and each holder's token and link",
        description="Create a room and print {room, teacher: {token, url}, teams: {...}}. "
        "The tokens are shown only now (the store keeps their hashes).",
    )
    create.add_argument(
        "--teams", type=arguments.text, required=True, help="team names, comma separated"
    )
    create.add_argument("--seed", type=arguments.seed, default=0, help="game seed (default 0)")
    create.add_argument(
        "--game", choices=GAMES, default="north-berkeley", help="the game (default north-berkeley)"
    )
    create.add_argument(
        "--options", type=arguments.text, default=None, help="rule options as a JSON object"
    )
    create.add_argument(
        "--model",
        type=arguments.text,
        default=None,
        help="North Berkeley: the model's assumptions as a JSON object (RULES.md 'Model "
        "assumptions'), e.g. '{\"budget\": 10}'; the room plays and scores under them",
    )
    create.add_argument(
        "--url",
        type=arguments.text,
        default=DEFAULT_JOIN_BASE,
        help=f"the room page the links open (default {DEFAULT_JOIN_BASE}); each link adds "
        "?room=CODE and, after #, its key",
    )
    _store_argument(create)
    create.set_defaults(func=_create)

    for name, helptext, func in (
        ("view", "print what the holder of a token sees now", _view),
        ("act", "play one action as the holder of a token", _act),
        ("export", "print the saved game (teacher's token)", _export),
    ):
        command = commands.add_parser(
            name, help=helptext, description=helptext[0].upper() + helptext[1:] + "."
        )
        command.add_argument("room", type=arguments.text, help="the room code")
        command.add_argument("--token", type=arguments.text, required=True, help="a room token")
        if name == "act":
            command.add_argument(
                "--action", type=arguments.text, required=True, help="the action as JSON"
            )
        _store_argument(command)
        command.set_defaults(func=func)


def _store_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--store",
        type=arguments.text,
        default=None,
        help="store URL: sqlite:///path.sqlite or postgresql://... (default: the data folder)",
    )


def _json(text: str, what: str) -> Any:
    try:
        return loads(text, source=what)
    except JsonInputError as error:
        raise RoomError(str(error)) from None


def with_model(options: Any, model: Any, game: str) -> dict[str, Any]:
    """Room options with `--model` put in them (North Berkeley only; checked by the engine
    when the room is created)."""
    if game != "north-berkeley":
        raise RoomError(f"--model is for north-berkeley rooms, not {game}")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise RoomError(f"--options must be a JSON object, got {shown(options)}")
    if "model" in options:
        raise RoomError("give the model once: in --model or in --options, not both")
    return {**options, "model": model}


def _print(document: Any) -> None:
    print(json.dumps(document))


def _create(args: argparse.Namespace) -> None:
    check_page_url(args.url, "--url")
    options = None if args.options is None else _json(args.options, "--options")
    if args.model is not None:
        options = with_model(options, _json(args.model, "--model"), args.game)
    with open_store(args.store) as store:
        _print(
            store.create_room(
                arguments.items(args.teams),
                seed=args.seed,
                game=args.game,
                options=options,
                join_base=args.url,
            )
        )


def _view(args: argparse.Namespace) -> None:
    with open_store(args.store) as store:
        _print(store.view(args.room, args.token))


def _act(args: argparse.Namespace) -> None:
    action = _json(args.action, "--action")
    with open_store(args.store) as store:
        _print(store.act(args.room, args.token, action))


def _export(args: argparse.Namespace) -> None:
    with open_store(args.store) as store:
        _print(store.export(args.room, args.token))

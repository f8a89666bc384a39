"""`housing-lab class ...`: a lesson's predictions pooled on the projector (docs/classroom.md).

`housing-lab class --lesson 3 --host 0.0.0.0` creates a class poll and serves its projector
page, the devices' join page and the lesson as an app (Voila on the lessons folder,
housing_lab/apps/server.py): the join link opens the lesson on each device in class mode, one
gated kernel per device, at most `--lesson-pages` of them; beyond that, and without Voila or
the lessons folder, a device answers on the light join page (`server.class_app`'s small
Tornado server when there is no Voila: no kernel per device). The sub-commands are for
scripts: `create`, `answer`, `tally`, `show`, `reveal`, `vote-again`, `close`, `export`. Each
prints one JSON document; a refusal (unknown question or choice, wrong token, closed class) is
one line on stderr, exit 2, and records nothing.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import threading
import time
import webbrowser
from pathlib import Path
from typing import Any

from housing_lab.commands import arguments
from housing_lab.commands.classroom import link_host, serve_port
from housing_lab.errors import HousingLabError
from housing_lab.outputs import check_new, write_atomic
from housing_lab.server.lesson_apps import MAX_PAGES

CLASS_PORT = 8871  # `housing-lab app` serves lessons on 8870, `classroom` rooms on 8866
ROUTE = "/housing-lab/class"  # the same path as the Jupyter server extension's
EXPORT_COLUMNS = ("class", "lesson", "question", "round", "choice", "count")
BROWSER_WAIT_SECONDS = 30


def register(groups: argparse._SubParsersAction) -> None:
    """Add `class` (serve a new poll) and its script sub-commands."""
    parser = groups.add_parser(
        "class",
        help="a lesson's predictions pooled on the projector: one join code for the class",
        description="Create a class poll for a lesson and serve its projector page "
        "(or use a sub-command).",
    )
    parser.add_argument(
        "--lesson", type=arguments.count(1, 8, "a lesson"), help="the lesson (1 to 8)"
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to serve on; 0.0.0.0 for the whole LAN"
    )
    parser.add_argument(
        "--port",
        type=arguments.port,
        default=None,
        help=f"the port (default {CLASS_PORT}, or the next free one)",
    )
    _store_argument(parser)
    parser.add_argument(
        "--lesson-pages",
        type=arguments.count(0, 1000, "--lesson-pages"),
        default=MAX_PAGES,
        help=f"devices that get the lesson as an app (a kernel of about 111 MB each; default "
        f"{MAX_PAGES}); the others answer on the light page; 0: light pages only",
    )
    parser.add_argument("--no-browser", action="store_true", help="do not open the projector")
    parser.set_defaults(func=_serve)
    commands = parser.add_subparsers(dest="command", required=False)

    create = commands.add_parser(
        "create",
        help="create a class poll; prints its code, the teacher's token and link, the join link",
        description="Create a class poll and print {class, teacher: {token, url}, join, "
        "questions}. The teacher's token is shown only now.",
    )
    create.add_argument(
        "--lesson", type=arguments.count(1, 8, "a lesson"), required=True, help="1 to 8"
    )
    create.add_argument(
        "--url",
        type=arguments.text,
        default=None,
        help="the class page the links open (default http://127.0.0.1:8871/housing-lab/class)",
    )
    create.add_argument("--json", action="store_true", help="print JSON (the only output form)")
    _store_argument(create)
    create.set_defaults(func=_create)

    answer = _command(commands, "answer", "record one device's answer", _answer, token=False)
    answer.add_argument("--device", type=arguments.text, required=True, help="the device key")
    answer.add_argument("--question", type=arguments.text, required=True, help="question id")
    answer.add_argument("--choice", type=arguments.text, required=True, help="choice id")

    tally = _command(commands, "tally", "print the counts (teacher's token)", _tally)
    tally.add_argument("--json", action="store_true", help="print JSON (the only output form)")
    for name, helptext, func in (
        ("show", "show a question's distribution on the projector and devices", _show),
        ("reveal", "reveal a question's answer on every device; answers close", _reveal),
        ("vote-again", "open a second round of a question (the first is kept)", _vote_again),
    ):
        command = _command(commands, name, helptext, func)
        command.add_argument("--question", type=arguments.text, required=True, help="question id")
        if name == "show":
            command.add_argument("--hide", action="store_true", help="hide it again")
    _command(commands, "close", "close the class: no more answers", _close)
    export = _command(
        commands, "export", "write the counts per question, round and choice as CSV", _export
    )
    export.add_argument("--out", type=arguments.text, required=True, help="the CSV file")
    export.add_argument("--force", action="store_true", help="replace an existing file")


def _command(
    commands: argparse._SubParsersAction,
    name: str,
    helptext: str,
    func: Any,
    *,
    token: bool = True,
) -> argparse.ArgumentParser:
    command = commands.add_parser(
        name, help=helptext, description=helptext[0].upper() + helptext[1:] + "."
    )
    command.add_argument("code", type=arguments.text, help="the class code")
    if token:
        command.add_argument(
            "--token", type=arguments.text, required=True, help="the teacher's token"
        )
    _store_argument(command)
    command.set_defaults(func=func)
    return command


def _store_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--store",
        type=arguments.text,
        default=None,
        help="store URL: sqlite:///path.sqlite or postgresql://... (default: the data folder)",
    )


def _polls(args: argparse.Namespace) -> Any:
    from housing_lab.rooms.class_poll import ClassStore

    return ClassStore(args.store)


def _print(document: Any) -> None:
    print(json.dumps(document))


def _create(args: argparse.Namespace) -> None:
    from housing_lab.rooms.class_poll import DEFAULT_CLASS_PAGE
    from housing_lab.rooms.urls import check_page_url

    page = check_page_url(args.url or DEFAULT_CLASS_PAGE, "--url")
    with _polls(args) as polls:
        _print(polls.create_class(args.lesson, page=page))


def _answer(args: argparse.Namespace) -> None:
    with _polls(args) as polls:
        _print(polls.answer(args.code, args.device, args.question, args.choice))


def _tally(args: argparse.Namespace) -> None:
    with _polls(args) as polls:
        _print(polls.tally(args.code, args.token))


def _show(args: argparse.Namespace) -> None:
    with _polls(args) as polls:
        _print(polls.show(args.code, args.token, args.question, not args.hide))


def _reveal(args: argparse.Namespace) -> None:
    with _polls(args) as polls:
        _print(polls.reveal(args.code, args.token, args.question))


def _vote_again(args: argparse.Namespace) -> None:
    with _polls(args) as polls:
        _print(polls.vote_again(args.code, args.token, args.question))


def _close(args: argparse.Namespace) -> None:
    with _polls(args) as polls:
        _print(polls.close_class(args.code, args.token))


def _export(args: argparse.Namespace) -> None:
    out = Path(args.out)
    check_new(out, args.force)  # before the store is asked: a refused file leaves nothing
    with _polls(args) as polls:
        rows = polls.export_rows(args.code, args.token)

    def write(handle: Any) -> None:
        writer = csv.DictWriter(handle, fieldnames=EXPORT_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)

    write_atomic(out, write)
    _print({"class": rows[0]["class"] if rows else args.code, "rows": len(rows), "out": str(out)})


def _serve(args: argparse.Namespace) -> int:
    """Create a poll for `--lesson`, print the projector's and the join link, and serve."""
    from housing_lab.rooms.class_poll import ClassStore
    from housing_lab.rooms.links import check_host, loopback_warning, qr_svg
    from housing_lab.rooms.urls import without_password

    if args.lesson is None:
        raise HousingLabError("name the lesson: housing-lab class --lesson 3 --host 0.0.0.0")
    from housing_lab.commands.lessons import run_server
    from housing_lab.server.class_app import serve
    from housing_lab.server.room_kernels import STORE_ENV

    check_host(args.host)
    port = serve_port(args.host, args.port, CLASS_PORT)
    host = link_host(args.host)
    shown_host = f"[{host}]" if ":" in host and not host.startswith("[") else host
    page = f"http://{shown_host}:{port}{ROUTE}"
    with ClassStore(args.store) as polls:
        created = polls.create_class(args.lesson, page=page)
    qr_svg(created["join"])  # segno draws the join code on the projector: fail now if missing
    print(f"Class {created['class']} (lesson {args.lesson}); store {without_password(polls.url)}")
    print(f"Teacher (projector): {created['teacher']['url']}")
    print(f"Students join: {created['join']}")
    if loopback_warning(created["join"]):
        print(
            f"The join link names {host}: phones and other computers cannot open it. Serve "
            "with --host 0.0.0.0 (the laptop's address on the Wi-Fi).",
            file=sys.stderr,
        )
    lesson_app = _lesson_app(args.lesson, args.lesson_pages)
    if lesson_app is None:
        print("Devices answer on the join page (no lesson app).", flush=True)
    else:
        print(f"Devices open {lesson_app.name} as an app (at most {args.lesson_pages}).")
    print("Ctrl-C stops the server; the class stays in the store.", flush=True)
    if not args.no_browser and not os.environ.get("CI"):
        threading.Thread(
            target=_open_when_ready, args=(created["teacher"]["url"],), daemon=True
        ).start()
    if lesson_app is None:
        return serve(args.host, port, args.store)
    command = lesson_app_command(lesson_app, args.host, port, host, args.lesson_pages)
    return run_server(command, False, {**os.environ, STORE_ENV: polls.url})


def _lesson_app(lesson: int, pages: int) -> Path | None:
    """The lesson notebook to serve as an app, or None (light pages only: `--lesson-pages 0`,
    no Voila, or no lessons folder; said on stderr)."""
    import importlib.util

    from housing_lab.commands.lessons import find_lesson, lessons_folder

    if pages == 0:
        return None
    if importlib.util.find_spec("voila") is None:
        print("Voila is not installed: pip install 'housing-lab[lessons]'.", file=sys.stderr)
        return None
    try:
        return find_lesson(lessons_folder(), str(lesson))
    except HousingLabError as error:
        print(f"No lesson app: {error}", file=sys.stderr)
        return None


def lesson_app_command(notebook: Path, host: str, port: int, link: str, pages: int) -> list[str]:
    """Voila on the lesson's folder (housing_lab/apps/server.py) serving the class pages too,
    every lesson page gated (a kernel only for a device of an open class), on `port` only (the
    links name it), quiet: the command prints the class's links itself."""
    folder = notebook.parent
    return [
        sys.executable,
        "-m",
        "housing_lab.apps.server",
        str(folder),
        f"--HousingLabVoila.start_page={notebook.name}",
        f"--HousingLabVoila.lessons_dir={folder}",
        "--HousingLabVoila.class_polls=True",
        "--HousingLabVoila.gate_lessons=True",
        f"--HousingLabVoila.link_host={link}",
        "--HousingLabVoila.say_address=False",
        f"--LessonKernels.max_pages={pages}",
        f"--Voila.ip={host}",
        f"--port={port}",
        "--Voila.port_retries=0",
        "--no-browser",
        "--theme=light",
        "--show_tracebacks=False",
    ]


def _open_when_ready(url: str) -> None:
    """Open the projector page once the server answers (Voila takes a few seconds to start),
    or after `BROWSER_WAIT_SECONDS` whatever happens."""
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    deadline = time.monotonic() + BROWSER_WAIT_SECONDS
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 80), 1):
                break
        except OSError:
            time.sleep(0.3)
    webbrowser.open(url)

"""`housing-lab lab` and `housing-lab app LESSON`: open the lessons in JupyterLab or Voila.

`lab` works on a copy of the lessons (so the next class never inherits this class's outputs),
opens lesson 1 directly, hides JupyterLab's news pop-up, and takes JupyterLab and its kernels
down with it when it is stopped.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import pathlib
import secrets
import shutil
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from typing import IO

from housing_lab import outputs
from housing_lab.apps.pages import docs_beside, is_local, links_in
from housing_lab.commands import arguments
from housing_lab.errors import HousingLabError, quote_path, shown
from housing_lab.jsonio import JsonInputError, read_text

LESSONS_ENV = "HOUSING_LAB_LESSONS"
WORKDIR_ENV = "HOUSING_LAB_WORKDIR"
# JupyterLab settings shipped with the package (no news pop-up); Binder's postBuild uses them too.
SETTINGS_DIR = pathlib.Path(__file__).resolve().parents[1] / "jupyter_settings"
# The no-code apps: one widget each, with a title and a short "how to play" (tools/build_apps.py).
APPS_DIR = pathlib.Path(__file__).resolve().parents[1] / "apps"
APPS = ("lab", "streetcar", "table")
LESSON_FILES = ("*.ipynb", "*.md")
# Not Voila's 8866, which `housing-lab classroom` serves on: an app left running must not take
# the classroom's port (Voila moves on from a busy port and prints the address it serves).
APP_PORT = 8870
STOP_GRACE_SECONDS = 20
STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGINT", "SIGHUP") if hasattr(signal, name)
)


def register(groups: argparse._SubParsersAction) -> None:
    lab = groups.add_parser("lab", help="open the lessons in JupyterLab (the main job)")
    lab.add_argument(
        "--lessons",
        help=f"the lessons folder (default: ${LESSONS_ENV}, "
        "./lessons, or the one beside the package)",
    )
    lab.add_argument(
        "--dir",
        help=f"the working copy of the lessons (default: ${WORKDIR_ENV} or "
        "~/housing-lab-lessons); copied there on first run, never over a student's work",
    )
    _server_options(lab, 8888)
    lab.set_defaults(func=run_lab)

    app = groups.add_parser(
        "app", help="open an app (lab, streetcar, table) or a lesson in Voila, without code"
    )
    app.add_argument(
        "lesson",
        help="an app (lab, streetcar, table), a lesson number (3), name (03_policies) "
        "or .ipynb path",
    )
    app.add_argument("--lessons", help="the lessons folder (as for `lab`)")
    app.add_argument(
        "--host",
        default=None,
        help="address to serve on (default this computer only); 0.0.0.0 lets a class poll "
        "started from a lesson page reach the devices on the Wi-Fi",
    )
    _server_options(app, APP_PORT)
    app.set_defaults(func=run_app)


def _server_options(parser: argparse.ArgumentParser, port: int) -> None:
    """--port, --no-browser and --dry-run, alike for JupyterLab and Voila."""
    parser.add_argument(
        "--port",
        type=arguments.port,
        default=None,
        help=f"the port to serve on (default: {port} or the next free)",
    )
    parser.add_argument(
        "--no-browser", action="store_true", help="do not open a browser: print the address only"
    )
    parser.add_argument("--dry-run", action="store_true", help="print the command, do not run it")


def lessons_folder(explicit: str | None = None) -> pathlib.Path:
    """Where the lesson notebooks are: as given, $HOUSING_LAB_LESSONS, ./lessons, or the
    repository the package was installed from (`pip install -e .`)."""
    candidates = [
        explicit,
        os.environ.get(LESSONS_ENV),
        "lessons",
        pathlib.Path(__file__).resolve().parents[2] / "lessons",
    ]
    if explicit is not None and not pathlib.Path(explicit).is_dir():
        raise HousingLabError(f"the lessons folder {str(explicit)!r} does not exist")
    for candidate in candidates:
        if candidate and pathlib.Path(candidate).is_dir():
            return pathlib.Path(candidate).resolve()
    raise HousingLabError(
        "cannot find the lessons folder: run from the housing_lab checkout, or pass --lessons DIR"
    )


def find_lesson(folder: pathlib.Path, lesson: str) -> pathlib.Path:
    path = pathlib.Path(lesson)
    if path.suffix == ".ipynb" and path.is_file():
        return path.resolve()
    notebooks = sorted(folder.glob("*.ipynb"))
    for notebook in notebooks:
        number = notebook.stem.split("_", 1)[0]
        if lesson in (notebook.stem, notebook.name) or (
            _numeral(lesson) and _numeral(number) and number.lstrip("0") == lesson.lstrip("0")
        ):
            return notebook
    names = ", ".join(n.stem for n in notebooks) or "none"
    apps = ", ".join(APPS)
    raise HousingLabError(
        f"no app or lesson {shown(lesson)} in {quote_path(folder)} (apps: {apps}; lessons: {names})"
    )


def _numeral(text: str) -> bool:
    """Digits 0-9 only: compared as text, so a number of any length is no traceback (Python
    turns at most 4,300 digits into an int) and "٣" or "³" is no lesson number."""
    return text.isascii() and text.isdigit()


def require_installed(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        raise HousingLabError(
            f"{module} is not installed: pip install -e '.[lessons]' (or pip install {module})"
        )


def working_folder(explicit: str | None = None) -> pathlib.Path:
    """Where `lab` keeps the class's own copy of the lessons."""
    chosen = explicit or os.environ.get(WORKDIR_ENV) or pathlib.Path.home() / "housing-lab-lessons"
    return pathlib.Path(chosen).expanduser().resolve()


def copy_lessons(source: pathlib.Path, target: pathlib.Path) -> list[pathlib.Path]:
    """Copy the lessons (and the docs they link to, into `docs/`) that `target` lacks; a file
    already there (a student's work) is kept.

    All or nothing (`outputs.write_all`): a disk that fills mid-copy leaves no half-copied
    notebook, and no folder made for the copy. Returns the files copied. Deleting a notebook
    from `target` brings a fresh one next time."""
    if target == source:
        raise HousingLabError(
            f"the working copy {str(target)!r} is the lessons folder itself: choose another --dir"
        )
    docs = docs_beside(source).resolve()
    originals = [(original, target / original.name) for original in _lesson_files(source)]
    originals += [
        (doc, target / "docs" / doc.relative_to(docs)) for doc in _doc_files(source, docs)
    ]
    missing = [(original, copy) for original, copy in originals if not copy.exists()]
    made: list[pathlib.Path] = []
    try:
        for folder in sorted({copy.parent for _, copy in missing} | {target}):
            for parent in [*reversed(folder.parents), folder]:
                if not parent.exists():
                    parent.mkdir()
                    made.append(parent)
        outputs.write_all([(copy, _copier(original)) for original, copy in missing], binary=True)
    except (OSError, HousingLabError, KeyboardInterrupt) as error:
        for folder in reversed(made):
            with contextlib.suppress(OSError):
                folder.rmdir()
        if isinstance(error, KeyboardInterrupt):
            raise outputs.Stopped(f"nothing copied into {quote_path(target)}") from None
        reason = error.strerror if isinstance(error, OSError) else str(error)
        raise HousingLabError(f"cannot write the lessons into {str(target)!r}: {reason}") from None
    return [copy for _, copy in missing]


def _copier(original: pathlib.Path) -> outputs.Writer:
    """What copies `original` into the handle `write_all` gives (its bytes, unchanged)."""

    def copy(handle: IO[bytes]) -> None:
        with original.open("rb") as source:
            shutil.copyfileobj(source, handle)

    return copy


def _lesson_files(source: pathlib.Path) -> list[pathlib.Path]:
    """The lesson notebooks and pages: files only (a FIFO named 01.ipynb is no lesson)."""
    return [
        path for pattern in LESSON_FILES for path in sorted(source.glob(pattern)) if path.is_file()
    ]


def _read(path: pathlib.Path) -> str:
    """A lesson or doc as text: one line naming it if it is not UTF-8 (a notebook saved in
    Latin-1) or cannot be read, never a UnicodeDecodeError."""
    try:
        return read_text(path)
    except JsonInputError as error:
        raise HousingLabError(f"cannot read the lessons: {error}") from None


def _doc_files(source: pathlib.Path, docs: pathlib.Path) -> list[pathlib.Path]:
    """The docs the lessons link to as `../docs/...` (JupyterLab resolves that from the working
    copy's top folder to its `docs/`), with the pages and images those docs link to in turn."""
    found: set[pathlib.Path] = set()
    pending = [
        (docs / target.split("#")[0][len("../docs/") :]).resolve()
        for lesson in _lesson_files(source)
        for target in links_in(_read(lesson))
        if target.startswith("../docs/")
    ]
    while pending:
        doc = pending.pop()
        if doc in found or not doc.is_file() or not doc.is_relative_to(docs.resolve()):
            continue
        found.add(doc)
        if doc.suffix == ".md":
            text = _read(doc)
            pending += [
                (doc.parent / t.split("#")[0]).resolve() for t in links_in(text) if is_local(t)
            ]
    return sorted(found)


class _Stop(Exception):
    """A stop signal reached the wrapper."""


@contextlib.contextmanager
def _signals_raise_stop(signals: tuple[signal.Signals, ...]) -> Iterator[None]:
    def stop(signum: int, frame: object) -> None:
        raise _Stop(signum)

    previous = {}
    for sig in signals:
        previous[sig] = signal.signal(sig, stop)
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM lets Jupyter shut its kernels down; whatever is left after the grace is killed."""
    with contextlib.suppress(ProcessLookupError):
        process.terminate()
    try:
        process.wait(timeout=STOP_GRACE_SECONDS)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def run_server(command: list[str], dry_run: bool, env: dict[str, str] | None = None) -> int:
    """Run the server in its own session: a terminal's Ctrl-C reaches only this wrapper, which
    then stops the server itself (no "shut down? y/n" prompt, no orphan left on the port)."""
    if dry_run:
        print(" ".join(command))
        return 0
    process = subprocess.Popen(command, start_new_session=True, env=env)
    try:
        with _signals_raise_stop(STOP_SIGNALS):
            return process.wait()
    except _Stop:
        _stop(process)
        return 0
    finally:
        if process.poll() is None:
            _stop(process)


def run_lab(args: argparse.Namespace) -> int:
    source = lessons_folder(args.lessons)
    require_installed("jupyterlab")
    folder = working_folder(args.dir)
    copied = [] if args.dry_run else copy_lessons(source, folder)
    first = sorted(source.glob("01_*.ipynb"))
    command = [
        sys.executable,
        "-m",
        "jupyter",
        "lab",
        f"--ServerApp.root_dir={folder}",
        f"--LabApp.app_settings_dir={SETTINGS_DIR}",
    ]
    # `?reset`: each start opens lesson 1 alone, not every tab of the last session (each of
    # which would start a kernel of its own)
    page = f"lab/tree/{first[0].name}?reset" if first else "lab?reset"
    command.append(f"--LabApp.default_url=/{page}")
    env = None
    if args.no_browser:  # the address only: Jupyter's log is quieted and we print the link
        port = args.port or _free_port_from(8888)
        token = os.environ.get("JUPYTER_TOKEN") or secrets.token_hex(24)
        env = {**os.environ, "JUPYTER_TOKEN": token}  # not on the command line (ps shows it)
        command += ["--no-browser", f"--port={port}", "--ServerApp.port_retries=0"]
        command += ["--ServerApp.log_level=WARN", "--LabApp.log_level=WARN"]
        address = f"http://localhost:{port}/{page}&token={token}"
    elif args.port:
        command.append(f"--port={args.port}")
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # containers and lab images often run as root
        command.append("--allow-root")
    if not args.dry_run:
        fresh = f" ({len(copied)} copied now)" if copied else ""
        print(
            f"Lessons: {folder}{fresh}. This is the class's working copy; the shipped lessons "
            "stay as they are. Delete a notebook here to get a fresh one next time.",
            flush=True,
        )
        if args.no_browser:
            print(f"Open {address}", flush=True)
    return run_server(command, args.dry_run, env)


def _free_port_from(port: int, tries: int = 50) -> int:
    """The first port from `port` that nothing on this machine listens on."""
    for candidate in range(port, port + tries):
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", candidate)) != 0:
                return candidate
    raise HousingLabError(f"no free port between {port} and {port + tries - 1}: pass --port")


def class_poll_options(host: str | None) -> list[str]:
    """The app's class polls: a "Start a class poll" link on each lesson page shown on this
    computer; served to the Wi-Fi (`--host 0.0.0.0`), the links name the LAN address and a
    device's lesson page needs its class's join link (housing_lab/server/lesson_gate.py)."""
    options = ["--HousingLabVoila.class_polls=True"]
    if host is None:
        return options
    from housing_lab.rooms.links import check_host, lan_host

    check_host(host)
    options.append(f"--Voila.ip={host}")
    if host not in ("127.0.0.1", "::1", "localhost"):
        every = host in ("0.0.0.0", "::", "")  # the links name the LAN address, as `classroom`'s
        options += ["--HousingLabVoila.gate_lessons=True"]
        options.append(f"--HousingLabVoila.link_host={lan_host() if every else host}")
    return options


def run_app(args: argparse.Namespace) -> int:
    """Voila on the notebook's folder (housing_lab/apps/server.py), opening the notebook: its
    links (the rules page, the next lesson, the docs) open as pages too."""
    rules: pathlib.Path | None = None
    if args.lesson in APPS:
        notebook = APPS_DIR / f"{args.lesson}.ipynb"
        with contextlib.suppress(HousingLabError):  # apps need no lessons; their rules page does
            rules = lessons_folder(args.lessons)
    else:
        rules = lessons_folder(args.lessons)
        notebook = find_lesson(rules, args.lesson)
    require_installed("voila")
    command = [
        sys.executable,
        "-m",
        "housing_lab.apps.server",
        str(notebook.parent),
        f"--HousingLabVoila.start_page={notebook.name}",
    ]
    if rules is not None:
        command.append(f"--HousingLabVoila.lessons_dir={rules}")
    command += class_poll_options(args.host)
    command.append(f"--port={args.port or APP_PORT}")
    if args.no_browser:
        command.append("--no-browser")
    return run_server(command, args.dry_run)

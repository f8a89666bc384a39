"""`housing-lab lab` and `housing-lab app LESSON`: open the lessons in JupyterLab or Voila."""

from __future__ import annotations

import argparse
import importlib.util
import os
import pathlib
import subprocess
import sys

from housing_lab.errors import HousingLabError

LESSONS_ENV = "HOUSING_LAB_LESSONS"


def register(groups: argparse._SubParsersAction) -> None:
    lab = groups.add_parser("lab", help="open the lessons in JupyterLab (the main job)")
    lab.add_argument(
        "--lessons",
        help=f"the lessons folder (default: ${LESSONS_ENV}, "
        "./lessons, or the one beside the package)",
    )
    lab.add_argument("--port", type=int, default=None)
    lab.add_argument("--no-browser", action="store_true", help="print the address only")
    lab.add_argument("--dry-run", action="store_true", help="print the command, do not run it")
    lab.set_defaults(func=run_lab)

    app = groups.add_parser("app", help="open one lesson as a Voila app (no code shown)")
    app.add_argument("lesson", help="a lesson number (3), name (03_policies) or .ipynb path")
    app.add_argument("--lessons", help="the lessons folder (as for `lab`)")
    app.add_argument("--port", type=int, default=None)
    app.add_argument("--no-browser", action="store_true")
    app.add_argument("--dry-run", action="store_true")
    app.set_defaults(func=run_app)


def lessons_folder(explicit: str | None = None) -> pathlib.Path:
    """Where the lesson notebooks are: as given, $HOUSING_LAB_LESSONS, ./lessons, or the
    repository the package was installed from (`pip install -e .`)."""
    candidates = [
        explicit,
        os.environ.get(LESSONS_ENV),
        "lessons",
        pathlib.Path(__file__).resolve().parents[2] / "lessons",
    ]
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
            lesson.isdigit() and number.isdigit() and int(number) == int(lesson)
        ):
            return notebook
    names = ", ".join(n.stem for n in notebooks) or "none"
    raise HousingLabError(f"no lesson {lesson!r} in {folder} (lessons: {names})")


def _require(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        raise HousingLabError(
            f"{module} is not installed: pip install -e '.[lessons]' (or pip install {module})"
        )


def _run(command: list[str], dry_run: bool) -> int:
    if dry_run:
        print(" ".join(command))
        return 0
    return subprocess.call(command)


def run_lab(args: argparse.Namespace) -> int:
    folder = lessons_folder(args.lessons)
    _require("jupyterlab")
    command = [sys.executable, "-m", "jupyter", "lab", f"--ServerApp.root_dir={folder}"]
    first = sorted(folder.glob("01_*.ipynb"))
    if first:
        command.append(str(first[0]))
    if args.port:
        command.append(f"--port={args.port}")
    if args.no_browser:
        command.append("--no-browser")
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # containers and lab images often run as root
        command.append("--allow-root")
    return _run(command, args.dry_run)


def run_app(args: argparse.Namespace) -> int:
    notebook = find_lesson(lessons_folder(args.lessons), args.lesson)
    _require("voila")
    command = [sys.executable, "-m", "voila", str(notebook)]
    if args.port:
        command.append(f"--port={args.port}")
    if args.no_browser:
        command.append("--no-browser")
    return _run(command, args.dry_run)

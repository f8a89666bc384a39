"""Where a class poll's join link sends a device: its lesson, opened as an app in class mode.

The join link (and the projector's QR code) opens the class's join page; when the server can
serve the class's lesson as an app, the page sends the device on to it, with the class code and
the device's anonymous key after ``#`` (`lesson_app_link`), which no server receives. Which
address serves lesson N as an app:

- `housing-lab class` and `housing-lab app` (Voila on the lessons folder, housing_lab/apps/
  server.py): ``/voila/render/NN_name.ipynb``;
- a Jupyter server (JupyterLab, a hub's single-user server) with Voila's server extension on,
  and the lessons under its root folder: ``{base_url}voila/render/<the path from the root>``
  (`jupyter_lesson_apps`). Without either, there is no lesson app and the join page is the
  class's light answer page.

>>> lesson_app_link("/voila/render/03_policies.ipynb", "k7m2qx", "a-device-key-0001")
'/voila/render/03_policies.ipynb#class=K7M2QX&device=a-device-key-0001'
"""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote, urlencode

LESSONS_ENV = "HOUSING_LAB_LESSONS"  # as `housing-lab lab` and `app` read it
WORKING_COPY = "housing-lab-lessons"  # the folder `housing-lab lab` copies the lessons into
# lesson pages (kernels) a class server opens at once: a lesson 3 page's kernel is 111 MB
# resident (measured), so 32 are about 3.6 GB: a class of 30 on an 8 GB laptop (docs/classroom.md)
MAX_PAGES = 32
VOILA_EXTENSIONS = ("voila.server_extension", "voila")
_LESSON_FILE = re.compile(r"(\d{2})_[\w-]+\.ipynb")


def lesson_notebooks(folder: Path) -> dict[int, str]:
    """The lesson notebooks of a folder by number: ``{3: "03_policies.ipynb", ...}``."""
    found: dict[int, str] = {}
    if not folder.is_dir():
        return found
    for path in sorted(folder.glob("[0-9][0-9]_*.ipynb")):
        match = _LESSON_FILE.fullmatch(path.name)
        if match and path.is_file():
            found.setdefault(int(match.group(1)), path.name)
    return found


def lesson_number(path: str) -> int | None:
    """The lesson a page path shows (``.../03_policies.ipynb`` is 3), or None."""
    match = _LESSON_FILE.fullmatch(PurePosixPath(path).name)
    return int(match.group(1)) if match else None


def render_paths(folder: Path, root: Path, base_url: str = "/") -> dict[int, str]:
    """Each lesson's Voila address on a server whose notebooks are under `root` (`folder` must
    be inside it: Voila renders nothing else), as URL paths: ``{3: "/voila/render/03_...``."""
    folder, root = folder.resolve(), root.resolve()
    if not folder.is_relative_to(root):
        return {}
    inside = folder.relative_to(root).as_posix()
    prefix = (
        base_url.rstrip("/") + "/voila/render/" + ("" if inside == "." else quote(inside) + "/")
    )
    return {number: prefix + quote(name) for number, name in lesson_notebooks(folder).items()}


def lesson_app_link(path: str, code: str, device: str) -> str:
    """A device's lesson app link: the class and the device key in the fragment."""
    return f"{path}#{urlencode({'class': code.strip().upper(), 'device': device})}"


def lessons_candidates(root: Path) -> list[Path]:
    """Where a Jupyter server's lessons may be: `$HOUSING_LAB_LESSONS`, the working copy
    `housing-lab lab` makes in the home (the server's root on a hub), `lessons/` under the root
    (a checkout, Binder), and the checkout the package runs from."""
    found = [Path(os.environ[LESSONS_ENV])] if os.environ.get(LESSONS_ENV) else []
    found += [root / WORKING_COPY, root / "lessons"]
    found.append(Path(__file__).resolve().parents[2] / "lessons")
    return found


def jupyter_lesson_apps(server_app: Any) -> dict[int, str]:
    """Each lesson's app address on this Jupyter server, or {} when Voila's server extension is
    off or no lessons folder is under the server's root."""
    enabled = getattr(server_app, "jpserver_extensions", None) or {}
    if not any(enabled.get(name) for name in VOILA_EXTENSIONS):
        return {}
    root = Path(getattr(server_app, "root_dir", "") or ".").expanduser()
    base = server_app.web_app.settings.get("base_url", "/")
    for folder in lessons_candidates(root):
        paths = render_paths(folder, root, base)
        if paths:
            return paths
    return {}

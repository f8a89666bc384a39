"""The room page as a Jupyter server route: Voila's page for the room notebook in the package.

Voila's own route (``voila/render/<path>``) only reaches notebooks under the server's root
folder (each user's home on a hub), and the room notebook is inside the installed package. So
this route is Voila's handler with the notebook fixed and a contents manager rooted at the
notebook's folder: the same rendering, kernels and widget machinery as ``voila/render``, for a
file no user has to copy. The page's query holds the room code only (the key stays in the
link's ``#fragment``, which no server sees: docs/rooms.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

ROOM_NOTEBOOK = Path(__file__).resolve().parents[1] / "apps" / "classroom" / "room.ipynb"
ROUTE = "housing-lab/room"


def room_handler_class() -> type:
    """Voila's page handler, serving the packaged room notebook whatever the server's root."""
    from jupyter_server.services.contents.filemanager import FileContentsManager
    from voila.tornado.handler import TornadoVoilaHandler

    class RoomPageHandler(TornadoVoilaHandler):
        """``GET {base_url}housing-lab/room?room=CODE``: the room page (login as the server's)."""

        _contents: FileContentsManager | None = None

        @property
        def contents_manager(self) -> FileContentsManager:  # type: ignore[override]
            if RoomPageHandler._contents is None:
                RoomPageHandler._contents = FileContentsManager(root_dir=str(ROOM_NOTEBOOK.parent))
            return RoomPageHandler._contents

    return RoomPageHandler


def add_room_page(server_app: Any) -> None:
    """Add the room page route to a running Jupyter server (its base URL, its login)."""
    from jupyter_server.utils import url_path_join
    from voila.configuration import VoilaConfiguration
    from voila.paths import collect_template_paths

    configuration = VoilaConfiguration(parent=server_app)
    configuration.show_tracebacks = False
    template_paths = collect_template_paths(["voila", "nbconvert"], configuration.template)
    base_url = server_app.web_app.settings["base_url"]
    route = url_path_join(base_url, ROUTE) + "/?"
    options = {
        "config": server_app.config,
        "template_paths": template_paths,
        "voila_configuration": configuration,
        "notebook_path": ROOM_NOTEBOOK.name,
    }
    server_app.web_app.add_handlers(".*$", [(route, room_handler_class(), options)])
    server_app.log.info("housing-lab: the classroom room page is at %s", route.rstrip("/?"))

"""The room page as a Jupyter server route: Voila's page for the room notebook in the package.

Voila's own route (``voila/render/<path>``) only reaches notebooks under the server's root
folder (each user's home on a hub), and the room notebook is inside the installed package. So
this route is Voila's handler with the notebook fixed and a contents manager rooted at the
notebook's folder: the same rendering, kernels and widget machinery as ``voila/render``, for a
file no user has to copy. The page's query holds the room code only (the key stays in the
link's ``#fragment``, which no server sees: docs/rooms.md), so the page is gated
(`room_kernels.GatedRoomPage`): a kernel starts only once the page has shown a valid key, few
per key, and the room pages' kernels are shut down soon after their page is gone (the server's
other kernels, a user's notebooks, are never touched). The room notebook is trusted in the
handler's own in-memory trust database, so the log has no "room.ipynb is not trusted".
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from housing_lab.server.room_kernels import (
    SETTINGS_KEY,
    GatedRoomPage,
    RoomKernels,
    quiet_tornado_notices,
)

ROOM_NOTEBOOK = Path(__file__).resolve().parents[1] / "apps" / "classroom" / "room.ipynb"
ROUTE = "housing-lab/room"


def room_handler_class() -> type:
    """Voila's page handler, serving the packaged room notebook whatever the server's root."""
    from jupyter_server.services.contents.filemanager import FileContentsManager
    from voila.tornado.handler import TornadoVoilaHandler

    class RoomPageHandler(GatedRoomPage, TornadoVoilaHandler):
        """``GET {base_url}housing-lab/room?room=CODE``: the room page (login as the server's)."""

        _contents: FileContentsManager | None = None

        @property
        def contents_manager(self) -> FileContentsManager:  # type: ignore[override]
            if RoomPageHandler._contents is None:
                RoomPageHandler._contents = _trusting_contents(FileContentsManager)
            return RoomPageHandler._contents

    return RoomPageHandler


def _trusting_contents(manager_class: type) -> Any:
    """A contents manager at the room notebook's folder whose trust database (in memory, with
    its own secret: the user's are not touched) holds the room notebook, which is ours."""
    import nbformat
    from nbformat.sign import NotebookNotary

    notary = NotebookNotary(db_file=":memory:", secret=secrets.token_bytes(32))
    notary.sign(nbformat.read(ROOM_NOTEBOOK, as_version=4))
    return manager_class(root_dir=str(ROOM_NOTEBOOK.parent), notary=notary)


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
    quiet_tornado_notices()  # a culled room kernel's closed sockets, said per kernel
    settings = server_app.web_app.settings
    settings[SETTINGS_KEY] = RoomKernels(settings["kernel_manager"], parent=server_app)
    server_app.web_app.add_handlers(".*$", [(route, room_handler_class(), options)])
    server_app.log.info("housing-lab: the classroom room page is at %s", route.rstrip("/?"))

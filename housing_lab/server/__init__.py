"""The Jupyter server extension: every Jupyter server where housing-lab is installed serves the
classroom room page at ``{base_url}housing-lab/room`` (JupyterLab, Notebook,
``jupyterhub-singleuser``, a laptop's own server).

Installing the package enables it (the wheel's ``etc/jupyter/jupyter_server_config.d/
housing_lab.json``); nothing is copied into users' homes. The page is Voila's page for the
room notebook inside the package (`room_page.RoomPageHandler`), so Voila's server extension,
which Voila enables on install, provides the templates, static files and kernels.
"""

from __future__ import annotations

from typing import Any


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "housing_lab.server"}]


def _load_jupyter_server_extension(server_app: Any) -> None:
    from housing_lab.server.room_page import add_room_page

    add_room_page(server_app)

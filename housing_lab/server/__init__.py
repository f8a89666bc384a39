"""The Jupyter server extension: every Jupyter server where housing-lab is installed serves the
classroom room page at ``{base_url}housing-lab/room`` (JupyterLab, Notebook,
``jupyterhub-singleuser``, a laptop's own server), and the class poll's pages and API at
``{base_url}housing-lab/class`` (`class_poll`: Tornado handlers, no kernel).

Installing the package enables it (the wheel's ``etc/jupyter/jupyter_server_config.d/
housing_lab.json``); nothing is copied into users' homes. The page is Voila's page for the
room notebook inside the package (`room_page.RoomPageHandler`), so Voila's server extension,
which Voila enables on install, provides the templates, static files and kernels.
"""

from __future__ import annotations

import warnings
from typing import Any

# notebook_shim reads ServerApp.token while it links, jupyter_server 2 warns about that trait and
# Voila's import turns traitlets' deprecation warnings on: every JupyterLab start printed a
# DeprecationWarning that is not ours and reads like a fault to a teacher.
UPSTREAM_TOKEN_WARNING = "ServerApp.token config is deprecated"


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "housing_lab.server"}]


def _link_jupyter_server_extension(server_app: Any) -> None:
    """Runs when the server links its extensions (ours first, before notebook_shim), after every
    extension package has been imported, so this filter stands before Voila's."""
    warnings.filterwarnings("ignore", message=UPSTREAM_TOKEN_WARNING, category=DeprecationWarning)


def _load_jupyter_server_extension(server_app: Any) -> None:
    from housing_lab.server.class_poll import add_class_poll
    from housing_lab.server.room_page import add_room_page

    add_room_page(server_app)
    add_class_poll(server_app)

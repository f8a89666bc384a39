"""The room page's Jupyter server extension is enabled by the install itself (wheel or
`pip install -e .`), so every Jupyter server in this environment serves housing-lab/room."""

from __future__ import annotations

import json
import pathlib

from jupyter_core.paths import jupyter_config_path

from housing_lab.server import _jupyter_server_extension_points
from housing_lab.server.room_page import ROOM_NOTEBOOK

CONFIG = pathlib.Path("jupyter_server_config.d") / "housing_lab.json"


def test_the_install_enables_the_extension():
    found = [pathlib.Path(folder) / CONFIG for folder in jupyter_config_path()]
    installed = [path for path in found if path.is_file()]
    assert installed, f"no {CONFIG} in {jupyter_config_path()}: reinstall with pip install -e ."
    enabled = json.loads(installed[0].read_text())["ServerApp"]["jpserver_extensions"]
    assert enabled == {"housing_lab.server": True}
    assert _jupyter_server_extension_points() == [{"module": "housing_lab.server"}]


def test_the_page_notebook_is_in_the_package():
    notebook = json.loads(ROOM_NOTEBOOK.read_text())
    assert "page_from_environment" in "".join(notebook["cells"][0]["source"])

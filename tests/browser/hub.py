"""A real JupyterHub for the classroom test, started by the test on 127.0.0.1: the dummy login,
`SimpleLocalProcessSpawner` (homes in a temporary folder), configurable-http-proxy from npm,
and every user's server given the room store's URL, as docs/classroom.md tells a hub admin.

The hub, its proxy and every single-user server write to one log file (the proxy and the
spawned servers inherit the hub's output), so a test can search all of them at once.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import pathlib
import secrets
import shutil
import sys
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from .harness import KERNELS_OVER_IPC, ROOT, free_port, kernel_sockets_env, server

PROXY = "configurable-http-proxy"
# Where the README's test command installs the proxy (`npm install --prefix .npm-tools
# configurable-http-proxy` in the clone), so the hub test runs for everyone who runs it.
LOCAL_PROXY = ROOT / ".npm-tools" / "node_modules" / ".bin" / PROXY


def proxy_command() -> str:
    """configurable-http-proxy's path; off CI a skip when npm's package is missing, on CI (where
    `CI` is set) a failure, so a missing install step cannot hide the test."""
    found = str(LOCAL_PROXY) if LOCAL_PROXY.exists() else shutil.which(PROXY)
    if found:
        return found
    if os.environ.get("CI"):
        pytest.fail(f"the hub test needs {PROXY}: npm install --prefix .npm-tools {PROXY}")
    pytest.skip(f"{PROXY} not installed (npm install --prefix .npm-tools {PROXY})")


def require_jupyterhub() -> None:
    """JupyterHub comes with the test extra; off CI a skip without it, on CI a failure."""
    if importlib.util.find_spec("jupyterhub") is None:
        if os.environ.get("CI"):
            pytest.fail("the hub test needs jupyterhub (the test extra installs it)")
        pytest.skip("jupyterhub is not installed (pip install -e '.[test]')")


CONFIG = """\
c = get_config()  # noqa
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = {port}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {hub_port}
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{proxy_api_port}"
c.ConfigurableHTTPProxy.command = [{proxy!r}]
c.ConfigurableHTTPProxy.debug = True  # the proxy logs every request's address
c.ConfigurableHTTPProxy.pid_file = "{work}/proxy.pid"
c.JupyterHub.db_url = "sqlite:///{work}/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = "{work}/jupyterhub_cookie_secret"
c.JupyterHub.pid_file = "{work}/jupyterhub.pid"
c.JupyterHub.authenticator_class = "dummy"
c.Authenticator.allow_all = True
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = "{work}/homes/{{username}}"
c.Spawner.cmd = [{singleuser!r}]
c.Spawner.args = ["--allow-root", {kernels_over_ipc!r}]  # CI runs as root
c.Spawner.default_url = "/api/status"  # a login lands on a light page, not JupyterLab
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
c.Spawner.environment = {environment!r}
c.JupyterHub.services = [{{"name": "classroom-test", "api_token": {api_token!r}}}]
c.JupyterHub.load_roles = [
    {{"name": "classroom-test", "scopes": ["admin:servers", "admin:users"],
      "services": ["classroom-test"]}}
]
"""


@dataclass
class Hub:
    """A running hub: its public address, its API token (a service's), and the shared log."""

    base: str
    api_token: str
    log: pathlib.Path
    pid: int

    def api(self, method: str, path: str) -> Any:
        request = urllib.request.Request(
            f"{self.base}hub/api/{path}",
            method=method,
            headers={"Authorization": f"token {self.api_token}"},
        )
        with urllib.request.urlopen(request, timeout=60) as answer:
            body = answer.read()
        return json.loads(body) if body else None

    def stop_server(self, user: str) -> None:
        """Stop a user's single-user server (as an admin would from the hub's admin page)."""
        self.api("DELETE", f"users/{user}/server")

    def page_url(self) -> str:
        """The room page through the hub's user-redirect (what `--hub` makes)."""
        return f"{self.base}hub/user-redirect/housing-lab/room"


@contextlib.contextmanager
def jupyterhub(work: pathlib.Path, environment: dict[str, str]) -> Iterator[Hub]:
    """JupyterHub on 127.0.0.1 with free ports; stopped (with its proxy and servers) after."""
    require_jupyterhub()
    proxy = proxy_command()
    work.mkdir(parents=True, exist_ok=True)
    port, api_token = free_port(), secrets.token_hex(32)
    bin_dir = pathlib.Path(sys.executable).parent
    config = CONFIG.format(
        port=port,
        hub_port=free_port(),
        proxy_api_port=free_port(),
        proxy=proxy,
        work=work,
        singleuser=str(bin_dir / "jupyterhub-singleuser"),
        environment={**environment, **kernel_sockets_env()},
        api_token=api_token,
        kernels_over_ipc=KERNELS_OVER_IPC,
    )
    (work / "jupyterhub_config.py").write_text(config)
    command = [
        str(bin_dir / "jupyterhub"),
        "-f",
        str(work / "jupyterhub_config.py"),
    ]
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    base = f"http://127.0.0.1:{port}/"
    log = work / "hub.log"
    with server(command, f"{base}hub/api", env, log) as process:
        yield Hub(base, api_token, log, process.pid)

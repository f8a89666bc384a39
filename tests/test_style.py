"""Project rules that a reviewer would otherwise have to remember."""

from __future__ import annotations

import ast
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
DISPLAY_MODULES = {"anywidget", "ipywidgets", "bqplot", "IPython", "traitlets", "ipykernel"}


@pytest.mark.parametrize("engine", ["north_berkeley", "streetcar"])
def test_engines_import_no_display_library(engine: str) -> None:
    for path in (ROOT / "housing_lab" / engine).rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in DISPLAY_MODULES, f"{path}: imports {name}"


def _ruff() -> str:
    return shutil.which("ruff") or str(pathlib.Path(sys.executable).parent / "ruff")


def test_ruff_clean() -> None:
    ruff = _ruff()
    done = subprocess.run(
        [ruff, "check", "housing_lab", "tests", "benchmarks", "tools", "lessons"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format_clean() -> None:
    done = subprocess.run(
        [_ruff(), "format", "--check", "housing_lab", "tests", "benchmarks", "tools"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, "run `ruff format .`\n" + done.stdout + done.stderr

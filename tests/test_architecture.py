"""Who may import whom (docs/architecture.md), read from the source so that a wrong import fails
here before it ships: the engines know nothing of widgets, rooms or the command line, and only
the widgets (and the room page the Jupyter server serves) import the widget libraries."""

from __future__ import annotations

import ast
import re

import pytest

from tests.test_imports import imports_in, module_names

MODULES = module_names()
WIDGET_LIBRARIES = ("anywidget", "ipywidgets", "bqplot", "IPython", "traitlets")
# package -> packages of ours it must never import
FORBIDDEN = {
    "housing_lab.north_berkeley": (
        "housing_lab.widgets",
        "housing_lab.rooms",
        "housing_lab.commands",
        "housing_lab.streetcar",
        "housing_lab.server",
        "housing_lab.cli",
    ),
    "housing_lab.streetcar": (
        "housing_lab.widgets",
        "housing_lab.rooms",
        "housing_lab.commands",
        "housing_lab.north_berkeley",
        "housing_lab.server",
        "housing_lab.cli",
    ),
    "housing_lab.rooms": ("housing_lab.widgets", "housing_lab.commands", "housing_lab.cli"),
    "housing_lab.questions": (
        "housing_lab.widgets",
        "housing_lab.rooms",
        "housing_lab.commands",
        "housing_lab.server",
        "housing_lab.cli",
    ),
}


def imported_names(module: str) -> set[str]:
    """Every dotted name `module` imports, ours or not (top level and inside functions)."""
    names = set()
    for node in imports_in(MODULES[module], typing_too=True):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_layers_import_only_downwards(package: str) -> None:
    wrong = [
        f"{module} imports {name}"
        for module in MODULES
        if under(module, package)
        for name in sorted(imported_names(module))
        if any(under(name, banned) for banned in FORBIDDEN[package])
    ]
    assert not wrong, wrong


NB = "housing_lab.north_berkeley"
# North Berkeley's vocabulary: the modules the engine stands on (they import none of the rest)
NB_BELOW_ENGINE = tuple(f"{NB}.{m}" for m in ("errors", "incomes", "layout", "model", "policies"))
NB_BELOW_ENGINE += (f"{NB}.rules", f"{NB}.tiles")
# within a package: a part -> the parts of ours it must never import (each layer only downwards)
INNER_LAYERS = {
    f"{NB}.engine": tuple(
        m
        for m in MODULES
        if under(m, NB) and m != NB and not under(m, f"{NB}.engine") and m not in NB_BELOW_ENGINE
    ),
    **{m: (f"{NB}.engine", f"{NB}.scenario", f"{NB}.board") for m in NB_BELOW_ENGINE},
    f"{NB}.batch": (f"{NB}.solver", f"{NB}.coaching", f"{NB}.play", f"{NB}.board"),
    f"{NB}.solver": (f"{NB}.coaching", f"{NB}.play", f"{NB}.board"),
    "housing_lab.streetcar": ("housing_lab.streetcar.play",),
}


@pytest.mark.parametrize("part", sorted(INNER_LAYERS))
def test_layers_within_the_engines_import_only_downwards(part: str) -> None:
    """North Berkeley: the vocabulary, then `engine/` (one board scored exactly), then the
    board, the game, the batch, then the solver, then the coach; Streetcar: the rules, then
    `play/` (bots, search, experiments). `housing_lab.streetcar` itself re-exports `play`'s
    names, so its rules are its modules outside `play/` other than the package's front."""
    banned = INNER_LAYERS[part]
    wrong = [
        f"{module} imports {name}"
        for module in MODULES
        if under(module, part)
        and module != "housing_lab.streetcar"
        and not under(module, "housing_lab.streetcar.play")
        for name in sorted(imported_names(module))
        if any(under(name, b) for b in banned)
    ]
    assert not wrong, wrong


def test_the_inner_layer_check_can_see_a_wrong_import() -> None:
    assert "housing_lab.north_berkeley.scenario" in INNER_LAYERS[f"{NB}.engine"]
    assert "housing_lab.north_berkeley.constituents" in INNER_LAYERS[f"{NB}.engine"]
    assert f"{NB}.engine.legal" not in INNER_LAYERS[f"{NB}.engine"]
    assert f"{NB}.batch.evaluator" in imported_names(f"{NB}.solver.search")


def test_only_the_widgets_import_the_widget_libraries() -> None:
    allowed = ("housing_lab.widgets", "housing_lab.server", "housing_lab.apps")
    wrong = [
        f"{module} imports {name}"
        for module in MODULES
        if not any(under(module, package) for package in allowed)
        for name in sorted(imported_names(module))
        if any(under(name, library) for library in WIDGET_LIBRARIES)
    ]
    assert not wrong, wrong


def test_the_test_can_see_a_wrong_import() -> None:
    assert "housing_lab.north_berkeley.engine.legal" in imported_names(
        "housing_lab.north_berkeley.scenario"
    )
    assert under("housing_lab.widgets.lab.board", "housing_lab.widgets")
    assert not under("housing_lab.widgetsx", "housing_lab.widgets")


def test_no_module_imports_another_modules_private_names() -> None:
    wrong = []
    for module, path in MODULES.items():
        for node in imports_in(path, typing_too=True):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("housing_lab"):
                wrong += [
                    f"{module}: from {node.module} import {alias.name}"
                    for alias in node.names
                    if alias.name.startswith("_") and not alias.name.startswith("__")
                ]
    assert not wrong, wrong


LESSON_CODE = [
    *sorted((MODULES["housing_lab"].parents[1] / "tools" / "lesson_sources").glob("0*.py")),
    *sorted((MODULES["housing_lab"].parents[1] / "lessons").glob("*.ipynb")),
]
SUBMODULE_IMPORT = re.compile(
    r"from (housing_lab\.(?:north_berkeley|streetcar|widgets)\.[\w.]+) import"
)


@pytest.mark.parametrize("path", LESSON_CODE, ids=lambda p: p.name)
def test_lessons_import_only_the_packages_top_level_names(path) -> None:
    assert not SUBMODULE_IMPORT.findall(path.read_text(encoding="utf-8"))


def test_the_lesson_check_can_see_a_submodule_import() -> None:
    assert SUBMODULE_IMPORT.findall("from housing_lab.widgets.lessons.quiz import reveal")
    assert not SUBMODULE_IMPORT.findall("from housing_lab.widgets import reveal")


def test_no_exported_name_is_shadowed_by_a_subpackage() -> None:
    """`from housing_lab.north_berkeley import coach` must give the function even after every
    submodule has been imported (a subpackage of the same name would win otherwise)."""
    import importlib
    import types

    for name in MODULES:
        if under(name, "housing_lab.north_berkeley") or under(name, "housing_lab.streetcar"):
            importlib.import_module(name)
    for package in ("housing_lab.north_berkeley", "housing_lab.streetcar"):
        facade = importlib.import_module(package)
        shadowed = [n for n in facade.__all__ if isinstance(getattr(facade, n), types.ModuleType)]
        assert not shadowed, (package, shadowed)

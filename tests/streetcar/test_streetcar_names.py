"""Streetcar module boundaries: no private name crosses a module; lesson 6 uses top-level names."""

from __future__ import annotations

import ast
import pathlib

import housing_lab.streetcar
import housing_lab.widgets

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGES = [ROOT / "housing_lab" / "streetcar", ROOT / "housing_lab" / "widgets" / "streetcar"]
LESSON = ROOT / "tools" / "lesson_sources" / "06_streetcar.py"
TOP = {"housing_lab.streetcar": housing_lab.streetcar, "housing_lab.widgets": housing_lab.widgets}


def private_imports(tree: ast.AST) -> list[str]:
    """`from X import _name` and `module._name` reads (self/cls attributes are a class's own)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            found += [f"{node.module}.{a.name}" for a in node.names if a.name.startswith("_")]
        elif isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id in {"line_rules", "position", "scoring"}:
                found.append(ast.unparse(node))
    return [name for name in found if not name.split(".")[-1].startswith("__")]


def test_no_private_name_is_imported_across_modules() -> None:
    files = [path for package in PACKAGES for path in package.glob("*.py")]
    assert len(files) > 20
    found = {str(p.relative_to(ROOT)): private_imports(ast.parse(p.read_text())) for p in files}
    assert {path: names for path, names in found.items() if names} == {}
    assert private_imports(ast.parse("from a import _b\nimport c\nc._d\nline_rules._x")) == [
        "a._b",
        "line_rules._x",
    ]


def lesson_code() -> str:
    """The code cells of lesson 6's source (strings inside its cell list)."""
    tree = ast.parse(LESSON.read_text())
    return "\n".join(
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and "import" in node.value
    )


def test_lesson_6_imports_only_top_level_names() -> None:
    imports = []
    for chunk in lesson_code().split("\n"):
        if chunk.startswith("from housing_lab"):
            imports.append(ast.parse(chunk).body[0])
    assert len(imports) >= 8
    for node in imports:
        assert node.module in TOP, ast.unparse(node)
        for alias in node.names:
            assert alias.name in TOP[node.module].__all__, ast.unparse(node)

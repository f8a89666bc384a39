"""No import cycles in the package: a reader can follow any module without going in circles.

The graph is read from the source (`ast`). Imports under `if TYPE_CHECKING:` do not run, so the
package-wide check leaves them out; the widgets are held to the stricter rule and have no cycle
even counting those (their parts never reach back into the class that owns them).
"""

from __future__ import annotations

import ast
import functools
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = "housing_lab"


def module_names(root: pathlib.Path | None = None) -> dict[str, pathlib.Path]:
    """Dotted module name -> file, for every module of the package."""
    root = root or ROOT
    modules = {}
    for path in sorted((root / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def is_type_checking(node: ast.AST) -> bool:
    if not isinstance(node, ast.If):
        return False
    test = node.test
    name = test.attr if isinstance(test, ast.Attribute) else getattr(test, "id", "")
    return name == "TYPE_CHECKING"


def import_nodes(tree: ast.AST, typing_too: bool) -> tuple[ast.AST, ...]:
    """Every import statement, without those under `if TYPE_CHECKING:` unless `typing_too`."""
    found = []
    todo = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif typing_too or not is_type_checking(node):
            todo.extend(ast.iter_child_nodes(node))
    return tuple(found)


@functools.cache
def _imports_by_kind(path: pathlib.Path) -> dict[bool, tuple[ast.AST, ...]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {typing_too: import_nodes(tree, typing_too) for typing_too in (False, True)}


def imports_in(path: pathlib.Path, typing_too: bool) -> tuple[ast.AST, ...]:
    """A module's import statements (`import_nodes`), read once per session: several checks
    ask again. Only the statements are kept, not the whole tree: the package's trees are a
    quarter of a million objects that every full garbage collection would walk to the end."""
    return _imports_by_kind(path)[typing_too]


def imports_of(
    module: str, path: pathlib.Path, modules: dict[str, pathlib.Path], typing_too: bool = False
) -> set[str]:
    """The package's modules that `module` imports (`from pkg import mod` counts as `pkg.mod`)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in imports_in(path, typing_too):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.add(submodule if submodule in modules else base)
    return {name for name in found if name in modules and name != module}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle in the graph (as a path that comes back to its start), or None."""
    state: dict[str, str] = {}  # "open" while on the current path, "done" after

    def visit(node: str, path: list[str]) -> list[str] | None:
        state[node] = "open"
        for target in sorted(graph.get(node, ())):
            if state.get(target) == "open":
                return (
                    [*path[path.index(target) :], node, target]
                    if target in path
                    else [
                        node,
                        target,
                    ]
                )
            if target not in state:
                cycle = visit(target, [*path, node])
                if cycle:
                    return cycle
        state[node] = "done"
        return None

    for start in sorted(graph):
        if start not in state:
            cycle = visit(start, [])
            if cycle:
                return cycle
    return None


def import_graph(typing_too: bool = False, under: str = PACKAGE) -> dict[str, set[str]]:
    modules = module_names()
    return {
        name: imports_of(name, path, modules, typing_too)
        for name, path in modules.items()
        if name == under or name.startswith(under + ".")
    }


def test_the_checker_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_the_graph_sees_the_package() -> None:
    graph = import_graph()
    assert "housing_lab.widgets.streetcar.lab" in graph
    assert "housing_lab.widgets.streetcar.board" in graph["housing_lab.widgets.streetcar.lab"]
    tree = ast.parse("if TYPE_CHECKING:\n    import a\nimport b\n")
    assert len(import_nodes(tree, typing_too=False)) == 1
    assert len(import_nodes(tree, typing_too=True)) == 2


def test_no_import_cycles() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_no_import_cycles_in_the_widgets_even_for_type_checking() -> None:
    cycle = find_cycle(import_graph(typing_too=True, under="housing_lab.widgets"))
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_no_import_cycles_in_the_north_berkeley_engine_even_for_type_checking() -> None:
    cycle = find_cycle(import_graph(typing_too=True, under="housing_lab.north_berkeley"))
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])

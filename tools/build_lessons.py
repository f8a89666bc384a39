"""Build the lesson notebooks from their sources and run them, saving the outputs.

    python tools/build_lessons.py            # all lessons
    python tools/build_lessons.py 02 03      # some of them

Each source in `tools/lesson_sources/NN_name.py` defines `CELLS`: a list of ("md", text) and
("code", source) pairs. Outputs are saved so that `pytest --nbval-lax lessons/` can compare the
cells marked `# NBVAL_CHECK_OUTPUT` (they must be seeded and deterministic).
"""

from __future__ import annotations

import importlib.util
import pathlib
import sys

import nbformat
from nbclient import NotebookClient

from housing_lab.outputs import write_atomic

HERE = pathlib.Path(__file__).parent
SOURCES = HERE / "lesson_sources"
LESSONS = HERE.parent / "lessons"


def load_cells(source: pathlib.Path) -> list[tuple[str, str]]:
    spec = importlib.util.spec_from_file_location(source.stem, source)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.CELLS


def build(source: pathlib.Path) -> pathlib.Path:
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    notebook.metadata["language_info"] = {"name": "python"}
    for kind, text in load_cells(source):
        text = text.strip("\n")
        cell = (
            nbformat.v4.new_markdown_cell(text) if kind == "md" else nbformat.v4.new_code_cell(text)
        )
        notebook.cells.append(cell)
    target = LESSONS / f"{source.stem}.ipynb"
    NotebookClient(
        notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(LESSONS)}}
    ).execute()
    for index, cell in enumerate(notebook.cells):  # stable ids keep diffs small
        cell["id"] = f"{source.stem[:2]}-{index:02d}"
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                raise SystemExit(f"{target.name} cell {index} failed: {output['evalue']}")
    write_atomic(target, lambda handle: nbformat.write(notebook, handle))  # whole or not at all
    print(f"built {target.relative_to(HERE.parent)}")
    return target


def main(names: list[str]) -> None:
    LESSONS.mkdir(exist_ok=True)
    sources = sorted(SOURCES.glob("[0-9][0-9]_*.py"))
    for source in sources:
        if not names or any(source.stem.startswith(name) for name in names):
            build(source)


if __name__ == "__main__":
    main(sys.argv[1:])

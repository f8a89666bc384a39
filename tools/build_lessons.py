"""Build the lesson notebooks from their sources and run them, saving the outputs.

    python tools/build_lessons.py            # all lessons
    python tools/build_lessons.py 02 03      # some of them

Each source in `tools/lesson_sources/NN_name.py` defines `CELLS`: a list of ("md", text) and
("code", source) pairs. Outputs are saved so that `pytest --nbval-lax lessons/` can compare the
cells marked `# NBVAL_CHECK_OUTPUT` (they must be seeded and deterministic).

What a student sees on opening a lesson before running it is the saved notebook, so:
- the kernel's display name is ipykernel's own: with any other, JupyterLab rewrites the
  metadata as the kernel starts and every lesson opens marked unsaved;
- no widget state is saved (JupyterLab does not draw widgets from it; it only holds text a
  student should not see yet, such as a prediction's answer), and a widget's saved output
  reads as an invitation to run the cell instead of the widget's repr
  (`PredictThenRun()`, `VBox(children=(HTML(...`). Cells whose output nbval checks keep it.

A Markdown cell may name a claim as `{{claim:ID}}` (tools/lesson_sources/claims/*.toml): the
build asks the engine, and writes the claim's sentence in its place, or stops naming every
difference when the engine no longer agrees (tools/claims.py).

A Markdown cell that answers a prediction is marked `("after:QUESTION_ID", text)` (after several:
`"after:ID1+ID2"`): the build
fills its claims, writes it to housing_lab/questions/gated/lesson_N.json and puts in its place a
code cell `after_prediction("QUESTION_ID", note=N)`, which shows it only once the prediction is
committed (housing_lab/widgets/lessons/after.py). So no saved notebook holds it.
"""

from __future__ import annotations

import importlib.util
import json
import pathlib
import sys

import nbformat
from claims import all_claims, fill
from ipykernel.kernelspec import get_kernel_dict
from nbclient import NotebookClient

from housing_lab.outputs import write_atomic

HERE = pathlib.Path(__file__).parent
SOURCES = HERE / "lesson_sources"
LESSONS = HERE.parent / "lessons"
GATED = HERE.parent / "housing_lab" / "questions" / "gated"
AFTER = "after:"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
NOT_RUN_YET = "Run this cell (Shift+Enter) to show it here."
CHECKED = "# NBVAL_CHECK_OUTPUT"


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
        "display_name": get_kernel_dict()["display_name"],
        "language": "python",
    }
    notebook.metadata["language_info"] = {"name": "python"}
    claims = all_claims()
    notes: dict[str, list[str]] = {}
    for kind, text in load_cells(source):
        text = text.strip("\n")
        if kind == "md" or kind.startswith(AFTER):
            text = fill(text, claims)
        if kind.startswith(AFTER):
            question_id = kind.removeprefix(AFTER)
            notes.setdefault(question_id, []).append(text)
            ids = ", ".join(f'"{one}"' for one in question_id.split("+"))
            ids = f"({ids})" if "+" in question_id else ids
            text = (
                "from housing_lab.widgets import after_prediction\n\n"
                f"after_prediction({ids}, note={len(notes[question_id])})"
            )
        cell = (
            nbformat.v4.new_markdown_cell(text) if kind == "md" else nbformat.v4.new_code_cell(text)
        )
        notebook.cells.append(cell)
    write_notes(int(source.stem[:2]), notes)  # before the run: the kernel reads them
    target = LESSONS / f"{source.stem}.ipynb"
    NotebookClient(
        notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(LESSONS)}}
    ).execute()
    for index, cell in enumerate(notebook.cells):  # stable ids keep diffs small
        cell["id"] = f"{source.stem[:2]}-{index:02d}"
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                raise SystemExit(f"{target.name} cell {index} failed: {output['evalue']}")
    as_opened_before_running(notebook)
    write_atomic(target, lambda handle: nbformat.write(notebook, handle))  # whole or not at all
    print(f"built {target.relative_to(HERE.parent)}")
    return target


def write_notes(lesson: int, notes: dict[str, list[str]]) -> None:
    """The lesson's gated notes (housing_lab/questions/notes.py), or no file if it has none."""
    target = GATED / f"lesson_{lesson}.json"
    if not notes:
        target.unlink(missing_ok=True)
        return
    text = json.dumps(notes, indent=1, ensure_ascii=False) + "\n"
    write_atomic(target, lambda handle: handle.write(text))


def as_opened_before_running(notebook: nbformat.NotebookNode) -> None:
    """No saved widget state, and widgets' outputs that invite a run (see the module's note)."""
    notebook.metadata.pop("widgets", None)
    for cell in notebook.cells:
        if cell.cell_type != "code" or CHECKED in cell.source:
            continue
        for output in cell.get("outputs", []):
            if WIDGET_VIEW in output.get("data", {}):
                output["data"]["text/plain"] = NOT_RUN_YET


def main(names: list[str]) -> None:
    LESSONS.mkdir(exist_ok=True)
    sources = sorted(SOURCES.glob("[0-9][0-9]_*.py"))
    for source in sources:
        if not names or any(source.stem.startswith(name) for name in names):
            build(source)


if __name__ == "__main__":
    main(sys.argv[1:])

"""Write the classroom room page (`housing-lab classroom`) as a notebook for Voila.

    python tools/build_classroom_app.py

One code cell, no text: the page itself says whose page it is (the token in its link decides),
and Voila hides the code. Saved without outputs.
"""

from __future__ import annotations

import pathlib

import nbformat

from housing_lab.outputs import write_atomic

TARGET = (
    pathlib.Path(__file__).resolve().parents[1]
    / "housing_lab"
    / "apps"
    / "classroom"
    / "room.ipynb"
)
CODE = (
    "# The room and token come from this page's link; the store from $HOUSING_LAB_ROOMS.\n"
    "from housing_lab.widgets.classroom.page import page_from_environment\n"
    "\n"
    "page_from_environment()"
)


def build() -> pathlib.Path:
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    cell = nbformat.v4.new_code_cell(CODE)
    cell["id"] = "classroom-room-0"
    notebook.cells = [cell]
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(TARGET, lambda handle: nbformat.write(notebook, handle))  # whole or not at all
    return TARGET


if __name__ == "__main__":
    print(build())

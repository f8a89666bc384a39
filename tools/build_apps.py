"""Write the no-code apps (`housing-lab app lab|streetcar|table`) as notebooks for Voila.

    python tools/build_apps.py

Each app is a title, a short "how to play" and one widget. Voila runs the notebook when the page
opens and hides the code, so the notebooks are saved without outputs.
"""

from __future__ import annotations

import pathlib

import nbformat

from housing_lab.outputs import write_atomic

APPS = pathlib.Path(__file__).resolve().parents[1] / "housing_lab" / "apps"

PAGES = {
    "lab": (
        """# North Berkeley: build the neighbourhood

**How to play.** Pick a square on the board, then a building from the list. Tick the policies you
want. The chart shows who ends up with a home when the 24 newcomers move in, and who is pushed out.
Try to house as many people as you can, then see which groups (the cards) are pleased.""",
        "from housing_lab.widgets import NorthBerkeleyLab\n\nNorthBerkeleyLab(seed=1)",
    ),
    "streetcar": (
        """# Streetcar: remove single-family limits, connect the buildings

**How to play.** You are purple; the computer plays red. On your turn, click two grid lines that
meet at a corner to draw your streetcar line, then click a house to remove it. New buildings appear
where an empty space touches exactly 3 houses. At the end you score the cubes your lines touch,
times the houses of that colour you removed, minus 10 for each separate line.""",
        'from housing_lab.widgets import StreetcarLab\n\nStreetcarLab(seed=1, opponent="greedy")',
    ),
    "table": (
        """# North Berkeley: the classroom game

**How to play.** Name the teams and press start. The panel always says what the class must decide
next: negotiate the buildings before the timer runs out (or call the state), pick more cards,
enact a policy, then watch everyone move in and see the scores. Undo takes back the last step;
Save game keeps the game for the next lesson.""",
        "from housing_lab.widgets import GameTable\n\n"
        'GameTable(teams=["Red", "Blue", "Green"], seed=7)',
    ),
}


def build() -> list[pathlib.Path]:
    APPS.mkdir(exist_ok=True)
    written = []
    for name, (text, code) in PAGES.items():
        notebook = nbformat.v4.new_notebook()
        notebook.metadata["kernelspec"] = {
            "name": "python3",
            "display_name": "Python 3",
            "language": "python",
        }
        notebook.cells = [nbformat.v4.new_markdown_cell(text), nbformat.v4.new_code_cell(code)]
        for index, cell in enumerate(notebook.cells):
            cell["id"] = f"{name}-{index}"
        target = APPS / f"{name}.ipynb"
        write_atomic(target, lambda handle, notebook=notebook: nbformat.write(notebook, handle))
        written.append(target)
    return written


if __name__ == "__main__":
    for path in build():
        print(f"wrote {path}")

"""Rewrite lesson 6's Streetcar imports to the packages' top-level names, in the lesson source
and in the saved notebook alike (code cells only: the saved outputs are kept, nothing is run).

    python tools/streetcar_lesson_imports.py
"""

from __future__ import annotations

import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCE = ROOT / "tools" / "lesson_sources" / "06_streetcar.py"
NOTEBOOK = ROOT / "lessons" / "06_streetcar.ipynb"
EDITS = [
    (
        "from housing_lab.streetcar.line_experiment import line_experiment, summary",
        "from housing_lab.streetcar import line_experiment, line_experiment_summary",
    ),
    ("= summary(line_experiment(", "= line_experiment_summary(line_experiment("),
    (
        "from housing_lab.widgets.lessons.predict import Outcome, PredictThenRun",
        "from housing_lab.widgets import Outcome, PredictThenRun",
    ),
    (
        "from housing_lab.streetcar.match import summarise",
        "from housing_lab.streetcar import summarise",
    ),
    (
        "from housing_lab.widgets.lessons.quiz import ChoiceQuestion",
        "from housing_lab.widgets import ChoiceQuestion",
    ),
    (
        "from housing_lab.widgets.lessons.quiz import reveal",
        "from housing_lab.widgets import reveal",
    ),
]


def edit(text: str, check: bool = True) -> str:
    """`text` with every edit applied; with `check`, each must be found (or be done already)."""
    for old, new in EDITS:
        if check and old not in text and new not in text:
            raise SystemExit(f"not found: {old!r}")
        text = text.replace(old, new)
    return text


def main() -> None:
    SOURCE.write_text(edit(SOURCE.read_text("utf-8")), "utf-8")
    text = NOTEBOOK.read_text("utf-8")
    edit(text.replace('\\"', '"'), check=True)  # every edit is in the notebook too
    notebook = json.loads(text)
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            source = cell["source"]
            text = edit(source if isinstance(source, str) else "".join(source), check=False)
            cell["source"] = text if isinstance(source, str) else text.splitlines(keepends=True)
    NOTEBOOK.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", "utf-8")


if __name__ == "__main__":
    main()

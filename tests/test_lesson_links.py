"""Every link in every lesson and app opens: as a Voila app (`housing-lab app`) and in the
JupyterLab working copy (`housing-lab lab`), and so does every link on the pages they open."""

from __future__ import annotations

import pathlib
import posixpath

import nbformat
import pytest

from housing_lab.apps.pages import (
    DOCS_PREFIX,
    RENDER_PREFIX,
    Folders,
    browser_path,
    docs_beside,
    file_for,
    is_local,
    links_in,
    render_markdown,
)
from housing_lab.commands.lessons import APPS_DIR, copy_lessons

ROOT = pathlib.Path(__file__).resolve().parents[1]
LESSONS = ROOT / "lessons"
NOTEBOOKS = sorted(LESSONS.glob("*.ipynb")) + sorted(APPS_DIR.glob("*.ipynb"))


def page_links(path: pathlib.Path) -> list[str]:
    """The local links a student can click on a lesson, app or Markdown page."""
    if path.suffix != ".ipynb":
        return [t for t in links_in(path.read_text(encoding="utf-8")) if is_local(t)]
    notebook = nbformat.read(path, as_version=4)
    texts = []
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            texts.append(cell.source)
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            texts += [str(data.get(kind, "")) for kind in ("text/html", "text/markdown")]
    return [t for text in texts for t in links_in(text) if is_local(t)]


def test_the_lessons_have_links_to_check() -> None:
    """The checks below are not vacuous: the lessons link to the rules page, the next lesson
    and the docs."""
    targets = {t for notebook in NOTEBOOKS for t in page_links(notebook)}
    assert {"how_to_play.md", "02_build_the_neighbourhood.ipynb", "../docs/sources.md"} <= targets


def _url_of(path: pathlib.Path, folders: Folders) -> str:
    if path.is_relative_to(folders.docs):
        return DOCS_PREFIX + path.relative_to(folders.docs).as_posix()
    return RENDER_PREFIX + path.relative_to(folders.lessons).as_posix()


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_link_opens_in_the_app(notebook: pathlib.Path) -> None:
    """`housing-lab app`: each link, as the browser resolves it, is a page the server has; the
    pages it reaches (the rules page, the docs) are followed too."""
    folders = Folders(lessons=LESSONS.resolve(), docs=docs_beside(LESSONS).resolve())
    start = RENDER_PREFIX + notebook.name
    pending, seen, dead = [(start, notebook)], set(), []
    while pending:
        url, path = pending.pop()
        if url in seen:
            continue
        seen.add(url)
        for target in page_links(path):
            opened = browser_path(url, target)
            found = file_for(opened, folders)
            if found is None:
                dead.append(f"{path.name}: {target} -> {opened}")
            elif found.suffix == ".md":
                pending.append((_url_of(found, folders), found))
    assert dead == []


@pytest.mark.parametrize("notebook", sorted(LESSONS.glob("*.ipynb")), ids=lambda p: p.stem)
def test_every_link_opens_in_the_working_copy(notebook: pathlib.Path, tmp_path) -> None:
    """`housing-lab lab`: JupyterLab resolves a link from the notebook's folder and stops `..` at
    the top of the working copy, so `../docs/sources.md` is the copy's `docs/sources.md`."""
    work = tmp_path / "class"
    copy_lessons(LESSONS, work)
    pending, seen, dead = [notebook.name], set(), []
    while pending:
        relative = pending.pop()
        if relative in seen:
            continue
        seen.add(relative)
        for target in page_links(work / relative):
            resolved = posixpath.normpath(
                "/" + posixpath.join(posixpath.dirname(relative), target.split("#")[0])
            ).lstrip("/")
            if not (work / resolved).is_file():
                dead.append(f"{relative}: {target} -> {resolved}")
            elif resolved.endswith(".md"):
                pending.append(resolved)
    assert dead == []


def test_a_dead_link_is_found(tmp_path) -> None:
    """The walk above reports a link to a file that is not there (and one that climbs out)."""
    folders = Folders(lessons=LESSONS.resolve(), docs=docs_beside(LESSONS).resolve())
    assert file_for(browser_path("/voila/render/01_start_here.ipynb", "nope.md"), folders) is None
    climbing = browser_path("/voila/docs/sources.md", "../../../etc/passwd")
    assert file_for(climbing, folders) is None
    rules = browser_path("/voila/render/01_start_here.ipynb", "how_to_play.md")
    assert file_for(rules, folders) == LESSONS.resolve() / "how_to_play.md"


def test_a_markdown_page_renders_its_text_and_tables() -> None:
    page = render_markdown(docs_beside(LESSONS) / "sources.md")
    assert page.startswith("<!doctype html>") and "<table>" in page
    assert "<title>" in page and "<h1>" in page and "](" not in page

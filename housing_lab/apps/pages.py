"""The pages a lesson's links name, found and rendered the same way in every app.

A lesson links to the rules page (`how_to_play.md`), the next lesson (`02_....ipynb`) and the
teachers' docs (`../docs/sources.md`). JupyterLab opens those files itself; Voila serves only the
notebook, so `housing-lab app` (housing_lab/apps/server.py) answers the links with the pages
found here: Markdown rendered as a plain readable HTML page, images served as they are.
No Voila import here, so the link test can check every link without starting a server.
"""

from __future__ import annotations

import html
import pathlib
import posixpath
import re
from dataclasses import dataclass

RENDER_PREFIX = "/voila/render/"  # where Voila (directory mode) serves the lesson notebooks
DOCS_PREFIX = "/voila/docs/"  # where `../docs/x.md` from a lesson page lands
IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".svg": "image/svg+xml"}
# A Markdown link or image target: [text](target) or ![alt](target), possibly over two lines.
_LINK = re.compile(r"!?\[[^\]]*\]\(\s*([^)\s]+)(?:\s+\"[^\"]*\")?\s*\)", re.S)
_HREF = re.compile(r"""href=["']([^"']+)["']""")


@dataclass(frozen=True)
class Folders:
    """The folders an app serves: the lessons (notebooks and the rules page) and the docs."""

    lessons: pathlib.Path
    docs: pathlib.Path


def docs_beside(lessons: pathlib.Path) -> pathlib.Path:
    """The docs folder the lessons' `../docs/` links mean: beside the lessons folder, or (for a
    lessons folder elsewhere) the one in the checkout the package runs from."""
    beside = lessons.resolve().parent / "docs"
    if beside.is_dir():
        return beside
    return pathlib.Path(__file__).resolve().parents[2] / "docs"


def links_in(text: str) -> list[str]:
    """Every link target in Markdown text (inline links, images and HTML hrefs)."""
    return [m.group(1) for m in _LINK.finditer(text)] + _HREF.findall(text)


def is_local(target: str) -> bool:
    """A link to a file of the project (not a web address, an e-mail or an in-page anchor)."""
    return not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) and not target.startswith("#")


def browser_path(page: str, target: str) -> str:
    """The URL path a browser opens for `target` clicked on the page at URL path `page`."""
    target = target.split("#", 1)[0].split("?", 1)[0]
    if target.startswith("/"):
        return posixpath.normpath(target)
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(page), target))
    return "/" + joined.lstrip("/")  # a browser stops `..` at the site's root


def file_for(path: str, folders: Folders) -> pathlib.Path | None:
    """The file the app serves at URL path `path`, or None (it would answer 404).

    Lesson notebooks and the rules page live under /voila/render/, the docs under /voila/docs/.
    A path that climbs out of its folder is None."""
    for prefix, root in ((RENDER_PREFIX, folders.lessons), (DOCS_PREFIX, folders.docs)):
        if path.startswith(prefix):
            relative = path[len(prefix) :]
            candidate = (root / relative).resolve()
            if candidate.is_relative_to(root.resolve()) and candidate.is_file():
                if prefix == DOCS_PREFIX and candidate.suffix not in (".md", *IMAGE_TYPES):
                    return None
                return candidate
    return None


def title_of(markdown: str, fallback: str) -> str:
    """The page's first heading, for the browser tab."""
    for line in markdown.splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return fallback


PAGE_STYLE = """
body { font: 18px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328;
       background: #fff; margin: 0; }
main { max-width: 72rem; margin: 0 auto; padding: 1.5rem 2rem 4rem; }
p, li { max-width: 52rem; }
h1 { font-size: 2rem; line-height: 1.2; } h2 { margin-top: 2rem; }
table { border-collapse: collapse; margin: 1rem 0; font-size: 16px; }
td a { overflow-wrap: anywhere; }
th, td { border: 1px solid #d0d7de; padding: 0.35rem 0.6rem; text-align: left;
         vertical-align: top; }
th { background: #f6f8fa; } img { max-width: 100%; }
code { background: #f6f8fa; padding: 0.1rem 0.3rem; border-radius: 4px; font-size: 0.9em; }
pre { background: #f6f8fa; padding: 0.8rem; overflow-x: auto; }
nav { font-size: 1rem; margin-bottom: 1rem; } a { color: #0a58ca; }
"""


def render_markdown(source: pathlib.Path) -> str:
    """A whole HTML page for a Markdown file: its text, its tables, a way back."""
    import mistune  # nbconvert's Markdown renderer, installed with Voila

    text = source.read_text(encoding="utf-8")
    to_html = mistune.create_markdown(escape=False, plugins=["table", "strikethrough", "url"])
    title = html.escape(title_of(text, source.stem.replace("_", " ")))
    return (
        "<!doctype html>\n<html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{title}</title><style>{PAGE_STYLE}</style></head><body><main>"
        "<nav><a href='javascript:history.back()'>&larr; Back</a></nav>"
        f"{to_html(text)}</main></body></html>"
    )

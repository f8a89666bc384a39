"""The README's claims about the repository: how many lessons there are, and that the Binder
badges say they are dead links while they name the placeholder account (issue 44)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def test_the_readme_counts_the_lessons_there_are() -> None:
    lessons = sorted((ROOT / "lessons").glob("[0-9][0-9]_*.ipynb"))
    said = re.findall(r"the (\w+) lesson notebooks", README)
    assert said and all(NUMBERS.index(word) == len(lessons) for word in said), said
    table = re.findall(r"^\| `(\d\d_\w+)` \|", README, flags=re.MULTILINE)
    assert table == [path.stem for path in lessons]


def test_placeholder_badges_say_they_are_dead_links() -> None:
    links = re.findall(r"\]\((https://mybinder\.org/[^)]*)\)", README)
    assert links
    if any("/OWNER/" in link for link in links):
        before = README[: README.index("https://mybinder.org/")]
        assert "dead" in before[-400:] and "`OWNER`" in before[-400:]

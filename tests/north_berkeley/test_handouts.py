"""Printable team handouts: one standalone HTML page per team with its cards and the rules."""

from __future__ import annotations

import ast
import html
import pathlib
import re

import pytest

from housing_lab.north_berkeley.constituents import cards
from housing_lab.north_berkeley.play import handouts as handouts
from housing_lab.north_berkeley.play.game import Game


def sections(page: str) -> list[str]:
    return re.findall(r"data-card='([a-z_]+)'", page)


def test_one_page_per_team_with_its_cards_names_and_conditions() -> None:
    game = Game(["Red", "Blue", "Green"], seed=4)
    pages = handouts.game_handouts(game)
    assert list(pages) == [
        "north-berkeley-team-1-red.html",
        "north-berkeley-team-2-blue.html",
        "north-berkeley-team-3-green.html",
    ]
    for (name, page), team in zip(pages.items(), game.players, strict=True):
        assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
        assert f"{team}: your constituents" in page, name
        assert sections(page) == game.state.hands[team]
        for card_id in game.state.hands[team]:
            card = cards()[card_id]
            for text in (card.name, card.plus_text, card.minus_text):
                assert html.escape(text) in page
        others = {c for t in game.players if t != team for c in game.state.hands[t]}
        assert not others & set(sections(page)), "a page shows another team's cards"
        assert "fewest −1 cards" in page and "game seed 4" in page


def test_pages_are_standalone_and_printable() -> None:
    page = handouts.team_handout("A", ["developer"])
    assert "<style>" in page and "@media print" in page  # the CSS is inline
    assert "<script" not in page and "http" not in page  # nothing to load, works offline
    combined = handouts.all_handouts_page(Game(["A", "B", "C", "D"], seed=1))
    assert combined.count("<article class='handout'") == 4
    assert ".handout + .handout { page-break-before: always" in combined


def test_starting_cards_are_marked_secret_and_later_cards_face_up() -> None:
    game = Game(["Red", "Blue"], seed=2)
    game.call_state()
    game.advance()  # two teams: an extra card face up
    secret = handouts.secret_cards(game)
    assert secret == {t: game.state.hands[t][:3] for t in game.players}
    page = handouts.game_handouts(game)["north-berkeley-team-1-red.html"]
    assert page.count("starting card</span>") == 3 and page.count("face up</span>") == 1
    assert "Keep this page within your team" in page
    open_page = handouts.game_handouts(game, hidden=False)["north-berkeley-team-1-red.html"]
    assert "Keep this page" not in open_page


def test_team_names_are_escaped_and_file_names_safe() -> None:
    game = Game(["<b>Team</b> & Co", "Équipe 2", "???"], seed=0)
    pages = handouts.game_handouts(game)
    assert list(pages) == [
        "north-berkeley-team-1-b-team-b-co.html",
        "north-berkeley-team-2-quipe-2.html",
        "north-berkeley-team-3.html",
    ]
    first = pages["north-berkeley-team-1-b-team-b-co.html"]
    assert "<b>Team</b>" not in first and "&lt;b&gt;Team&lt;/b&gt; &amp; Co" in first


def test_write_handouts_writes_every_page_and_the_combined_one(tmp_path: pathlib.Path) -> None:
    game = Game(["A", "B", "C", "D", "E"], seed=9)
    written = handouts.write_handouts(game, tmp_path / "print")
    assert [p.name for p in written] == [
        *handouts.game_handouts(game),
        "north-berkeley-all-teams.html",
    ]
    for path in written[:-1]:
        assert path.read_text(encoding="utf-8") == handouts.game_handouts(game)[path.name]
    assert written[-1].read_text(encoding="utf-8") == handouts.all_handouts_page(game)


def test_unknown_card_is_refused() -> None:
    with pytest.raises(ValueError, match="wizards"):
        handouts.team_handout("A", ["wizards"])


def test_handouts_module_is_pure_html_generation() -> None:
    tree = ast.parse(pathlib.Path(handouts.__file__).read_text(encoding="utf-8"))
    modules = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    modules |= {
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    }
    assert not any(
        m.startswith(("housing_lab.widgets", "ipywidgets", "anywidget")) for m in modules
    )

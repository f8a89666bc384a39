"""Printable team handouts: a standalone HTML page per team with its constituent cards.

With hidden hands a class shares one projector, so each team needs its cards on paper. The
pages are plain HTML with their CSS inline (no network, no script), printable from any browser.
This module only writes HTML; the game table widget offers the pages as downloads.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from housing_lab.north_berkeley.constituents import cards, check_card
from housing_lab.north_berkeley.play.game import Game
from housing_lab.north_berkeley.rules import cards_dealt
from housing_lab.outputs import write_files

ALL_TEAMS = "north-berkeley-all-teams.html"  # every team's handout in one print job

SCORING_REMINDER = (
    "At the end of the game each card scores +1 if its +1 condition holds and −1 if its −1 "
    "condition holds; a card can score both (net 0).",
    "Your team's score is the sum over all your cards.",
    "Highest score wins. Tie: the team with the fewest −1 cards wins. Still tied: all of "
    "those teams win.",
    "Spending and new homes count the tiles built; residents housed count everyone living "
    "in new and existing homes after move-in.",
)


def _css() -> str:
    folder = resources.files("housing_lab.north_berkeley").joinpath("data")
    return folder.joinpath("handout.css").read_text(encoding="utf-8")


def handout_filename(team: str, number: int) -> str:
    """A safe, unique file name: the seating number keeps teams with odd names apart."""
    slug = re.sub(r"[^a-z0-9]+", "-", team.lower()).strip("-")
    return f"north-berkeley-team-{number}{'-' + slug if slug else ''}.html"


def secret_cards(game: Game) -> dict[str, list[str]]:
    """The starting cards of each team (dealt first; extra and drafted cards are face up)."""
    dealt = cards_dealt(len(game.players))
    return {team: list(game.state.hands[team][:dealt]) for team in game.players}


def _card_section(card_id: str, secret: bool) -> str:
    card = cards()[check_card(card_id)]
    tag = "starting card" if secret else "face up"
    return (
        f"<section class='card' data-card='{card_id}'>"
        f"<h2>{html.escape(card.name)}<span class='tag'>{tag}</span></h2>"
        f"<p class='plus'><b>+1</b> if: {html.escape(card.plus_text)}</p>"
        f"<p class='minus'><b>−1</b> if: {html.escape(card.minus_text)}</p>"
        "</section>"
    )


def team_section(
    team: str,
    hand: Sequence[str],
    secret: Sequence[str] = (),
    hidden: bool = True,
    seed: int | None = None,
) -> str:
    """One team's page body (an <article>); `secret` are the cards dealt face down."""
    game_line = "North Berkeley" + (f" · game seed {seed}" if seed is not None else "")
    note = (
        (
            "<p class='secret-note'>Keep this page within your team: the other teams must not "
            "see your starting cards.</p>"
        )
        if hidden
        else ""
    )
    sections = "".join(_card_section(card, card in secret) for card in hand)
    rules = "".join(f"<li>{html.escape(line)}</li>" for line in SCORING_REMINDER)
    return (
        f"<article class='handout' data-team='{html.escape(team, quote=True)}'>"
        f"<header><p class='game'>{html.escape(game_line)}</p>"
        f"<h1>{html.escape(team)}: your constituents</h1>{note}</header>"
        f"{sections}"
        f"<div class='rules'><h2>How cards score</h2><ul>{rules}</ul></div>"
        "</article>"
    )


def page(title: str, body: str) -> str:
    """A complete standalone HTML document with the handout CSS inline."""
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><style>{_css()}</style></head>"
        f"<body>{body}</body></html>\n"
    )


def team_handout(team: str, hand: Sequence[str], **options: Any) -> str:
    """A standalone printable page for one team (`options`: `team_section`'s)."""
    return page(f"North Berkeley: {team}", team_section(team, hand, **options))


def handouts(
    hands: Mapping[str, Sequence[str]],
    secret: Mapping[str, Sequence[str]] | None = None,
    hidden: bool = True,
    seed: int | None = None,
) -> dict[str, str]:
    """File name -> page, one per team in seating order."""
    secret = secret or {}
    return {
        handout_filename(team, number): team_handout(
            team, hand, secret=secret.get(team, ()), hidden=hidden, seed=seed
        )
        for number, (team, hand) in enumerate(hands.items(), start=1)
    }


def game_handouts(game: Game, hidden: bool = True) -> dict[str, str]:
    """The handouts of a game as it stands: every team's current hand, numbered in seating
    order (never the order of the hands' keys, which a hand-edited file may shuffle)."""
    hands = {team: game.state.hands[team] for team in game.players}
    return handouts(hands, secret_cards(game), hidden, game.state.seed)


def all_handouts_page(game: Game, hidden: bool = True) -> str:
    """Every team in one document, each on its own printed page (one print job for a class)."""
    secret = secret_cards(game)
    body = "".join(
        team_section(team, game.state.hands[team], secret[team], hidden, game.state.seed)
        for team in game.players
    )
    return page("North Berkeley: team handouts", body)


def write_handouts(
    game: Game, folder: str | Path, hidden: bool = True, *, overwrite: bool = False
) -> list[Path]:
    """Write one page per team and `north-berkeley-all-teams.html` into `folder`.

    A handout already there may carry a teacher's notes: every page is checked before the
    first is written, an existing one refused unless `overwrite`, a symbolic link never
    followed, and each written whole or not at all (`outputs.write_files`)."""
    pages = {**game_handouts(game, hidden), ALL_TEAMS: all_handouts_page(game, hidden)}
    return write_files(Path(folder), pages, overwrite)

"""Constituent scoreboard: every card's +1 and -1 condition in words and its live state."""

from __future__ import annotations

import functools
import html
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

import ipywidgets

from housing_lab.north_berkeley.constituents import CARD_IDS, Card, CardScore, cards, check_card
from housing_lab.widgets.lab.changes import score_word


def _state_cell(score: CardScore) -> str:
    parts = []
    if score.plus:
        parts.append('<span class="hl-plus">+1 &#10004;</span>')
    if score.minus:
        parts.append('<span class="hl-minus">&minus;1 &#10008;</span>')
    if not parts:
        parts.append('<span class="hl-zero">0</span>')
    return " ".join(parts)


def net_reason(score: CardScore, plus_text: str, minus_text: str) -> str:
    """Why a card scores what it scores, in the card's own words."""
    if score.plus and score.minus:
        return f"both hold and cancel out: {plus_text}; {minus_text}"
    if score.plus:
        return plus_text
    if score.minus:
        return minus_text
    return "neither condition holds"


@functools.cache
def _deck() -> Mapping[str, Card]:
    """The cards' names and texts, read once (they are the printed deck's)."""
    return MappingProxyType(dict(cards()))


def scoreboard_rows(
    now: Mapping[str, CardScore], after: Mapping[str, CardScore], hand: Sequence[str]
) -> list[dict[str, Any]]:
    """The table as data (tests read this; the HTML is drawn from it)."""
    deck = _deck()
    return [
        {
            "card": card,
            "name": deck[card].name,
            "plus_text": deck[card].plus_text,
            "minus_text": deck[card].minus_text,
            "now": now[card].score,
            "after": after[card].score,
            "net": score_word(after[card].score),
            "reason": net_reason(after[card], deck[card].plus_text, deck[card].minus_text),
        }
        for card in hand
    ]


class Scoreboard(ipywidgets.HTML):
    """A table of cards (all 22, or a chosen hand) with their state now and after move-in."""

    def __init__(self, hand: Sequence[str] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.hand = [check_card(c) for c in hand] if hand else list(CARD_IDS)
        self.rows: list[dict[str, Any]] = []
        self.add_class("hl-scoreboard")

    def __repr__(self) -> str:
        return f"Scoreboard({len(self.hand)} cards)"

    @property
    def total(self) -> int:
        return sum(row["after"] for row in self.rows)

    def update(self, now: Mapping[str, CardScore], after: Mapping[str, CardScore]) -> None:
        self.rows = scoreboard_rows(now, after, self.hand)
        body = []
        for row in self.rows:
            card = row["card"]
            body.append(
                f'<tr data-card="{card}" data-score="{row["after"]}">'
                f"<td class='hl-card-name'>{html.escape(row['name'])}</td>"
                f"<td>{html.escape(row['plus_text'])}</td>"
                f"<td>{html.escape(row['minus_text'])}</td>"
                f"<td class='hl-card-state'>{_state_cell(now[card])}</td>"
                f"<td class='hl-card-state'>{_state_cell(after[card])}</td>"
                f"<td class='hl-card-net'><b>{row['net']}</b> "
                f"<span class='hl-card-reason'>{html.escape(row['reason'])}</span></td></tr>"
            )
        now_total = sum(row["now"] for row in self.rows)
        self.value = (
            "<style>"
            ".hl-scoreboard table{border-collapse:collapse;font-size:14px;width:100%}"
            ".hl-scoreboard th,.hl-scoreboard td{border-bottom:1px solid #d9e2ec;padding:4px 8px;"
            "text-align:left;vertical-align:top}"
            ".hl-scoreboard th{background:#f0f4f8}"
            ".hl-scoreboard .hl-card-name{font-weight:700}"
            ".hl-scoreboard .hl-plus{color:#1b7837;font-weight:700;white-space:nowrap}"
            ".hl-scoreboard .hl-minus{color:#b2182b;font-weight:700;white-space:nowrap}"
            ".hl-scoreboard .hl-zero{color:#616e7c}"
            ".hl-scoreboard tfoot td{font-weight:700;font-size:15px}"
            ".hl-scoreboard .hl-card-net b{font-size:16px;margin-right:4px}"
            ".hl-scoreboard .hl-card-reason{color:#3e4c59}"
            "</style>"
            "<table><thead><tr><th>Constituent</th><th>+1 when</th><th>&minus;1 when</th>"
            "<th>Now (before move-in)</th><th>After move-in</th>"
            "<th>Net score and why</th></tr></thead>"
            f"<tbody>{''.join(body)}</tbody>"
            f"<tfoot><tr><td colspan='3'>Total of these {len(self.rows)} cards</td>"
            f"<td data-total='now'>{now_total}</td>"
            f"<td data-total='after'>{self.total}</td>"
            f"<td data-total='net'>{score_word(self.total)}</td></tr></tfoot></table>"
        )

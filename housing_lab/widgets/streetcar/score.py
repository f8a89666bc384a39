"""The Streetcar score panel: a bqplot chart of points per colour and a table of the sums.

Both are drawn from the engine's `score_breakdown()` and `outcome()`/`standings()`; the panel
adds nothing up itself, so it always says what the engine says.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

import bqplot
import ipywidgets

from housing_lab.streetcar import COLOURS, PLAYERS, Outcome, ScoreBreakdown
from housing_lab.widgets.common import hidden_table, signed
from housing_lab.widgets.streetcar.words import (
    lines_words,
    outcome_words,
    score_terms,
    why_negative,
)

PLAYER_COLOURS = {"purple": "#7b2cbf", "red": "#d62828"}
COLOUR_LETTERS = {"blue": "B", "black": "K", "white": "W", "yellow": "Y"}
COLOUR_LABELS = [f"{colour} ({COLOUR_LETTERS[colour]})" for colour in COLOURS]


def score_chart_data(items: Mapping[str, ScoreBreakdown]) -> list[list[int]]:
    """Rows = players (purple, red), columns = colours: houses removed x connected cubes."""
    return [[items[player].products[colour] for colour in COLOURS] for player in PLAYERS]


def score_rows(items: Mapping[str, ScoreBreakdown]) -> list[dict[str, Any]]:
    """The table as data (tests read this; the HTML is drawn from it)."""
    return [items[player].to_dict() for player in PLAYERS]


def outcome_sentence(
    outcome: Outcome | None, standings: Outcome, labels: Mapping[str, str] | None = None
) -> str:
    """The winner and the tie-break at the end; the running scores while the game goes on."""
    names = labels or {}

    def label(player: str) -> str:
        return names.get(player, player.title())

    if outcome is not None:
        return f"Game over: {outcome_words(outcome, label)}."
    scores = ", ".join(f"{label(p)} {signed(score)}" for p, score in standings.scores.items())
    return f"So far: {scores}. If the game ended now: {outcome_words(standings, label)}."


def _legend() -> str:
    items = "".join(
        f"<span class='sc-legend-swatch' style='background:{PLAYER_COLOURS[p]}'></span>"
        f"<span style='margin-right:14px'>{p}</span>"
        for p in PLAYERS
    )
    return f"<div class='sc-score-legend'>{items}</div>"


def chart_words(data: list[list[int]], labels: Mapping[str, str]) -> str:
    """The chart's bars as a visually hidden table: a row per player, a column per colour."""
    rows = [(labels.get(player, player), data[index]) for index, player in enumerate(PLAYERS)]
    return hidden_table(
        "Points per colour (houses removed × connected cubes)",
        "player",
        COLOUR_LABELS,
        rows,
        "sc-chart-table",
    )


class ScorePanel(ipywidgets.HBox):
    """Grouped bars (per colour, one bar per player) beside a table of the sums.

    Create it where it is shown: a bqplot figure drawn while hidden has no size and makes the
    browser complain.
    """

    def __init__(self, **kwargs: Any) -> None:
        self.x_scale = bqplot.OrdinalScale(domain=COLOUR_LABELS)
        self.y_scale = bqplot.LinearScale(min=0, max=10)
        self.bars = bqplot.Bars(
            x=COLOUR_LABELS,
            y=[[0] * len(COLOURS) for _ in PLAYERS],
            scales={"x": self.x_scale, "y": self.y_scale},
            type="grouped",
            colors=[PLAYER_COLOURS[p] for p in PLAYERS],
            labels=list(PLAYERS),
            label_display=True,
            label_display_format=".0f",
            label_font_style={"font-size": "14px", "font-weight": "bold"},
            tooltip=bqplot.Tooltip(fields=["x", "y"], labels=["colour", "points"]),
        )
        self.figure = bqplot.Figure(
            marks=[self.bars],
            axes=[
                bqplot.Axis(
                    scale=self.x_scale, label="house colour", tick_style={"font-size": "14px"}
                ),
                bqplot.Axis(
                    scale=self.y_scale,
                    side="left",
                    label="points",
                    tick_style={"font-size": "13px"},
                ),
            ],
            title="",  # the title is HTML above the chart: no toolbar or clipping can hide it
            display_toolbar=False,
            fig_margin={"top": 24, "bottom": 50, "left": 60, "right": 15},
            layout=ipywidgets.Layout(width="480px", height="300px"),
        )
        self.figure.add_class("sc-score-chart")
        self.table = ipywidgets.HTML()
        self.table.add_class("sc-score-table")
        self.rows: list[dict[str, Any]] = []
        self.sentence = ""
        title = ipywidgets.HTML(
            "<div style='margin:4px 0 0 60px;font-size:16px;font-weight:700'>"
            "Points per colour = houses removed × connected cubes</div>"
        )
        self.words = ""  # the bars in words: a hidden table inside the legend's widget
        self.legend = ipywidgets.HTML(_legend())
        chart = ipywidgets.VBox(
            [title, self.legend, self.figure],
            layout=ipywidgets.Layout(flex="0 0 auto"),
        )
        super().__init__([self.table, chart], **kwargs)
        self.layout.flex_flow = "row wrap"  # the chart goes under the table on narrow screens
        self.layout.align_items = "flex-start"
        self.add_class("sc-score-panel")

    def __repr__(self) -> str:
        return "ScorePanel()"

    def update(
        self,
        items: Mapping[str, ScoreBreakdown],
        outcome: Outcome | None,
        standings: Outcome,
        labels: Mapping[str, str] | None = None,
        per_line: int = 10,
    ) -> None:
        """Show the engine's breakdown; `labels` name the players, `per_line` is the penalty."""
        data = score_chart_data(items)
        top = max(max(row) for row in data)
        with self.bars.hold_sync():
            self.bars.y = data
            self.y_scale.max = max(10, int(top * 1.2) + 2)
        self.rows = score_rows(items)
        self.sentence = outcome_sentence(outcome, standings, labels)
        self.table.value = self._html(items, outcome, standings, labels or {}, per_line)
        self.words = chart_words(data, labels or {})
        self.legend.value = _legend() + self.words

    def _html(
        self,
        items: Mapping[str, ScoreBreakdown],
        outcome: Outcome | None,
        standings: Outcome,
        labels: Mapping[str, str],
        per_line: int,
    ) -> str:
        goals = any(item.goals for item in items.values())
        head = "".join(
            f"<th>{colour}<br><small>({COLOUR_LETTERS[colour]})</small></th>" for colour in COLOURS
        )
        head += f"<th>separate lines<br><small>({signed(-per_line)} each)</small></th>"
        head += ("<th>goals</th>" if goals else "") + "<th>total</th>"
        body = []
        winners = set(outcome.winners) if outcome is not None else set()
        for player in PLAYERS:
            item = items[player]
            cells = "".join(
                f"<td data-colour='{colour}' data-product='{item.products[colour]}'>"
                f"{item.removed[colour]} × {item.connected_cubes[colour]}"
                f" = <b>{item.products[colour]}</b></td>"
                for colour in COLOURS
            )
            cells += f"<td data-penalty='{item.penalty}'>{lines_words(item.lines, per_line)}</td>"
            if goals:
                cells += f"<td data-goals='{sum(item.goals.values())}'>+{sum(item.goals.values())}"
                cells += "</td>"
            mark = " <span class='sc-winner-tag'>winner</span>" if player in winners else ""
            name = html.escape(labels.get(player, player))
            body.append(
                f"<tr data-player='{player}' data-total='{item.total}'"
                f"{' class=sc-winner' if player in winners else ''}>"
                f"<th style='color:{PLAYER_COLOURS[player]}'>{name}{mark}</th>{cells}"
                f"<td class='sc-total'>{signed(item.total)}</td></tr>"
            )
        sentence = html.escape(outcome_sentence(outcome, standings, labels))
        terms = "".join(
            f"<li data-terms='{player}'>"
            + html.escape(score_terms(items[player], per_line, labels.get(player, player.title())))
            + "</li>"
            for player in PLAYERS
        )
        why = html.escape(why_negative(items, per_line))
        over = "sc-over" if outcome is not None else "sc-running"
        return (
            "<style>"
            ".sc-score-table table{border-collapse:collapse;font-size:16px;margin:6px 12px 0 0}"
            ".sc-score-table th,.sc-score-table td{border-bottom:1px solid #d9e2ec;"
            "padding:6px 9px;text-align:center;white-space:nowrap}"
            ".sc-score-table thead th{background:#f0f4f8;font-size:15px}"
            ".sc-score-table tbody th{text-align:left;font-size:17px}"
            ".sc-score-table .sc-total{font-size:22px;font-weight:800}"
            ".sc-score-table tr.sc-winner{background:#fff7d6}"
            ".sc-score-table .sc-winner-tag{font-size:13px;padding:1px 7px;border-radius:10px;"
            "background:#14532d;color:#fff;vertical-align:middle}"
            ".sc-score-table .sc-outcome{margin-top:12px;font-size:17px;font-weight:700;"
            "max-width:560px;white-space:normal}"
            ".sc-score-table .sc-outcome.sc-over{color:#14532d;background:#e3f6e8;"
            "padding:8px 12px;border-radius:6px;border:1px solid #8fd19e}"
            ".sc-score-legend{font-size:15px;display:flex;align-items:center;gap:6px;"
            "margin-left:60px}"
            ".sc-score-table .sc-terms{margin:8px 0 0;padding-left:20px;font-size:15px;"
            "max-width:560px;white-space:normal}"
            ".sc-score-table .sc-why{margin:4px 0 0;font-size:15px;max-width:560px;color:#334e68}"
            ".sc-legend-swatch{display:inline-block;width:16px;height:16px;"
            "border:1px solid #333}"
            "</style>"
            f"<table><thead><tr><th scope='col'>player</th>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table>"
            f"<ul class='sc-terms'>{terms}</ul>"
            + (f"<p class='sc-why'>{why}</p>" if why else "")
            + f"<div class='sc-outcome {over}'>{sentence}</div>"
        )

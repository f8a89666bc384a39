"""The board's residents on a room page, and the end of the game: move-in, the chart, scores.

A room's view carries the public board (tiles, policies, existing residents); the engine scores
it here (`score_scenario`), so every page shows the existing residents all game and, once the
game is over, the move-in. The projector plays it wave by wave with the game table's
`MoveInPlayback` (and its "Who is housed?" chart); each step is sent to the room
(`movein_step`), and a team page shows the step the room has, its own cards' results only
once the projector shows the final scores (or the team asks for them on its own page).
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from housing_lab.north_berkeley.constituents import cards
from housing_lab.north_berkeley.engine.scoring import ScenarioResult, score_scenario
from housing_lab.north_berkeley.policies import RuleOptions
from housing_lab.north_berkeley.scenario import scenario_from_dict
from housing_lab.widgets.common import signed
from housing_lab.widgets.lab.board import NorthBerkeleyBoard
from housing_lab.widgets.table.movein import MOVEIN_STEPS, SCORING_STEP, MoveInPlayback

TABLE_CSS = Path(__file__).parent.parent / "table" / "panel.css"
CHART_CLASSES = (".hl-gt-chart-legend", ".hl-gt-legend-item", ".hl-gt-swatch")
NEXT_STEP = "Next move-in step"
BACK_STEP = "Back one step"
TO_SCORES = "Show the final scores"
TO_END = "Show me the final result"
FOLLOWING = (
    "Your page follows the projector: the final scores come when the teacher shows them "
    "(or see them now: Show me the final result)."
)
WAVE_NAMES = ("high-income", "middle-income", "low-income")


class RoomMoveIn:
    """The board's residents and, at game end, the move-in playback with its chart.

    The step shown is the room's (`view["movein"]["step"]`), which only the projector sets:
    `stepped` (the projector) has the buttons, each sending its step through `send_step`; a
    team page follows the projector, so no phone shows the final scores before the teacher
    does, and offers "Show me the final result" for a team that wants it at once (its own
    page only).
    """

    def __init__(self, board: NorthBerkeleyBoard, options: Mapping[str, Any], *, stepped: bool):
        self.board = board
        self.stepped = stepped
        self.options = RuleOptions.from_dict(dict(options))
        self.playback = MoveInPlayback()
        self._key = ""
        self.result: ScenarioResult | None = None
        self.over = False
        self.shared_step = 0  # the projector's step, as the room has it
        self.own_end = False  # a team asked for the final result on its own page
        self.step_line = widgets.HTML().add_class("hl-classroom-step")
        self.back = widgets.Button(description=BACK_STEP, tooltip=BACK_STEP)
        self.next = widgets.Button(description=NEXT_STEP, tooltip=NEXT_STEP)
        self.scores = widgets.Button(description=TO_SCORES, tooltip=TO_SCORES)
        self.to_end = widgets.Button(description=TO_END, tooltip=TO_END)
        for button, kind in (
            (self.back, "back"),
            (self.next, "next"),
            (self.scores, "scores"),
            (self.to_end, "end"),
        ):
            button.add_class("hl-act")
            button.add_class(f"hl-movein-{kind}")
        for button in (self.next, self.scores):
            button.add_class("hl-act-main")  # the way on stands out on the projector
        self.back.on_click(lambda _b: self._move(self.playback.back))
        self.next.on_click(lambda _b: self._move(self.playback.forward))
        self.scores.on_click(lambda _b: self._move(self.playback.to_scores))
        self.to_end.on_click(lambda _b: self.show_the_end())
        buttons = widgets.Box([self.back, self.next, self.scores] if stepped else [self.to_end])
        buttons.add_class("hl-classroom-actions")
        self.controls = widgets.VBox([self.step_line, buttons])
        self.box = widgets.VBox([])  # the chart and the controls, empty until the game is over
        self.box.add_class("hl-classroom-movein")
        self.on_change: Any = None  # called after a step (the page redraws its scores)
        # the projector's way to move the room on: (step) -> whether the room took it; None
        # (no room: a test's own playback) steps this page alone
        self.send_step: Callable[[int], bool] | None = None

    @property
    def stage(self) -> str:
        return self.playback.stage_after_play()

    @property
    def scores_shown(self) -> bool:
        return self.over and self.stage == "scoring"

    @property
    def behind(self) -> bool:
        """A team page short of the final result (the projector has not shown it yet)."""
        return self.over and not self.stepped and not self.scores_shown

    def show(self, view: Mapping[str, Any]) -> None:
        """Draw the board's residents from `view`'s board: before move-in while the game goes
        on; once it is over, the move-in at the projector's step (a team that asked for the
        final result: the end)."""
        board = dict(view["board"])
        key = json.dumps(board, sort_keys=True)
        if key != self._key or self.result is None:
            self.result = score_scenario(scenario_from_dict(board), self.options)
            self._key = key
        over = view["phase"] == "over"
        if over and not self.over:
            with self.board.hold_sync():  # a tap's message or choice is stale once it is over
                self.board.selected = ""
                self.board.message = ""
        self.over = over
        if not over:
            self.own_end = False
            with self.board.hold_sync():
                self.board.show_result(self.result)
                self.board.replay_index = 0  # the existing residents only; nobody moved in yet
            self.box.children = ()
            return
        self.shared_step = int((view.get("movein") or {}).get("step", 0))
        self.playback.step = SCORING_STEP if self.own_end else self.shared_step
        self._draw()

    def show_the_end(self) -> None:
        """A team page: the final result now, ahead of the projector (this page only)."""
        self.own_end = True
        self.playback.step = SCORING_STEP
        self._draw()
        if self.on_change is not None:
            self.on_change()

    def _move(self, step: Any) -> None:
        """The projector's button: the room moves to the next step (every page follows)."""
        before = self.playback.step
        step(self.stage)
        wanted = self.playback.step
        if self.send_step is not None:  # the room takes it; the page redraws from its view
            self.playback.step = before
            self.send_step(wanted)
            return
        self._draw()
        if self.on_change is not None:
            self.on_change()

    def _draw(self) -> None:
        assert self.result is not None
        self.playback.show(self.board, self.stage, self.result)
        step = self.playback.step
        line = f"<p><b>{html.escape(step_words(step))}</b></p>"
        if self.behind:
            line += f"<p class='hl-classroom-following'>{html.escape(FOLLOWING)}</p>"
        self.step_line.value = line
        self.back.disabled = step == 0
        self.next.disabled = step >= SCORING_STEP
        self.scores.disabled = step >= SCORING_STEP
        self.to_end.layout.display = "none" if step >= SCORING_STEP else None
        chart = self.playback.chart
        # the projector at the final scores: the scores and every team's cards take the room
        # the chart had (Back one step shows it again); a team page keeps it beside its cards
        if self.stepped and step >= SCORING_STEP:
            chart = None
        self.box.children = (self.controls, *([chart] if chart is not None else []))


def chart_css() -> str:
    """The move-in chart's legend rules, read from the game table's stylesheet (where the
    chart is styled) so the room pages draw it the same without a copy."""
    lines = TABLE_CSS.read_text(encoding="utf-8").splitlines()
    return "\n".join(line for line in lines if line.startswith(CHART_CLASSES))


def step_words(step: int) -> str:
    """What the projector shows now, in words."""
    if step == 0:
        return "Move-in: the existing residents, before any newcomer moves in."
    if step <= MOVEIN_STEPS:
        return f"Move-in step {step} of {MOVEIN_STEPS}: the {WAVE_NAMES[step - 1]} newcomers."
    return "Move-in done: the final scores."


def card_reason(card: Mapping[str, Any]) -> str:
    """Why one card scored what it did, in the card's own printed words."""
    printed = cards()[card["card"]]
    parts = []
    if card.get("plus"):
        parts.append(f"+1: {printed.plus_text}")
    if card.get("minus"):
        parts.append(f"-1: {printed.minus_text}")
    return "; ".join(parts) or "neither condition met: 0"


def _card_rows(hand: list[Mapping[str, Any]]) -> str:
    """One table row per scored card: its name, its score and why."""
    return "".join(
        f"<tr><td>{_esc(card['name'])}</td><td class='hl-num'>{signed(card['score'], plus=True)}"
        f"</td><td class='hl-classroom-why'>{_esc(card_reason(card))}</td></tr>"
        for card in hand
    )


def hand_results_html(view: Mapping[str, Any]) -> str:
    """A team's own cards at game end: each card's score and the reason."""
    rows = _card_rows(view.get("hand") or [])
    return (
        "<h3>Your cards' results</h3><table class='hl-classroom-hand'>"
        f"<tr><th>Card</th><th>Final score</th><th>Why</th></tr>{rows}"
        f"<tr class='hl-total'><td>Total</td><td class='hl-num'>"
        f"{signed(view['score'], plus=True)}</td><td></td></tr></table>"
    )


def face_up_html(scores: Mapping[str, Any] | None, *, skip: str | None = None) -> str:
    """Every team's cards turned face up at game end (the view has them only then), each with
    its score and why; `skip` leaves out the team whose own results are already shown."""
    hands = (scores or {}).get("cards") or {}
    tables = "".join(
        f"<div><h4>{_esc(team)}</h4><table class='hl-classroom-hand hl-classroom-faceup' "
        f"data-team='{_esc(team)}'><tr><th>Card</th><th>Score</th><th>Why</th></tr>"
        f"{_card_rows(hand)}</table></div>"
        for team, hand in hands.items()
        if team != skip
    )
    if not tables:
        return ""
    return f"<h3>Every team's cards, face up</h3><div class='hl-classroom-faceups'>{tables}</div>"


def final_scores_html(scores: Mapping[str, Any] | None) -> str:
    """The final scores everyone may see, each total with its reason (how many cards scored
    +1, -1 and 0; `face_up_html` lists the cards), then the winner and the tie-break."""
    if not scores or not scores.get("totals"):
        return ""
    reasons = scores.get("reasons") or {}
    rows = "".join(
        f"<tr><td>{_esc(team)}</td><td class='hl-num'>{signed(total, plus=True)}</td>"
        f"<td class='hl-classroom-why'>{_esc(total_reason(reasons.get(team)))}</td></tr>"
        for team, total in scores["totals"].items()
    )
    winners = ", ".join(_esc(team) for team in scores.get("winners") or [])
    line = f"<p><b>Winner:</b> {winners}</p>" if winners else ""
    tie = f"<p>{_esc(scores['tie_break'])}</p>" if scores.get("tie_break") else ""
    return (
        "<h3>Final scores</h3><table class='hl-classroom-scores'>"
        f"<tr><th>Team</th><th>Score</th><th>Why</th></tr>{rows}</table>{line}{tie}"
    )


def total_reason(reason: Mapping[str, int] | None) -> str:
    """ "3 cards +1, 1 card -1, 2 cards 0" from the counts."""
    if not reason:
        return ""
    parts = []
    for key, label in (("plus", "+1"), ("minus", "-1"), ("zero", "0")):
        count = reason.get(key, 0)
        if count:
            parts.append(f"{count} card{'s' if count != 1 else ''} {label}")
    return ", ".join(parts)


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)

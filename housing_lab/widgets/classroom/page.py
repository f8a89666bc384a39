"""`ClassroomPage`: one room page; the token in its link decides whose page it is.

- The teacher's token: the projector page. The shared board, the phase and its timer, the
  public scores, which teams have joined (`rooms/joins.py`), the teams' join links with their
  QR codes one team at a time (before play, and whenever the teacher shows them again), and
  the teacher's buttons (start the timer, phases, the policy decision, calling the state). At
  game end it plays the move-in step by step beside the board, then the final scores
  (`ending.py`); every team page follows its steps. No hand is ever on it.
- A team's token: that team's own hand with its live score and, under each card, what scores
  +1 and -1 and where the board stands (the engine's words), the shared board (first, with
  the building choices right under it, so they are in view on a phone after a tap; when it
  has nothing to build they are hidden, and on a phone its decision comes first), and
  exactly the actions the store's view lists for that team now (`legal_actions`): tiles
  through the board, everything else as one button per action. At game end: the move-in at
  the projector's step with the chart, then its own cards' results once the projector shows
  the final scores (or the team asks: "Show me the final result").
- No token or a wrong one: one line, nothing from the room.

A Streetcar room shows the shared Streetcar board on every page (`widgets/classroom/streetcar.py`):
the team to move plays its turn on it by clicking, the others watch; there are no buttons.

The page holds nothing but the store's view for its own token, so no other team's hidden cards
can reach its widgets. Everything lives in the store: a page polls it (`poll_once`, run every
`poll_seconds` by an asyncio task in the kernel) and a reopened link shows the same room.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import ipywidgets as widgets

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley.names import card_name, policy_set_name
from housing_lab.rooms import RoomStore, open_store
from housing_lab.rooms.joins import joined_teams, record_join
from housing_lab.rooms.links import load_links, loopback_warning, qr_svg
from housing_lab.widgets.classroom import words as words
from housing_lab.widgets.classroom.ending import (
    RoomMoveIn,
    chart_css,
    face_up_html,
    final_scores_html,
    hand_results_html,
    step_words,
)
from housing_lab.widgets.classroom.key import KeyReader
from housing_lab.widgets.classroom.streetcar import RoomStreetcar
from housing_lab.widgets.common import signed
from housing_lab.widgets.lab.board import NorthBerkeleyBoard

CSS = Path(__file__).with_name("page.css")
POLL_SECONDS = 0.3  # a page sees others' actions within this (plus one store read)
BOARD_KINDS = ("place", "clear")  # played on the board, not as buttons
MAIN_KINDS = ("start_timer", "advance", "enact", "pick")  # what moves the game on: stands out
JOINS_EVERY = 1.0  # seconds between the projector's reads of who has joined


class ClassroomPage(widgets.VBox):
    """The page for whoever holds `token` in `room`."""

    def __init__(
        self,
        store: RoomStore,
        room: str | None,
        token: str | None,
        *,
        links_folder: Path | str | None = None,
        poll_seconds: float = POLL_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__()
        self.add_class("hl-classroom")
        self.store, self.room, self.token = store, room, token
        self.poll_seconds = poll_seconds
        self._clock = clock
        self._links_folder = links_folder
        self.view: dict[str, Any] | None = None
        self.seq = -1
        self._buttons: list[tuple[widgets.Button, dict[str, Any]]] = []
        self._task: asyncio.Task[None] | None = None
        self._timer_text = ""
        self._clearable: set[str] = set()
        css = CSS.read_text(encoding="utf-8") + chart_css()
        style = widgets.HTML(f"<style>{css}</style>")
        self.title = widgets.HTML().add_class("hl-classroom-title")
        self.status = widgets.HTML().add_class("hl-classroom-status")
        self.notice = widgets.HTML().add_class("hl-classroom-notice")
        self.board: NorthBerkeleyBoard | None = None
        self.movein: RoomMoveIn | None = None
        self.streetcar: RoomStreetcar | None = None
        self.side = widgets.HTML().add_class("hl-classroom-side")
        # the projector's face-up cards at game end, under the board (the column beside it
        # holds the chart and the scores)
        self.face_up = widgets.HTML().add_class("hl-classroom-side")
        self.actions = widgets.Box(layout=widgets.Layout(flex_flow="row wrap"))
        self.actions.add_class("hl-classroom-actions")
        self.links = widgets.HTML().add_class("hl-classroom-links")
        self.codes_button = widgets.Button(description=words.SHOW_CODES, tooltip=words.SHOW_CODES)
        self.codes_button.add_class("hl-classroom-codes-button")
        self.codes_button.on_click(lambda _button: self.toggle_codes())
        # one team's code at a time (a student cannot scan another team's), stepped through
        self.code_previous = widgets.Button(description=words.PREVIOUS_CODE)
        self.code_next = widgets.Button(description=words.NEXT_CODE)
        self.code_previous.on_click(lambda _button: self.show_code(self.code_index - 1))
        self.code_next.on_click(lambda _button: self.show_code(self.code_index + 1))
        self.codes_nav = widgets.HBox([self.code_previous, self.code_next])
        self.codes_nav.add_class("hl-classroom-codes-nav")
        self.joined = widgets.HTML().add_class("hl-classroom-joined")
        self.codes_shown: bool | None = None  # None: not yet decided (shown before play)
        self.code_index = 0
        self._codes_seq = -1  # the log's number when the codes were last drawn
        self.joined_teams: dict[str, float] = {}
        self._joins_read_at = -JOINS_EVERY
        self._links: dict[str, Any] | None = None
        self._qr: dict[str, str] = {}
        try:
            if not room or not token:
                raise HousingLabError(words.NO_TOKEN)
            self.role = store.role(room, token)
            info = store.info(room, token)
            self.room, self._options = info.code, dict(info.options)
            self._record_join(token)
        except HousingLabError as error:
            self.role = None
            self.title.value = f"<p class='hl-classroom-denied'>{_esc(str(error))}</p>"
            self.children = (style, self.title)
            return
        self._build(style)
        self.refresh()

    def __repr__(self) -> str:  # stable for nbval: no memory address
        who = "no access" if self.role is None else self.role.actor
        return f"ClassroomPage({self.room}, {who})"

    # --- layout ------------------------------------------------------------------------------
    def _build(self, style: widgets.HTML) -> None:
        assert self.role is not None
        teacher = self.role.is_teacher
        self.add_class("hl-classroom-teacher" if teacher else "hl-classroom-team")
        # A team's phase and timer line sits above the board, and the board comes first: on a
        # phone the building choices are then right under the square just tapped (issue 24).
        right = (
            [self.status, self.joined, self.notice, self.actions, self.side]
            if teacher
            else [
                self.notice,
                self.actions,
                self.side,
            ]
        )
        if teacher:
            codes_row = widgets.HBox([self.codes_button, self.codes_nav])
            codes_row.add_class("hl-classroom-codes-row")
            right.extend([codes_row, self.links])
        basis = "1 1 420px" if teacher else "0 1 380px"
        column = widgets.VBox(right, layout=widgets.Layout(flex=basis, min_width="0"))
        column.add_class("hl-classroom-column")
        if self._game == "north-berkeley":
            self.board = NorthBerkeleyBoard(layout=widgets.Layout(width="100%", min_width="0"))
            self.board.on_action = self._board_action
            self.board.observe(self._square_chosen, names="selected")
            self.movein = RoomMoveIn(self.board, self._options, stepped=teacher)
            self.movein.on_change = self._redraw_side
            if teacher:
                self.movein.send_step = self._send_step
            board_layout = widgets.Layout(flex="1 1 520px", min_width="0")
            # every page shows the move-in beside the board, at the top of its column, so the
            # chart is in view with the board at 1366x768 (under the board on a phone)
            first = (self.status, self.movein.box) if teacher else (self.movein.box,)
            column.children = (*first, *column.children[1 if teacher else 0 :])
            under = [self.board, self.face_up] if teacher else [self.board]
            board_column = widgets.VBox(under, layout=board_layout)
            board_column.add_class("hl-classroom-boardcolumn")
            self._board_column = board_column
            parts: list[widgets.Widget] = [board_column, column]
        else:
            self.streetcar = RoomStreetcar(self._streetcar_send, can_play=not teacher)
            self.streetcar.board.layout = widgets.Layout(flex="1 1 620px", min_width="0")
            board = self.streetcar.board
            parts = [board, column] if teacher else [column, board]
        body = widgets.Box(parts, layout=widgets.Layout(flex_flow="row wrap", width="100%"))
        body.add_class("hl-classroom-body")
        top = (self.title,) if teacher else (self.title, self.status)
        self.children = (style, *top, body)

    @property
    def _game(self) -> str:
        return self.view["game"] if self.view else self.store.info(self.room, self.token).game

    # --- live updates ------------------------------------------------------------------------
    def refresh(self) -> None:
        """Read this token's view from the store and redraw everything from it."""
        if self.role is None:
            return
        view = self.store.view(self.room, self.token)
        self.view, self.seq = view, view["seq"]
        with self.hold_sync():
            self._draw_title(view)
            self._draw_status(view)
            self._draw_actions(view)
            if view["game"] == "north-berkeley":
                self._draw_board(view)
                self._redraw_side()
            else:
                assert self.streetcar is not None
                self.streetcar.show(view, self._options)
                self.side.value = self._streetcar_side(view)
            if self.role.is_teacher:
                self._read_joins(force=True)
                self._draw_codes(view)

    def poll_once(self) -> bool:
        """One poll: redraw when the room's log moved on (or the timer ran out); else tick the
        timer. Returns whether the page was redrawn."""
        if self.role is None:
            return False
        try:
            seq = self.store.seq(self.room, self.token)
            timer = (self.view or {}).get("timer")
            ran_out = bool(timer) and timer["seconds_left"] > 0 and self._seconds_left(timer) <= 0
            if seq != self.seq or ran_out:
                before = self._tiles()
                phase = (self.view or {}).get("phase")
                step = self._movein_step()
                moved = seq != self.seq
                self.refresh()
                news = words.board_news(before, self._tiles()) if moved else ""
                now = (self.view or {}).get("phase")
                if moved and now != phase:  # a notice of the last phase would be stale
                    news = f"{words.now_in(str(now))} {news}".strip()
                if moved and now == "over" and self._movein_step() != step:
                    news = f"{news} {step_words(self._movein_step())}".strip()
                if news:
                    self._say(news)
                return True
            self._draw_status(self.view or {})
            if self.role.is_teacher and self._read_joins() and self.view is not None:
                self._draw_codes(self.view)
        except HousingLabError as error:
            self._say(str(error), "error")
        return False

    def _movein_step(self) -> int | None:
        """The projector's move-in step as this page last read it (None before game end)."""
        movein = (self.view or {}).get("movein")
        return None if not movein else int(movein["step"])

    def start(self) -> None:
        """Poll the store every `poll_seconds` from the kernel's running event loop (a kernel
        runs each cell inside it); RuntimeError when no loop is running (a plain script)."""
        if self.role is None or (self._task is not None and not self._task.done()):
            return
        self._task = asyncio.get_running_loop().create_task(self._poll_forever())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def _poll_forever(self) -> None:
        while True:
            await asyncio.sleep(self.poll_seconds)
            try:
                self.poll_once()
            except Exception as error:  # a dropped database connection must not end the page
                self._say(f"{words.STORE_LOST} ({type(error).__name__})", "error")

    # --- acting ------------------------------------------------------------------------------
    def act(self, action: dict[str, Any]) -> bool:
        """Send one action to the store; its refusal (the engine's words) becomes the notice."""
        return self._streetcar_send(action) is None

    def _streetcar_send(self, action: dict[str, Any]) -> str | None:
        """`act`, returning the refusal's words (None when played): the Streetcar board shows
        them on its own message line too."""
        before = dict(((self.view or {}).get("board") or {}).get("tiles") or {})
        try:
            result = self.store.act(self.room, self.token, action)
        except HousingLabError as error:
            self._say(str(error), "error")
            return str(error)
        done = words.action_done(action, result["view"], before)
        if self.board is not None:  # the board's line said "B1 chosen: pick a building below."
            self.board.say(done, "info", announce=False)  # _say reads it out
        self._say(done)
        self.refresh()
        return None

    def offered_actions(self) -> list[dict[str, Any]]:
        """Every action this page offers now: the board's tiles and clears, and the buttons.
        (A Streetcar page offers its moves on its board only: `streetcar.offered()`.)"""
        offered = [dict(action) for _, action in self._buttons]
        if self.board is not None and self.view is not None:
            for action in self.view["legal_actions"]:
                if action["action"] in BOARD_KINDS and self._on_board(action):
                    offered.append(dict(action))
        return offered

    def _on_board(self, action: dict[str, Any]) -> bool:
        assert self.board is not None
        if action["action"] == "place":
            return action["tile"] in self.board.allowed.get(action["square"], [])
        return action["square"] in self._clearable

    def _send_step(self, step: int) -> bool:
        """The projector moves the room's move-in to `step`: every page follows. The step is
        read out, not written in the notice (the step line under the buttons says it)."""
        try:
            self.store.act(self.room, self.token, {"action": "movein_step", "step": step})
        except HousingLabError as error:
            self._say(str(error), "error")
            return False
        self.refresh()
        if self.board is not None:
            self.board.announce(step_words(step))
        return True

    def _board_action(self, message: dict[str, Any]) -> None:
        assert self.role is not None
        if self.role.is_teacher:
            self._say(words.TEACHER_BOARD_CLICK)
            return
        if message.get("action") not in BOARD_KINDS:
            return
        self.act({key: message[key] for key in ("action", "square", "tile") if key in message})

    def _tiles(self) -> dict[str, str]:
        return dict(((self.view or {}).get("board") or {}).get("tiles") or {})

    def _square_chosen(self, change: dict[str, Any]) -> None:
        """A team tapped a square: where it cannot build, the engine's reason, said at once on
        the board's message line and the page's; else what to do next."""
        square = change["new"]
        if not square or self.board is None or self.role is None or self.role.is_teacher:
            return
        if self.view is None or self.view["phase"] not in ("phase1", "phase2"):
            return
        if not self.board.allowed.get(square):
            reason = (self.view.get("refused") or {}).get(square) or words.NOT_NOW
            text = f"You cannot build on {square}: {reason}."
            self.board.say(text, "error", announce=False)  # _say reads it out
            self._say(text, "error")
            return
        self.board.say(words.chosen(square), "info")

    def _say(self, text: str, kind: str = "info") -> None:
        self.notice.value = f"<p class='hl-classroom-{kind}' role='status'>{_esc(text)}</p>"
        if self.board is not None:  # the notice is redrawn: the board's one announcer reads it
            self.board.announce(text)

    # --- drawing -----------------------------------------------------------------------------
    def _draw_title(self, view: dict[str, Any]) -> None:
        assert self.role is not None
        who = "Teacher (projector)" if self.role.is_teacher else f"Team {self.role.team}"
        self.title.value = (
            f"<h2>{_esc(who)} <span class='hl-classroom-code'>room {_esc(view['room'])}</span></h2>"
        )

    def _seconds_left(self, timer: dict[str, Any]) -> float:
        """Seconds of negotiation left, counted on this page's clock while the timer runs."""
        if timer.get("state", "running") != "running":
            return float(timer["seconds_left"])
        return timer["negotiation_minutes"] * 60 - (self._clock() - timer["phase_started_at"])

    def _draw_status(self, view: dict[str, Any]) -> None:
        if not view:
            return
        parts = [f"<b>{_esc(words.phase_name(view['phase']))}</b>"]
        timer = view.get("timer")
        if timer:
            text = words.timer_text(timer, self._seconds_left(timer))
            parts.append(f"<span class='hl-classroom-timer'>{_esc(text)}</span>")
        draft = view.get("draft") or {}
        if view["phase"] == "draft" and draft.get("turn"):
            parts.append(f"{_esc(draft['turn'])} picks now")
        if view.get("to_move"):
            parts.append(f"{_esc(view['to_move'])} to move")
        value = "".join(f"<span class='hl-classroom-part'>{part}</span>" for part in parts)
        if value != self._timer_text:
            self._timer_text = value
            self.status.value = f"<p>{value}</p>"

    def _draw_actions(self, view: dict[str, Any]) -> None:
        assert self.role is not None
        buttons = []
        for action in view["legal_actions"]:
            if view["game"] != "north-berkeley" or action["action"] in BOARD_KINDS:
                continue  # played on the board (all of Streetcar: a turn has hundreds of moves)
            label = words.action_label(action, teacher=self.role.is_teacher, phase=view["phase"])
            button = widgets.Button(description=label, tooltip=label)
            button.add_class("hl-act")
            button.add_class(f"hl-act-{action['action']}")
            if action["action"] in MAIN_KINDS:
                button.add_class("hl-act-main")
            button.on_click(lambda _button, action=action: self.act(action))
            buttons.append((button, action))
        self._buttons = buttons
        self.actions.children = tuple(button for button, _ in buttons)

    def _draw_board(self, view: dict[str, Any]) -> None:
        assert self.board is not None
        places: dict[str, list[str]] = {square: [] for square in self.board.site["squares"]}
        self._clearable = set()
        for action in view["legal_actions"]:
            if action["action"] == "place":
                places.setdefault(action["square"], []).append(action["tile"])
            elif action["action"] == "clear":
                self._clearable.add(action["square"])
        assert self.movein is not None
        with self.board.hold_sync():
            self.movein.show(view)  # tiles, policies and residents, from the engine's move-in
            self.board.allowed = places
        over = view["phase"] == "over"
        if over:
            self.add_class("hl-classroom-over")
        else:
            self.remove_class("hl-classroom-over")
        # nothing to build now (the draft, the policies, another team's phase, the end): the
        # building choices are hidden, and on a phone the page's decision comes first
        assert self.role is not None
        building = any(action["action"] in BOARD_KINDS for action in view["legal_actions"])
        if building or self.role.is_teacher:
            self.remove_class("hl-classroom-nobuild")
        else:
            self.add_class("hl-classroom-nobuild")

    def _redraw_side(self) -> None:
        if self.view is not None:
            self.side.value = self._nb_side(self.view)
            shown = self.movein is not None and self.movein.scores_shown
            self.face_up.value = face_up_html(self.view.get("scores")) if shown else ""
            if self.role is not None and self.role.is_teacher and self.board is not None:
                # the projector at the final scores: every team's cards at the top of the
                # board's column, in view (the board, seen through the move-in, under them)
                order = (self.face_up, self.board) if shown else (self.board, self.face_up)
                if self._board_column.children != order:
                    self._board_column.children = order

    def _nb_side(self, view: dict[str, Any]) -> str:
        out = []
        if view["phase"] == "over":
            return self._nb_final(view)
        if view.get("hand") is not None:
            out.append(hand_html(view))
            if view.get("extra_card"):
                out.append(f"<p>Your extra card: {_esc(card_name(view['extra_card']))}</p>")
        face_up = (view.get("draft") or {}).get("face_up") or []
        if face_up:
            names = ", ".join(_esc(card_name(card)) for card in face_up)
            out.append(f"<p><b>Face-up cards:</b> {names}</p>")
        if view.get("policies_drawn"):
            out.append(words.policies_explained(list(view["policies_drawn"])))
        if view["board"]["policies"]:
            out.append(f"<p><b>Enacted:</b> {_esc(policy_set_name(view['board']['policies']))}</p>")
        out.append(_scores_html(view.get("scores")))
        return "".join(out)

    def _nb_final(self, view: dict[str, Any]) -> str:
        """Game over: a team's own cards with their reasons, the final scores and the other
        teams' cards face up; on the projector the scores and every team's cards once the
        move-in has been played to its end."""
        out = []
        if view["board"]["policies"]:
            out.append(f"<p><b>Enacted:</b> {_esc(policy_set_name(view['board']['policies']))}</p>")
        if view.get("hand") is not None:
            if self.movein is not None and self.movein.behind:
                return "".join(out)  # the move-in's step line says what comes and when
            out.append(hand_results_html(view))
            out.append(final_scores_html(view.get("scores")))
            out.append(face_up_html(view.get("scores"), skip=view["you"].get("team")))
        elif self.movein is not None and self.movein.scores_shown:
            out.append(final_scores_html(view.get("scores")))  # the cards: under the board
        else:
            out.append(f"<p>{_esc(words.MOVEIN_FIRST)}</p>")
        return "".join(out)

    def _streetcar_side(self, view: dict[str, Any]) -> str:
        players = ", ".join(f"{_esc(t)} plays {_esc(c)}" for t, c in view["players"].items())
        out = [f"<p>{players}. Turn {view['turn']}.</p>"]
        if view["moves"]["count"]:
            out.append(words.STREETCAR_YOUR_TURN)
        out.append(_scores_html(view.get("scores")))
        return "".join(out)

    def _record_join(self, token: str | None) -> None:
        """A team's page opened with its key: the team has joined (kept in the store, so the
        projector on any server of a hub sees it). A store that cannot write (read-only) keeps
        the page working: the join is a convenience for the teacher."""
        assert self.role is not None
        if self.role.is_teacher:
            return
        with contextlib.suppress(HousingLabError):
            record_join(self.store, self.room, token)

    def _read_joins(self, force: bool = False) -> bool:
        """Read who has joined (at most every `JOINS_EVERY` s); redraw the projector's joined
        line. Returns whether the list changed."""
        now = time.monotonic()
        if not force and now - self._joins_read_at < JOINS_EVERY:
            return False
        self._joins_read_at = now
        try:
            joined = joined_teams(self.store, self.room, self.token)
        except HousingLabError:
            return False  # the log's poll says when the store is lost
        changed = joined != self.joined_teams
        self.joined_teams = joined
        teams = list((self.view or {}).get("teams") or [])
        self.joined.value = words.joined_html(teams, list(joined))
        return changed

    def toggle_codes(self) -> None:
        """The teacher shows the join codes (a latecomer, a lost link) or hides them again, at
        any time; shown again, they start at the first team that has not joined."""
        self.codes_shown = not self.codes_shown
        if self.codes_shown:
            self._read_joins(force=True)
            self.code_index = self._first_not_joined()
        if self.view is not None:
            self._draw_codes(self.view)

    def show_code(self, index: int) -> None:
        """Show team number `index` (wrapping round) of the room's join codes."""
        teams = list((self.view or {}).get("teams") or [])
        self.code_index = index % len(teams) if teams else 0
        if self.view is not None:
            self._draw_codes(self.view)

    def _first_not_joined(self) -> int:
        teams = list((self.view or {}).get("teams") or [])
        waiting = [i for i, team in enumerate(teams) if team not in self.joined_teams]
        return waiting[0] if waiting else 0

    def _draw_codes(self, view: dict[str, Any]) -> None:
        """One team's join code at a time, large, with its name (so nobody scans another
        team's code and reads its hand). Shown before play; the first action hides them, and
        the teacher's button brings them back at any time."""
        if self.codes_shown is None:
            self.codes_shown = view["seq"] == 0
        elif self.codes_shown and view["seq"] > 0 and self._codes_seq == 0:
            self.codes_shown = False  # play began: the codes leave the projector
        self._codes_seq = view["seq"]
        self.codes_button.description = words.HIDE_CODES if self.codes_shown else words.SHOW_CODES
        self.codes_button.tooltip = self.codes_button.description
        teams = list(view.get("teams") or [])
        if not self.codes_shown or not teams:
            self.codes_nav.layout.display = "none"
            self.links.value = ""
            return
        if self._links is None:
            self._links = (load_links(self.room, self._links_folder) if self.room else None) or {}
        urls = self._links.get("teams") or {}
        if not urls:
            self.codes_nav.layout.display = "none"
            self.links.value = f"<p>{_esc(words.NO_LINKS_FILE)}</p>"
            return
        self.codes_nav.layout.display = None if len(teams) > 1 else "none"
        self.code_index %= len(teams)
        team = teams[self.code_index]
        self.links.value = self._code_html(team, urls.get(team), len(teams))

    def _code_html(self, team: str, url: str | None, count: int) -> str:
        """One team's code: its name, large; the QR code; whether it has joined; the link."""
        status = words.JOINED if team in self.joined_teams else words.NOT_JOINED
        if not url:
            return f"<p>{_esc(words.NO_LINK_FOR.format(team=team))}</p>"
        warning = loopback_warning(self._links.get("teacher", "")) if self._links else ""
        line = f"<p class='hl-classroom-error'>{_esc(warning)}</p>" if warning else ""
        if team not in self._qr:
            self._qr[team] = qr_svg(url, title=f"Join link for {team}", fit=True)
        return (
            f"{line}<figure class='hl-classroom-join' data-team='{_esc(team)}'>{self._qr[team]}"
            f"<figcaption><span class='hl-classroom-join-team'>{_esc(team)}</span>"
            f"<span class='hl-classroom-join-status'>{_esc(status)}</span>"
            f"<span>{words.SCAN}</span><span class='hl-classroom-code-count'>Team "
            f"{self.code_index + 1} of {count}</span><a href='{_esc(url)}' target='_blank' "
            f"rel='noopener'>{_esc(url)}</a></figcaption></figure>"
        )


def hand_html(view: dict[str, Any]) -> str:
    """A team's secret hand during play: each card's score now and, under its name, what
    scores +1 and −1 and where the board stands on it (the engine's words, `standing`)."""
    rows = "".join(
        f"<tr data-card='{_esc(card['card'])}'><td><b>{_esc(card['name'])}</b>"
        f"{_standing_html(card.get('standing'))}</td>"
        f"<td class='hl-num'>{_signed(card['score'])}</td></tr>"
        for card in view["hand"]
    )
    return (
        "<h3>Your hand (secret)</h3><table class='hl-classroom-hand'>"
        f"<tr><th>Card: what scores +1 and \u22121</th><th>Score now</th></tr>{rows}"
        f"<tr class='hl-total'><td>Total</td><td class='hl-num'>{_signed(view['score'])}"
        "</td></tr></table>"
    )


def _standing_html(standing: dict[str, Any] | None) -> str:
    """The card's two sides, one line each; a side that holds now is marked (in words too:
    "+1 now: ...")."""
    if not standing:
        return ""
    lines = []
    for side in ("plus", "minus"):
        met = " hl-classroom-met" if standing[side]["met"] else ""
        lines.append(
            f"<span class='hl-classroom-cond hl-classroom-{side}{met}'>"
            f"{_esc(standing[side]['text'])}</span>"
        )
    return "".join(lines)


def _scores_html(scores: dict[str, Any] | None) -> str:
    if not scores or not scores.get("totals"):
        return ""
    rows = "".join(
        f"<tr><td>{_esc(team)}</td><td class='hl-num'>{_signed(total)}</td></tr>"
        for team, total in scores["totals"].items()
    )
    winners = ", ".join(_esc(team) for team in scores.get("winners") or [])
    line = f"<p><b>Winner:</b> {winners}</p>" if winners else ""
    tie = f"<p>{_esc(scores['tie_break'])}</p>" if scores.get("tie_break") else ""
    return f"<h3>Scores</h3><table class='hl-classroom-scores'>{rows}</table>{line}{tie}"


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _signed(number: int) -> str:
    return signed(number, plus=True)


def page_from_environment(environ: dict[str, str] | None = None) -> widgets.Widget:
    """The page a Voila visit asks for: the room code from the URL's query string (Voila passes
    it as QUERY_STRING), the key from the link's #fragment (`KeyReader`), the store from
    $HOUSING_LAB_ROOMS, the links folder from $HOUSING_LAB_ROOM_LINKS; polling started.

    A key in the query (an older link's `key=`, or a `token=` that opens this room) has been
    written to the logs of every server and hub it passed: such a link opens nothing, and the
    page says to use the link with `#`. A `token=` that opens no room is a Jupyter server's
    own login token and is left alone."""
    env = os.environ if environ is None else environ
    query = parse_qs(env.get("QUERY_STRING", ""))
    room = (query.get("room") or [None])[0]
    store = open_store(env.get("HOUSING_LAB_ROOMS") or None)
    folder = env.get("HOUSING_LAB_ROOM_LINKS")
    if "key" in query or any(_opens(store, room, token) for token in query.get("token", [])):
        refused = widgets.HTML(f"<p class='hl-classroom-denied'>{_esc(words.KEY_IN_QUERY)}</p>")
        return widgets.VBox([refused]).add_class("hl-classroom")
    return RoomEntry(store, room, links_folder=folder)


def _opens(store: RoomStore, room: str | None, token: str) -> bool:
    """Whether `token` is one of `room`'s keys."""
    try:
        store.role(room, token)
    except HousingLabError:
        return False
    return True


def _started(page: ClassroomPage) -> ClassroomPage:
    with contextlib.suppress(RuntimeError):  # no running loop (a plain script): no live updates
        page.start()
    return page


class RoomEntry(widgets.VBox):
    """A room page waiting for its key from the browser; then the page itself (or, for a link
    without its key, one line saying what to do)."""

    def __init__(
        self, store: RoomStore, room: str | None, *, links_folder: Path | str | None = None
    ) -> None:
        super().__init__()
        self.add_class("hl-classroom")
        self.store, self.room, self._links_folder = store, room, links_folder
        self.page: ClassroomPage | None = None
        self.reader = KeyReader(room or "", self.use_key)
        self.message = widgets.HTML(f"<p>{_esc(words.OPENING)}</p>")
        self.children = (self.reader, self.message)
        self._beats: asyncio.Task[None] | None = None
        with contextlib.suppress(RuntimeError):  # no running loop (a plain script): no beats
            self._beats = asyncio.get_running_loop().create_task(self.reader.beat_forever())

    def use_key(self, key: str) -> None:
        """The key arrived: show the room's page for it (or why there is none)."""
        if not key:
            self.message.value = f"<p class='hl-classroom-denied'>{_esc(words.NO_KEY)}</p>"
            return
        self.page = _started(
            ClassroomPage(self.store, self.room, key, links_folder=self._links_folder)
        )
        self.children = (self.reader, self.page)

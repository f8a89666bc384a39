"""GameTable: a teacher runs a whole game of North Berkeley with a class, on a projector.

The table is a thin view over the engine's state machine (`Game`): every decision (place,
call the state, redraw, pick, enact, next phase, undo) goes to the engine, and a refused one
shows the engine's message and changes nothing. What the table adds is presentation: a setup
screen, the negotiation timer, hidden hands with a per-team reveal and printable handouts,
and move-in played out wave by wave before the final scoreboard.

The table owns its parts: `panel` and `teams_panel` (the phase panel, one `TablePanel` drawn
twice), `board` (the `NorthBerkeleyBoard`), `playback` (a `MoveInPlayback`, with the move-in
`chart`) and `screen` (a `TableScreen`: what the parts show and which are on screen); files and
handouts come from `widgets/table/files.py`. A click goes: the panel's message -> `_on_panel_action`
here -> the decision method here -> the engine.

>>> table = GameTable(teams=["A", "B", "C"], seed=3)
>>> table.stage
'phase1'
"""

from __future__ import annotations

import contextlib
import json
import pathlib
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import ipywidgets

from housing_lab import jsonio, outputs
from housing_lab.errors import HousingLabError, WriteError, quote_path, shown
from housing_lab.north_berkeley.constituents import cards
from housing_lab.north_berkeley.errors import IllegalActionError, ScenarioFormatError
from housing_lab.north_berkeley.play import handouts, saves
from housing_lab.north_berkeley.play.game import Game
from housing_lab.north_berkeley.policies import POLICY_NAMES, RuleOptions
from housing_lab.widgets.common import JsonSource
from housing_lab.widgets.lab.board import NorthBerkeleyBoard
from housing_lab.widgets.table import coach as table_coach
from housing_lab.widgets.table import views as views
from housing_lab.widgets.table.charts import MoveInChart
from housing_lab.widgets.table.checks import (
    check_flag,
    check_minutes,
    check_optional_text,
    check_path,
    check_text,
    check_texts,
    checked_setup,
)
from housing_lab.widgets.table.files import (
    handout_file,
    read_document,
    read_game,
    save_name,
)
from housing_lab.widgets.table.movein import MoveInPlayback
from housing_lab.widgets.table.panel import TablePanel
from housing_lab.widgets.table.room import RoomInvite, open_table_room
from housing_lab.widgets.table.screen import TableScreen

DEFAULT_TEAMS = ("Red", "Blue", "Green", "Orange", "Purple", "Teal")


class GameTable(ipywidgets.VBox):
    """The classroom game table. Without `teams` it opens on the setup screen.

    Every action method raises the engine's error (and shows it) when the rules refuse it;
    clicks in the browser call the same methods and only show the message.
    """

    def __init__(
        self,
        teams: Sequence[str] | None = None,
        seed: int = 0,
        options: RuleOptions | Mapping[str, Any] | None = None,
        hidden_hands: bool = False,
    ) -> None:
        names, seed, rules, hidden = checked_setup(
            DEFAULT_TEAMS[:3] if teams is None else teams, seed, options, hidden_hands
        )
        self.game: Game | None = None
        self.hidden_hands = hidden
        self._setup = views.setup_defaults(names, seed, rules, hidden)
        self._on_setup = teams is None
        self._revealed: str | None = None
        self._tie_order: list[str] = []
        self._advice: table_coach.TableAdvice | None = None
        self._coach_groups: list[tuple[int, int]] = []  # (log length after, actions) applied
        self.playback = MoveInPlayback()
        self.panel = TablePanel(part="top")
        self.teams_panel = TablePanel(part="teams")
        self.board = NorthBerkeleyBoard()
        for panel in (self.panel, self.teams_panel):
            panel.on_action = self._on_panel_action
        self.board.on_action = self._on_board_action
        self._tile_names = {t["id"]: t["name"] for t in self.board.catalogue}
        self.screen = TableScreen(
            self.panel, self.teams_panel, self.board, self.playback, self._tile_names
        )
        super().__init__([self.panel])
        if teams is not None:
            self.start(names, seed, rules, hidden)
        else:
            self._refresh()

    def __repr__(self) -> str:
        if self.game is None:
            return "GameTable(setup)"
        return (
            f"GameTable(teams={self.game.players!r}, seed={self.game.state.seed}, "
            f"stage={self.stage!r})"
        )

    # --- what lessons and tests read ------------------------------------------------------
    @property
    def state(self) -> dict[str, Any]:
        """The saved game (version 2: teams, seed, rules, the action log, and whether hands
        are hidden); what `save` writes and `GameTable.from_json` resumes."""
        return saves.save_dict(self._need_game(), {"hidden_hands": self.hidden_hands})

    @property
    def stage(self) -> str:
        """setup, phase1, extra_draw, draft, policies, phase2, movein or scoring."""
        if self.game is None or self._on_setup:
            return "setup"
        if self.game.phase != "over":
            return self.game.phase
        return self.playback.stage_after_play()

    @property
    def teams(self) -> list[str]:
        return self._need_game().players

    @property
    def movein_step(self) -> int:
        """0 before move-in, 1-3 after high / middle / low income moved in, 4 scores."""
        return self.playback.step

    @property
    def chart(self) -> MoveInChart | None:
        """The move-in chart (None until move-in is first shown)."""
        return self.playback.chart

    @property
    def view(self) -> dict[str, Any]:
        """Everything the decision panel shows (the same dict the browser draws)."""
        return self.panel.view

    @property
    def tie_order(self) -> list[str]:
        return list(self._tie_order)

    # --- starting a game ------------------------------------------------------------------
    def start(
        self,
        teams: Sequence[str],
        seed: int = 0,
        options: RuleOptions | Mapping[str, Any] | None = None,
        hidden_hands: bool = False,
    ) -> None:
        """A new game (setup: residents shuffled, cards dealt); the old one is dropped."""
        with self._reported():
            names, seed, rules, hidden = checked_setup(teams, seed, options, hidden_hands)
            game = Game(names, seed=seed, options=rules)
        self.game = game
        self.hidden_hands = hidden
        self._new_game_view()
        dealt = len(game.state.hands[game.players[0]])
        hands = "hidden: print the handouts" if self.hidden_hands else "open"
        self._say(
            f"New game, seed {seed}: residents shuffled, {dealt} "
            f"card{'s' if dealt > 1 else ''} dealt to each team ({hands}). "
            "Phase 1 begins."
        )

    def new_game(self) -> None:
        """Back to the setup screen (the current game stays until a new one starts)."""
        self._on_setup = True
        self._refresh()

    def back_to_game(self) -> None:
        """Leave the setup screen for the game kept under it."""
        self._need_game()
        self._on_setup = False
        self._refresh()

    # --- decisions, each routed to the engine ---------------------------------------------
    def place(self, square: str, tile: str) -> None:
        with self._reported():
            check_text(square, "square")
            check_text(tile, "tile")
        self._play({"action": "place", "square": square, "tile": tile}, on_board=True)
        self.board.selected = square
        self._say(f"{square}: {self._tile_names[tile]}.", on_board=True)

    def explain_square(self, square: object) -> str:
        """Why a square of the other phase takes no tile now (a click on a dimmed square),
        in the engine's words; shown on the message line and read out."""
        game = self._need_game()
        with self._reported():
            name = check_text(square, "square")
            reason = game.refusal(name, next(iter(game.catalogue)))
        if not reason:
            text = f"Square {name} is in play now."
        else:
            later = [n for n, squares in game.layout.phases.items() if name in squares]
            built = f": it is built in phase {later[0]}" if later else ""
            text = f"{reason[:1].upper()}{reason[1:]}{built}."
        self._say(text, "error" if reason else "info")
        return text

    def clear(self, square: str) -> None:
        with self._reported():
            check_text(square, "square")
        self._play({"action": "clear", "square": square}, on_board=True)
        self._say(f"{square} cleared.", on_board=True)

    def call_state(self, minutes_elapsed: float | None = None) -> dict[str, str]:
        """The state steps in: random tiles on the empty squares of this phase.

        `minutes_elapsed` (the browser timer sends it) must have reached the negotiation timer;
        None is the teacher's override ("call it now"). Either way the negotiation is over, so
        the countdown stops (at time up).
        """
        with self._reported():
            minutes_elapsed = check_minutes(minutes_elapsed)
        action: dict[str, Any] = {"action": "call_state"}
        if minutes_elapsed is not None:
            action["minutes_elapsed"] = minutes_elapsed
        filled: dict[str, str] = dict(self._play(action)["tiles"])
        minutes = self._need_game().state.options.negotiation_minutes
        self.panel.stop_timer(minutes * 60)
        placed = ", ".join(f"{sq} gets {self._tile_names.get(t, t)}" for sq, t in filled.items())
        self._say(f"The state stepped in: {placed}.", on_board=True)
        return filled

    def next_phase(self, tie_order: Sequence[str] | None = None) -> str:
        """Finish this step: the engine's `advance`, or the next move-in wave, or the scores.

        `tie_order` (every team once) breaks ties in the draft order; default: the order set
        on the table (seating order unless changed).
        """
        self._need_game()
        with self._reported():
            if tie_order is not None:
                tie_order = check_texts(tie_order, "tie_order")
        if self.stage == "movein":
            return self.step_move_in()
        order = list(tie_order) if tie_order is not None else (self._tie_order or None)
        action: dict[str, Any] = {"action": "advance"}
        if order is not None:
            action["tie_order"] = order
        self._play(action)
        self.playback.step = 0
        if tie_order is not None:
            self._tie_order = list(tie_order)
        self._say(self._entered_text())
        return self.stage

    def redraw(self, team: str) -> str:
        with self._reported():
            check_text(team, "team")
        record = self._play({"action": "redraw", "player": team})
        old, card = record["discarded"], record["drew"]
        self._say(f"{team} discards {cards()[old].name} and draws {cards()[card].name}.")
        return str(card)

    def pick(self, team: str, card: str) -> None:
        game = self._need_game()
        with self._reported():
            check_text(team, "team")
            check_text(card, "card")
        self._play({"action": "pick", "player": team, "card": card})
        text = f"{team} takes {cards()[card].name}."
        if game.phase == "policies":
            drawn = views.number_word(len(game.state.policies_drawn)).lower()
            text += f" The draft is over: {drawn} policy cards are drawn."
        self._say(text)

    def enact(self, policies: str | Sequence[str]) -> None:
        game = self._need_game()
        with self._reported():
            chosen = [policies] if isinstance(policies, str) else check_texts(policies, "policies")
        self._play({"action": "enact", "policies": chosen})
        names = " and ".join(POLICY_NAMES[p] for p in game.state.policies)
        self._say(f"Enacted {names}. Phase 2 begins.")

    def undo(self) -> None:
        """The engine's undo: take back the last decision (a coach's suggestion applied with
        several changes is taken back as a whole)."""
        game = self._need_game()
        count = 1
        if self._coach_groups and self._coach_groups[-1][0] == len(game.state.log):
            count = self._coach_groups.pop()[1]
        with self._shown():
            for _ in range(count):
                game.undo()
            self.playback.step = 0
        self._say("Undone: the last decision was taken back.")

    # --- the coach (advice on request; applying it is ordinary engine actions) ------------
    def coach(
        self, team: str, card: str | None = None, goal: str = "win"
    ) -> table_coach.TableAdvice:
        """Ask the exact coach how `team`'s `card` (a card id; None: the whole hand, the one
        change that raises its total most) could reach `goal` ("win" or "no-loss") from the
        board as it stands. Shown under the teams (at the scores: under the scores)."""
        game = self._need_game()
        with self._reported():
            team, card, goal = table_coach.check_question(
                game, self.stage, team, card, goal, self.hidden_hands, self._revealed
            )
        self._advice = table_coach.ask(game, self.stage, team, card, goal)
        self._refresh()
        return self._advice

    def apply_coach(self) -> None:
        """Play the suggestion on screen through the engine (Undo takes it back as a whole)."""
        game = self._need_game()
        advice = self._current_advice()
        if advice is None or not advice.actions:
            note = advice.note if advice is not None and advice.note else ""
            raise self._refused(
                IllegalActionError(note or "no coach suggestion to apply: ask the coach first")
            )
        with self._shown(on_board=True):
            done = 0
            try:
                for action in advice.actions:
                    game.apply(action)
                    done += 1
            except HousingLabError:
                for _ in range(done):
                    game.undo()
                raise
        self._coach_groups.append((len(game.state.log), len(advice.actions)))
        self._advice = None
        self._refresh()
        self._say(f"Applied the coach's suggestion for {advice.team}. Undo takes it back.")

    def _current_advice(self) -> table_coach.TableAdvice | None:
        """The advice still true of the board: asked at this point of the game, about cards
        still on screen."""
        advice, game = self._advice, self.game
        if advice is None or game is None or self._on_setup:
            return None
        if advice.asked_at != len(game.state.log) or self.stage not in table_coach.COACH_STAGES:
            return None
        if advice.team not in game.players:
            return None
        on_screen = table_coach.visible_cards(
            game, advice.team, self.hidden_hands, self._revealed, self.stage
        )
        if advice.card is None and len(on_screen) < len(game.state.hands[advice.team]):
            return None
        return None if advice.card is not None and advice.card not in on_screen else advice

    # --- a classroom room: every team plays from its own device ---------------------------
    def open_room(self, store: Any = None, join_base: str | None = None) -> RoomInvite:
        """A classroom room (docs/rooms.md) with this table's teams, seed and options; returns
        the join links (teacher + one per team, with QR codes), shown as HTML in a notebook.

        `store`: a store URL, an open `RoomStore`, or None (the default store)."""
        game = self._need_game()
        with self._reported():
            return open_table_room(
                game.players, game.state.seed, game.state.options, store, join_base
            )

    def set_tie_order(self, order: Sequence[str]) -> None:
        """Who goes first among teams tied on score in the draft (checked when it is used)."""
        game = self._need_game()
        with self._reported():
            order = check_texts(order, "tie order")
        if sorted(order) != sorted(game.players):
            raise self._refused(
                IllegalActionError(f"tie order {list(order)} must name every team exactly once")
            )
        self._tie_order = list(order)
        self._refresh()

    # --- move-in, played out wave by wave (presentation only) -----------------------------
    def step_move_in(self) -> str:
        """Play out the next wave of move-in (high, middle, low income), then the scores."""
        with self._reported():
            self.playback.forward(self.stage)
        self._refresh()
        self._say(self.panel.view["decision"]["heading"] + ".")
        return self.stage

    def back_move_in(self) -> None:
        """One wave back (from the scores: back to the end of move-in)."""
        with self._reported():
            self.playback.back(self.stage)
        self._refresh()

    def show_scores(self) -> None:
        """Skip the remaining waves: straight to the final scores."""
        with self._reported():
            self.playback.to_scores(self.stage)
        self._refresh()
        self._say("Final scores.")

    # --- hidden hands, files --------------------------------------------------------------
    def reveal(self, team: str | None) -> None:
        """Show one team's starting cards on the screen (None: hide them again)."""
        game = self._need_game()
        with self._reported():
            team = check_optional_text(team, "team")
        if team is not None and team not in game.players:
            raise self._refused(
                IllegalActionError(f"unknown team {team!r} (teams: {', '.join(game.players)})")
            )
        self._revealed = team
        self._refresh()

    def handouts(self) -> dict[str, str]:
        """File name -> printable HTML page, one per team (current hands)."""
        return handouts.game_handouts(self._need_game(), self.hidden_hands)

    def write_handouts(
        self, folder: str | pathlib.Path, *, overwrite: bool = False
    ) -> list[pathlib.Path]:
        """Write one printable page per team (and one with all of them) into `folder`; a
        handout already there is kept (one line, nothing written) unless `overwrite`."""
        game = self._need_game()
        with self._reported():
            target = check_path(folder, "folder")
            overwrite = check_flag(overwrite, "overwrite")
            try:
                return handouts.write_handouts(game, target, self.hidden_hands, overwrite=overwrite)
            except OSError as error:
                raise WriteError(f"cannot write {quote_path(target)}: {error.strerror}") from None

    def offer_handout(self, team: str | None = None) -> None:
        """Send one team's handout (None: all teams in one printable file) to the browser."""
        game = self._need_game()
        with self._reported():
            team = check_optional_text(team, "team")
            name, page = handout_file(game, team, self.hidden_hands)
        self.panel.offer_download(name, page)

    def save(self, path: str | pathlib.Path | None = None) -> dict[str, Any]:
        """The saved game (`state`); also written as JSON to `path` when given (whole or
        not at all: a temporary file is renamed)."""
        saved = self.state
        if path is not None:
            with self._reported():
                target = check_path(path, "path")
                outputs.write_text(target, json.dumps(saved, indent=2) + "\n")
        return saved

    def offer_save(self) -> None:
        """The saved game as a JSON download in the browser."""
        self.panel.offer_json(save_name(self._need_game()), self.state)

    def load(self, source: JsonSource, hidden_hands: bool | None = None) -> None:
        """Resume a saved game: a dict, a JSON string or a file path. All or nothing: a file
        the engine refuses (its log replayed action by action) leaves the table as it was.

        `hidden_hands` None: as the file says (else as the table was)."""
        with self._reported():
            if hidden_hands is not None:
                check_flag(hidden_hands, "hidden_hands")
            game, settings = read_game(source)
        self._resume(game, settings, hidden_hands)

    @classmethod
    def from_json(cls, source: JsonSource, hidden_hands: bool | None = None) -> GameTable:
        """A new table resuming a saved game (see `load`)."""
        if hidden_hands is not None:
            check_flag(hidden_hands, "hidden_hands")
        game, settings = read_game(source)
        table = cls()
        table._resume(game, settings, hidden_hands)
        return table

    def _resume(self, game: Game, settings: dict[str, Any], hidden: bool | None) -> None:
        """Show a loaded game; if drawing it fails, put everything back as it was."""
        kept = (self.game, self.hidden_hands, self._setup, self._on_setup, self._revealed)
        kept_more = (list(self._tie_order), self.playback.step, self.board.selected)
        kept_coach = (self._advice, list(self._coach_groups))
        try:
            self.game = game
            if hidden is None:
                hidden = settings.get("hidden_hands", self.hidden_hands)
            self.hidden_hands = bool(hidden)
            self._new_game_view()
        except Exception:
            self.game, self.hidden_hands, self._setup, self._on_setup, self._revealed = kept
            self._tie_order, self.playback.step, self.board.selected = kept_more
            self._advice, self._coach_groups = kept_coach
            self._refresh(reset_timer=False)
            raise
        hands = "hidden" if self.hidden_hands else "open"
        self._say(
            f"Game loaded: {', '.join(game.players)}, seed {game.state.seed}, at "
            f"{views.STAGE_LABELS[self.stage]} ({hands} hands)."
        )

    # --- clicks from the browser (a refusal has been shown already) -----------------------
    def _on_board_action(self, action: dict[str, Any]) -> None:
        with contextlib.suppress(HousingLabError):
            if action.get("action") == "place":
                self.place(action.get("square"), action.get("tile"))  # type: ignore[arg-type]
            elif action.get("action") == "clear":
                self.clear(action.get("square"))  # type: ignore[arg-type]

    def _on_panel_action(self, action: dict[str, Any]) -> None:
        """Every button of the panels, routed to the method a lesson would call."""
        name = action.get("action")
        handlers: dict[str, Callable[[], object]] = {
            "start": lambda: self.start(
                action.get("teams"),
                _int(action.get("seed")),
                action.get("options") or {},
                action.get("hidden_hands") is True,
            ),
            "new_game": self.new_game,
            "back_to_game": self.back_to_game,
            "call_state": lambda: self.call_state(
                None if action.get("override") else _float(action.get("minutes_elapsed"))
            ),
            "next": lambda: self.next_phase(),
            "redraw": lambda: self.redraw(action.get("team")),
            "pick": lambda: self.pick(action.get("team"), action.get("card")),
            "enact": lambda: self.enact(action.get("policies")),
            "undo": self.undo,
            "save": self.offer_save,
            "load": lambda: self._load_upload(action.get("text")),
            "handout": lambda: self.offer_handout(action.get("team")),
            "reveal": lambda: self.reveal(action.get("team")),
            "tie_up": lambda: self._tie_up(action.get("team")),
            "movein_back": self.back_move_in,
            "scores": self.show_scores,
            "coach": lambda: self.coach(
                action.get("team"), action.get("card"), action.get("goal", "win")
            ),
            "apply_coach": self.apply_coach,
            "locked_square": lambda: self.explain_square(action.get("square")),
        }
        handler = handlers.get(name) if isinstance(name, str) else None
        if handler is None:
            self._say(f"unknown action {shown(name, 60)}", "error")
            return
        with contextlib.suppress(HousingLabError):
            handler()

    def _load_upload(self, text: object) -> None:
        """A file chosen in the browser: always read as JSON text, never as a path here."""
        with self._reported():
            if not isinstance(text, str):
                raise ScenarioFormatError(f"the uploaded file is not text: {shown(text, 60)}")
            data = read_document(jsonio.loads(text, source="the uploaded file"))
        self.load(data)

    def _tie_up(self, team: object) -> None:
        """The panel's "move up" button: swap a team with the one before it in the tie order."""
        order = self.tie_order
        if team in order and order.index(team) > 0:
            i = order.index(team)
            order[i - 1], order[i] = order[i], order[i - 1]
        self.set_tie_order(order)

    # --- reporting and the screen ---------------------------------------------------------
    def _need_game(self) -> Game:
        if self.game is None:
            raise self._refused(
                IllegalActionError(
                    "no game yet: start one on the setup screen or with table.start(teams)"
                )
            )
        return self.game

    def _play(self, action: dict[str, Any], on_board: bool = False) -> dict[str, Any]:
        """One decision through the engine's `apply` (the rules live there); returns the log
        record it left (the tiles the state drew, the card a redraw drew)."""
        game = self._need_game()
        with self._shown(on_board=on_board):
            game.apply(action)
        return dict(game.state.log[-1])

    def _refused(self, error: HousingLabError) -> HousingLabError:
        self._say(str(error), "error")
        return error

    @contextlib.contextmanager
    def _reported(self) -> Iterator[None]:
        """A refusal is shown and re-raised (the call changed nothing before refusing)."""
        try:
            yield
        except HousingLabError as error:
            self._say(str(error), "error")
            raise

    @contextlib.contextmanager
    def _shown(self, on_board: bool = False) -> Iterator[None]:
        """Run an engine call; a refusal is shown and re-raised, a success redrawn.

        A new phase restarts the timer, hides revealed cards and clears the board selection.
        """
        before = self.game.phase if self.game is not None else None
        try:
            yield
        except HousingLabError as error:
            self._say(str(error), "error", on_board)
            raise
        changed = self.game is None or self.game.phase != before
        if changed:
            self._revealed = None
            self.board.selected = ""
        self._on_setup = False
        self._refresh(reset_timer=changed)

    def _say(self, text: str, kind: str = "info", on_board: bool = False) -> None:
        """Show `text` (an engine's error as it is: it names tiles, policies, cards in words)."""
        self.panel.say(text, kind)
        self.board.say(text if on_board else "", kind, announce=False)  # the panel reads it

    def _entered_text(self) -> str:
        """What the class is told when the engine has moved to a new phase."""
        game = self._need_game()
        return {
            "extra_draw": "Phase 1 is finished. Each team draws an extra card, face up.",
            "draft": f"The draft begins: {game.draft_turn()} picks first.",
            "phase2": "Phase 2 begins.",
            "over": "Phase 2 is finished: the board is complete. Now people move in.",
        }.get(game.phase, f"Now: {views.STAGE_LABELS[self.stage]}.")

    def _new_game_view(self) -> None:
        """A started or loaded game: setup defaults follow it, presentation starts afresh."""
        game = self._need_game()
        self._setup = views.setup_defaults(
            game.players, game.state.seed, game.state.options, self.hidden_hands
        )
        self._on_setup = False
        self.playback.step = 0
        self._revealed = None
        self._tie_order = game.players
        self._advice = None
        self._coach_groups = []
        self.board.selected = ""
        self._refresh(reset_timer=True)

    def _refresh(self, reset_timer: bool = False) -> None:
        """Redraw the screen from the engine (both panels, the board, the chart)."""
        game = self.game
        if game is not None and self._revealed is not None and self._revealed not in game.players:
            self._revealed = None
        children, self._dom_classes = self.screen.show(
            self.stage,
            game,
            setup=self._setup,
            hidden_hands=self.hidden_hands,
            revealed=self._revealed,
            tie_order=self._tie_order,
            reset_timer=reset_timer,
            advice=self._current_advice(),
        )
        if list(self.children) != children:
            self.children = children


def _int(value: Any) -> Any:
    """Seeds typed in the browser: digits become a number; anything else is left for the
    seed check to refuse by name (1.9 is not rounded, "7.5" not cut)."""
    if isinstance(value, str) and re.fullmatch(r"\s*-?[0-9]{1,30}\s*", value):
        return int(value)
    return value


def _float(value: Any) -> float | None:
    """Minutes from the browser timer; garbage counts as no time elapsed (the engine refuses)."""
    try:
        return None if value is None else float(value)
    except (TypeError, ValueError, OverflowError):
        return 0.0

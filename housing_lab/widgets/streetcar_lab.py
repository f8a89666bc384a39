"""StreetcarLab: play Streetcar in a notebook against a classmate or a bot, on the engine.

The lab holds one engine `Game` and never decides a rule: every line and every house goes
through the engine first, and a refused one shows the engine's message and changes nothing.

How a turn is held. The engine takes a whole turn (`Move(lines, remove)`) at once, but a
student does it in two steps, so the lab stages the lines:
- `draw_lines(lines)` checks the lines with the engine (exactly as `push` would, using any
  removable house as a stand-in) and stages them; on turn 1 (no house is removed) it plays the
  turn at once. `remove_house(hex)` then plays the staged lines and the house as one `Move`.
- Staged lines are not in the engine yet, so `lab.record` (the RULES.md record of the moves
  pushed so far, with `final` once the game is over) never contains a half turn.
- `cancel_lines()` drops staged lines; `undo()` (practice mode) takes back your last whole turn
  and the bot's reply.
In the browser a click on a legal edge selects it, a click on a legal partner stages the pair
(a lone edge is staged at once when the engine says it has no partner), and a click on a
removable house finishes the turn. A click on anything illegal shows the engine's reason.

The bot replies inside the same call, so the Python state is always complete; the browser shows
its move after `bot_delay` seconds (the JS waits, then says so, and the score panel follows).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import ipywidgets

from housing_lab.errors import HousingLabError
from housing_lab.streetcar import (
    PLAYERS,
    Bot,
    Game,
    IllegalMoveError,
    Move,
    Rules,
    make_bot,
    to_record,
)
from housing_lab.streetcar.board import edge_json, hex_json
from housing_lab.streetcar.hexgrid import Edge, make_edge
from housing_lab.widgets.streetcar_board import (
    StreetcarBoard,
    edge_key,
    edge_keys,
    hex_key,
    parse_edge_key,
    parse_hex_key,
    position_view,
)
from housing_lab.widgets.streetcar_controls import OptionsPanel, ReplayBar, resolve_board
from housing_lab.widgets.streetcar_replay import ReplayMixin
from housing_lab.widgets.streetcar_score import ScorePanel

KEEP = object()  # new_game: keep the current opponent


def describe_move(label: str, move: Move, colour: str | None, game: Game) -> str:
    """One sentence about a move just pushed (game is the position after it)."""
    count = len(move.lines)
    drawn = {2: "drew 2 lines", 1: "drew 1 line (no second line fitted)", 0: "could draw no line"}
    text = f"{label} {drawn[count]}"
    if move.remove is not None:
        text += f" and removed a {colour} house at {hex_json(move.remove)}"
        placed = game.last_buildings()
        if placed:
            cubes = ", ".join(f"{b.cubes} {b.colour}" for b in placed)
            text += f"; {len(placed)} new building{'s' if len(placed) > 1 else ''} ({cubes})"
    return text + "."


class StreetcarLab(ReplayMixin, ipywidgets.VBox):
    """The whole app: board, score panel, options, save / load and replay.

    >>> lab = StreetcarLab(seed=1, opponent="greedy", bot_delay=0)
    >>> lab.draw_lines([[[0, 0], [1, 0]], [[0, 0], [0, 1]]])   # turn 1: lines only; bot replies
    >>> lab.game.turn
    3

    `opponent` is a bot name (`random`, `greedy`, any in the engine's `BOTS`) or None for two
    students on one screen; `human` is the colour the student plays against a bot. The bot is
    `make_bot(opponent, seed)`. `board` is "standard", "small", a `Board` or a list of hexes.
    """

    def __init__(
        self,
        seed: int = 0,
        opponent: str | None = "greedy",
        *,
        human: str = "purple",
        board: object = None,
        penalty: int = 10,
        goals: Iterable[str] = (),
        practice: bool = True,
        bot_delay: float = 0.6,
    ) -> None:
        self.bot_delay = float(bot_delay)
        self.board = StreetcarBoard()
        self.board.on_action = self._on_board_action
        self.score = ScorePanel()
        self.options = OptionsPanel()
        self.options.on_new_game = self._on_new_game
        self.replay_bar = ReplayBar()
        self.replay_bar.on_action = self._on_replay_action
        self.toolbar = self._make_toolbar()
        self._bot_moves = 0  # numbers the bot's moves for the browser's delayed display
        # (bot move n, the game the score panel shows until the browser has shown move n)
        self._score_wait: tuple[int, Game] | None = None
        title = ipywidgets.HTML(
            "<h2 style='margin:4px 0'>Streetcar lab</h2>"
            "<div style='font-size:16px'>Draw two streetcar lines that meet, then remove a house. "
            "Empty spaces next to exactly three houses become buildings; connect them to score."
            "</div>"
        )
        options = ipywidgets.Accordion([self.options])
        options.set_title(0, "Game options: seed, board, penalty, goals, opponent")
        options.selected_index = None
        super().__init__([title, self.toolbar, self.board, self.replay_bar, self.score, options])
        self.add_class("sc-lab")
        self._start(self._setup(seed=seed, opponent=opponent, human=human, board=board,
                                penalty=penalty, goals=goals, practice=practice),
                    f"New game (seed {seed}). {{turn}}")

    def __repr__(self) -> str:
        state = "over" if self._game.is_over() else f"turn {self._game.turn}"
        who = self.opponent or "classmate"
        return f"StreetcarLab(seed={self.seed}, opponent={who}, {state})"

    # --- what lessons and tests read ------------------------------------------------------
    @property
    def game(self) -> Game:
        """A copy of the engine's game as it stands (changing it changes nothing here)."""
        return self._game.copy()

    @property
    def record(self) -> dict[str, Any]:
        """The RULES.md record of the moves pushed so far; `final` only once the game is over."""
        record = to_record(self._game)
        if not self._game.is_over():
            del record["final"]
        return record

    @property
    def staged_lines(self) -> list[list[list[int]]] | None:
        """Lines drawn this turn and waiting for a house (None: no lines drawn yet)."""
        if self._staged is None:
            return None
        return [edge_json(edge) for edge in self._staged]

    @property
    def phase(self) -> str:
        """"lines", "remove", "over" or "replay"."""
        if self._replay is not None:
            return "replay"
        if self._game.is_over():
            return "over"
        return "lines" if self._staged is None else "remove"

    @property
    def is_replaying(self) -> bool:
        return self._replay is not None

    # --- a turn, from Python ---------------------------------------------------------------
    def draw_lines(self, lines: Sequence[object]) -> None:
        """Draw this turn's lines (2 edges sharing an intersection, 1, or none when the rules
        allow): checked by the engine, then staged; on turn 1 the turn is played at once."""
        with self._refused_on_board():
            self._check_can_play()
            if self._staged is not None:
                raise HousingLabError(
                    "lines are already drawn this turn: remove a house, or cancel the lines"
                )
            move = Move(lines)
            game = self._game
            if game.turn == 1 or game.is_over():
                self._play(move)
                return
            probe = Move(move.lines, game.removable_houses()[0])
            try:
                game.push(probe)
            except IllegalMoveError as error:
                raise IllegalMoveError(
                    f"illegal lines on turn {error.turn} ({game.current_player}): {move}: "
                    f"{error.reason}", rule=error.rule, turn=error.turn, reason=error.reason,
                ) from None
            game.pop()
        self._first = None
        self._staged = move.lines
        self._show(f"{self._label(game.current_player)}: lines drawn. Now remove a house.")

    def remove_house(self, hex: object) -> None:
        """Remove a house: plays the staged lines and this house as one move."""
        with self._refused_on_board():
            self._check_can_play()
            if self._game.is_over():
                self._play(Move([], hex))  # the engine says why: the game is over
            if self._staged is None:
                raise HousingLabError("draw this turn's lines first, then remove a house")
            move = Move(self._staged, hex)
            self._play(move)

    def play(self, lines: Sequence[object], remove: object | None = None) -> None:
        """A whole turn at once (lines and the house), e.g. from a lesson's script."""
        with self._refused_on_board():
            self._check_can_play()
            if self._staged is not None:
                raise HousingLabError("lines are already drawn this turn: cancel them first")
            self._play(Move(lines, remove))

    def cancel_lines(self) -> None:
        """Drop the lines drawn this turn (and a chosen first line); nothing was pushed yet."""
        self._first = None
        self._staged = None
        self._show("Lines cancelled: choose again.")

    def undo(self) -> None:
        """Practice mode: take back your last whole turn, and the bot's reply after it."""
        with self._refused_on_board():
            if not self.practice:
                raise HousingLabError("undo is only allowed in practice mode")
            if self._replay is not None:
                raise HousingLabError("replaying a saved game: use the replay buttons")
            count = self._undo_count()
            if count == 0:
                raise HousingLabError("there is no move of yours to undo")
        for _ in range(count):
            self._game.pop()
        self._first = None
        self._staged = None
        self._score_wait = None
        self._show(f"Move undone. {self._whose_turn_sentence()}")

    # --- clicks (what the browser sends; the same calls work from Python) ------------------
    def click_edge(self, edge: object) -> None:
        """A click on a grid line: first line, second line, deselect, or an explanation.

        Like every click it never raises: a refusal is shown on the message line.
        """
        try:
            with self._refused_on_board():
                self._check_can_play()
                if self._staged is not None:
                    raise HousingLabError(
                        "your lines are drawn: now click a house to remove (or cancel the lines)"
                    )
                e = parse_edge_key(edge)
        except HousingLabError:
            return
        game, first = self._game, self._first
        if first is None:
            reason = game.explain_illegal_line(e)
            if reason is not None:
                self.board.say(f"Not allowed: {reason}.", "error")
                return
            if game.legal_second_edges(e):
                self._first = make_edge(*e)
                self._show("First line chosen. Click a second line that touches it "
                           "(dotted), or the first one again to choose another.")
                return
            with contextlib.suppress(HousingLabError):  # shown on the board already
                self.draw_lines([e])
            return
        if make_edge(*e) == first:
            self._first = None
            self._show("First line dropped: choose again.")
            return
        reason = game.explain_illegal_line(e, first)
        if reason is not None:
            self.board.say(f"Not allowed: {reason}. (Click the chosen line again to start over.)",
                           "error")
            return
        with contextlib.suppress(HousingLabError):
            self.draw_lines([first, e])

    def click_house(self, hex: object) -> None:
        """A click on a house: removes it when the lines are drawn, else says what to do."""
        if self.phase == "lines":
            self.board.say("First draw your lines, then remove a house.", "error")
            return
        with contextlib.suppress(HousingLabError):  # shown on the board already
            with self._refused_on_board():
                where = parse_hex_key(hex)
            self.remove_house(where)

    def pass_lines(self) -> None:
        """Draw no line (the engine allows it only when no edge is legal anywhere)."""
        self.draw_lines([])

    # --- games, options, files ---------------------------------------------------------------
    def new_game(self, seed: int | None = None, opponent: object = KEEP, **options: Any) -> None:
        """Start again; options not given keep their value (`opponent=None`: a classmate).

        Options: `human`, `board`, `penalty`, `goals`, `practice` (as for the constructor).
        """
        values = {
            "seed": self.seed if seed is None else seed,
            "opponent": self.opponent if opponent is KEEP else opponent,
            "human": self.human,
            "board": self._game.board,
            "penalty": self._game.rules.penalty,
            "goals": self._game.rules.goals,
            "practice": self.practice,
        }
        unknown = sorted(set(options) - set(values))
        if unknown:
            raise TypeError(f"unknown option {unknown[0]!r}")
        values.update(options)
        with self._refused_on_board():
            setup = self._setup(**values)
        self._start(setup, f"New game (seed {setup['seed']}). {{turn}}")

    # --- internals -----------------------------------------------------------------------------
    def _setup(self, *, seed: int, opponent: str | None, human: str, board: object,
               penalty: int, goals: Iterable[str], practice: bool) -> dict[str, Any]:
        """Everything a new game needs, checked by the engine before anything changes."""
        if human not in PLAYERS:
            raise HousingLabError(f"human must be one of {list(PLAYERS)}, not {human!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise HousingLabError(f"seed must be an integer, not {seed!r}")
        rules = Rules(penalty=penalty, goals=frozenset(goals))
        game = Game(resolve_board(board), seed=seed, rules=rules)
        bot = None if opponent is None else make_bot(opponent, seed)
        return {"game": game, "seed": seed, "opponent": opponent, "bot": bot, "human": human,
                "practice": bool(practice)}

    def _setup_from(self, game: Game) -> dict[str, Any]:
        bot = None if self.opponent is None else make_bot(self.opponent, self.seed)
        return {"game": game, "seed": self.seed, "opponent": self.opponent, "bot": bot,
                "human": self.human, "practice": self.practice}

    def _start(self, setup: Mapping[str, Any], message: str,
               replay_moves: list[Move] | None = None) -> None:
        """Show a new game (or a loaded one, at its start, to replay), and say `message`."""
        self._game: Game = setup["game"]
        self.seed: int = setup["seed"]
        self.opponent: str | None = setup["opponent"]
        self._bot: Bot | None = setup["bot"]
        self.human: str = setup["human"]
        self.practice: bool = setup["practice"]
        self._first: Edge | None = None
        self._staged: tuple[Edge, ...] | None = None
        self._replay: list[Move] | None = replay_moves
        self._score_wait = None
        rules = self._game.rules
        self.options.show(seed=self.seed, board=self._game.board, penalty=rules.penalty,
                          goals=rules.goals, opponent=self.opponent, human=self.human,
                          practice=self.practice)
        with self.board.hold_sync():
            self.board.hexes = [hex_key(h) for h in self._game.board.hexes]
            self.board.edges = edge_keys(self._game.board.edges)
            self.board.bot_move = {}
            if replay_moves is None:
                self._bot_reply(delay=0)  # a bot playing purple opens at once
            self._refresh()
            self.board.say(message.format(turn=self._whose_turn_sentence()))

    def _check_can_play(self) -> None:
        if self._replay is not None:
            raise HousingLabError("replaying a saved game: press 'Play on from here' to play")
        if (self._bot is not None and not self._game.is_over()
                and self._game.current_player != self.human):
            raise HousingLabError(f"it is the {self.opponent} bot's turn")

    def _play(self, move: Move) -> None:
        """Push a whole turn (the engine checks it), then let the bot reply."""
        game = self._game
        player = game.current_player
        colour = None if move.remove is None else game.houses.get(move.remove)
        game.push(move)  # raises IllegalMoveError and changes nothing when illegal
        self._first = None
        self._staged = None
        said = describe_move(self._label(player), move, colour, game)
        with self.board.hold_sync():  # the bot's move and the new position in one message
            reply = self._bot_reply(before_message=said)
            self._show(" ".join(filter(None, [said, reply, self._whose_turn_sentence()])))

    def _bot_reply(self, delay: float | None = None, before_message: str = "") -> str:
        """The bot moves when it is its turn; the browser shows it after `delay` seconds,
        with `before_message` on the message line meanwhile."""
        game, bot = self._game, self._bot
        if bot is None or game.is_over() or game.current_player == self.human:
            return ""
        before_game = game.copy()
        before = position_view(game)
        player = game.current_player
        move = bot.choose(game)
        colour = None if move.remove is None else game.houses.get(move.remove)
        game.push(move)
        self._bot_moves += 1
        delay = self.bot_delay if delay is None else delay
        self._position_id = self.board.position_id + 1
        self.board.bot_move = {
            "n": self._bot_moves, "player": player, "label": self._label(player),
            "lines": edge_keys(move.lines),
            "remove": None if move.remove is None else hex_key(move.remove),
            "before": before, "before_message": before_message, "delay": delay,
            "shows": self._position_id,
        }
        self._score_wait = (self._bot_moves, before_game) if delay > 0 else None
        return describe_move(self._label(player), move, colour, game)

    def _undo_count(self) -> int:
        """Moves to pop: the bot's replies on top, then one move of a student."""
        stack = self._game.move_stack
        count = len(stack)
        while count and self._is_bot_turn(count - 1):
            count -= 1
        if count == 0:
            return 0
        return len(stack) - count + 1

    def _is_bot_turn(self, index: int) -> bool:
        return self._bot is not None and PLAYERS[index % 2] != self.human

    def _label(self, player: str) -> str:
        if self._bot is None:
            return player.title()
        if player == self.human:
            return f"{player.title()} (you)"
        return f"{player.title()} ({self.opponent} bot)"

    def _whose_turn_sentence(self) -> str:
        game = self._game
        if self._replay is not None:
            return ""
        if game.is_over():
            outcome = game.outcome()
            return f"Game over: {outcome.explanation}." if outcome else "Game over."
        return f"Turn {game.turn}: {self._label(game.current_player)} to play."

    def _prompt(self, legal: Sequence[str]) -> str:
        game, phase = self._game, self.phase
        if phase == "replay":
            return (f"Replay: after move {len(game.move_stack)} of {len(self._replay or [])}. "
                    "Use the replay buttons below the board.")
        if phase == "over":
            outcome = game.outcome()
            return f"Game over: {outcome.explanation}." if outcome else "Game over."
        who = f"Turn {game.turn} · {self._label(game.current_player)}"
        if phase == "remove":
            return f"{who}: click a house to remove (not a flipped one with a padlock)."
        if not legal:
            return f"{who}: no line fits anywhere. Press “No line possible”."
        if self._first is not None:
            return f"{who}: click a second line touching the first (dotted)."
        if game.turn == 1:
            return f"{who}: click two grid lines that meet (no house is removed on turn 1)."
        return f"{who}: click two grid lines that meet at a corner."

    def _show(self, message: str, kind: str = "info") -> None:
        """Refresh from the engine and say `message`, in one comm message."""
        with self.board.hold_sync():
            self._refresh()
            self.board.say(message, kind)

    def _refresh(self) -> None:
        """Copy the engine's state into the board and score panel (one comm message each)."""
        game, board = self._game, self.board
        phase = self.phase
        view = position_view(game)
        legal = edge_keys(game.legal_edges()) if phase == "lines" else []
        seconds = edge_keys(game.legal_second_edges(self._first)) if self._first else []
        self._position_id = board.position_id + 1
        with board.hold_sync():
            board.houses = view["houses"]
            board.flipped = view["flipped"]
            board.buildings = view["buildings"]
            board.lines = view["lines"]
            board.new_buildings = view["new_buildings"]
            board.position_id = self._position_id
            board.phase = phase
            board.player = self._player_shown()
            board.players = {
                p: {"label": self._label(p),
                    "kind": "bot" if self._bot is not None and p != self.human else "human"}
                for p in PLAYERS
            }
            board.legal_edges = legal
            board.first_edge = edge_key(self._first) if self._first else ""
            board.second_edges = seconds
            board.staged = edge_keys(self._staged or ())
            board.removable = (
                [hex_key(h) for h in game.removable_houses()] if phase == "remove" else []
            )
            board.can_undo = (self.practice and self._replay is None
                              and self._undo_count() > 0)
            board.can_pass = phase == "lines" and not legal
            board.prompt = self._prompt(legal)
        self.replay_bar.show(
            None if self._replay is None else len(game.move_stack), len(self._replay or [])
        )
        if self._score_wait is None:
            self._show_score(game)
        else:
            self._show_score(self._score_wait[1])

    def _player_shown(self) -> str:
        """Whose colour the turn box shows: the player to move, or the sole winner at the end
        ("" for a shared win)."""
        outcome = self._game.outcome()
        if outcome is None:
            return self._game.current_player
        return outcome.winner or ""

    def _show_score(self, game: Game) -> None:
        self.score.update(
            game.score_breakdown(), game.outcome(), game.standings(),
            labels={p: self._label(p) for p in PLAYERS}, per_line=game.rules.penalty,
        )

    @contextlib.contextmanager
    def _refused_on_board(self) -> Iterator[None]:
        """A refused action: show the engine's message, re-raise; nothing has changed."""
        try:
            yield
        except HousingLabError as error:
            self.board.say(str(error), "error")
            rules = self._game.rules
            self.options.show(seed=self.seed, board=self._game.board, penalty=rules.penalty,
                              goals=rules.goals, opponent=self.opponent, human=self.human,
                              practice=self.practice)
            raise

    def _on_board_action(self, action: dict[str, Any]) -> None:
        """Clicks from the browser; refusals are already shown on the board."""
        kind = action.get("action")
        with contextlib.suppress(HousingLabError):
            if kind == "edge":
                self.click_edge(action.get("edge"))
            elif kind == "house":
                self.click_house(action.get("hex"))
            elif kind == "pass_lines":
                self.pass_lines()
            elif kind == "cancel_lines":
                self.cancel_lines()
            elif kind == "undo":
                self.undo()
            elif kind == "bot_shown":
                self._bot_shown(action.get("n"))

    def _bot_shown(self, n: object) -> None:
        """The browser has shown bot move `n`: the score panel may show it too."""
        if self._score_wait is not None and self._score_wait[0] == n:
            self._score_wait = None
            self._show_score(self._game)

    def _on_new_game(self, values: dict[str, Any]) -> None:
        with contextlib.suppress(HousingLabError):
            self.new_game(**values)

    def _make_toolbar(self) -> ipywidgets.HBox:
        save = ipywidgets.Button(description="Save game", icon="download")
        save.on_click(lambda _: self.board.offer_download(
            "streetcar-game.json", json.dumps(self.record, indent=1)))
        self.upload = ipywidgets.FileUpload(accept=".json", multiple=False,
                                            description="Load game")
        self.upload.observe(self._on_upload, names="value")
        again = ipywidgets.Button(description="Replay this game", icon="history")
        again.on_click(lambda _: self.start_replay())
        restart = ipywidgets.Button(description="Restart (same options)", icon="refresh")
        restart.on_click(lambda _: self._on_new_game({}))
        for widget, name in ((save, "save"), (again, "replay-this"), (restart, "restart")):
            widget.add_class(f"sc-{name}")
            widget.layout.width = "auto"
        return ipywidgets.HBox([restart, save, self.upload, again])

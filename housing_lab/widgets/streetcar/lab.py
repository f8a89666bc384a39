"""StreetcarLab: play Streetcar in a notebook against a classmate or a bot, on the engine.

The lab holds one engine `Game` and never decides a rule: every line and every house goes
through the engine first, and a refused one shows the engine's message and changes nothing.

How a turn is held. The engine takes a whole turn (`Move(lines, remove)`) at once, but a
student does it in two steps, so the lab stages the lines:
- `draw_lines(lines)` checks the lines with the engine (`Game.lines_error`: exactly as `push`
  checks them) and stages them; on turn 1 (no house is removed) it plays the turn at once.
  `remove_house(hex)` then plays the staged lines and the house as one `Move`.
- Staged lines are not in the engine yet, so `lab.record` (the RULES.md record of the moves
  pushed so far, with `final` once the game is over) never contains a half turn.
- `cancel_lines()` drops staged lines; `undo()` (practice mode) takes back your last whole turn
  and the bot's reply.
In the browser a click on a legal edge selects it, a click on a legal partner stages the pair
(a lone edge is staged at once when the engine says it has no partner), and a click on a
removable house finishes the turn. A click on anything illegal shows the engine's reason.

The bot replies inside the same call, so the Python state is always complete; the browser shows
its move after `bot_delay` seconds (the JS waits, then says so, and the score panel follows).

The lab owns small objects, each with one job: `turn` (a `TurnStager`: the lines being drawn),
`opponent_bot` (a `BotOpponent`), `replay_cursor` (a `ReplayCursor` while replaying, else None),
`score` (the `ScorePanel`), and the widgets `board`, `options`, `replay_bar` and `toolbar`.
An edge click goes through three Python files: the board's message (`board.py`) ->
`_on_board_action` / `click_edge` here -> `TurnStager` (`board.py`) -> `Game` (the engine).
"""

from __future__ import annotations

import contextlib
import json
import os
import pathlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import ipywidgets

from housing_lab.errors import HousingLabError, shown
from housing_lab.numbers import check_number, check_seed
from housing_lab.outputs import write_text
from housing_lab.streetcar import PLAYERS, Game, Move, Rules, make_bot, replay, to_record
from housing_lab.streetcar.board import edge_json
from housing_lab.streetcar.record import parse_record_text, read_record_source
from housing_lab.widgets.common import JsonSource, MadeWhenOpened
from housing_lab.widgets.streetcar.board import (
    StreetcarBoard,
    TurnStager,
    edge_keys,
    hex_key,
    parse_edge_key,
    parse_hex_key,
)
from housing_lab.widgets.streetcar.bot import BotOpponent
from housing_lab.widgets.streetcar.controls import OptionsPanel, ReplayBar, Toolbar, resolve_board
from housing_lab.widgets.streetcar.hint import DEFAULT_HINT_BOT, Hint, check_bot_name, suggest
from housing_lab.widgets.streetcar.places import place_names, row_labels
from housing_lab.widgets.streetcar.replay import ReplayCursor, rewound
from housing_lab.widgets.streetcar.score import ScorePanel
from housing_lab.widgets.streetcar.view import (
    board_traits,
    describe_last_move,
    describe_move,
    whose_turn_sentence,
)
from housing_lab.widgets.streetcar.words import bot_words

__all__ = ["KEEP", "StreetcarLab", "describe_move"]

KEEP = object()  # new_game: keep the current opponent
MAX_DELAY = 60.0  # seconds: a longer pause before the bot's move is a typo


def check_delay(seconds: object) -> float:
    """Seconds to wait before showing the bot's move: a finite number 0-60."""
    return float(check_number(seconds, "bot_delay (seconds)", low=0, high=MAX_DELAY))


def check_lines(lines: object) -> list[object]:
    """This turn's lines as a list (each edge is checked by the engine)."""
    if not isinstance(lines, (list, tuple)):
        raise HousingLabError(
            f"lines are a list of edges like [[[0, 0], [1, 0]], [[0, 0], [0, 1]]], "
            f"not {shown(lines)}"
        )
    return list(lines)


def write_json(path: object, data: dict[str, Any]) -> None:
    """Write `data` as JSON to a file path (atomically), or refuse a path that is not one."""
    if not isinstance(path, (str, os.PathLike)):
        raise HousingLabError(f"a file path is a string or a Path, not {shown(path)}")
    write_text(path, json.dumps(data, indent=1) + "\n")


class StreetcarLab(ipywidgets.VBox):
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
        hint_bot: str = DEFAULT_HINT_BOT,
    ) -> None:
        setup = self._setup(  # every argument checked before any part is built
            seed=seed,
            opponent=opponent,
            human=human,
            board=board,
            penalty=penalty,
            goals=goals,
            practice=practice,
        )
        delay = check_delay(bot_delay)
        self.hint_bot = check_bot_name(hint_bot, "hints")
        self.last_hint: Hint | None = None
        self._hint_shown: dict[str, Any] = {}
        self.turn = TurnStager()
        self.opponent_bot = BotOpponent(delay)
        self.replay_cursor: ReplayCursor | None = None
        self.board = StreetcarBoard()
        self.board.on_action = self._on_board_action
        self.score = ScorePanel()
        self._options = MadeWhenOpened(self._make_options, self._show_options)
        self.replay_bar = ReplayBar()
        self.replay_bar.on_action = self._on_replay_action
        self.toolbar = Toolbar()
        self.toolbar.on_restart = lambda: self._on_new_game({})
        self.toolbar.on_save = lambda: self.board.offer_json(
            "streetcar-game.json", self.record, indent=1
        )
        self.toolbar.on_replay = lambda: self.start_replay()
        self.toolbar.on_upload = self._on_upload_text
        self.upload = self.toolbar.upload
        title = ipywidgets.HTML(
            "<div style='font-size:15px;line-height:1.35;margin:2px 0'>"
            "<h2 style='display:inline;font-size:19px;margin:0'>Streetcar lab</h2> &nbsp; "
            "Draw two lines that meet, then "
            "remove a house; connect the buildings to score. Places: rows A, B, C… from the "
            "top, hexes numbered from the left (E3).</div>"
        )
        options = ipywidgets.Accordion([self._options.box])
        options.set_title(0, "Game options: seed, board, penalty, goals, opponent")
        options.selected_index = None
        options.observe(self._options_opened, names="selected_index")
        super().__init__([title, self.toolbar, self.replay_bar, self.board, self.score, options])
        self.add_class("sc-lab")
        self._start(setup, f"New game (seed {seed}). {{turn}}")

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
        """The RULES.md record (version 1) of the moves pushed so far; `final` only once the
        game is over. While replaying it is the whole game being replayed, wherever the replay
        cursor stands: only `play_from_here` drops the later moves."""
        game = self._game if self.replay_cursor is None else self.replay_cursor.full
        record = to_record(game)
        if not game.is_over():
            del record["final"]
        return record

    @property
    def opponent(self) -> str | None:
        return self.opponent_bot.name

    @property
    def human(self) -> str:
        return self.opponent_bot.human

    @property
    def bot_delay(self) -> float:
        """Seconds the browser waits before showing the bot's move."""
        return self.opponent_bot.delay

    @bot_delay.setter
    def bot_delay(self, seconds: float) -> None:
        self.opponent_bot.delay = check_delay(seconds)

    @property
    def staged_lines(self) -> list[list[list[int]]] | None:
        """Lines drawn this turn and waiting for a house (None: no lines drawn yet)."""
        if self.turn.staged is None:
            return None
        return [edge_json(edge) for edge in self.turn.staged]

    @property
    def phase(self) -> str:
        """ "lines", "remove", "over" or "replay"."""
        if self.replay_cursor is not None:
            return "replay"
        if self._game.is_over():
            return "over"
        return "lines" if self.turn.staged is None else "remove"

    @property
    def is_replaying(self) -> bool:
        return self.replay_cursor is not None

    @property
    def replay_index(self) -> int | None:
        """Moves shown while replaying (None when not replaying)."""
        return None if self.replay_cursor is None else len(self._game.move_stack)

    # --- a turn (each checked by the engine) ---------------------------------------------
    def draw_lines(self, lines: Sequence[object]) -> None:
        """Draw this turn's lines (2 edges sharing an intersection, 1, or none when the rules
        allow): checked by the engine, then staged; on turn 1 the turn is played at once."""
        with self._refused_on_board():
            self._check_can_play()
            at_once = self.turn.stage(self._game, check_lines(lines))
            if at_once is not None:
                self._play(at_once)
                return
        label = self.opponent_bot.label(self._game.current_player)
        self._show(f"{label}: lines drawn. Now remove a house.")

    def remove_house(self, hex: object) -> None:
        """Remove a house: plays the staged lines and this house as one move."""
        with self._refused_on_board():
            self._check_can_play()
            if self._game.is_over():
                self._play(Move([], hex))  # the engine says why: the game is over
            self._play(self.turn.finish(hex))

    def play(self, lines: Sequence[object], remove: object | None = None) -> None:
        """A whole turn at once (lines and the house), e.g. from a lesson's script."""
        with self._refused_on_board():
            self._check_can_play()
            if self.turn.staged is not None:
                raise HousingLabError("lines are already drawn this turn: cancel them first")
            self._play(Move(check_lines(lines), remove))

    def pass_lines(self) -> None:
        """Draw no line (the engine allows it only when no edge is legal anywhere)."""
        self.draw_lines([])

    def cancel_lines(self) -> None:
        """Drop the lines drawn this turn (and a chosen first line); nothing was pushed yet."""
        self.turn.clear()
        self._show("Lines cancelled: choose again.")

    def undo(self) -> None:
        """Practice mode: take back your last whole turn, and the bot's reply after it."""
        with self._refused_on_board():
            if not self.practice:
                raise HousingLabError("undo is only allowed in practice mode")
            if self.replay_cursor is not None:
                raise HousingLabError("replaying a saved game: use the replay buttons")
            count = self.opponent_bot.moves_to_undo(self._game)
            if count == 0:
                raise HousingLabError("there is no move of yours to undo")
        for _ in range(count):
            self._game.pop()
        self.turn.clear()
        self.opponent_bot.forget_waiting()
        self._show(f"Move undone. {self._whose_turn()}")

    def hint(self, bot: str | None = None) -> Hint:
        """Show (never play) the move bot `bot` (default `hint_bot`, normally greedy) would
        play now: its lines and house highlighted on the board, the reason on the message
        line. The bot is looked up in the engine's registry and seeded with the lab's seed,
        so the hint is exactly `make_bot(bot, seed).choose(game)`."""
        with self._refused_on_board():
            name = check_bot_name(self.hint_bot if bot is None else bot, "hints")
            if self.opponent_bot.to_move(self._game) and self.replay_cursor is None:
                raise HousingLabError(f"it is the {bot_words(self.opponent or '')} bot's turn")
            found = suggest(self._game, name, self.seed)
        self.last_hint = found
        self._hint_shown = found.board_view()
        self._show(found.reason)
        return found

    # --- clicks from the browser (never raise: a refusal is shown on the board) -----------
    def click_edge(self, edge: object) -> None:
        """A click on a grid line: first line, second line, deselect, or an explanation."""
        try:
            with self._refused_on_board():
                self._check_can_play()
                choice = self.turn.choose_edge(self._game, parse_edge_key(edge))
        except HousingLabError:
            return
        if choice.lines is not None:
            with contextlib.suppress(HousingLabError):  # shown on the board already
                self.draw_lines(choice.lines)
        elif choice.kind == "error":
            self.board.say(choice.message, "error")
        else:
            self._show(choice.message)

    def click_house(self, hex: object) -> None:
        """A click on a house: removes it when the lines are drawn, else says what to do."""
        if self.phase == "lines":
            self.board.say("First draw your lines, then remove a house.", "error")
            return
        with contextlib.suppress(HousingLabError):  # shown on the board already
            with self._refused_on_board():
                where = parse_hex_key(hex)
            self.remove_house(where)

    def _on_board_action(self, action: object) -> None:
        if not isinstance(action, dict):
            return  # not a message our board sends
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
            elif kind == "hint":
                self.hint()
            elif kind == "bot_shown" and self.opponent_bot.shown(action.get("n")):
                self._show_score()

    # --- games, options, files, replay ----------------------------------------------------
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
        with self._refused_on_board():
            unknown = sorted(set(options) - set(values))
            if unknown:
                known = ", ".join(sorted(set(values) - {"seed", "opponent"}))
                raise HousingLabError(f"unknown option {shown(unknown[0])} (known: {known})")
            values.update(options)
            setup = self._setup(**values)
        self._start(setup, f"New game (seed {setup['seed']}). {{turn}}")

    def save(self, path: str | pathlib.Path | None = None) -> dict[str, Any]:
        """The record (as `record`: while replaying, the whole game); also written as JSON to
        `path` when given (atomically: a failed write leaves any old file whole)."""
        record = self.record
        if path is not None:
            with self._refused_on_board():
                write_json(path, record)
        return record

    def load_record(self, source: JsonSource) -> None:
        """Load a RULES.md record (a dict, JSON text or a file path) to replay it move by move.

        The engine replays it first, checking every move; a refused record changes nothing.
        The whole game is kept while the replay moves (`record` and `save` give it back
        unchanged); `play_from_here` is what drops the later moves.
        """
        with self._refused_on_board():
            game = replay(read_record_source(source), require_complete=False)
            start, moves = rewound(game)
            setup = self._setup_from(start)
        self._start(
            setup,
            f"Game loaded: {len(moves)} moves. Step through it, or play on from any move.",
            replay_game=game,
        )

    def start_replay(self) -> None:
        """Replay the game played so far (or the whole game being replayed) from move 0."""
        game = self._game if self.replay_cursor is None else self.replay_cursor.full
        start, moves = rewound(game)
        self._start(
            self._setup_from(start),
            f"Replaying this game: {len(moves)} moves.",
            replay_game=game,
        )

    def replay_to(self, index: int) -> None:
        """Show the position after `index` moves of the game being replayed (0 = the start).

        A bad index (not a whole number in range) is refused before anything moves.
        """
        with self._refused_on_board():
            if self.replay_cursor is None:
                raise HousingLabError("no game to replay: load a record first")
            said = self.replay_cursor.go_to(self._game, index, describe_last_move)
        self._show(said)

    def replay_step(self) -> None:
        total = self.replay_cursor.total if self.replay_cursor else 0
        self.replay_to(min((self.replay_index or 0) + 1, total))

    def replay_back(self) -> None:
        self.replay_to(max((self.replay_index or 0) - 1, 0))

    def play_from_here(self) -> None:
        """Leave the replay and play on from the position shown: the later moves of the game
        being replayed are dropped (the only place they are). Outside a replay: refused."""
        with self._refused_on_board():
            if self.replay_cursor is None:
                raise HousingLabError("not replaying a game: there is nothing to play on from")
        self.replay_cursor = None
        with self.board.hold_sync():
            self._bot_reply()
            self._show(f"Playing on from move {len(self._game.move_stack)}. {self._whose_turn()}")

    def _on_replay_action(self, action: object) -> None:
        total = self.replay_cursor.total if self.replay_cursor else 0
        if not isinstance(action, str):
            return
        steps = {
            "start": lambda: self.replay_to(0),
            "back": self.replay_back,
            "step": self.replay_step,
            "end": lambda: self.replay_to(total),
            "resume": self.play_from_here,
        }
        with contextlib.suppress(HousingLabError):
            if action in steps:
                steps[action]()

    def _on_upload_text(self, text: str) -> None:
        with contextlib.suppress(HousingLabError):
            with self._refused_on_board():
                data = parse_record_text(text)
            self.load_record(data)

    def _on_new_game(self, values: dict[str, Any]) -> None:
        with contextlib.suppress(HousingLabError):
            self.new_game(**values)

    # --- internals -----------------------------------------------------------------------------
    def _setup(
        self,
        *,
        seed: int,
        opponent: str | None,
        human: str,
        board: object,
        penalty: int,
        goals: Iterable[str],
        practice: bool,
    ) -> dict[str, Any]:
        """Everything a new game needs, checked by the engine before anything changes."""
        if not isinstance(human, str) or human not in PLAYERS:
            raise HousingLabError(f"human must be one of {list(PLAYERS)}, not {shown(human)}")
        seed = check_seed(seed)
        if opponent is not None:
            check_bot_name(opponent, "the opponent")
        if not isinstance(practice, bool):
            raise HousingLabError(f"practice must be True or False, not {shown(practice)}")
        rules = Rules(penalty=penalty, goals=goals)  # type: ignore[arg-type]  # Rules checks it
        game = Game(resolve_board(board), seed=seed, rules=rules)
        return {
            "game": game,
            "seed": seed,
            "opponent": opponent,
            "bot": None if opponent is None else make_bot(opponent, seed),
            "human": human,
            "practice": bool(practice),
        }

    def _setup_from(self, game: Game) -> dict[str, Any]:
        return {
            "game": game,
            "seed": self.seed,
            "opponent": self.opponent,
            "bot": None if self.opponent is None else make_bot(self.opponent, self.seed),
            "human": self.human,
            "practice": self.practice,
        }

    def _start(
        self, setup: Mapping[str, Any], message: str, replay_game: Game | None = None
    ) -> None:
        """Show a new game (or, with `replay_game`, that game from its start, to replay), and
        say `message`."""
        self._game: Game = setup["game"]
        self.seed: int = setup["seed"]
        self.practice: bool = setup["practice"]
        self.opponent_bot.start(setup["opponent"], setup["bot"], setup["human"])
        self.turn.clear()
        self.replay_cursor = None if replay_game is None else ReplayCursor(replay_game)
        self._show_options()
        with self.board.hold_sync():
            self.board.hexes = [hex_key(h) for h in self._game.board.hexes]
            self.board.edges = edge_keys(self._game.board.edges)
            self.board.bot_move = {}
            self.board.names = {
                hex_key(h): name for h, name in place_names(self._game.board).items()
            }
            self.board.rows = {
                letter: [hex_key(h) for h in ends]
                for letter, ends in row_labels(self._game.board).items()
            }
            if replay_game is None:
                self._bot_reply(delay=0)  # a bot playing purple opens at once
            self._refresh()
            self.board.say(message.format(turn=self._whose_turn()))

    @property
    def options(self) -> OptionsPanel:
        """The "Game options" controls, made when the section is first opened (or asked for),
        showing the game as it stands: 56 of the lab's 126 widgets, which most games never
        open (a lab builds in about 16 ms instead of 23)."""
        return self._options.get()

    def _make_options(self) -> OptionsPanel:
        panel = OptionsPanel()
        panel.on_new_game = self._on_new_game
        return panel

    def _options_opened(self, change: dict[str, Any]) -> None:
        if change["new"] is not None:
            self._options.get()

    def _show_options(self) -> None:
        panel = self._options.made
        if panel is None:
            return  # nothing shown yet: the panel shows the game as it stands when made
        rules = self._game.rules
        panel.show(
            seed=self.seed,
            board=self._game.board,
            penalty=rules.penalty,
            goals=rules.goals,
            opponent=self.opponent,
            human=self.human,
            practice=self.practice,
        )

    @contextlib.contextmanager
    def _refused_on_board(self) -> Iterator[None]:
        """A refused action: show the engine's message, re-raise; nothing has changed."""
        try:
            yield
        except HousingLabError as error:
            self.board.say(str(error), "error")
            self._show_options()
            raise

    def _check_can_play(self) -> None:
        if self.replay_cursor is not None:
            raise HousingLabError("replaying a saved game: press 'Play on from here' to play")
        if self.opponent_bot.to_move(self._game):
            raise HousingLabError(f"it is the {bot_words(self.opponent or '')} bot's turn")

    def _play(self, move: Move) -> None:
        """Push a whole turn (the engine checks it), then let the bot reply."""
        game = self._game
        player = game.current_player
        colour = None if move.remove is None else game.houses.get(move.remove)
        game.push(move)  # raises IllegalMoveError and changes nothing when illegal
        self.turn.clear()
        said = describe_move(self.opponent_bot.label(player), move, colour, game)
        with self.board.hold_sync():  # the bot's move and the new position in one message
            reply = self._bot_reply(before_message=said)
            self._show(" ".join(filter(None, [said, reply, self._whose_turn()])))

    def _bot_reply(self, delay: float | None = None, before_message: str = "") -> str:
        """The bot moves when it is its turn; the board shows it after `delay` seconds."""
        bot_move, said = self.opponent_bot.reply(
            self._game, self.board.position_id + 1, delay, before_message
        )
        if bot_move is not None:
            self.board.bot_move = bot_move
        return said

    def _whose_turn(self) -> str:
        return whose_turn_sentence(
            self._game, self.opponent_bot.label, self.replay_cursor is not None
        )

    def _show(self, message: str, kind: str = "info") -> None:
        """Refresh from the engine and say `message`, in one comm message."""
        with self.board.hold_sync():
            self._refresh()
            self.board.say(message, kind)

    def _refresh(self) -> None:
        """Copy the engine's state into the board, replay bar and score panel."""
        game, bot, cursor = self._game, self.opponent_bot, self.replay_cursor
        traits = board_traits(
            game,
            phase=self.phase,
            first=self.turn.first,
            staged=self.turn.staged,
            label=bot.label,
            kind=bot.kind,
            can_undo=self.practice and cursor is None and bot.moves_to_undo(game) > 0,
            replay_total=cursor.total if cursor else 0,
        )
        with self.board.hold_sync():
            self.board.position_id += 1
            for name, value in traits.items():
                setattr(self.board, name, value)
            self.board.hint = self._hint_shown  # shown once: the next change clears it
            self._hint_shown = {}
        self.replay_bar.show(
            None if cursor is None else len(game.move_stack), cursor.total if cursor else 0
        )
        self._show_score()

    def _show_score(self) -> None:
        game = self.opponent_bot.game_to_score(self._game)
        self.score.update(
            game.score_breakdown(),
            game.outcome(),
            game.standings(),
            labels={p: self.opponent_bot.label(p) for p in PLAYERS},
            per_line=game.rules.penalty,
        )

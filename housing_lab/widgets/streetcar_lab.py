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

This module holds the app's setup (widgets, options, new game, toolbar) and what it exposes;
the jobs live in mixins: `streetcar_turns` (staging a turn and pushing it into the engine),
`streetcar_clicks` (browser clicks), `streetcar_bot` (the opponent), `streetcar_view` (board
traits, score panel, messages) and `streetcar_replay` (save, load, replay).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import ipywidgets

from housing_lab.errors import HousingLabError
from housing_lab.streetcar import PLAYERS, Bot, Game, Move, Rules, make_bot, to_record
from housing_lab.streetcar.board import edge_json
from housing_lab.streetcar.hexgrid import Edge
from housing_lab.widgets.streetcar_board import StreetcarBoard, edge_keys, hex_key
from housing_lab.widgets.streetcar_bot import BotMixin
from housing_lab.widgets.streetcar_clicks import ClickMixin
from housing_lab.widgets.streetcar_controls import OptionsPanel, ReplayBar, resolve_board
from housing_lab.widgets.streetcar_replay import ReplayMixin
from housing_lab.widgets.streetcar_score import ScorePanel
from housing_lab.widgets.streetcar_turns import TurnMixin
from housing_lab.widgets.streetcar_view import ViewMixin, describe_move

__all__ = ["KEEP", "StreetcarLab", "describe_move"]

KEEP = object()  # new_game: keep the current opponent


class StreetcarLab(TurnMixin, ClickMixin, BotMixin, ViewMixin, ReplayMixin, ipywidgets.VBox):
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
        self._start(
            self._setup(
                seed=seed,
                opponent=opponent,
                human=human,
                board=board,
                penalty=penalty,
                goals=goals,
                practice=practice,
            ),
            f"New game (seed {seed}). {{turn}}",
        )

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
        """ "lines", "remove", "over" or "replay"."""
        if self._replay is not None:
            return "replay"
        if self._game.is_over():
            return "over"
        return "lines" if self._staged is None else "remove"

    @property
    def is_replaying(self) -> bool:
        return self._replay is not None

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
        if human not in PLAYERS:
            raise HousingLabError(f"human must be one of {list(PLAYERS)}, not {human!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise HousingLabError(f"seed must be an integer, not {seed!r}")
        rules = Rules(penalty=penalty, goals=frozenset(goals))
        game = Game(resolve_board(board), seed=seed, rules=rules)
        bot = None if opponent is None else make_bot(opponent, seed)
        return {
            "game": game,
            "seed": seed,
            "opponent": opponent,
            "bot": bot,
            "human": human,
            "practice": bool(practice),
        }

    def _setup_from(self, game: Game) -> dict[str, Any]:
        bot = None if self.opponent is None else make_bot(self.opponent, self.seed)
        return {
            "game": game,
            "seed": self.seed,
            "opponent": self.opponent,
            "bot": bot,
            "human": self.human,
            "practice": self.practice,
        }

    def _start(
        self, setup: Mapping[str, Any], message: str, replay_moves: list[Move] | None = None
    ) -> None:
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
        self.options.show(
            seed=self.seed,
            board=self._game.board,
            penalty=rules.penalty,
            goals=rules.goals,
            opponent=self.opponent,
            human=self.human,
            practice=self.practice,
        )
        with self.board.hold_sync():
            self.board.hexes = [hex_key(h) for h in self._game.board.hexes]
            self.board.edges = edge_keys(self._game.board.edges)
            self.board.bot_move = {}
            if replay_moves is None:
                self._bot_reply(delay=0)  # a bot playing purple opens at once
            self._refresh()
            self.board.say(message.format(turn=self._whose_turn_sentence()))

    @contextlib.contextmanager
    def _refused_on_board(self) -> Iterator[None]:
        """A refused action: show the engine's message, re-raise; nothing has changed."""
        try:
            yield
        except HousingLabError as error:
            self.board.say(str(error), "error")
            rules = self._game.rules
            self.options.show(
                seed=self.seed,
                board=self._game.board,
                penalty=rules.penalty,
                goals=rules.goals,
                opponent=self.opponent,
                human=self.human,
                practice=self.practice,
            )
            raise

    def _on_new_game(self, values: dict[str, Any]) -> None:
        with contextlib.suppress(HousingLabError):
            self.new_game(**values)

    def _make_toolbar(self) -> ipywidgets.HBox:
        save = ipywidgets.Button(description="Save game", icon="download")
        save.on_click(
            lambda _: self.board.offer_download(
                "streetcar-game.json", json.dumps(self.record, indent=1)
            )
        )
        self.upload = ipywidgets.FileUpload(accept=".json", multiple=False, description="Load game")
        self.upload.observe(self._on_upload, names="value")
        again = ipywidgets.Button(description="Replay this game", icon="history")
        again.on_click(lambda _: self.start_replay())
        restart = ipywidgets.Button(description="Restart (same options)", icon="refresh")
        restart.on_click(lambda _: self._on_new_game({}))
        for widget, name in ((save, "save"), (again, "replay-this"), (restart, "restart")):
            widget.add_class(f"sc-{name}")
            widget.layout.width = "auto"
        return ipywidgets.HBox([restart, save, self.upload, again])

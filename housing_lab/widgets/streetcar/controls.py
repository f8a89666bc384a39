"""The Streetcar lab's ipywidgets controls: game options and the replay bar.

They hold no game state: the options panel reads its widgets into keyword arguments for
`StreetcarLab.new_game`, and the replay bar calls back with the button pressed. The lab shows its
own state back on them (`show`), so a refused change puts the widgets back.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

import ipywidgets

from housing_lab.streetcar import BOTS, GOAL_BONUS, PLAYERS, Board
from housing_lab.streetcar.errors import BoardError
from housing_lab.streetcar.hexgrid import Hex
from housing_lab.streetcar.rules import GOAL_TEXT
from housing_lab.widgets.common import uploaded_text
from housing_lab.widgets.streetcar.words import bot_words

BOARD_CHOICES = {
    "standard": "Standard (52 hexes)",
    "small": "Small (19 hexes)",
    "custom": "Custom (paste a list of hexes)",
}
CLASSMATE = "classmate"


def small_hexes(radius: int = 2) -> list[Hex]:
    """A round board of every hex within `radius` of the centre (19 hexes for radius 2)."""
    return [
        (q, r)
        for q in range(-radius, radius + 1)
        for r in range(-radius, radius + 1)
        if abs(q + r) <= radius
    ]


def resolve_board(board: object) -> Board:
    """A Board from None / "standard" / "small", a Board, or a list of [q, r] (a JSON string too).

    Any other set of hexes is a custom board (RULES.md); the engine checks it.
    """
    if board is None or board == "standard":
        return Board.standard()
    if board == "small":
        return Board.from_hexes(small_hexes())
    if isinstance(board, Board):
        return board
    if isinstance(board, str):
        try:
            board = json.loads(board)
        except json.JSONDecodeError:
            raise BoardError(
                f"a custom board is a JSON list of hexes like [[0, 0], [1, 0]], not {board!r}"
            ) from None
    if not isinstance(board, Iterable):
        raise BoardError(f"a board is 'standard', 'small' or a list of hexes, not {board!r}")
    return Board.from_hexes(list(board))


def board_name(board: Board) -> str:
    """The options-panel choice that gives this board back."""
    if board.is_standard:
        return "standard"
    if set(board.hexes) == set(small_hexes()):
        return "small"
    return "custom"


def opponent_choices() -> list[tuple[str, str]]:
    """A classmate, or every bot the engine knows (stronger bots appear when the engine adds
    them to `BOTS`)."""
    return [("a classmate on this screen", CLASSMATE)] + [
        (f"{bot_words(name)} bot", name) for name in BOTS
    ]


class OptionsPanel(ipywidgets.VBox):
    """Seed, board, penalty, development goals, opponent, side, practice; "New game" applies."""

    def __init__(self, **kwargs: Any) -> None:
        self.on_new_game: Callable[[dict[str, Any]], None] | None = None
        wide = {"description_width": "initial"}
        self.seed = ipywidgets.BoundedIntText(
            value=0,
            min=0,
            max=2**31 - 1,
            description="Seed (houses)",
            style=wide,
            layout=ipywidgets.Layout(width="180px"),
        )
        self.board = ipywidgets.Dropdown(
            options=[(label, key) for key, label in BOARD_CHOICES.items()],
            value="standard",
            description="Board",
            style=wide,
            layout=ipywidgets.Layout(width="300px"),
        )
        self.custom = ipywidgets.Text(
            placeholder="[[0, 0], [1, 0], [0, 1], ...]",
            description="Hexes [q, r]",
            style=wide,
            layout=ipywidgets.Layout(width="420px", display="none"),
        )
        self.board.observe(self._board_changed, names="value")
        self.penalty = ipywidgets.IntText(
            value=10,
            description="Penalty per separate line",
            style=wide,
            layout=ipywidgets.Layout(width="230px"),
        )
        self.opponent = ipywidgets.Dropdown(
            options=opponent_choices(),
            value="greedy" if "greedy" in BOTS else CLASSMATE,
            description="Opponent",
            style=wide,
            layout=ipywidgets.Layout(width="300px"),
        )
        self.human = ipywidgets.Dropdown(
            options=[
                (f"{p}{' (moves first)' if i == 0 else ''}", p) for i, p in enumerate(PLAYERS)
            ],
            value=PLAYERS[0],
            description="You play",
            style=wide,
            layout=ipywidgets.Layout(width="250px"),
        )
        self.practice = ipywidgets.Checkbox(
            value=True, description="Practice mode (undo allowed)", indent=False
        )
        self.goals = {
            name: ipywidgets.Checkbox(
                value=False,
                indent=False,
                description=f"{name.replace('_', ' ')} (+{bonus}): {GOAL_TEXT[name]}",
                layout=ipywidgets.Layout(width="auto"),  # the grid's column: no goal cut off
            )
            for name, bonus in GOAL_BONUS.items()
        }
        for name, box in self.goals.items():
            box.add_class(f"sc-goal-{name}")
        self.start = ipywidgets.Button(
            description="New game with these options",
            icon="play",
            button_style="primary",
            layout=ipywidgets.Layout(width="260px"),
        )
        self.start.add_class("sc-new-game")
        self.start.on_click(lambda _: self.on_new_game and self.on_new_game(self.values()))
        goal_grid = ipywidgets.GridBox(
            list(self.goals.values()),
            layout=ipywidgets.Layout(grid_template_columns="repeat(auto-fill, minmax(560px, 1fr))"),
        )
        super().__init__(
            [
                ipywidgets.HBox([self.seed, self.board, self.penalty]),
                self.custom,
                ipywidgets.HBox([self.opponent, self.human, self.practice]),
                ipywidgets.HTML(
                    "<b>Development goals</b> (a connected building meeting a goal "
                    "scores the bonus for every player connected to it)"
                ),
                goal_grid,
                self.start,
            ],
            **kwargs,
        )
        self.add_class("sc-options")

    def __repr__(self) -> str:
        return "OptionsPanel()"

    def _board_changed(self, change: dict[str, Any]) -> None:
        self.custom.layout.display = "" if change["new"] == "custom" else "none"

    def values(self) -> dict[str, Any]:
        """The widgets as keyword arguments for `StreetcarLab.new_game`."""
        board: object = self.board.value
        if board == "custom":
            board = self.custom.value
        return {
            "seed": int(self.seed.value),
            "board": board,
            "penalty": int(self.penalty.value),
            "goals": [name for name, box in self.goals.items() if box.value],
            "opponent": None if self.opponent.value == CLASSMATE else self.opponent.value,
            "human": self.human.value,
            "practice": bool(self.practice.value),
        }

    def show(
        self,
        *,
        seed: int,
        board: Board,
        penalty: int,
        goals: Iterable[str],
        opponent: str | None,
        human: str,
        practice: bool,
    ) -> None:
        """Set the widgets to the lab's game (after a new game, a refusal or a loaded record)."""
        chosen = set(goals)
        self.seed.value = seed
        name = board_name(board)
        self.board.value = name
        if name == "custom":
            self.custom.value = json.dumps([list(h) for h in board.hexes])
        self.penalty.value = penalty
        for goal, box in self.goals.items():
            box.value = goal in chosen
        self.opponent.value = CLASSMATE if opponent is None else opponent
        self.human.value = human
        self.practice.value = practice


class ReplayBar(ipywidgets.HBox):
    """Step through a loaded game: start, back, step, end, and "play from here"."""

    ACTIONS = (
        ("start", "First", "fast-backward"),
        ("back", "Back", "step-backward"),
        ("step", "Step", "step-forward"),
        ("end", "Last", "fast-forward"),
        ("resume", "Play on from here", "play"),
    )

    def __init__(self, **kwargs: Any) -> None:
        self.on_action: Callable[[str], None] | None = None
        self.buttons: dict[str, ipywidgets.Button] = {}
        for action, label, icon in self.ACTIONS:
            button = ipywidgets.Button(
                description=label, icon=icon, layout=ipywidgets.Layout(width="auto")
            )
            button.add_class(f"sc-replay-{action}")
            button.on_click(lambda _, a=action: self.on_action and self.on_action(a))
            self.buttons[action] = button
        self.label = ipywidgets.HTML()
        self.label.add_class("sc-replay-label")
        super().__init__(
            [
                ipywidgets.HTML("<b style='font-size:16px'>Replay</b>"),
                *self.buttons.values(),
                self.label,
            ],
            **kwargs,
        )
        self.add_class("sc-replay")
        self.layout.display = "none"

    def __repr__(self) -> str:
        return "ReplayBar()"

    def show(self, index: int | None, total: int) -> None:
        """Visible with "move index of total" while replaying (index None: hidden)."""
        if index is None:
            self.layout.display = "none"
            return
        self.layout.display = ""
        self.label.value = (
            f"<span style='font-size:16px'>after move <b>{index}</b> of <b>{total}</b></span>"
        )
        self.buttons["start"].disabled = self.buttons["back"].disabled = index == 0
        self.buttons["step"].disabled = self.buttons["end"].disabled = index >= total


class Toolbar(ipywidgets.HBox):
    """Restart, save, load and replay buttons; each calls back with no game state of its own.

    `on_upload` receives the uploaded file's text.
    """

    def __init__(self, **kwargs: Any) -> None:
        self.on_restart: Callable[[], None] | None = None
        self.on_save: Callable[[], None] | None = None
        self.on_replay: Callable[[], None] | None = None
        self.on_upload: Callable[[str], None] | None = None
        save = ipywidgets.Button(description="Save game", icon="download")
        save.on_click(lambda _: self.on_save and self.on_save())
        self.upload = ipywidgets.FileUpload(accept=".json", multiple=False, description="Load game")
        self.upload.observe(self._uploaded, names="value")
        again = ipywidgets.Button(description="Replay this game", icon="history")
        again.on_click(lambda _: self.on_replay and self.on_replay())
        restart = ipywidgets.Button(description="Restart (same options)", icon="refresh")
        restart.on_click(lambda _: self.on_restart and self.on_restart())
        for widget, name in ((save, "save"), (again, "replay-this"), (restart, "restart")):
            widget.add_class(f"sc-{name}")
            widget.layout.width = "auto"
        super().__init__([restart, save, self.upload, again], **kwargs)

    def __repr__(self) -> str:
        return "Toolbar()"

    def _uploaded(self, change: dict[str, Any]) -> None:
        text = uploaded_text(change)
        if text is not None and self.on_upload is not None:
            self.on_upload(text)

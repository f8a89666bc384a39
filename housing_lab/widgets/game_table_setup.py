"""Starting a game and the setup screen (a mixin of `GameTable`).

The setup screen is presentation only: it collects teams, seed and rules, and the engine deals
the game. Leaving it for setup keeps the current game, so a teacher can go back to it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from housing_lab.north_berkeley.game import Game
from housing_lab.north_berkeley.policies import RuleOptions

if TYPE_CHECKING:
    from housing_lab.widgets.game_table import GameTable

DEFAULT_TEAMS = ("Red", "Blue", "Green", "Orange", "Purple", "Teal")


def rule_options(options: RuleOptions | Mapping[str, Any] | None) -> RuleOptions:
    """Rules as the engine takes them (the browser sends a plain dict)."""
    if options is None or isinstance(options, RuleOptions):
        return options or RuleOptions()
    return RuleOptions.from_dict(dict(options))


def setup_decision() -> dict[str, Any]:
    """What the panel shows while no game is on screen."""
    return {
        "kind": "setup",
        "heading": "Set up a new game",
        "text": "Choose the teams and the rules, then start. The same seed "
        "shuffles the same residents and deals the same cards.",
    }


class SetupMixin:
    """`start`, `new_game` and `back_to_game`; the table provides the engine calls' reporting."""

    def start(
        self: GameTable,
        teams: Sequence[str],
        seed: int = 0,
        options: RuleOptions | Mapping[str, Any] | None = None,
        hidden_hands: bool = False,
    ) -> None:
        """A new game (setup: residents shuffled, cards dealt); the old one is dropped."""
        with self._reported():
            game = Game(list(teams), seed=seed, options=rule_options(options))
        self.game = game
        self.hidden_hands = bool(hidden_hands)
        self._new_game_view()
        dealt = len(game.state.hands[game.players[0]])
        hands = "hidden: print the handouts" if self.hidden_hands else "open"
        self._say(
            f"New game, seed {seed}: residents shuffled, {dealt} "
            f"card{'s' if dealt > 1 else ''} dealt to each team ({hands}). "
            "Phase 1 begins."
        )

    def new_game(self: GameTable) -> None:
        """Back to the setup screen (the current game stays until a new one starts)."""
        self._on_setup = True
        self._refresh()

    def back_to_game(self: GameTable) -> None:
        """Leave the setup screen for the game kept under it."""
        self._need_game()
        self._on_setup = False
        self._refresh()

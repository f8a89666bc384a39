"""NorthBerkeleyLab: build the neighbourhood, toggle policies, watch who is displaced.

The lab keeps the board (tiles, policies, existing residents) and asks the engine for the
result after every change. Every change is tried on a new, engine-validated scenario first; a
refused change shows the engine's message and leaves everything as it was.

The lab owns separate parts that can be placed anywhere on the screen: `board`,
`policy_panel`, `outcome_chart`, `homes_chart`, `compare` (a `ComparePanel`), `scoreboard` and
`toolbar` (a `LabToolbar`). A tile click goes: the board's message -> `_on_board_action` here ->
`place` -> the engine's `make_scenario` / `score_scenario`.
"""

from __future__ import annotations

import contextlib
import pathlib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import ipywidgets

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley.errors import ScenarioFormatError
from housing_lab.north_berkeley.layout import Layout, default_layout
from housing_lab.north_berkeley.policies import (
    POLICY_NAMES,
    RESIDENTS_PER_INCOME,
    RuleOptions,
    check_policy,
)
from housing_lab.north_berkeley.scenario import (
    Scenario,
    check_square,
    make_scenario,
    scenario_from_dict,
)
from housing_lab.north_berkeley.scoring import ScenarioResult, score_as_is, score_scenario
from housing_lab.north_berkeley.tiles import Catalogue, default_catalogue
from housing_lab.widgets.common import JsonSource, parse_json_object, read_json_object, save_json
from housing_lab.widgets.nb_board import NorthBerkeleyBoard
from housing_lab.widgets.nb_charts import HomesChart, OutcomeChart
from housing_lab.widgets.nb_compare import ComparePanel
from housing_lab.widgets.nb_policies import PolicyPanel
from housing_lab.widgets.nb_scoreboard import Scoreboard
from housing_lab.widgets.nb_toolbar import LabToolbar

SCENARIO = "a scenario"


def summary(result: Mapping[str, Any]) -> str:
    housed = result["housed"]
    return (
        f"Housed: {housed['high']} high, {housed['middle']} middle, {housed['low']} low "
        f"income (of {RESIDENTS_PER_INCOME} each). Spending ${result['spending']:g}."
    )


def describe(scenario: Scenario) -> str:
    """A board in a few words: its tile count and policies (the compare panel's labels)."""
    policies = ", ".join(POLICY_NAMES[p] for p in sorted(scenario.policies)) or "no policy"
    return f"{len(scenario.tiles)} tiles, {policies}"


class NorthBerkeleyLab(ipywidgets.VBox):
    """The whole app. Drive it from Python (lessons, tests) or by clicking.

    >>> lab = NorthBerkeleyLab(seed=1)
    >>> lab.place("B1", "tower_market")
    >>> lab.result["housed"]["high"]
    12
    """

    def __init__(
        self,
        seed: int = 0,
        hand: Sequence[str] | None = None,
        options: RuleOptions | None = None,
        layout: Layout | None = None,
        catalogue: Catalogue | None = None,
        scenario: Mapping[str, Any] | None = None,
    ) -> None:
        self.options = options or RuleOptions()
        self.site = layout or default_layout()
        self.catalogue = catalogue if catalogue is not None else default_catalogue()
        self._scenario = make_scenario(seed=seed, layout=self.site, catalogue=self.catalogue)
        self._result: ScenarioResult = score_scenario(self._scenario, self.options)

        self.board = NorthBerkeleyBoard()
        self.board.on_action = self._on_board_action
        self.policy_panel = PolicyPanel()
        self.policy_panel.on_toggle = self._on_policy_toggle
        self.outcome_chart = OutcomeChart()
        self.homes_chart = HomesChart()
        self.scoreboard = Scoreboard(hand)
        self.compare = ComparePanel()
        self.compare.on_keep = lambda: self.keep_snapshot()
        self.compare.on_clear = self.clear_snapshot
        self.toolbar = LabToolbar(seed)
        self.toolbar.on_seed = self.reshuffle
        self.toolbar.on_reshuffle = lambda: self.reshuffle()
        self.toolbar.on_reset = self.reset
        self.toolbar.on_save = lambda: self.board.offer_json(
            "north-berkeley-board.json", self.scenario
        )
        self.toolbar.on_upload = self._on_upload_text
        self.seed_box = self.toolbar.seed_box
        self.upload = self.toolbar.upload
        title = ipywidgets.HTML(
            "<h2 style='margin:4px 0'>North Berkeley lab</h2>"
            "<div style='font-size:15px'>Click a square, then a tile. Toggle policies. The "
            "charts show who moves in, who stays and who is displaced.</div>"
        )
        super().__init__(
            [
                title,
                self.toolbar,
                self.board,
                self.policy_panel,
                ipywidgets.HBox([self.outcome_chart, self.homes_chart]),
                self.compare,
                ipywidgets.HTML("<b style='font-size:16px'>Constituents</b>"),
                self.scoreboard,
            ]
        )
        self.add_class("hl-nb-lab")
        self._refresh()

    def __repr__(self) -> str:
        return f"NorthBerkeleyLab(seed={self._scenario.seed}, tiles={len(self._scenario.tiles)})"

    # --- what lessons and tests read -------------------------------------------------------
    @property
    def scenario(self) -> dict[str, Any]:
        """The board in the RULES.md input format (existing residents included)."""
        return self._scenario.to_dict()

    @property
    def result(self) -> dict[str, Any]:
        """The engine's RULES.md output for `scenario`."""
        return self._result.to_dict()

    @property
    def seed(self) -> int:
        return self._scenario.seed

    # --- changes (each validated by the engine before it is kept) ------------------------
    def place(self, square: str, tile: str) -> None:
        with self._shown_on_board():
            tiles = dict(self._scenario.tiles)
            tiles[check_square(square, self.site)] = tile
            self._try(tiles=tiles, done=f"Placed {tile} on {square}.")
        self.board.selected = square

    def clear(self, square: str) -> None:
        with self._shown_on_board():
            square = check_square(square, self.site)
        tiles = dict(self._scenario.tiles)
        if tiles.pop(square, None) is None:
            self.board.say(f"Square {square} is already empty.")
            return
        self._try(tiles=tiles, done=f"Cleared {square}.")

    def set_policy(self, policy: str, enabled: bool = True) -> None:
        with self._shown_on_board():
            policy = check_policy(policy)
        policies = set(self._scenario.policies)
        (policies.add if enabled else policies.discard)(policy)
        verb = "Enacted" if enabled else "Repealed"
        self._try(policies=policies, done=f"{verb} {POLICY_NAMES[policy]}.")

    def reshuffle(self, seed: int | None = None) -> None:
        """New existing residents: the given seed, or the next one."""
        seed = self._scenario.seed + 1 if seed is None else seed
        self._try(existing=None, seed=seed, done=f"Existing residents shuffled with seed {seed}.")

    def reset(self) -> None:
        """An empty board with no policy (the residents stay)."""
        self._try(tiles={}, policies=set(), done="Board reset.")

    def load_scenario(self, scenario: JsonSource) -> None:
        """Load a RULES.md scenario: a dict, a JSON string or a file path."""
        with self._shown_on_board():
            data = read_json_object(scenario, SCENARIO, ScenarioFormatError)
            loaded = scenario_from_dict(data, self.site, self.catalogue)
        self._commit(loaded, "Board loaded.")

    def save(self, path: str | pathlib.Path | None = None) -> dict[str, Any]:
        """The scenario as a dict; also written as JSON to `path` when given."""
        return save_json(self.scenario, path)

    def keep_snapshot(self, label: str | None = None) -> None:
        """Remember the current board to compare with what comes next."""
        self.compare.keep_snapshot(label or describe(self._scenario), self._result)
        self._show_compare()

    def clear_snapshot(self) -> None:
        self.compare.clear_snapshot()
        self._show_compare()

    # --- internals ------------------------------------------------------------------------
    @contextlib.contextmanager
    def _shown_on_board(self) -> Iterator[None]:
        """A refused change: show the engine's message, put the controls back, re-raise."""
        try:
            yield
        except HousingLabError as error:
            self.board.say(str(error), "error")
            self.policy_panel.show(self._scenario.policies)
            raise

    def _try(self, done: str, **changes: Any) -> None:
        current = self._scenario
        values = {
            "tiles": current.tiles,
            "policies": sorted(current.policies),
            "existing": current.existing,
            "seed": current.seed,
        }
        values.update({k: (sorted(v) if k == "policies" else v) for k, v in changes.items()})
        with self._shown_on_board():
            scenario = make_scenario(layout=self.site, catalogue=self.catalogue, **values)
        self._commit(scenario, done)

    def _commit(self, scenario: Scenario, done: str) -> None:
        self._scenario = scenario
        self._result = score_scenario(scenario, self.options)
        self._refresh()
        self.board.say(f"{done} {summary(self.result)}")

    def _refresh(self) -> None:
        result = self.result
        self.board.show_result(self._result)
        self.policy_panel.show(self._scenario.policies)
        self.outcome_chart.update(result)
        self.homes_chart.update(result)
        self.scoreboard.update(score_as_is(self._scenario), self._result.cards)
        self.toolbar.show_seed(self._scenario.seed)
        self._show_compare()

    def _show_compare(self) -> None:
        self.compare.show(self.result, describe(self._scenario))

    def _on_board_action(self, action: dict[str, Any]) -> None:
        """Clicks from the browser: refused ones only show the message."""
        try:
            if action.get("action") == "place":
                self.place(str(action.get("square")), str(action.get("tile")))
            elif action.get("action") == "clear":
                self.clear(str(action.get("square")))
        except HousingLabError:
            pass  # already shown on the board

    def _on_policy_toggle(self, policy: str, enabled: bool) -> None:
        with contextlib.suppress(HousingLabError):
            self.set_policy(policy, enabled)

    def _on_upload_text(self, text: str) -> None:
        with contextlib.suppress(HousingLabError):  # shown on the board already
            with self._shown_on_board():
                data = parse_json_object(text, SCENARIO, ScenarioFormatError)
            self.load_scenario(data)

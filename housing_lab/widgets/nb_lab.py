"""NorthBerkeleyLab: build the neighbourhood, toggle policies, watch who is displaced.

The lab keeps the board (tiles, policies, existing residents) and asks the engine for the
result after every change. Every change is tried on a new, engine-validated scenario first; a
refused change shows the engine's message and leaves everything as it was.
"""

from __future__ import annotations

import contextlib
import json
import pathlib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import ipywidgets

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley.layout import Layout, default_layout
from housing_lab.north_berkeley.policies import INCOMES, POLICY_NAMES, RuleOptions, check_policy
from housing_lab.north_berkeley.scenario import (
    Scenario,
    check_square,
    make_scenario,
    scenario_from_dict,
    scenario_from_json,
)
from housing_lab.north_berkeley.scoring import ScenarioResult, score_as_is, score_scenario
from housing_lab.north_berkeley.tiles import Catalogue, default_catalogue
from housing_lab.widgets.nb_board import NorthBerkeleyBoard
from housing_lab.widgets.nb_charts import HomesChart, OutcomeChart
from housing_lab.widgets.nb_policies import PolicyPanel
from housing_lab.widgets.nb_scoreboard import Scoreboard


def summary(result: Mapping[str, Any]) -> str:
    housed = result["housed"]
    return (
        f"Housed: {housed['high']} high, {housed['middle']} middle, {housed['low']} low "
        f"income (of 12 each). Spending ${result['spending']:g}."
    )


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
        self._snapshot: tuple[str, ScenarioResult] | None = None

        self.board = NorthBerkeleyBoard()
        self.board.on_action = self._on_board_action
        self.policy_panel = PolicyPanel()
        self.policy_panel.on_toggle = self._on_policy_toggle
        self.outcome_chart = OutcomeChart()
        self.homes_chart = HomesChart()
        self.scoreboard = Scoreboard(hand)
        self.compare = _ComparePanel(self)
        self.toolbar = self._make_toolbar(seed)
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

    def load_scenario(self, scenario: Mapping[str, Any] | str | pathlib.Path) -> None:
        """Load a RULES.md scenario: a dict, a JSON string or a file path."""
        try:
            if isinstance(scenario, Mapping):
                loaded = scenario_from_dict(dict(scenario), self.site, self.catalogue)
            elif isinstance(scenario, pathlib.Path) or (
                isinstance(scenario, str) and not scenario.lstrip().startswith("{")
            ):
                text = pathlib.Path(scenario).read_text(encoding="utf-8")
                loaded = scenario_from_json(text, self.site, self.catalogue)
            else:
                loaded = scenario_from_json(scenario, self.site, self.catalogue)
        except HousingLabError as error:
            self.board.say(str(error), "error")
            raise
        except OSError as error:
            self.board.say(f"cannot read {scenario}: {error.strerror}", "error")
            raise HousingLabError(f"cannot read {scenario}: {error.strerror}") from None
        self._commit(loaded, "Board loaded.")

    def save(self, path: str | pathlib.Path | None = None) -> dict[str, Any]:
        """The scenario as a dict; also written as JSON to `path` when given."""
        data = self.scenario
        if path is not None:
            pathlib.Path(path).write_text(json.dumps(data, indent=2), encoding="utf-8")
        return data

    def keep_snapshot(self, label: str | None = None) -> None:
        """Remember the current board to compare with what comes next."""
        self._snapshot = (label or self._describe(self._scenario), self._result)
        self.compare.refresh()

    def clear_snapshot(self) -> None:
        self._snapshot = None
        self.compare.refresh()

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
        if self.seed_box.value != self._scenario.seed:
            self._quiet_seed = True
            self.seed_box.value = self._scenario.seed
            self._quiet_seed = False
        self.compare.refresh()

    def _describe(self, scenario: Scenario) -> str:
        policies = ", ".join(POLICY_NAMES[p] for p in sorted(scenario.policies)) or "no policy"
        return f"{len(scenario.tiles)} tiles, {policies}"

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

    def _make_toolbar(self, seed: int) -> ipywidgets.HBox:
        self._quiet_seed = False
        self.seed_box = ipywidgets.BoundedIntText(
            value=seed,
            min=0,
            max=2**31 - 1,
            description="Residents seed",
            style={"description_width": "initial"},
            layout=ipywidgets.Layout(width="190px"),
        )
        self.seed_box.observe(self._on_seed, names="value")
        reshuffle = ipywidgets.Button(description="Reshuffle residents", icon="random")
        reshuffle.on_click(lambda _: self.reshuffle())
        reset = ipywidgets.Button(description="Reset board", icon="undo")
        reset.on_click(lambda _: self.reset())
        save = ipywidgets.Button(description="Save board", icon="download")
        save.on_click(
            lambda _: self.board.offer_download(
                "north-berkeley-board.json", json.dumps(self.scenario, indent=2)
            )
        )
        self.upload = ipywidgets.FileUpload(
            accept=".json", multiple=False, description="Load board"
        )
        self.upload.observe(self._on_upload, names="value")
        for widget, name in ((reshuffle, "reshuffle"), (reset, "reset"), (save, "save")):
            widget.add_class(f"hl-{name}")
        return ipywidgets.HBox([self.seed_box, reshuffle, reset, save, self.upload])

    def _on_seed(self, change: dict[str, Any]) -> None:
        if not self._quiet_seed:
            self.reshuffle(int(change["new"]))

    def _on_upload(self, change: dict[str, Any]) -> None:
        files = change["new"]
        if not files:
            return
        content = bytes(files[0]["content"]).decode("utf-8", errors="replace")
        with contextlib.suppress(HousingLabError):
            self.load_scenario(content if content.lstrip().startswith("{") else "{" + content)


class _ComparePanel(ipywidgets.VBox):
    """Snapshot vs now: two outcome charts side by side and a table of differences.

    The charts are created on the first snapshot: a bqplot figure drawn while hidden has no
    size and makes the browser complain.
    """

    def __init__(self, lab: NorthBerkeleyLab) -> None:
        self.lab = lab
        self.keep = ipywidgets.Button(
            description="Keep a snapshot to compare",
            icon="camera",
            layout=ipywidgets.Layout(width="260px"),
        )
        self.keep.add_class("hl-keep-snapshot")
        self.keep.on_click(lambda _: lab.keep_snapshot())
        self.drop = ipywidgets.Button(description="Stop comparing", icon="times")
        self.drop.on_click(lambda _: lab.clear_snapshot())
        self.buttons = ipywidgets.HBox([self.keep, self.drop])
        self.before_chart: OutcomeChart | None = None
        self.now_chart: OutcomeChart | None = None
        self.table = ipywidgets.HTML()
        super().__init__([self.buttons])
        self.add_class("hl-compare")

    def __repr__(self) -> str:
        return "ComparePanel()"

    def refresh(self) -> None:
        snapshot = getattr(self.lab, "_snapshot", None)
        self.drop.disabled = snapshot is None
        if snapshot is None:
            self.children = (self.buttons,)
            return
        if self.before_chart is None or self.now_chart is None:
            self.before_chart = OutcomeChart(title="Snapshot")
            self.now_chart = OutcomeChart(title="Now")
        label, before = snapshot
        before_out, now_out = before.to_dict(), self.lab.result
        self.before_chart.update(before_out, title=f"Snapshot: {label}")
        self.now_chart.update(now_out, title=f"Now: {self.lab._describe(self.lab._scenario)}")
        self.table.value = comparison_table(before_out, now_out)
        self.children = (
            self.buttons,
            ipywidgets.HBox([self.before_chart, self.now_chart]),
            self.table,
        )


def comparison_table(before: Mapping[str, Any], now: Mapping[str, Any]) -> str:
    rows = [
        ("Spending", f"${before['spending']:g}", f"${now['spending']:g}"),
        ("New homes", before["new_homes"]["total"], now["new_homes"]["total"]),
    ]
    rows += [(f"{i.title()} income housed", before["housed"][i], now["housed"][i]) for i in INCOMES]
    rows += [
        (f"{i.title()} income displaced", before["displaced"][i], now["displaced"][i])
        for i in INCOMES
    ]
    cells = "".join(
        f"<tr><td style='padding-right:16px'>{name}</td><td style='padding-right:16px'>{a}</td>"
        f"<td>{b}</td></tr>"
        for name, a, b in rows
    )
    return (
        "<table class='hl-compare-table' style='font-size:14px;border-collapse:collapse'>"
        "<tr><th></th><th style='padding-right:16px'>Snapshot</th><th>Now</th></tr>"
        f"{cells}</table>"
    )

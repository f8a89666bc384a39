"""The North Berkeley board widget: SVG site, tile palette, messages and move-in replay.

It is a view: it shows the traits Python gives it (the move-in replay steps through frames
the engine computed) and sends the student's clicks back as
`{"action": "place" | "clear", ...}` messages to `on_action`. It never decides a rule.
"""

from __future__ import annotations

import pathlib
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import traitlets

from housing_lab.errors import HousingLabError, shown
from housing_lab.north_berkeley.board import PaletteTile
from housing_lab.north_berkeley.engine.legal import RULE_BUDGET
from housing_lab.north_berkeley.engine.scoring import ScenarioResult
from housing_lab.north_berkeley.layout import Layout, default_layout
from housing_lab.north_berkeley.names import event_rows
from housing_lab.north_berkeley.tiles import Catalogue, default_catalogue
from housing_lab.widgets.common import ActionWidget, widget_esm, widget_file

HERE = pathlib.Path(__file__).parent


def layout_state(layout: Layout) -> dict[str, Any]:
    return {
        "name": layout.name,
        "squares": list(layout.squares),
        "phases": {str(k): list(v) for k, v in layout.phases.items()},
        "tags": {k: sorted(v) for k, v in layout.tags.items()},
        "existing": [{"id": h.id, "kind": h.kind, "street": h.street} for h in layout.existing],
    }


def catalogue_state(catalogue: Catalogue) -> list[dict[str, Any]]:
    return [
        {"id": t.id, "name": t.name, "kind": t.kind, "homes": list(t.homes), "cost": float(t.cost)}
        for t in catalogue.values()
    ]


def move_in_frames(result: ScenarioResult) -> list[dict[str, str | None]]:
    """Who lives where (home -> income) after 0, 1, ... all move-in events, as the engine says:
    the replay shows these frames and does not replay the log itself."""
    return result.move_in.incomes_by_step()


def event_sentence(row: dict[str, str]) -> str:
    """ "A high income newcomer moved in: home 1 of the Market Rate Tower on C1"."""
    who = row["Who"][:1].upper() + row["Who"][1:]
    where = row["Where"]
    return f"{who} {row['What happened']}" + ("" if where.startswith("(") else f": {where}")


def palette_traits(
    palettes: Mapping[str, Sequence[PaletteTile]],
    names: Mapping[str, str],
    budget: Fraction | None,
) -> tuple[dict[str, list[str]], dict[str, Any]]:
    """The `allowed` and `refused` traits from the engine's palettes (square -> `PaletteTile`s:
    `Board.palette`, `Game.palettes`), for the lab and the game table alike.

    `refused[square]` is the engine's one sentence when every greyed tile is greyed for the
    same reason (the rules, the phase); else tile -> its refusal's words, and "" -> the line
    over the palette: the rules' reasons, then "over the city budget of $B: <tile names>"."""
    allowed: dict[str, list[str]] = {}
    refused: dict[str, Any] = {}
    for square, palette in palettes.items():
        allowed[square] = [e.tile for e in palette if e.legal]
        greyed = {e.tile: e.refusal for e in palette if e.refusal is not None and not e.legal}
        if not greyed:
            continue
        said = list(dict.fromkeys(r.words for r in greyed.values() if r.rule != RULE_BUDGET))
        over = [names[t] for t, r in greyed.items() if r.rule == RULE_BUDGET]
        if len(said) == 1 and not over:
            refused[square] = said[0]
            continue
        if over:
            said.append(f"over the city budget of ${float(budget or 0):g}: {', '.join(over)}")
        refused[square] = {tile: r.words for tile, r in greyed.items()} | {"": "; ".join(said)}
    return allowed, refused


class NorthBerkeleyBoard(ActionWidget):
    """The board alone; `NorthBerkeleyLab` wires it to the engine."""

    _esm = widget_esm(HERE / "board.js")
    _css = widget_file(HERE / "board.css")

    site = traitlets.Dict().tag(sync=True)  # squares, phases, tags, existing homes
    catalogue = traitlets.List().tag(sync=True)
    tiles = traitlets.Dict().tag(sync=True)
    policies = traitlets.List().tag(sync=True)
    occupants = traitlets.Dict().tag(sync=True)  # every home -> income or None after move-in
    events = traitlets.List().tag(sync=True)  # the engine's move-in log
    event_texts = traitlets.List().tag(sync=True)  # each event in words, for the replay's text
    frames = traitlets.List().tag(sync=True)  # frames[k]: home -> income after k events
    replay_index = traitlets.Int(-1).tag(sync=True)  # -1: after move-in; k: after k events
    selected = traitlets.Unicode("").tag(sync=True)
    # square -> the tiles the rules accept there now (greyed otherwise); {}: grey out nothing
    allowed = traitlets.Dict().tag(sync=True)
    # square -> why the greyed tiles are refused there (in words), shown on hover and focus
    refused = traitlets.Dict().tag(sync=True)
    costs = traitlets.Dict().tag(sync=True)  # tile -> what it costs now; {}: the printed cost
    cost_note = traitlets.Unicode("").tag(sync=True)  # e.g. matching funds in effect
    changed = traitlets.List().tag(sync=True)  # squares and homes the last change touched
    # False: an example to look at (no palette, nothing to click, a caption saying so)
    interactive = traitlets.Bool(True).tag(sync=True)
    compact = traitlets.Bool(False).tag(sync=True)  # the lab's one-screen layout
    # the screen in words, read out by "Describe the screen" (`changes.screen_summary`)
    screen_summary = traitlets.Unicode("").tag(sync=True)
    # squares not in play now (the game table's other phase): aria-disabled, marked, refused
    locked = traitlets.List().tag(sync=True)

    def __init__(self, result: ScenarioResult | None = None, **kwargs: Any) -> None:
        if result is not None and not isinstance(result, ScenarioResult):
            raise HousingLabError(
                f"NorthBerkeleyBoard shows an engine result (score_scenario(...)), "
                f"got {shown(result)}"
            )
        if result is not None:
            kwargs.setdefault("interactive", False)  # an example board: say so, offer no clicks
        super().__init__(**kwargs)
        if result is not None:
            self.show_result(result)
        elif not self.site:
            self.site = layout_state(default_layout())
            self.catalogue = catalogue_state(default_catalogue())

    def __repr__(self) -> str:  # stable for nbval: no memory address
        return f"NorthBerkeleyBoard({len(self.tiles)} tiles)"

    def show_result(self, result: ScenarioResult) -> None:
        """Draw a scored scenario: tiles, policies, residents and the move-in events."""
        scenario, move_in = result.scenario, result.move_in
        with self.hold_sync():
            if not self.site:
                self.site = layout_state(scenario.layout)
                self.catalogue = catalogue_state(scenario.catalogue)
            self.tiles = dict(scenario.to_dict()["tiles"])
            self.policies = sorted(scenario.policies)
            frames = move_in_frames(result)
            self.occupants = dict(frames[-1])
            self.events = [event.to_dict() for event in move_in.events]
            self.event_texts = [event_sentence(row) for row in event_rows(move_in, scenario)]
            self.frames = frames
            self.replay_index = -1

"""The North Berkeley board widget: SVG site, tile palette, messages and move-in replay.

It is a view: it shows the traits Python gives it and sends the student's clicks back as
`{"action": "place" | "clear", ...}` messages to `on_action`. It never decides a rule.
"""

from __future__ import annotations

import pathlib
from typing import Any

import traitlets

from housing_lab.north_berkeley.layout import Layout, default_layout
from housing_lab.north_berkeley.scoring import ScenarioResult
from housing_lab.north_berkeley.tiles import Catalogue, default_catalogue
from housing_lab.widgets.common import ActionWidget, widget_esm

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


class NorthBerkeleyBoard(ActionWidget):
    """The board alone; `NorthBerkeleyLab` wires it to the engine."""

    _esm = widget_esm("nb_board.js")
    _css = HERE / "nb_board.css"

    site = traitlets.Dict().tag(sync=True)  # squares, phases, tags, existing homes
    catalogue = traitlets.List().tag(sync=True)
    tiles = traitlets.Dict().tag(sync=True)
    policies = traitlets.List().tag(sync=True)
    initial = traitlets.Dict().tag(sync=True)  # existing home -> income before move-in
    occupants = traitlets.Dict().tag(sync=True)  # every home -> income or None after move-in
    events = traitlets.List().tag(sync=True)
    replay_index = traitlets.Int(-1).tag(sync=True)  # -1: after move-in; k: after k events
    selected = traitlets.Unicode("").tag(sync=True)

    def __init__(self, result: ScenarioResult | None = None, **kwargs: Any) -> None:
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
            self.initial = dict(scenario.existing)
            self.occupants = {home: move_in.income_in(home) for home in move_in.occupants}
            self.events = [event.to_dict() for event in move_in.events]
            self.replay_index = -1

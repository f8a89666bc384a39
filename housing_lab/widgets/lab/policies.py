"""Four policy switches, each with the rulebook's one-line explanation."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import ipywidgets

from housing_lab.north_berkeley.policies import POLICIES, POLICY_NAMES, POLICY_TEXT


class PolicyPanel(ipywidgets.VBox):
    """Checkboxes call `on_toggle(policy, enabled)`; the lab decides and calls `show` back."""

    def __init__(self, compact: bool = False, **kwargs: Any) -> None:
        """`compact`: names only, each explanation on hover and focus (the lab's one screen)."""
        self.on_toggle: Callable[[str, bool], None] | None = None
        self.checkboxes: dict[str, ipywidgets.Checkbox] = {}
        rows: list[ipywidgets.Widget] = [
            ipywidgets.HTML("<b style='font-size:15px'>Policies</b> (tick to enact):")
        ]
        for policy in POLICIES:
            box = ipywidgets.Checkbox(
                value=False,
                description=POLICY_NAMES[policy],
                indent=False,
                tooltip=POLICY_TEXT[policy],
                layout=ipywidgets.Layout(width="auto" if compact else "260px"),
            )
            box.add_class(f"hl-policy-{policy}")
            box.observe(self._changed, names="value")
            self.checkboxes[policy] = box
            if compact:
                rows.append(box)
                continue
            text = POLICY_TEXT[policy]
            explanation = ipywidgets.HTML(f"<span style='font-size:14px'>{text}</span>")
            rows.append(ipywidgets.HBox([box, explanation]))
        self._quiet = False
        if compact:  # one row across the screen: `children` holds the heading and the boxes
            kwargs.setdefault(
                "layout",
                ipywidgets.Layout(
                    display="flex", flex_flow="row wrap", align_items="center", margin="0 0 4px"
                ),
            )
        super().__init__(rows, **kwargs)
        self.add_class("hl-policies")

    def __repr__(self) -> str:
        return "PolicyPanel()"

    def show(self, enacted: Iterable[str]) -> None:
        """Set the boxes to the lab's policies without calling back."""
        enacted = set(enacted)
        self._quiet = True
        try:
            for policy, box in self.checkboxes.items():
                box.value = policy in enacted
        finally:
            self._quiet = False

    def _changed(self, change: dict[str, Any]) -> None:
        if self._quiet or self.on_toggle is None:
            return
        policy = next(p for p, box in self.checkboxes.items() if box is change["owner"])
        self.on_toggle(policy, bool(change["new"]))

"""What facts and move-in read of a validated board: `scoring.Scenario` is the value, but
scoring imports them, so they name the attributes they read here instead of importing it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from housing_lab.north_berkeley.layout import Layout
from housing_lab.north_berkeley.model import Model
from housing_lab.north_berkeley.tiles import Catalogue


class ScenarioView(Protocol):
    """A validated board: `existing` complete, every id checked, within the model's budget."""

    @property
    def tiles(self) -> Mapping[str, str]: ...
    @property
    def policies(self) -> frozenset[str]: ...
    @property
    def existing(self) -> Mapping[str, str]: ...
    @property
    def seed(self) -> int: ...
    @property
    def layout(self) -> Layout: ...
    @property
    def catalogue(self) -> Catalogue: ...
    @property
    def model(self) -> Model | None: ...
    @property
    def assumptions(self) -> Model: ...

    def under(self, model: Model | None, given_by: str = ...) -> ScenarioView:
        """This board under the model another carrier gives (one line when they differ)."""
        ...

"""The coach's answers (`coach.coach`, `coach.best_change_for_hand`): plain values, with the
JSON the command line prints. Kept apart so that `coaching.words` can name them without importing
the coach itself."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from housing_lab.north_berkeley.engine.scoring import money
from housing_lab.north_berkeley.scenario import Scenario


@dataclass(frozen=True)
class Change:
    """One change: a square set to a tile (`tile` None: emptied), or a policy enacted
    (`enacted` True) or repealed."""

    square: str | None = None
    tile: str | None = None
    policy: str | None = None
    enacted: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        if self.policy is not None:
            return {"policy": self.policy, "enacted": bool(self.enacted)}
        return {"square": self.square, "tile": self.tile}


@dataclass(frozen=True)
class CoachAnswer:
    """The coach's answer. `changes` None: no set of changes reaches the goal (`reason` says
    why); () : the goal is met already."""

    card: str
    goal: str
    now: int  # the card's score on the scenario as it stands
    changes: tuple[Change, ...] | None
    after: int | None  # the card's score after the changes
    spending_after: Fraction | None
    scenario_after: Scenario | None
    reason: str | None
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        """The CLI's JSON (`housing-lab nb coach`)."""
        out: dict[str, Any] = {
            "card": self.card,
            "goal": self.goal,
            "now": self.now,
            "changes": None if self.changes is None else [c.to_dict() for c in self.changes],
            "after": self.after,
            "spending_after": None if self.spending_after is None else money(self.spending_after),
            "seconds": round(self.seconds, 4),
        }
        if self.reason is not None:
            out["reason"] = self.reason
        return out


@dataclass(frozen=True)
class HandAdvice:
    """The one change that raises a hand's total most (`change` None: no change raises it)."""

    cards: tuple[str, ...]
    now: int  # the hand's total now
    change: Change | None
    after: int | None
    spending_after: Fraction | None
    scenario_after: Scenario | None
    reason: str | None

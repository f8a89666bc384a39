"""Policy ids, incomes, and the named rule options a teacher can change."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from housing_lab.errors import shown, shown_id
from housing_lab.north_berkeley.errors import ScenarioFormatError, UnknownIdError
from housing_lab.north_berkeley.incomes import (  # re-exported: this module's names since v1
    EXISTING_PER_INCOME as EXISTING_PER_INCOME,
)
from housing_lab.north_berkeley.incomes import INCOMES as INCOMES
from housing_lab.north_berkeley.incomes import RESIDENTS_PER_INCOME as RESIDENTS_PER_INCOME
from housing_lab.north_berkeley.model import Model, asked_model, check_model, one_model
from housing_lab.numbers import check_number

VACANCY_CONTROL = "vacancy_control"
AFFORDABLE_100 = "affordable_100"
ADU = "adu"
MATCHING_FUNDS = "matching_funds"
POLICIES = (VACANCY_CONTROL, AFFORDABLE_100, ADU, MATCHING_FUNDS)

POLICY_TEXT = {
    VACANCY_CONTROL: "Residents in existing apartments and houses cannot be displaced.",
    AFFORDABLE_100: "All housing placed in the 2nd phase may only contain low or middle "
    "income homes.",
    ADU: "Houses can now hold an additional resident (an accessory dwelling unit).",
    MATCHING_FUNDS: "If at least 7 low income homes are built, the cost of all housing is "
    "halved; parks and garages still cost $1 each.",
}
POLICY_NAMES = {
    VACANCY_CONTROL: "Vacancy Control",
    AFFORDABLE_100: "100% Affordable Housing",
    ADU: "Accessory Dwelling Units",
    MATCHING_FUNDS: "Matching Affordable Housing Funds",
}
MATCHING_FUNDS_LOW_HOMES = 7

CURRENT_SCORE_MODES = ("as_is", "projected")


def check_policy(policy: object) -> str:
    """`policy` if it is a policy id; else one line quoting it and naming the policies as
    printed (their ids in the error's `ids`)."""
    if not isinstance(policy, str) or policy not in POLICIES:
        names = ", ".join(POLICY_NAMES[p] for p in POLICIES)
        raise UnknownIdError(f"unknown policy {shown_id(policy)} (known: {names})", ids=POLICIES)
    return str(policy)


def check_income(income: object) -> str:
    if not isinstance(income, str) or income not in INCOMES:
        raise UnknownIdError(f"unknown income {shown(income)} (known: {', '.join(INCOMES)})")
    return str(income)


MAX_MINUTES = 1_000_000  # minutes of negotiation (about two years): more is a typo or an attack


@dataclass(frozen=True)
class RuleOptions:
    """House rules. Defaults are the rules as RULES.md fixes them.

    - negotiation_minutes: the timer before anyone may call the state (phase 1 and 2).
    - current_score: "as_is" scores the board as it stands (draft order, extra-draw redraw);
      "projected" runs the move-in on the current board first.
    - low_income_in_adus: let low income residents take vacant ADU slots in their step.
    - displaced_first: in the middle and low steps, residents who were displaced look for a
      home before the newcomers (our reading; the rulebook gives no order). Counts of housed
      residents per income never depend on it; only who is "rehoused" versus "newcomer housed".
    - model: the assumptions the game is played and scored under (`model.py`: a `Model`, its
      JSON object, or None for the rulebook's; always a `Model` once built). Saved as
      `"model"` only when it is not the rulebook, so rulebook saves stay as they were.
    """

    negotiation_minutes: float = 10.0
    current_score: str = "as_is"
    low_income_in_adus: bool = False
    displaced_first: bool = True
    model: Model | Mapping[str, Any] | None = None
    # The model these options carry to a board, None when they carry the rulebook's: the
    # rulebook is their default, so options under it leave a scenario's own model alone
    # (`one_model` refuses two different models; nothing is ignored). Worked out once here:
    # every score reads it.
    given_model: Model | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        model = check_model(self.model)
        object.__setattr__(self, "model", model)
        object.__setattr__(self, "given_model", None if model.is_rulebook else model)
        if self.current_score not in CURRENT_SCORE_MODES:
            raise UnknownIdError(
                f"unknown current_score mode {self.current_score!r} "
                f"(known: {', '.join(CURRENT_SCORE_MODES)})"
            )
        check_number(
            self.negotiation_minutes,
            "negotiation_minutes",
            low=0,
            high=MAX_MINUTES,
            error=ScenarioFormatError,
        )
        for name in ("low_income_in_adus", "displaced_first"):
            if not isinstance(getattr(self, name), bool):
                raise ScenarioFormatError(
                    f"{name} must be true or false, got {shown(getattr(self, name))}"
                )

    @property
    def assumptions(self) -> Model:
        """The model as a `Model` (the field is one after construction; typed for readers)."""
        return check_model(self.model)

    def split_model(
        self, model: Model | Mapping[str, Any] | None = None
    ) -> tuple[RuleOptions, Model | None]:
        """These options without their model, and the one model they and `model` give (None:
        neither gives one; two different ones: one line naming both). For a holder that keeps
        the model on its board, such as the lab, so the model has one carrier there."""
        given = asked_model(model)
        agreed = one_model(
            given, self.given_model, "model= gives one model", "the rule options give another"
        )
        return replace(self, model=None), agreed

    def to_dict(self) -> dict[str, Any]:
        """The options as JSON; `model` only when it is not the rulebook's."""
        data: dict[str, Any] = {
            f.name: getattr(self, f.name) for f in fields(self) if f.init and f.name != "model"
        }
        if self.given_model is not None:
            data["model"] = self.given_model.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: Any) -> RuleOptions:
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise ScenarioFormatError(f"options must be an object, got {shown(data)}")
        known = [f.name for f in fields(cls)]
        for key in data:
            if key not in known:
                raise UnknownIdError(
                    f"unknown rule option {shown(key)} (known: {', '.join(known)})"
                )
        return cls(**{str(key): value for key, value in data.items()})

"""The model's assumptions as switches (RULES.md part 1, "Model assumptions").

The rulebook is one model of a neighbourhood: fixed demand (8 newcomers of each income), instant
filtering (a vacant new market-rate home goes to whoever is left, low income included),
vacancy control over every existing home, and no city budget. Each of those is a switch here,
declared once as data (`SWITCHES`), so that students can ask which conclusions survive when an
assumption changes. The defaults are the rulebook's (`RULEBOOK`), and with them every result is
exactly the rulebook's. The scalar engine (`engine.movein`, `engine.scoring`) reads a `Model`;
every other path asks it the same questions (`newcomers_of`, `market_home_for`, `protects`,
`over_budget`), so no switch is written twice.
"""

from __future__ import annotations

import math
import numbers
import operator
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from housing_lab.errors import shown
from housing_lab.north_berkeley.errors import ScenarioFormatError, UnknownIdError, checked_object
from housing_lab.north_berkeley.incomes import (
    EXISTING_PER_INCOME,
    INCOMES,
    RESIDENTS_PER_INCOME,
)

HOME_KINDS = ("houses", "apartments")
"""The kinds of existing home vacancy control can cover."""
MAX_NEWCOMERS = 16
RULEBOOK_NEWCOMERS = 8
MAX_BUDGET = 999
CENTS = 100  # budgets are whole cents (rounded down); the printed tiles cost whole dollars


@dataclass(frozen=True)
class Switch:
    """One assumption: its JSON key, the question students are asked, and the rulebook's answer
    in words (the lab and the docs show these; ids stay in the JSON)."""

    key: str
    question: str
    rulebook_answer: str


SWITCHES = (
    Switch(
        "newcomers",
        "How many newcomers of each income?",
        "8 high, 8 middle and 8 low income newcomers",
    ),
    Switch(
        "market_homes_for",
        "Who can rent a new market-rate home?",
        "anyone left over: high, then middle, then low income",
    ),
    Switch(
        "vacancy_control_protects",
        "Does vacancy control cover single-family houses?",
        "yes: vacancy control covers houses and apartments",
    ),
    Switch("budget", "City budget", "no limit"),
)
SWITCH_KEYS = tuple(switch.key for switch in SWITCHES)
INCOME_WORDS = {"high": "high income", "middle": "middle income", "low": "low income"}


def _check_newcomers(value: object) -> Mapping[str, int]:
    if not isinstance(value, Mapping):
        raise ScenarioFormatError(
            f"model 'newcomers' must be an object of income -> 0-{MAX_NEWCOMERS}, "
            f"got {shown(value)}"
        )
    counts = dict.fromkeys(INCOMES, RULEBOOK_NEWCOMERS)
    for income, count in value.items():
        if income not in INCOMES:
            raise UnknownIdError(
                f"unknown income {shown(income)} in model 'newcomers' (known: {', '.join(INCOMES)})"
            )
        whole = _whole(count)
        if whole is None:
            raise ScenarioFormatError(
                f"model 'newcomers' for {income} must be a whole number 0-{MAX_NEWCOMERS}, "
                f"got {shown(count)}"
            )
        count = whole
        if not 0 <= count <= MAX_NEWCOMERS:
            raise ScenarioFormatError(
                f"model 'newcomers' for {income} must be 0-{MAX_NEWCOMERS}, got {shown(count)}"
            )
        counts[income] = count
    return MappingProxyType(counts)  # read-only over a private copy: no edit after validation


def _whole(value: object) -> int | None:
    """`value` as a plain int when it is a whole number of any integer type (numpy's too, as
    numpy's floats pass as budgets); None for anything else, True and False included."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def _check_incomes(value: object) -> frozenset[str]:
    if not isinstance(value, (list, tuple, set, frozenset)):
        raise ScenarioFormatError(
            f"model 'market_homes_for' must be a list of incomes, got {shown(value)}"
        )
    for income in value:
        if income not in INCOMES:
            raise UnknownIdError(
                f"unknown income {shown(income)} in model 'market_homes_for' "
                f"(known: {', '.join(INCOMES)})"
            )
    if "high" not in value:
        raise ScenarioFormatError(
            f"model 'market_homes_for' must contain 'high' (market-rate homes are built for "
            f"them), got {shown(list(value))}"
        )
    return frozenset(value)


def _check_kinds(value: object) -> frozenset[str]:
    if not isinstance(value, (list, tuple, set, frozenset)) or not value:
        raise ScenarioFormatError(
            f"model 'vacancy_control_protects' must be a non-empty list of "
            f"{' and '.join(map(repr, HOME_KINDS))}, got {shown(value)}"
        )
    for kind in value:
        if kind not in HOME_KINDS:
            raise UnknownIdError(
                f"unknown kind of home {shown(kind)} in model 'vacancy_control_protects' "
                f"(known: {', '.join(HOME_KINDS)})"
            )
    return frozenset(value)


def _check_budget(value: object) -> Fraction | None:
    """The budget in dollars, whole cents rounded down (docs/model_switches.md): every board
    spends whole cents, so rounding down changes no decision, and what is shown is exact."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ScenarioFormatError(
            f"model 'budget' must be null or a number 0-{MAX_BUDGET}, got {shown(value)}"
        )
    whole = _whole(value)
    if whole is not None:
        exact = Fraction(whole)
    elif isinstance(value, numbers.Rational):
        exact = Fraction(value.numerator, value.denominator)
    else:
        number = float(value)
        if not math.isfinite(number):
            raise ScenarioFormatError(f"model 'budget' must be a finite number, got {shown(value)}")
        exact = Fraction(repr(number))  # the decimal written: 0.1 is 1/10, not its binary value
    if not 0 <= exact <= MAX_BUDGET:
        raise ScenarioFormatError(f"model 'budget' must be 0-{MAX_BUDGET}, got {shown(value)}")
    return Fraction(math.floor(exact * CENTS), CENTS)


def dollars(amount: Fraction | int | float) -> str:
    """Money as a student reads it, exact to the cent: "$6", "$10.50", "$10.49" (so a board
    at $10.50 over a budget of $10.49 never reads "$10.5, over the budget of $10.5")."""
    cents = Fraction(amount) * CENTS
    if cents.denominator != 1:  # a teacher's catalogue priced in fractions of a cent
        return f"${float(amount):g}"
    whole, part = divmod(int(cents), CENTS)
    return f"${whole:,}" if not part else f"${whole:,}.{part:02d}"


def _money(amount: Fraction) -> int | float:
    return int(amount) if amount.denominator == 1 else float(amount)


@dataclass(frozen=True)
class Model:
    """A validated set of assumptions, a value all the way down: `newcomers` is a read-only
    mapping, the lists are frozensets, so no one can change a model (or `RULEBOOK`) behind the
    scores it gave. Build it with `Model.from_dict` (JSON) or keywords:
    `Model(market_homes_for=frozenset({"high"}))`; `RULEBOOK` is the default."""

    newcomers: Mapping[str, int] = field(
        default_factory=lambda: MappingProxyType(dict.fromkeys(INCOMES, RULEBOOK_NEWCOMERS))
    )
    market_homes_for: frozenset[str] = frozenset(INCOMES)
    vacancy_control_protects: frozenset[str] = frozenset(HOME_KINDS)
    budget: Fraction | None = None

    def __post_init__(self) -> None:  # keyword construction gets the same checks as JSON
        object.__setattr__(self, "newcomers", _check_newcomers(self.newcomers))
        object.__setattr__(self, "market_homes_for", _check_incomes(self.market_homes_for))
        object.__setattr__(
            self, "vacancy_control_protects", _check_kinds(self.vacancy_control_protects)
        )
        object.__setattr__(self, "budget", _check_budget(self.budget))

    def __hash__(self) -> int:
        return hash(
            (
                tuple(self.newcomers[i] for i in INCOMES),
                self.market_homes_for,
                self.vacancy_control_protects,
                self.budget,
            )
        )

    def __reduce__(self) -> tuple[Any, ...]:
        """Copies and pickles rebuild the model through its checks (a read-only mapping
        itself cannot be pickled)."""
        switches = (self.market_homes_for, self.vacancy_control_protects, self.budget)
        return (Model, (dict(self.newcomers), *switches))

    # --- JSON -------------------------------------------------------------------------------
    @classmethod
    def from_dict(cls, data: object) -> Model:
        """Parse the scenario's `model` object (null: the rulebook); unknown keys are refused."""
        if data is None:
            return RULEBOOK
        data = checked_object(
            data, SWITCH_KEYS, "'model' must be an object", "unknown model switch", UnknownIdError
        )
        return cls(
            newcomers=data.get("newcomers", {}),
            market_homes_for=_check_incomes(data.get("market_homes_for", list(INCOMES))),
            vacancy_control_protects=_check_kinds(
                data.get("vacancy_control_protects", list(HOME_KINDS))
            ),
            budget=_check_budget(data.get("budget")),
        )

    def to_dict(self) -> dict[str, Any]:
        """Every switch, defaults filled in, lists in a stable order (the result's echo)."""
        return {
            "newcomers": {income: self.newcomers[income] for income in INCOMES},
            "market_homes_for": [i for i in INCOMES if i in self.market_homes_for],
            "vacancy_control_protects": [
                k for k in HOME_KINDS if k in self.vacancy_control_protects
            ],
            "budget": None if self.budget is None else _money(self.budget),
        }

    # --- what the engines ask -----------------------------------------------------------------
    def newcomers_of(self, income: str, existing: int = EXISTING_PER_INCOME) -> int:
        """Newcomers of `income` when `existing` residents of it start in existing homes.

        The rulebook's demand fills each income up to 12 residents: 8 newcomers on the
        printed board, where 4 start in existing homes, and 12 - k on a custom layout with k.
        Any other number is taken as asked."""
        count = self.newcomers[income]
        return RESIDENTS_PER_INCOME - existing if count == RULEBOOK_NEWCOMERS else count

    def residents_of(self, income: str, existing: int = EXISTING_PER_INCOME) -> int:
        """Residents of `income` in the game: those in existing homes plus the newcomers."""
        return existing + self.newcomers_of(income, existing)

    def market_home_for(self, income: str) -> bool:
        """Whether `income` can take a vacant new market-rate home (filtering)."""
        return income in self.market_homes_for

    def protects(self, kind: str) -> bool:
        """Whether vacancy control covers existing homes of `kind` ("houses", "apartments")."""
        return kind in self.vacancy_control_protects

    def city_budget(self) -> Fraction | None:
        """What the city may spend, in dollars; None: no limit. Every engine reads the budget
        switch here, never the field itself."""
        return self.budget

    def over_budget(self, spending: Fraction) -> bool:
        """Whether `spending` (dollars) is more than the city budget (never without one)."""
        budget = self.city_budget()
        return budget is not None and spending > budget

    @property
    def is_rulebook(self) -> bool:
        return self == RULEBOOK

    # --- words for students ---------------------------------------------------------------
    def differences(self) -> list[str]:
        """Each switch that is not the rulebook's, in words ("market-rate homes only for high
        income"); empty for the rulebook. The lab shows these next to its chart."""
        said = []
        if dict(self.newcomers) != dict(RULEBOOK.newcomers):
            counts = ", ".join(f"{self.newcomers[i]} {INCOME_WORDS[i]}" for i in INCOMES)
            said.append(f"newcomers: {counts}")
        if self.market_homes_for != RULEBOOK.market_homes_for:
            who = " and ".join(INCOME_WORDS[i] for i in INCOMES if i in self.market_homes_for)
            said.append(f"market-rate homes only for {who}")
        if self.vacancy_control_protects != RULEBOOK.vacancy_control_protects:
            kinds = " and ".join(k for k in HOME_KINDS if k in self.vacancy_control_protects)
            said.append(f"vacancy control covers {kinds} only")
        if self.budget is not None:
            said.append(f"city budget {dollars(self.budget)}")
        return said

    def changes(self) -> str:
        """What differs from the rulebook, in one phrase ("city budget $15; vacancy control
        covers apartments only"); "" for the rulebook."""
        return "; ".join(self.differences())

    def describe(self) -> str:
        """One line for a screen or a screenshot: "Not the rulebook: ..." or "The rulebook's
        assumptions"."""
        changes = self.changes()
        return f"Not the rulebook: {changes}" if changes else "The rulebook's assumptions"


RULEBOOK = Model()
"""The rulebook's assumptions (every switch at its default)."""


def model_or_rulebook(model: Model | None) -> Model:
    """The one reading of "no model asked for": the rulebook's assumptions hold."""
    return RULEBOOK if model is None else model


def check_model(model: object) -> Model:
    """A `Model`, a JSON-like dict of switches, or None (the rulebook) -> a `Model`."""
    if model is None or isinstance(model, Model):
        return model_or_rulebook(model)
    return Model.from_dict(model)


def asked_model(model: object) -> Model | None:
    """A model asked for (a `Model` or its JSON object), checked; None when none was asked
    (results then echo no model, and the rulebook holds: `model_or_rulebook`)."""
    return None if model is None else check_model(model)


def one_model(held: Model | None, given: Model | None, held_by: str, given_by: str) -> Model | None:
    """The model two carriers give together, so that none is ever ignored: the one that
    carries a model when only one does (None when neither does), and a refusal in one line,
    naming both, when they carry different ones. `held_by`, `given_by`: the carriers in
    words ("the scenario carries its own model", "the rule options give another")."""
    if given is None or given == held:
        return held
    if held is None:
        return given
    raise ScenarioFormatError(
        f"{held_by} ({held.describe()}); {given_by} ({given.describe()}): "
        f"give the model in one place"
    )

"""A board and its score: `Scenario` (one validated board, the value the engines read),
`score_scenario` (move-in, facts, all 22 cards decided), its `ScenarioResult`, and the result's
JSON (RULES.md's output format), whose keys and sections every writer takes from here.

A card is decided by its +1 and -1 conditions (`card_rules`, the declaration everything reads)
checked against the board's `BoardFacts`; it can score both (net 0). The cards' names and
printed texts are `constituents.cards()`."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from housing_lab.errors import shown
from housing_lab.north_berkeley.engine import legal
from housing_lab.north_berkeley.engine.card_rules import CARD_IDS, CARD_RULES, CardRule, holds
from housing_lab.north_berkeley.engine.facts import BoardFacts, board_facts
from housing_lab.north_berkeley.engine.movein import (
    OUTCOMES,
    VACANT_KEYS,
    MoveInResult,
    run_move_in,
)
from housing_lab.north_berkeley.errors import OverBudgetError, UnknownIdError
from housing_lab.north_berkeley.layout import Layout, default_layout
from housing_lab.north_berkeley.model import Model, model_or_rulebook, one_model
from housing_lab.north_berkeley.policies import INCOMES, POLICIES, RuleOptions
from housing_lab.north_berkeley.tiles import Catalogue, default_catalogue

DEFAULT_SEED = 0


# --- the board: the value scored ---------------------------------------------------------
@dataclass(frozen=True)
class Scenario:
    """One validated board, the value every engine reads: `existing` is always complete (home
    id -> income). Made by `scenario.make_scenario` (every check) or a `Board`; a changed
    copy is `scenario.replaced`."""

    tiles: Mapping[str, str]
    policies: frozenset[str]
    existing: Mapping[str, str]
    seed: int = DEFAULT_SEED
    layout: Layout = field(default_factory=default_layout, compare=False, repr=False)
    catalogue: Catalogue = field(default_factory=default_catalogue, compare=False, repr=False)
    model: Model | None = None
    """The assumptions asked for (`model.py`); None: none asked for, the rulebook's hold.
    Results echo `model` only when one was asked for, so rulebook outputs stay as they were."""

    def __post_init__(self) -> None:
        """A value: the mappings become read-only views of private copies, so neither the
        caller's dicts nor anyone holding this board can change it after validation."""
        for name in ("tiles", "existing", "catalogue"):
            object.__setattr__(self, name, MappingProxyType(dict(getattr(self, name))))
        object.__setattr__(self, "policies", frozenset(self.policies))

    def __reduce__(self) -> tuple[Any, ...]:
        """Copies and pickles rebuild the board from plain values (a read-only view cannot
        be pickled)."""
        values = (dict(self.tiles), self.policies, dict(self.existing), self.seed)
        return (Scenario, (*values, self.layout, dict(self.catalogue), self.model))

    @property
    def assumptions(self) -> Model:
        """The model this board is scored under (the rulebook's unless `model` says otherwise)."""
        return model_or_rulebook(self.model)

    def under(
        self, model: Model | None, given_by: str = "the rule options give another"
    ) -> Scenario:
        """This board under the model another carrier gives (`RuleOptions.given_model`): the
        same board when it gives none or the same one, the board carrying it (its budget
        checked) when the board had none, and one line naming both when they differ."""
        agreed = one_model(self.model, model, "the scenario carries its own model", given_by)
        if agreed is self.model:
            return self
        carried = dataclasses.replace(self, model=agreed)
        check_budget(carried)
        return carried

    def to_dict(self) -> dict[str, Any]:
        """The RULES.md input format, squares and policies in a stable order."""
        data: dict[str, Any] = {
            "tiles": {s: self.tiles[s] for s in self.layout.squares if s in self.tiles},
            "policies": [p for p in POLICIES if p in self.policies],
            "existing": {h: self.existing[h] for h in self.layout.existing_ids},
            "seed": self.seed,
        }
        if self.model is not None:
            data["model"] = self.model.to_dict()
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict())


def check_budget(scenario: Scenario) -> None:
    """Refuse a board that spends more than its model's budget (one line naming both)."""
    reason = legal.budget_refusal(
        scenario.tiles, scenario.policies, scenario.catalogue, scenario.assumptions, would=False
    )
    if reason is not None:
        raise OverBudgetError(reason)


# --- the result's JSON (RULES.md's output format), defined once ----------------------------
# Three writers make it: the scalar engine (`ScenarioResult.to_dict`), the batch
# (`BatchResult.to_dicts`) and `nb score`'s streamed lines (`batch.lines`, JSON fragments for
# speed). All three take the keys, their order and every section's shape from here, so a key
# added or renamed here changes all three alike (tests/north_berkeley/test_output.py).
KEYS = (
    "spending",
    "new_homes",
    "housed",
    "unhoused",
    "displaced",
    "existing_after",
    "constituents",
    "outcomes",
    "vacant",
)
"""The keys of every result, in order; `model` follows when a board asked for one."""
MODEL = "model"
NEW_HOME_KEYS = ("market", "middle", "low", "total")


def money(amount: Fraction) -> int | float:
    """Dollars for JSON: whole amounts as ints, halves (matching funds) as floats."""
    return int(amount) if amount.denominator == 1 else float(amount)


def new_homes(counts: Sequence[int]) -> dict[str, int]:
    """New homes by kind, counts in `NEW_HOME_KEYS` order."""
    return dict(zip(NEW_HOME_KEYS, counts, strict=True))


def by_income(counts: Sequence[int]) -> dict[str, int]:
    """One count per income (housed, unhoused, displaced), counts in `INCOMES` order."""
    return dict(zip(INCOMES, counts, strict=True))


def card(plus: bool, minus: bool) -> dict[str, bool | int]:
    """One constituent card's entry under "constituents"."""
    return {"plus": plus, "minus": minus, "score": int(plus) - int(minus)}


def outcomes(rows: Sequence[Sequence[int]]) -> dict[str, dict[str, int]]:
    """Per income (`INCOMES` order), the counts of each of the 5 `OUTCOMES`."""
    return {
        income: dict(zip(OUTCOMES, row, strict=True))
        for income, row in zip(INCOMES, rows, strict=True)
    }


def vacant(counts: Sequence[int]) -> dict[str, int]:
    """Homes left empty, counts in `VACANT_KEYS` order."""
    return dict(zip(VACANT_KEYS, counts, strict=True))


def result(sections: Mapping[str, Any], model: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The result dict: `sections` (every key of `KEYS`, values as the helpers above make them)
    in the schema's order, then `model` (every switch) when the board asked for one."""
    if set(sections) != set(KEYS):
        raise ValueError(f"result sections {sorted(sections)} are not {list(KEYS)}")
    out = {key: sections[key] for key in KEYS}
    if model is not None:
        out[MODEL] = model
    return out


def member(key: str, value: Any) -> str:
    """`"key": value` as it stands inside `json.dumps` of a result (for streamed lines)."""
    return f"{json.dumps(key)}: {json.dumps(value)}"


# --- the cards decided on a board's facts -------------------------------------------------
@dataclass(frozen=True)
class CardScore:
    plus: bool
    minus: bool

    @property
    def score(self) -> int:
        return int(self.plus) - int(self.minus)

    def to_dict(self) -> dict[str, bool | int]:
        return {"plus": self.plus, "minus": self.minus, "score": self.score}


def check_card(card_id: object) -> str:
    if not isinstance(card_id, str) or card_id not in CARD_RULES:  # a list is no id
        raise UnknownIdError(f"unknown constituent card {shown(card_id)}")
    return str(card_id)


def score_card(card_id: str, facts: BoardFacts) -> CardScore:
    return _score(CARD_RULES[check_card(card_id)], facts)


def score_all(facts: BoardFacts) -> dict[str, CardScore]:
    return {card_id: _score(CARD_RULES[card_id], facts) for card_id in CARD_IDS}


def _score(rule: CardRule, facts: BoardFacts) -> CardScore:
    value = facts.value
    return CardScore(plus=bool(holds(rule.plus, value)), minus=bool(holds(rule.minus, value)))


# --- a board scored -----------------------------------------------------------------------


@dataclass(frozen=True)
class ScenarioResult:
    """Everything the engine knows after move-in; `to_dict` is the RULES.md output format."""

    scenario: Scenario
    move_in: MoveInResult
    facts: BoardFacts
    cards: Mapping[str, CardScore]

    def existing_after(self) -> dict[str, str | None]:
        layout = self.scenario.layout
        homes = list(layout.existing_ids)
        if "adu" in self.scenario.policies:
            homes += layout.adu_slots
        return {home: self.move_in.income_in(home) for home in homes}

    def to_dict(self) -> dict[str, Any]:
        """The RULES.md output (`result`, above); `model` (every switch, defaults filled in) is
        added only when the scenario asked for one, so rulebook results stay as they were."""
        facts = self.facts
        table = self.move_in.outcomes()
        empty = self.move_in.vacant()
        model = self.scenario.model
        return result(
            {
                "spending": money(facts.spending),
                "new_homes": new_homes([facts.new_homes[k] for k in NEW_HOME_KEYS]),
                "housed": by_income([facts.housed[i] for i in INCOMES]),
                "unhoused": by_income([facts.unhoused[i] for i in INCOMES]),
                "displaced": by_income(
                    [table[i]["rehoused"] + table[i]["displaced_left"] for i in INCOMES]
                ),
                "existing_after": self.existing_after(),
                "constituents": {
                    card_id: card(score.plus, score.minus) for card_id, score in self.cards.items()
                },
                "outcomes": outcomes([[table[i][o] for o in OUTCOMES] for i in INCOMES]),
                "vacant": vacant([empty[k] for k in VACANT_KEYS]),
            },
            None if model is None else model.to_dict(),
        )


def score_scenario(scenario: Scenario, options: RuleOptions | None = None) -> ScenarioResult:
    """Run the move-in on a validated scenario and score all 22 cards, under the scenario's
    model or the one `options` carry (`Scenario.under`: two different ones are refused)."""
    options = options or RuleOptions()
    scenario = scenario.under(options.given_model)
    move_in = run_move_in(scenario, options.low_income_in_adus, options.displaced_first)
    facts = board_facts(scenario, move_in.incomes_after())
    return ScenarioResult(scenario, move_in, facts, score_all(facts))


def facts_as_is(scenario: Scenario) -> BoardFacts:
    """The board as it stands: only the existing residents live there (no move-in)."""
    return board_facts(scenario, dict(scenario.existing))


def score_as_is(scenario: Scenario) -> dict[str, CardScore]:
    """Cards on the board as it stands: only the existing residents live there (no move-in)."""
    return score_all(facts_as_is(scenario))

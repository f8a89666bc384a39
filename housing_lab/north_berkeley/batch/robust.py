"""Robustness at a glance (issue 22): which conclusion survives which assumption.

The rulebook is one model; `robustness` scores the same boards under several model settings
(`model.py`'s switches) and says, for each board or policy set and each setting, who is housed
and displaced per income and which cards change their score against the rulebook on the same
boards. A board given as a scenario is scored exactly by the scalar engine; a policy set stands
for `n` random boards drawn with a seed (`random_boards`), each scored the same way, and the
table reports their averages. `sweep_switches` is the same work one row per board, for lessons
that want to look closer; `robustness_table` turns the summary into the heat table students read
(policy sets down, assumptions across, one measure in every cell)::

    frame = robustness([[], ["vacancy_control"], ["adu"]], n=200, seed=1)
    robustness_table(frame)               # rows: policy sets; columns: assumptions

Under a city budget a board that spends more than the budget cannot be built: it is counted in
"Boards over budget" and left out of the averages (a lone board over budget has no numbers).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from housing_lab.errors import shown
from housing_lab.north_berkeley.batch.evaluator import default_evaluator
from housing_lab.north_berkeley.batch.sweep import random_boards
from housing_lab.north_berkeley.card_rules import CARD_IDS
from housing_lab.north_berkeley.constituents import cards
from housing_lab.north_berkeley.engine.scoring import ScenarioResult, score_scenario
from housing_lab.north_berkeley.errors import (
    NorthBerkeleyError,
    OverBudgetError,
    ScenarioFormatError,
)
from housing_lab.north_berkeley.model import RULEBOOK, Model, check_model
from housing_lab.north_berkeley.names import MEASURE_NAMES, policy_set_name
from housing_lab.north_berkeley.policies import INCOMES, POLICIES, RuleOptions, check_policy
from housing_lab.north_berkeley.scenario import Scenario, make_scenario, scenario_from_dict

__all__ = [
    "DEFAULT_ASSUMPTIONS",
    "RULEBOOK_NAME",
    "RobustnessFrame",
    "assumption_settings",
    "robustness",
    "robustness_table",
    "sweep_switches",
]

RULEBOOK_NAME = "The rulebook"
DEFAULT_ASSUMPTIONS: dict[str, Model] = {
    RULEBOOK_NAME: RULEBOOK,
    "No filtering: new market-rate homes only for high income": Model(
        market_homes_for=frozenset({"high"})
    ),
    "More jobs: 14 high income newcomers": Model(newcomers={"high": 14}),
    "Costa-Hawkins: houses exempt from vacancy control": Model(
        vacancy_control_protects=frozenset({"apartments"})
    ),
    "City budget of $10": Model(budget=10),
}
"""The settings a class tries first: the rulebook, then one assumption changed at a time."""

SUBJECT = "Board or policy set"
ASSUMPTION = "Assumption"
IN_WORDS = "What changes"
BOARDS = "Boards"
OVER_BUDGET = "Boards over budget"
SPENDING = MEASURE_NAMES["spending"]
MEASURES = {
    f"{measure}_{income}": MEASURE_NAMES[f"{measure}_{income}"]
    for measure in ("housed", "displaced", "unhoused")
    for income in INCOMES
}
"""Result measures -> column names ("Low income housed")."""
CHANGED = "Cards changed"
FLIPS = "Cards that change"
DEFAULT_BOARDS = 200

Subject = tuple[str, list[Scenario], bool]  # (label, boards, drawn at random)


# --- the inputs -------------------------------------------------------------------------------
def assumption_settings(settings: object = None) -> dict[str, Model]:
    """Named settings: None (the default list), name -> Model or JSON dict, or a list of them
    (named by `Model.describe`). A bad setting is one line naming it."""
    if settings is None:
        return dict(DEFAULT_ASSUMPTIONS)
    if isinstance(settings, (Model, str)) or (
        isinstance(settings, Mapping) and not all(isinstance(k, str) for k in settings)
    ):
        raise ScenarioFormatError(
            f"the assumptions must be a list of models or an object of name -> model, "
            f"got {shown(settings)}"
        )
    if isinstance(settings, Mapping) and not any(
        isinstance(v, (Model, Mapping)) or v is None for v in settings.values()
    ):
        settings = [settings]  # one bare JSON model, e.g. {"budget": 3}
    named = settings.items() if isinstance(settings, Mapping) else _auto_named(settings)
    checked: dict[str, Model] = {}
    for name, model in named:
        try:
            checked[name] = check_model(model)
        except NorthBerkeleyError as error:
            raise type(error)(f"assumption {name!r}: {error}") from None
    if not checked:
        raise ScenarioFormatError("no assumption given")
    return checked


def _auto_named(settings: object) -> list[tuple[str, object]]:
    if not isinstance(settings, Iterable):
        raise ScenarioFormatError(f"the assumptions must be a list, got {shown(settings)}")
    named = []
    for index, model in enumerate(settings, 1):
        try:
            words = check_model(model).describe()
        except NorthBerkeleyError as error:
            raise type(error)(f"assumption {index}: {error}") from None
        named.append((RULEBOOK_NAME if words == RULEBOOK.describe() else words, model))
    return named


def _is_board(value: object) -> bool:
    return isinstance(value, Scenario) or (isinstance(value, Mapping) and "tiles" in value)


def _board(value: object) -> Scenario:
    if isinstance(value, Scenario):
        return value
    return scenario_from_dict(value)


def _policy_set(value: object) -> frozenset[str]:
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise ScenarioFormatError(
            f"a policy set must be a list of policy ids (or a board), got {shown(value)}"
        )
    return frozenset(check_policy(p) for p in value)


def _subjects(subjects: object, n: int, seed: int) -> list[Subject]:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ScenarioFormatError(f"the number of boards must be a whole number >= 1, got {n!r}")
    if _is_board(subjects):
        subjects = [subjects]
    if isinstance(subjects, Mapping):
        named = [(str(name), value) for name, value in subjects.items()]
    elif isinstance(subjects, Iterable) and not isinstance(subjects, str):
        named = [(None, value) for value in subjects]
    else:
        raise ScenarioFormatError(
            f"give a board, or a list of boards or policy sets, got {shown(subjects)}"
        )
    if not named:
        raise ScenarioFormatError("no board or policy set given")
    evaluator = default_evaluator()
    out: list[Subject] = []
    for index, (name, value) in enumerate(named):
        if _is_board(value):
            out.append((name or f"Board {index + 1}", [_board(value)], False))
            continue
        policies = [p for p in POLICIES if p in _policy_set(value)]  # in the printed order
        drawn = random_boards(n, seed + index, policy_sets=[policies])
        boards = [
            scenario_from_dict(evaluator.scenario_dict(drawn, i, seed=seed)) for i in range(n)
        ]
        out.append((name or policy_set_name(policies, short=False), boards, True))
    return out


# --- scoring ------------------------------------------------------------------------------------
def _under(board: Scenario, model: Model) -> Scenario:
    """The same board under `model` (the rulebook: the board as it was asked)."""
    return make_scenario(
        dict(board.tiles),
        sorted(board.policies),
        dict(board.existing),
        board.seed,
        board.layout,
        board.catalogue,
        model=None if model.is_rulebook and board.model is None else model,
    )


def _scores(board: Scenario, model: Model, options: RuleOptions) -> ScenarioResult | None:
    """The exact result of `board` under `model`; None when the board is over its budget."""
    try:
        return score_scenario(_under(board, model), options)
    except OverBudgetError:
        return None


def _row(result: ScenarioResult) -> dict[str, Any]:
    """Spending and the measures of one result, under their column names."""
    data = result.to_dict()
    row = {SPENDING: float(data["spending"])}
    for key, column in MEASURES.items():
        measure, _, income = key.partition("_")
        row[column] = data[measure][income]
    return row


def _card_names() -> dict[str, str]:
    deck = cards()
    return {card: deck[card].name for card in CARD_IDS}


def _flip_words(name: str, before: int, after: int) -> str:
    return f"{name} ({before:+d} \u2192 {after:+d})".replace("+0", "0")


def _rows(
    subjects: object, settings: object, n: int, seed: int, options: RuleOptions | None
) -> tuple[list[dict[str, Any]], list[str], list[list[str]]]:
    """The rows of `sweep_switches`, the assumptions' names in order, and for each row the
    names of the cards whose score differs from the rulebook's on the same board."""
    models = assumption_settings(settings)
    options = options or RuleOptions()
    names = _card_names()
    rows: list[dict[str, Any]] = []
    flips: list[list[str]] = []
    for label, boards, _ in _subjects(subjects, n, seed):
        for number, board in enumerate(boards, 1):
            base = score_scenario(_under(board, RULEBOOK), options)
            base_scores = {c: s.score for c, s in base.cards.items()}
            for name, model in models.items():
                result = base if model.is_rulebook else _scores(board, model, options)
                row: dict[str, Any] = {
                    SUBJECT: label,
                    "Board": number,
                    ASSUMPTION: name,
                    IN_WORDS: model.describe(),
                    "Over budget": result is None,
                }
                flipped: list[str] = []
                if result is None:
                    row.update(dict.fromkeys([SPENDING, *MEASURES.values()], np.nan))
                    row.update(dict.fromkeys(names.values(), np.nan))
                    row[CHANGED], row[FLIPS] = np.nan, ""
                else:
                    row.update(_row(result))
                    scores = {c: s.score for c, s in result.cards.items()}
                    row.update({names[c]: scores[c] for c in CARD_IDS})
                    flipped = [c for c in CARD_IDS if scores[c] != base_scores[c]]
                    row[CHANGED] = len(flipped)
                    row[FLIPS] = "; ".join(
                        _flip_words(names[c], base_scores[c], scores[c]) for c in flipped
                    )
                rows.append(row)
                flips.append([names[c] for c in flipped])
    return rows, list(models), flips


def _frame(rows: list[dict[str, Any]], order: list[str], frame_type: type = pd.DataFrame) -> Any:
    frame = frame_type(rows)
    frame[ASSUMPTION] = pd.Categorical(frame[ASSUMPTION], categories=order)
    return frame


def sweep_switches(
    subjects: object,
    settings: object = None,
    *,
    n: int = DEFAULT_BOARDS,
    seed: int = 0,
    options: RuleOptions | None = None,
) -> pd.DataFrame:
    """Every board under every setting, one tidy row each: the board's label and number, the
    assumption (its name and what changes, in words), spending, who is housed, displaced and
    unhoused per income, every card's score (columns named as printed), and the cards whose
    score differs from the rulebook's on the same board. A board over the setting's budget has
    "Over budget" true and no numbers. `subjects`, `settings`: as for `robustness`."""
    rows, order, _ = _rows(subjects, settings, n, seed, options)
    return _frame(rows, order)


# --- the summary ----------------------------------------------------------------------------
class RobustnessFrame(pd.DataFrame):
    """`robustness`'s table: a DataFrame that can also lay itself out as a heat table."""

    @property
    def _constructor(self) -> type[RobustnessFrame]:
        return RobustnessFrame

    def heat_table(self, measure: str = MEASURE_NAMES["housed_low"]) -> pd.DataFrame:
        """Boards or policy sets down, assumptions across, `measure` in each cell."""
        return robustness_table(self, measure)


def _summary_flips(part: pd.DataFrame, flips: Sequence[list[str]], names: Mapping[str, str]) -> str:
    """One board: each changed card with its scores; many: the cards that changed on at least
    a tenth of the boards scored (within budget), most often first, with how often."""
    if len(part) == 1:
        return str(part[FLIPS].iloc[0])
    scored = [flipped for flipped, over in zip(flips, part["Over budget"], strict=True) if not over]
    if not scored:
        return ""
    deck = list(names.values())
    counts = {card: sum(card in flipped for flipped in scored) for card in deck}
    often = sorted(
        (card for card in deck if counts[card] and counts[card] >= len(scored) / 10),
        key=lambda card: (-counts[card], deck.index(card)),
    )
    return "; ".join(f"{card} ({counts[card] / len(scored):.0%} of boards)" for card in often)


def robustness(
    subjects: object,
    settings: object = None,
    *,
    n: int = DEFAULT_BOARDS,
    seed: int = 0,
    options: RuleOptions | None = None,
) -> RobustnessFrame:
    """Which conclusion survives which assumption: one row per board (or policy set) and
    setting, with the number of boards, how many were over budget, average spending, housed,
    displaced and unhoused per income, the average number of cards whose score changed against
    the rulebook on the same boards, and those cards in words.

    `subjects`: a board (a `Scenario` or its JSON dict), or a list (or name -> value object) of
    boards and policy sets (lists of policy ids; each stands for `n` random boards, drawn with
    `seed`). `settings`: see `assumption_settings` (default `DEFAULT_ASSUMPTIONS`)."""
    board_rows, order, flips = _rows(subjects, settings, n, seed, options)
    per_board = _frame(board_rows, order)
    names = _card_names()
    rows = []
    for (label, assumption), part in per_board.groupby(
        [SUBJECT, ASSUMPTION], sort=False, observed=True
    ):
        part_flips = [flips[i] for i in part.index]
        scored = part[~part["Over budget"]]
        row: dict[str, Any] = {
            SUBJECT: label,
            ASSUMPTION: assumption,
            IN_WORDS: part[IN_WORDS].iloc[0],
            BOARDS: len(part),
            OVER_BUDGET: int(part["Over budget"].sum()),
        }
        for column in (SPENDING, *MEASURES.values(), CHANGED):
            row[column] = float(scored[column].mean()) if len(scored) else np.nan
        row[FLIPS] = _summary_flips(part, part_flips, names)
        rows.append(row)
    return _frame(rows, order, RobustnessFrame)


def robustness_table(
    frame: pd.DataFrame, measure: str = MEASURE_NAMES["housed_low"]
) -> pd.DataFrame:
    """The heat table: boards or policy sets (rows, in the order given) x assumptions (columns,
    the rulebook's first as given), `measure` ("Low income housed", ...) in each cell; empty
    where every board was over budget."""
    for column in (SUBJECT, ASSUMPTION):
        if column not in frame.columns:
            raise ScenarioFormatError(
                f"not a robustness table (no {column!r} column): give robustness()'s result"
            )
    if measure not in frame.columns or measure in (SUBJECT, ASSUMPTION, IN_WORDS, FLIPS):
        known = ", ".join([SPENDING, *MEASURES.values(), CHANGED])
        raise ScenarioFormatError(f"unknown measure {shown(measure)} (known: {known})")
    rows = list(dict.fromkeys(frame[SUBJECT]))
    columns = [str(c) for c in dict.fromkeys(frame[ASSUMPTION])]
    table = pd.DataFrame(np.nan, index=pd.Index(rows, name=SUBJECT), columns=columns)
    for label, assumption, value in zip(
        frame[SUBJECT], frame[ASSUMPTION], frame[measure], strict=True
    ):
        table.loc[label, str(assumption)] = value
    table.columns.name = measure
    return table

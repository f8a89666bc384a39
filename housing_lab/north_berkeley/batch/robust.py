"""Robustness at a glance (issue 22): which conclusion survives which assumption.

The rulebook is one model; `robustness` scores the same boards under several model settings
(`model.py`'s switches) and says, for each board or policy set and each setting, who is housed
and displaced per income and which cards change their score against the rulebook on the same
boards. A board given as a scenario is scored exactly by the scalar engine; a policy set stands
for `n` random boards drawn with a seed (`random_boards`), scored by the batch evaluator under
each model (it agrees with the scalar engine), and the table reports their averages.
`sweep_switches` is the same work one row per board, for lessons that want to look closer;
`robustness_table` turns the summary into the heat table students read (policy sets down,
assumptions across, one measure in every cell)::

    frame = robustness([[], ["vacancy_control"], ["adu"]], n=200, seed=1)
    robustness_table(frame)               # rows: policy sets; columns: assumptions

Under a city budget a board that spends more than the budget cannot be built: it is counted in
"Boards over budget" and left out of the averages (a lone board over budget has no numbers).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np
import pandas as pd

from housing_lab.errors import shown
from housing_lab.north_berkeley.batch.boards import Boards
from housing_lab.north_berkeley.batch.evaluator import default_evaluator
from housing_lab.north_berkeley.batch.sweep import random_boards
from housing_lab.north_berkeley.constituents import cards
from housing_lab.north_berkeley.engine.card_rules import CARD_IDS
from housing_lab.north_berkeley.engine.scoring import score_scenario
from housing_lab.north_berkeley.errors import (
    NorthBerkeleyError,
    OverBudgetError,
    ScenarioFormatError,
)
from housing_lab.north_berkeley.model import RULEBOOK, SWITCH_KEYS, Model, check_model
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
DEFAULT_ASSUMPTIONS: Mapping[str, Model] = MappingProxyType(
    {
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
)
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
MAX_BOARDS = 100_000
"""Random boards per policy set at most: every one is held in memory under every setting
(100,000 with the five default settings: about 1 s on the 2-core test machine)."""

Subject = tuple[str, "list[Scenario] | Boards"]  # (label, its boards)


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
    if isinstance(settings, Mapping) and _bare_model(settings):
        settings = [settings]  # one JSON model, e.g. {"budget": 3}
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


def _bare_model(settings: Mapping[Any, Any]) -> bool:
    """Whether `settings` is one JSON model ({"budget": 3}) rather than name -> model: its keys
    are switches and no value is itself a model."""
    return (
        bool(settings)
        and set(settings) <= set(SWITCH_KEYS)
        and not any(
            isinstance(v, Model) or (isinstance(v, Mapping) and set(v) <= set(SWITCH_KEYS))
            for v in settings.values()
        )
    )


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


def _policy_set(value: object) -> list[str]:
    """A policy set's ids in the printed order (the order its name is written in)."""
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise ScenarioFormatError(
            f"a policy set must be a list of policy ids (or a board), got {shown(value)}"
        )
    ids = {check_policy(p) for p in value}
    return [p for p in POLICIES if p in ids]


def _subjects(subjects: object, n: int, seed: int) -> list[Subject]:
    """(label, boards): a given board as a one-board list, a policy set as `n` random boards
    (seeded; the k-th subject draws with `seed + k`)."""
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_BOARDS:
        raise ScenarioFormatError(
            f"the number of boards must be a whole number from 1 to {MAX_BOARDS:,} (a policy "
            f"set's boards are all held in memory, under every setting), got {shown(n)}"
        )
    if _is_board(subjects):
        subjects = [subjects]
    if isinstance(subjects, Mapping):
        named: list[tuple[str | None, object]] = [(str(k), v) for k, v in subjects.items()]
    elif isinstance(subjects, Iterable) and not isinstance(subjects, str):
        named = [(None, value) for value in subjects]
    else:
        raise ScenarioFormatError(
            f"give a board, or a list of boards or policy sets, got {shown(subjects)}"
        )
    if not named:
        raise ScenarioFormatError("no board or policy set given")
    out: list[Subject] = []
    for index, (name, value) in enumerate(named):
        if _is_board(value):
            out.append((name or f"Board {index + 1}", [_board(value)]))
        else:
            policies = _policy_set(value)
            drawn = random_boards(n, seed + index, policy_sets=[policies])
            out.append((name or policy_set_name(policies, short=False), drawn))
    return out


# --- scoring ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Scored:
    """One subject's boards under one setting, board by board (rows in board order)."""

    over: np.ndarray  # (n,) bool: over the setting's budget (then nothing else counts)
    spending: np.ndarray  # (n,) dollars
    measures: np.ndarray  # (n, 9): MEASURES' order
    scores: np.ndarray  # (n, 22): CARD_IDS' order


def _under(board: Scenario, model: Model) -> Scenario:
    """The same board under `model` (the setting replaces any model the board carried)."""
    return make_scenario(
        dict(board.tiles),
        sorted(board.policies),
        dict(board.existing),
        board.seed,
        board.layout,
        board.catalogue,
        model=model,
    )


def _scalar(boards: Sequence[Scenario], model: Model, options: RuleOptions) -> Scored:
    """Exact: each board scored by the scalar engine; over budget when it refuses the board."""
    n = len(boards)
    over = np.zeros(n, dtype=bool)
    spending = np.zeros(n)
    measures = np.zeros((n, len(MEASURES)))
    scores = np.zeros((n, len(CARD_IDS)), dtype=np.int64)
    for i, board in enumerate(boards):
        try:
            data = score_scenario(_under(board, model), options).to_dict()
        except OverBudgetError:
            over[i] = True
            continue
        spending[i] = data["spending"]
        for m, key in enumerate(MEASURES):
            measure, _, income = key.partition("_")
            measures[i, m] = data[measure][income]
        scores[i] = [data["constituents"][card]["score"] for card in CARD_IDS]
    return Scored(over, spending, measures, scores)


def _batch(boards: Boards, model: Model, options: RuleOptions) -> Scored:
    """Many random boards at once (the batch evaluator, which agrees with the scalar engine)."""
    result = default_evaluator().evaluate(boards, options, model)
    tables = {"housed": result.housed, "displaced": result.displaced, "unhoused": result.unhoused}
    measures = np.stack(
        [
            tables[key.partition("_")[0]][:, INCOMES.index(key.partition("_")[2])]
            for key in MEASURES
        ],
        axis=1,
    ).astype(float)
    return Scored(
        ~np.asarray(result.within_budget, dtype=bool),
        np.asarray(result.spending, dtype=float),
        measures,
        np.asarray(result.scores, dtype=np.int64),
    )


def _score(boards: Sequence[Scenario] | Boards, model: Model, options: RuleOptions) -> Scored:
    return (
        _batch(boards, model, options)
        if isinstance(boards, Boards)
        else _scalar(boards, model, options)
    )


def _blocks(
    subjects: object, settings: object, n: int, seed: int, options: RuleOptions | None
) -> Iterator[tuple[str, str, Model, Scored, Scored]]:
    """(label, assumption's name, model, its scores, the rulebook's on the same boards) for
    every subject and setting, subjects first."""
    models = assumption_settings(settings)
    options = options or RuleOptions()
    if options.given_model is not None:  # each setting is a model: the options' would clash
        raise ScenarioFormatError(
            f"the rule options carry a model ({options.given_model.describe()}): give it as "
            f"one of the assumptions to compare, not in the options"
        )
    for label, boards in _subjects(subjects, n, seed):
        base = _score(boards, RULEBOOK, options)
        for name, model in models.items():
            yield (
                label,
                name,
                model,
                (base if model.is_rulebook else _score(boards, model, options)),
                base,
            )


def _card_names() -> list[str]:
    deck = cards()
    return [deck[card].name for card in CARD_IDS]


def _flip_words(name: str, before: int, after: int) -> str:
    return f"{name} ({before:+d} \u2192 {after:+d})".replace("+0", "0")


def _block_frame(label: str, name: str, model: Model, got: Scored, base: Scored) -> pd.DataFrame:
    n = len(got.over)
    names = _card_names()
    changed = (got.scores != base.scores) & ~got.over[:, None]
    columns: dict[str, Any] = {
        SUBJECT: [label] * n,
        "Board": np.arange(1, n + 1),
        ASSUMPTION: [name] * n,
        IN_WORDS: [model.describe()] * n,
        "Over budget": got.over,
    }
    blank = got.over.any()
    columns[SPENDING] = np.where(got.over, np.nan, got.spending)
    for m, column in enumerate(MEASURES.values()):
        columns[column] = np.where(got.over, np.nan, got.measures[:, m])
    for c, card in enumerate(names):
        columns[card] = np.where(got.over, np.nan, got.scores[:, c]) if blank else got.scores[:, c]
    columns[CHANGED] = np.where(got.over, np.nan, changed.sum(axis=1)) if blank else changed.sum(1)
    columns[FLIPS] = [
        "; ".join(
            _flip_words(names[c], int(base.scores[i, c]), int(got.scores[i, c]))
            for c in np.flatnonzero(changed[i])
        )
        for i in range(n)
    ]
    return pd.DataFrame(columns)


def _in_order(frame: Any, order: list[str]) -> Any:
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
    order = list(assumption_settings(settings))
    frames = [_block_frame(*block) for block in _blocks(subjects, settings, n, seed, options)]
    return _in_order(pd.concat(frames, ignore_index=True), order)


# --- the summary ----------------------------------------------------------------------------
class RobustnessFrame(pd.DataFrame):
    """`robustness`'s table: a DataFrame that can also lay itself out as a heat table."""

    @property
    def _constructor(self) -> type[RobustnessFrame]:
        return RobustnessFrame

    def heat_table(self, measure: str = MEASURE_NAMES["housed_low"]) -> pd.DataFrame:
        """Boards or policy sets down, assumptions across, `measure` in each cell."""
        return robustness_table(self, measure)


def _summary_flips(changed: np.ndarray, got: Scored, base: Scored) -> str:
    """One board: each changed card with its scores; many: the cards that changed on at least
    a tenth of the boards within budget, most often first, with how often. `changed`: (boards
    within budget, cards) booleans."""
    if not len(changed):
        return ""
    names = _card_names()
    if len(got.over) == 1:
        return "; ".join(
            _flip_words(names[c], int(base.scores[0, c]), int(got.scores[0, c]))
            for c in np.flatnonzero(changed[0])
        )
    counts = changed.sum(axis=0)
    often = [
        c
        for c in np.argsort(-counts, kind="stable")
        if counts[c] and counts[c] * 10 >= len(changed)
    ]
    return "; ".join(f"{names[c]} ({counts[c] / len(changed):.0%} of boards)" for c in often)


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
    displaced and unhoused per income (over the boards within budget), the average number of
    cards whose score changed against the rulebook on the same boards, and those cards in words.

    `subjects`: a board (a `Scenario` or its JSON dict), or a list (or name -> value object) of
    boards and policy sets (lists of policy ids). A board is scored exactly (scalar engine); a
    policy set stands for `n` random boards drawn with `seed`, scored by the batch evaluator
    (which agrees with the scalar engine). `settings`: see `assumption_settings` (default
    `DEFAULT_ASSUMPTIONS`); every setting scores the same boards."""
    order = list(assumption_settings(settings))
    rows = []
    for label, name, model, got, base in _blocks(subjects, settings, n, seed, options):
        keep = ~got.over
        row: dict[str, Any] = {
            SUBJECT: label,
            ASSUMPTION: name,
            IN_WORDS: model.describe(),
            BOARDS: len(keep),
            OVER_BUDGET: int(got.over.sum()),
        }
        kept = slice(None) if keep.all() else keep  # a view, not a copy, without a budget
        measures, scores = got.measures[kept], got.scores[kept]
        average = len(measures) > 0
        row[SPENDING] = float(got.spending[kept].mean()) if average else np.nan
        means = measures.mean(axis=0) if average else np.full(len(MEASURES), np.nan)
        for m, column in enumerate(MEASURES.values()):
            row[column] = float(means[m])
        # the rulebook against itself changes nothing (and needs no comparison)
        changed = np.zeros(scores.shape, bool) if got is base else scores != base.scores[kept]
        row[CHANGED] = float(changed.sum(axis=1).mean()) if average else np.nan
        row[FLIPS] = _summary_flips(changed, got, base)
        rows.append(row)
    return _in_order(RobustnessFrame(rows), order)


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

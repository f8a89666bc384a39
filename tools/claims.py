"""Claims as data: every sentence of a lesson or a doc that states a result of the model.

A claim (one `[[claim]]` table in `tools/lesson_sources/claims/*.toml`) has an id, its sentence
as a template, a query to the engine, the settings of the model switches the sentence covers,
and the answer it expects::

    [[claim]]
    id = "coalition-survives-every-switch"
    text = "... both score +1 under every setting ({spending:g} dollars under the rulebook)"
    query = { kind = "solve", cards = ["developer", "affordable_housing_orgs"] }
    settings = ["rulebook", "no_filtering", "costa_hawkins"]
    expect = { all_plus = true }            # under every setting
    expect_by.rulebook = { spending = 0 }   # under one of them
    where = ["docs/model_switches.md"]      # files that print the sentence as it is

The sentence is filled with the *expected* values (`render`), so it says exactly what the test
checks: `check` asks the engine under each setting and names every difference. The lesson build
replaces `{{claim:ID}}` in a source's Markdown with the sentence, after checking it
(`fill`); a doc that cannot be generated names the claim's file in `where`, and the test finds
the sentence there word for word (whitespace aside). A claim that no longer holds, or a sentence
edited away from its claim, fails `tests/test_lesson_claims.py`.

Queries (`kind`): `score` (one board, exactly; `boards` instead of `board` scores several, and
each measure of the answer is then the list of their values, in order: `{low[0]} → {low[1]}` for
a before and after; `baseline` adds `same_housed` and `spending_before`, comparing with the same
boards under the baseline's policies), `solve` (the exact solver's best board for a coalition;
`without` leaves out the policy sets holding a policy; `random = {n, seed}` adds `both_percent`,
the share of that many random boards on which every card scores +1), `ranking` (lesson 5's
policy sweep: the single policies ranked by their average low income residents housed over `n`
random boards drawn with `seed`, and the one under which most existing residents are displaced),
`coach` (the coach's fewest changes for `card` to reach `goal` on a board, and how many of the
board's single changes reach it; `cards`, or `goals` for one card, gives lists, as `boards`
does), `fills` (lesson 5's explorer: `n` state fills, drawn with `seed`, of a board's empty
squares: `mean_low`, `median_low`, `all_low_percent`, `spending`; `boards` gives lists),
`streetcar` (lesson 6: `experiment = "lines"`, the controlled line experiment, or `"match"`, a
seeded match of `bots`). A `score` answer also counts who displaced whom from the move-in log
(`low_displaced_by_high`, ...). A claim whose query takes over a second says `slow = true`.
Answers are flat dicts of numbers, booleans and words. A board names its tiles, policies and
seed; or `solve` (the rulebook's best board for those cards); or `game` (the final board of
`play_random_game(teams, seed)`, with `policies` added to those the game enacted).
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import pathlib
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from housing_lab._data import DataFileError, read_toml_file
from housing_lab.errors import HousingLabError

CLAIMS_DIR = pathlib.Path(__file__).parent / "lesson_sources" / "claims"
PLACEHOLDER = re.compile(r"\{\{claim:([a-z0-9-]+)\}\}")
KINDS = ("score", "solve", "ranking", "coach", "streetcar", "fills")
INCOMES = ("high", "middle", "low")


class ClaimError(HousingLabError):
    """A claim file that cannot be read, or a claim the engine no longer supports."""


@dataclass(frozen=True)
class Claim:
    """One sentence and its check (see the module's docstring)."""

    id: str
    text: str
    query: dict[str, Any]
    settings: tuple[str, ...]
    models: dict[str, dict[str, Any]]  # setting name -> the switches (JSON)
    boards: dict[str, dict[str, Any]]  # board name -> tiles, policies, seed (or a solve)
    expect: dict[str, Any] = field(default_factory=dict)
    expect_by: dict[str, dict[str, Any]] = field(default_factory=dict)
    where: tuple[str, ...] = ()
    source: str = ""
    slow: bool = False  # its query takes over a second: the inner loop leaves it out

    def expected(self, setting: str) -> dict[str, Any]:
        return {**self.expect, **self.expect_by.get(setting, {})}

    def context(self) -> dict[str, Any]:
        """The template's fields: the first setting's expected answer, and each setting's by
        its name (`{no_filtering[low]}`)."""
        return {
            **self.expected(self.settings[0]),
            **{s: self.expected(s) for s in self.settings},
        }


def _as_key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def load(path: pathlib.Path) -> list[Claim]:
    """The claims of one file, checked for shape (a bad file is one line naming it)."""
    try:
        data = read_toml_file(path)
    except DataFileError as error:
        raise ClaimError(str(error)) from None
    models = {"rulebook": {}, **data.get("settings", {})}
    boards = data.get("boards", {})
    claims = []
    for table in data.get("claim", []):
        name = table.get("id", "?")
        keys = {"id", "text", "query", "settings", "expect", "expect_by", "where", "slow"}
        unknown = set(table) - keys
        if unknown:
            raise ClaimError(f"{path.name}: claim {name}: unknown keys {sorted(unknown)}")
        settings = tuple(table.get("settings", ["rulebook"]))
        for setting in (*settings, *table.get("expect_by", {})):
            if setting not in models:
                raise ClaimError(f"{path.name}: claim {name}: unknown setting {setting!r}")
        query = table.get("query", {})
        if query.get("kind") not in KINDS:
            raise ClaimError(f"{path.name}: claim {name}: query kind must be one of {KINDS}")
        named = query.get("boards", [query.get("board")])
        if query["kind"] in ("score", "coach", "fills") and any(b not in boards for b in named):
            unknown_board = next(b for b in named if b not in boards)
            raise ClaimError(f"{path.name}: claim {name}: unknown board {unknown_board!r}")
        claims.append(
            Claim(
                id=table["id"],
                text=" ".join(table["text"].split()),
                query=table["query"],
                settings=settings,
                models=models,
                boards=boards,
                expect=table.get("expect", {}),
                expect_by=table.get("expect_by", {}),
                where=tuple(table.get("where", ())),
                source=path.name,
                slow=bool(table.get("slow", False)),
            )
        )
    return claims


def all_claims(folder: pathlib.Path = CLAIMS_DIR) -> dict[str, Claim]:
    """Every claim of every file, by id (an id used twice is refused)."""
    found: dict[str, Claim] = {}
    for path in sorted(folder.glob("*.toml")):
        for claim in load(path):
            if claim.id in found:
                raise ClaimError(f"claim id {claim.id!r} is used twice")
            found[claim.id] = claim
    return found


# --- asking the engine ------------------------------------------------------------------------
def _model(switches: dict[str, Any]) -> dict[str, Any] | None:
    return switches or None


def _counted(words: list[str]) -> str:
    """["50% Inclusionary Midrise"] * 7 + ["Park"] -> "7 50% Inclusionary Midrises and 1 Park"."""
    parts = [f"{n} {name}{'s' if n > 1 else ''}" for name, n in Counter(words).most_common()]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _result_fields(result: dict[str, Any]) -> dict[str, Any]:
    """The measures a sentence may quote, from a RULES.md result (`left_high`: high income
    newcomers who found no home; `newcomers_housed_low`: low income newcomers who did)."""
    outcomes = result["outcomes"]
    return {
        "built": True,
        "new_homes": result["new_homes"]["total"],
        "market_homes": result["new_homes"]["market"],
        "low_homes": result["new_homes"]["low"],
        **{f"stayed_{i}": outcomes[i]["stayed"] for i in INCOMES},
        **{f"left_{i}": outcomes[i]["newcomer_left"] for i in INCOMES},
        **{f"newcomers_housed_{i}": outcomes[i]["newcomer_housed"] for i in INCOMES},
        "high": result["housed"]["high"],
        "middle": result["housed"]["middle"],
        "low": result["housed"]["low"],
        "empty_market": result["vacant"]["market"],
        "empty_low": result["vacant"]["low"],
        "empty_adu": result["vacant"]["adu"],
        "displaced_low": result["displaced"]["low"],
        "displaced_middle": result["displaced"]["middle"],
        "displaced": sum(result["displaced"].values()),
        "rehoused_low": result["outcomes"]["low"]["rehoused"],
        "spending": float(result["spending"]),
        **{card: value["score"] for card, value in result["constituents"].items()},
    }


@functools.cache
def _board(board_key: str) -> tuple[dict[str, str], list[str], dict[str, str] | None, int]:
    """(tiles, policies, existing, seed) of a named board; a `solve` board is the rulebook's
    best board for its cards."""
    from housing_lab.north_berkeley import solve

    board = json.loads(board_key)
    if "game" in board:
        from housing_lab.north_berkeley import play_random_game

        final = play_random_game(board["game"], seed=board["seed"]).scenario()
        policies = list(dict.fromkeys([*final.policies, *board.get("policies", [])]))
        return dict(final.tiles), policies, dict(final.existing), 0
    if "solve" in board:
        scenario = solve(board["solve"], seed=board.get("seed", 0)).scenario
        return dict(scenario.tiles), sorted(scenario.policies), dict(scenario.existing), 0
    return board["tiles"], board.get("policies", []), None, board.get("seed", 0)


def _displacers(move_in: Any) -> dict[str, int]:
    """Who displaced whom, from the move-in log: `low_displaced_by_high` counts low income
    residents whom a high income resident displaced (lesson 1: four people displace four,
    and the displaced middle income residents displace the rest)."""
    counts = {f"{v}_displaced_by_{d}": 0 for v in INCOMES for d in INCOMES}
    for event in move_in.events:
        if event.kind == "displaced" and event.by is not None:
            by = move_in.residents[event.by].income
            counts[f"{event.income}_displaced_by_{by}"] += 1
    return counts


@functools.cache
def _score(board_key: str, policies_key: str, model_key: str) -> dict[str, Any]:
    from housing_lab.north_berkeley import make_scenario, score_scenario
    from housing_lab.north_berkeley.errors import AffordableOnlyError, OverBudgetError

    tiles, policies, existing, seed = _board(board_key)
    extra = json.loads(policies_key)
    wanted = policies + [p for p in extra if p not in policies]
    try:
        scenario = make_scenario(tiles, wanted, existing, seed, model=_model(json.loads(model_key)))
        scored = score_scenario(scenario)
        return {**_result_fields(scored.to_dict()), **_displacers(scored.move_in)}
    except (OverBudgetError, AffordableOnlyError):  # over the budget, or a policy refuses it
        return {"built": False}


def _against(after: dict[str, Any], before: dict[str, Any]) -> dict[str, Any]:
    """`after`, with `same_housed` (nobody housed or displaced differently) and the baseline's
    spending as `spending_before`."""
    measures = [f"{k}_{i}" for k in ("stayed", "left", "newcomers_housed") for i in INCOMES]
    measures += ["high", "middle", "low", "displaced"]
    same = (
        after.get("built") and before.get("built") and all(after[m] == before[m] for m in measures)
    )
    return {**after, "same_housed": bool(same), "spending_before": before.get("spending")}


def _several(answers: list[dict[str, Any]]) -> dict[str, Any]:
    """Several boards' answers as one: each measure the list of the boards' values."""
    keys = dict.fromkeys(k for a in answers for k in a)
    return {k: [a.get(k) for a in answers] for k in keys}


def _policy_sets(without: list[str]) -> list[list[str]]:
    from housing_lab.north_berkeley import POLICIES

    sets = [list(s) for k in (1, 2) for s in itertools.combinations(POLICIES, k)]
    return [s for s in sets if not set(s) & set(without)]


@functools.cache
def _solve(cards_key: str, without_key: str, model_key: str) -> dict[str, Any]:
    from housing_lab.north_berkeley import default_catalogue, policy_set_name, solve
    from housing_lab.north_berkeley.errors import OverBudgetError

    cards, without = json.loads(cards_key), json.loads(without_key)
    where: dict[str, Any] = {"seed": 0, "model": _model(json.loads(model_key))}
    if without:
        where["policy_sets"] = _policy_sets(without)
    try:
        best = solve(cards, **where)
    except OverBudgetError:
        return {"found": False}
    catalogue = default_catalogue()
    scenario = best.scenario
    return {
        **_result_fields(dict(best.result)),
        "found": True,
        "score": best.score,
        "all_plus": all(best.cards[c] == 1 for c in cards),
        "policies": policy_set_name(sorted(scenario.policies, key=str)),
        "board": _counted([catalogue[t].name for t in scenario.tiles.values()]),
        "inclusionary": sum("inclusionary" in t for t in scenario.tiles.values()),
    }


@functools.cache
def _random_boards(n: int, seed: int) -> Any:
    from housing_lab.north_berkeley import random_boards

    return random_boards(n, seed=seed)


@functools.cache
def _both_percent(cards_key: str, n: int, seed: int, model_key: str) -> float:
    """The share (%, one decimal) of `n` random boards on which every card scores +1: how
    often a coalition wins by chance, beside the solver's best board (lesson 4)."""
    from housing_lab.north_berkeley import sweep

    boards = sweep(_random_boards(n, seed), model=_model(json.loads(model_key)))
    plus = (boards[json.loads(cards_key)] == 1).all(axis=1)
    return round(100 * float(plus.mean()), 1)


@functools.cache
def _fills(board_key: str, n: int, seed: int, model_key: str) -> dict[str, Any]:
    """The state's `n` random fills of the empty squares of a board (lesson 5's explorer:
    `state_fills` scored by `sweep`), averaged: low income housed, spending."""
    from housing_lab.north_berkeley import state_fills, sweep

    tiles, policies, _, _ = _board(board_key)
    model = _model(json.loads(model_key))
    boards = sweep(state_fills(tiles, n, seed=seed, policies=policies, model=model), model=model)
    return {
        "mean_low": round(float(boards["housed_low"].mean()), 2),
        "median_low": float(boards["housed_low"].median()),
        "all_low_percent": round(100 * float((boards["housed_low"] == 12).mean()), 1),
        "spending": round(float(boards["spending"].mean()), 2),
    }


@functools.cache
def _ranking(policies_key: str, n: int, seed: int, model_key: str) -> dict[str, Any]:
    from housing_lab.north_berkeley import policy_set_name, sweep

    policies = json.loads(policies_key)
    boards = sweep(_random_boards(n, seed), model=_model(json.loads(model_key)))
    if "within_budget" in boards.columns:
        boards = boards[boards["within_budget"]]
    low = boards.groupby("policies", observed=True)["housed_low"].mean()
    averages = {p: float(low[p]) for p in policies}
    ranked = sorted(policies, key=lambda p: -averages[p])
    lost = (
        (boards["displaced_low"] + boards["displaced_middle"])
        .groupby(boards["policies"], observed=True)
        .mean()
    )
    displaced = {p: float(lost[p]) for p in policies}  # existing residents displaced, on average
    return {
        **averages,
        **{f"displaced_{p}": displaced[p] for p in policies},
        "most_displacing": policy_set_name([max(policies, key=displaced.__getitem__)]),
        "first": policy_set_name([ranked[0]]),
        "second": policy_set_name([ranked[1]]),
        "last": policy_set_name([ranked[-1]]),
    }


def _single_changes(scenario: Any) -> list[tuple[dict, list]]:
    """Every board one change away: a square set to another tile or emptied, a policy switched
    (lesson 4's check that the coach missed no shorter answer)."""
    from housing_lab.north_berkeley import POLICIES, default_catalogue

    tiles, policies = dict(scenario.tiles), sorted(scenario.policies, key=str)
    boards = []
    for square in scenario.layout.squares:
        for tile in [*default_catalogue(), None]:
            if tiles.get(square) != tile:
                changed = {q: t for q, t in tiles.items() if q != square}
                if tile is not None:
                    changed[square] = tile
                boards.append((changed, policies))
    for policy in POLICIES:
        switched = set(policies) ^ {policy}
        boards.append((dict(tiles), [p for p in POLICIES if p in switched]))
    return boards


@functools.cache
def _coach(board_key: str, card: str, goal: str, model_key: str) -> dict[str, Any]:
    from housing_lab.north_berkeley import coach, coach_sentence, make_scenario, score_scenario

    tiles, policies, existing, seed = _board(board_key)
    model = _model(json.loads(model_key))
    scenario = make_scenario(tiles, policies, existing, seed, model=model)
    best = coach(scenario, card, goal)
    reaching, tried = 0, 0
    for changed, switched in _single_changes(scenario):
        try:
            one = make_scenario(changed, switched, existing, seed, model=model)
        except HousingLabError:  # a tile that 100% Affordable refuses where it stands
            continue
        tried += 1
        score = score_scenario(one).to_dict()["constituents"][card]["score"]
        reaching += score == 1 if goal == "win" else score >= 0
    return {
        "now": best.now,
        "changes": len(best.changes),
        "sentence": coach_sentence(best),
        "single_changes_tried": tried,
        "single_changes_reaching": reaching,
    }


@functools.cache
def _streetcar(query_key: str) -> dict[str, Any]:
    """Lesson 6's Streetcar runs: the controlled line experiment, or a seeded match of bots."""
    from housing_lab.streetcar import (
        line_experiment,
        line_experiment_summary,
        play_match,
        summarise,
    )

    query = json.loads(query_key)
    if query["experiment"] == "lines":
        arms = line_experiment_summary(line_experiment(query["games"], seed=query["seed"]))
        return {f"{arm}_{k}": v for arm, values in arms.items() for k, v in values.items()}
    options = {"iterations": query["iterations"]} if "iterations" in query else {}
    games = play_match(query["bots"], query["games"], seed=query["seed"], **options)
    summary = summarise(query["bots"], games).to_dict()
    return {
        "games": summary["games"],
        "wins": summary["wins"],
        "mean_scores": summary["mean_scores"],
    }


def answer(claim: Claim, setting: str) -> dict[str, Any]:
    """The engine's answer to `claim`'s query under `setting` (cached: a test module asks
    each question once)."""
    query, model = claim.query, _as_key(claim.models[setting])
    kind = query["kind"]
    if kind == "score":
        policies = _as_key(query.get("policies", []))
        names = query.get("boards", [query.get("board")])
        answers = [_score(_as_key(claim.boards[b]), policies, model) for b in names]
        if "baseline" in query:  # the same boards with the baseline's policies instead
            baseline = _as_key(query["baseline"])
            before = [_score(_as_key(claim.boards[b]), baseline, model) for b in names]
            answers = [_against(a, b) for a, b in zip(answers, before, strict=True)]
        return _several(answers) if "boards" in query else answers[0]
    if kind == "streetcar":  # no model switches: Streetcar has none
        return _streetcar(_as_key(query))
    if kind == "coach":  # `cards` instead of `card`: each measure a list, as for `boards`
        board, goal = _as_key(claim.boards[query["board"]]), query.get("goal", "win")
        if "cards" in query:
            return _several([_coach(board, card, goal, model) for card in query["cards"]])
        if "goals" in query:  # one card, several goals (win, no-loss)
            return _several([_coach(board, query["card"], g, model) for g in query["goals"]])
        return _coach(board, query["card"], goal, model)
    if kind == "fills":  # `boards`: each measure a list, as for `score`
        names = query.get("boards", [query.get("board")])
        answers = [
            _fills(_as_key(claim.boards[b]), query["n"], query["seed"], model) for b in names
        ]
        return _several(answers) if "boards" in query else answers[0]
    if kind == "solve":
        best = _solve(_as_key(query["cards"]), _as_key(query.get("without", [])), model)
        if "random" not in query:
            return best
        n, seed = query["random"]["n"], query["random"]["seed"]
        return {**best, "both_percent": _both_percent(_as_key(query["cards"]), n, seed, model)}
    return _ranking(_as_key(query["policies"]), query["n"], query["seed"], model)


def _same(got: Any, expected: Any) -> bool:
    if isinstance(expected, float) and not isinstance(got, bool) and got is not None:
        return math.isclose(round(float(got), 2), expected, abs_tol=1e-9)
    return got == expected


def check(claim: Claim) -> list[str]:
    """Every way the engine disagrees with `claim`, in words (empty: the claim holds)."""
    wrong = []
    for setting in claim.settings:
        got = answer(claim, setting)
        for key, expected in claim.expected(setting).items():
            if key not in got:
                wrong.append(f"{claim.id} under {setting}: the answer has no {key!r}")
            elif not _same(got[key], expected):
                wrong.append(
                    f"{claim.id} under {setting}: {key} is {got[key]!r}, the claim says "
                    f"{expected!r}"
                )
    return wrong


def render(claim: Claim) -> str:
    """The sentence, filled with the values the claim expects (and the test checks)."""
    try:
        return claim.text.format_map(claim.context())
    except (KeyError, IndexError, ValueError) as error:
        raise ClaimError(f"claim {claim.id}: the sentence names {error}, not expected") from None


def fill(text: str, claims: dict[str, Claim]) -> str:
    """Replace each `{{claim:ID}}` in `text` by its sentence, after asking the engine; a claim
    the engine contradicts stops the build with every difference named."""

    def sentence(match: re.Match[str]) -> str:
        claim = claims.get(match[1])
        if claim is None:
            raise ClaimError(f"unknown claim {match[1]!r}")
        wrong = check(claim)
        if wrong:
            raise ClaimError("; ".join(wrong))
        return render(claim)

    return PLACEHOLDER.sub(sentence, text)

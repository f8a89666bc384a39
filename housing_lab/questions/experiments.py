"""What the engine says for each "predict, then run" question: one function per question id.

The notebook widget calls a question's experiment when the student presses **Run the model**
(never before), and the answer key calls the same function for its numbers; the answer a
function returns must be the answer the lesson's data file gives (`check_outcome`), so a rule
change that alters an answer fails loudly instead of teaching a wrong explanation.

The boards and seeds are the lessons' own. An experiment may take what the lesson already
computed (lesson 5's 100,000 boards, lesson 7's game) so the notebook does not compute it
twice; without it, the experiment computes the same thing from the same seed.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from housing_lab._data import DataFileError
from housing_lab.errors import HousingLabError, shown
from housing_lab.questions.bank import Question, question


@dataclass(frozen=True)
class Outcome:
    """What the model did: the id of the choice that turned out right, and the numbers to
    show (one or two sentences, HTML allowed)."""

    answer: str
    result: str


EXPERIMENTS: dict[str, Callable[..., Outcome]] = {}


def experiment(question_id: str) -> Callable[[Callable[..., Outcome]], Callable[..., Outcome]]:
    """Register the function below as the experiment of `question_id`."""

    def register(function: Callable[..., Outcome]) -> Callable[..., Outcome]:
        EXPERIMENTS[question_id] = function
        return function

    return register


def check_inputs(question_id: str, inputs: dict[str, Any]) -> Question:
    """The predict question `question_id`, if its experiment takes `inputs` (else one line)."""
    asked = question(question_id)
    if asked.kind != "predict" or question_id not in EXPERIMENTS:
        raise DataFileError(f"question {question_id!r} is not a predict-then-run question")
    try:
        inspect.signature(EXPERIMENTS[question_id]).bind(**inputs)
    except TypeError:
        takes = list(inspect.signature(EXPERIMENTS[question_id]).parameters)
        raise HousingLabError(
            f"{question_id}'s experiment takes {takes or 'nothing'}, not {sorted(inputs)}"
        ) from None
    return asked


def run_experiment(question_id: str, **inputs: Any) -> Outcome:
    """Run the experiment of a predict question and check its answer against the data file."""
    asked = check_inputs(question_id, inputs)
    return check_outcome(asked, EXPERIMENTS[question_id](**inputs))


def check_outcome(asked: Question, outcome: Outcome) -> Outcome:
    """`outcome` if the engine's answer is the data file's; else one line naming both."""
    if outcome.answer != asked.answer:
        raise HousingLabError(
            f"the model answers {shown(outcome.answer)} to {asked.id!r}, but lesson "
            f"{asked.lesson}'s data file says {asked.answer!r}: the rules or the data changed"
        )
    return outcome


def direction(before: float, after: float) -> str:
    """The choice id of a before/after prediction: "more", "same" or "fewer"."""
    return "more" if after > before else "same" if after == before else "fewer"


def _score(tiles: dict[str, str], policies: list[str], seed: int, model: Any = None) -> dict:
    from housing_lab.north_berkeley import make_scenario, score_scenario

    return score_scenario(make_scenario(tiles, policies, seed=seed, model=model)).to_dict()


# The lessons' boards (lesson 2's example; lesson 3's market rate and public housing boards).
EXAMPLE_2 = {"B1": "tower_market", "C1": "tower_inclusionary_25", "B2": "midrise_workforce"}
EXAMPLE_2 = {**EXAMPLE_2, "C2": "park"}
MARKET_RATE = {
    "B1": "tower_market",
    "C1": "tower_inclusionary_25",
    "B2": "tower_market",
    "C2": "midrise_market",
    "A1": "townhouse_market",
    "A2": "midrise_inclusionary_50",
    "A3": "tower_inclusionary_25",
    "B3": "midrise_market",
    "C3": "park",
}
PUBLIC_HOUSING = {
    "B1": "tower_public",
    "C1": "tower_public",
    "B2": "midrise_public",
    "C2": "townhouse_low",
    "A1": "park",
    "A2": "midrise_public",
    "A3": "tower_public",
    "B3": "townhouse_low",
    "C3": "park",
}
SINGLE_POLICIES = ("vacancy_control", "adu", "matching_funds", "affordable_100")


def _gap(gap: float, margin: float, more: str, same: str, less: str) -> str:
    return more if gap > margin else less if gap < -margin else same


@experiment("l1-swap-tower")
def swap_the_tower() -> Outcome:
    before = _score({"B1": "tower_market"}, [], 1)["housed"]
    after = _score({"B1": "tower_public"}, [], 1)["housed"]
    low, middle = after["low"] - before["low"], after["middle"] - before["middle"]
    answer = "no-change" if low == middle == 0 else "middle-loses" if middle < 0 else "no-loser"
    return Outcome(
        answer,
        f"low income housed {before['low']} → {after['low']}, middle income housed "
        f"{before['middle']} → {after['middle']}, high income {before['high']} → "
        f"{after['high']}.",
    )


@experiment("l2-swap-b1")
def swap_b1() -> Outcome:
    before = _score(EXAMPLE_2, [], 1)["housed"]
    after = _score({**EXAMPLE_2, "B1": "tower_public"}, [], 1)["housed"]
    return Outcome(
        direction(before["middle"], after["middle"]),
        f"middle income housed {before['middle']} → {after['middle']}; low income housed "
        f"{before['low']} → {after['low']}.",
    )


@experiment("l3-vacancy-control")
def empty_low_homes() -> Outcome:
    before = _score(PUBLIC_HOUSING, [], 3)["vacant"]["low"]
    after = _score(PUBLIC_HOUSING, ["vacancy_control"], 3)["vacant"]["low"]
    return Outcome(
        direction(before, after),
        f"{before} of the 18 new low income homes stay empty with no policy, {after} with "
        "vacancy control.",
    )


@experiment("l3-market-or-public")
def low_income_by_board() -> Outcome:
    market, public = _score(MARKET_RATE, [], 3), _score(PUBLIC_HOUSING, [], 3)
    gap = public["housed"]["low"] - market["housed"]["low"]
    return Outcome(
        _gap(gap, 2, "public", "about-the-same", "market"),
        f"market rate board: {market['housed']['low']} low income residents housed for "
        f"${market['spending']}; public housing board: {public['housed']['low']} for "
        f"${public['spending']}, and {sum(public['displaced'].values())} residents displaced.",
    )


@experiment("l4-developer-and-affordable")
def developer_and_affordable() -> Outcome:
    from housing_lab.north_berkeley import solve

    best = solve(["developer", "affordable_housing_orgs"], seed=0)
    return Outcome(
        "yes" if best.score == 2 else "no",
        f"the exact solver's best board for the pair scores {best.score} (2 means both +1).",
    )


@experiment("l5-best-single-policy")
def best_single_policy(boards: Any = None) -> Outcome:
    """`boards`: the lesson's sweep of 100,000 random boards (seed 6), if already made."""
    from housing_lab.north_berkeley import policy_set_name, random_boards, sweep

    if boards is None:
        boards = sweep(random_boards(100_000, seed=6))
    low = boards.groupby("policies", observed=True)["housed_low"].mean()
    singles = {policy: float(low[policy]) for policy in SINGLE_POLICIES}
    best = max(singles, key=singles.__getitem__)
    ranked = sorted(singles, key=singles.__getitem__, reverse=True)
    averages = "; ".join(f"{policy_set_name(p)}: {singles[p]:.2f}" for p in ranked)
    return Outcome(
        best.replace("_", "-"),
        f"{averages} low income residents housed on average (of 12).",
    )


@experiment("l6-line-reaches")
def line_reaches() -> Outcome:
    from housing_lab.streetcar import line_experiment, line_experiment_summary

    games = 40
    table = line_experiment_summary(line_experiment(games, seed=2))
    near, far = table["connect"], table["avoid"]
    return Outcome(
        _gap(near["score"] - far["score"], 3, "reaches", "about-the-same", "avoids"),
        f"over {games} games, {near['score']:.1f} points on average against "
        f"{far['score']:.1f}, with {near['separate_lines']:.0f} line each and the same houses "
        f"removed ({near['houses_removed']:.1f} per game on average).",
    )


STATE_FILLS_7 = 2_000  # lesson 7: the state's random fills of phase 2 behind the game's phase 1


@experiment("l7-affordable-100")
def affordable_in_phase_2(game: Any = None) -> Outcome:
    """`game`: the lesson's computer-played game (three teams, seed 7), if already played.
    Its phase 1 stays; the state fills phase 2 at random, without and with 100% Affordable."""
    from housing_lab.north_berkeley import play_random_game, state_fills, sweep

    if game is None:
        game = play_random_game(["Red", "Blue", "Green"], seed=7)
    final = game.scenario()
    phase_1 = {s: final.tiles[s] for s in game.layout.phases[1] if s in final.tiles}

    def fills(policies: list[str]) -> tuple[float, float, float]:
        boards = sweep(
            state_fills(phase_1, STATE_FILLS_7, 7, policies=policies, existing=final.existing)
        )
        displaced = boards["displaced_low"] + boards["displaced_middle"]
        return boards["housed_low"].mean(), displaced.mean(), boards["spending"].mean()

    (low, lost, cost), (low_100, lost_100, cost_100) = fills([]), fills(["affordable_100"])
    return Outcome(
        _gap(low_100 - low, 0.5, "more", "about-the-same", "fewer"),
        f"over {STATE_FILLS_7:,} state fills of phase 2, low income residents housed "
        f"{low:.2f} → {low_100:.2f} on average (of 12); existing residents displaced "
        f"{lost:.2f} → {lost_100:.2f}; public spending ${cost:.2f} → ${cost_100:.2f}.",
    )


NO_FILTERING = {"market_homes_for": ["high"]}  # lesson 8's switch: new market homes, high only
COALITION = ["developer", "affordable_housing_orgs"]  # lesson 4's pair


@experiment("l8-no-filtering")
def no_filtering() -> Outcome:
    def result(tiles: dict[str, str], model: Any) -> dict:
        return _score(tiles, [], 3, model)  # lesson 3's boards and seed

    market, public = result(MARKET_RATE, NO_FILTERING), result(PUBLIC_HOUSING, NO_FILTERING)
    low = market["housed"]["low"], public["housed"]["low"]
    return Outcome(
        _gap(low[1] - low[0], 2, "public", "about-the-same", "market"),
        f"with no filtering the market rate board houses {low[0]} low income residents and "
        f"leaves {market['vacant']['market']} new market rate homes empty; the public housing "
        f"board houses {low[1]} (rulebook: {result(MARKET_RATE, None)['housed']['low']} and "
        f"{result(PUBLIC_HOUSING, None)['housed']['low']}).",
    )


@experiment("l8-coalition")
def coalition_solved_again() -> Outcome:
    from housing_lab.north_berkeley import solve

    best = solve(COALITION, seed=0, model=NO_FILTERING)
    return Outcome(
        "yes" if best.score == 2 else "no",
        f"the exact solver's best board with no filtering scores {best.score} for the pair "
        "(2 means both +1).",
    )

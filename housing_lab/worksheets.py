"""Printable worksheets, exit tickets and the answer key for the eight lessons, as HTML.

A class without a laptop each, or a teacher who wants a written record, needs paper: one page
per lesson with the lesson's "predict, then run" questions (a box for the prediction, one for
what the model did, one for why), and an exit ticket to hand in. The answer key computes its
numbers with the engine, so it cannot drift from the lessons. Print from the browser (the pages
carry print CSS); no PDF library is needed.

    python -m housing_lab.worksheets OUT_FOLDER      # writes lesson-1.html .. answer-key.html
"""

from __future__ import annotations

import html
import pathlib
import sys
from collections.abc import Callable
from dataclasses import dataclass

from housing_lab.errors import HousingLabError, shown
from housing_lab.outputs import write_files

STYLE = """
body { font-family: system-ui, sans-serif; font-size: 15px; line-height: 1.4; margin: 24px;
       color: #102a43; max-width: 46em; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 18px 0 6px; }
.meta { color: #486581; margin-bottom: 12px; }
.q { border: 1px solid #9fb3c8; border-radius: 6px; padding: 8px 12px; margin: 10px 0;
     break-inside: avoid; }
.box { border: 1px dashed #829ab1; min-height: 3.2em; margin: 4px 0 8px; padding: 4px; }
.label { font-size: 13px; font-weight: 700; color: #334e68; text-transform: uppercase; }
.ticket { border: 2px solid #334e68; padding: 8px 12px; margin-top: 18px; break-inside: avoid; }
.answer { background: #f0f4f8; padding: 6px 10px; margin: 4px 0 10px; }
h3 { font-size: 15px; margin: 12px 0 4px; }
.rubric { border-collapse: collapse; margin: 4px 0 10px; }
.rubric th, .rubric td { border: 1px solid #9fb3c8; padding: 4px 8px; text-align: left;
                         vertical-align: top; }
@media print { body { margin: 12mm; } .q, .ticket { page-break-inside: avoid; } }
"""


@dataclass(frozen=True)
class Worksheet:
    """One lesson's sheet: predictions to commit to, and the exit ticket's questions."""

    lesson: int
    title: str
    predictions: tuple[str, ...]
    exit_ticket: tuple[str, ...]

    @property
    def minutes(self) -> int:
        """From LESSON_MINUTES, the one timing table the guide and the lessons also use."""
        return LESSON_MINUTES[self.lesson]


# Minutes per lesson, each with 5 minutes to start up (Binder or the lab machines) and 5 for the
# exit ticket: the teacher's guide's timing table and every lesson's header say the same
# (tests/test_lesson_timing.py checks them against this table). Lesson 7 is 5 minutes of setup,
# CLASSROOM_GAME_MINUTES of the game, 15 of debrief and 5 of exit ticket.
LESSON_MINUTES: dict[int, int] = {1: 30, 2: 40, 3: 50, 4: 45, 5: 40, 6: 45, 7: 60, 8: 40}
# The classroom game (lesson 7 and the 75-minute plan), with two 8-minute negotiation timers.
CLASSROOM_GAME_MINUTES = 35
# The concept check (lessons/concept_check.md), given twice: before lesson 1 and after the last
# lesson taught.
CONCEPT_CHECK_MINUTES = 10
UNIT_MINUTES = sum(LESSON_MINUTES.values()) + 2 * CONCEPT_CHECK_MINUTES

WORKSHEETS = (
    Worksheet(
        1,
        "Start here",
        (
            "Replace the Market Rate Tower on B1 with a Low Income Public Housing Tower. What "
            "happens to low and middle income residents?",
        ),
        (
            "In one sentence: what is displacement?",
            "Define transit-oriented development, and say why a BART station is a place for it.",
        ),
    ),
    Worksheet(
        2,
        "Build the neighbourhood",
        (
            "In the example board, swap the Market Rate Tower on B1 for a Low Income Public "
            "Housing Tower. More, the same or fewer middle income residents housed?",
        ),
        (
            "Write the move-in order in three steps.",
            "Name one thing the model leaves out, and how it could change the result.",
        ),
    ),
    Worksheet(
        3,
        "Policies, side by side",
        (
            "On the public housing board, enact vacancy control. Will more, the same or fewer "
            "of the 18 new low income homes stay empty?",
            "In this model, with no policy, which board houses more low income residents: "
            "market rate or public housing?",
        ),
        (
            "Vacancy control protects existing tenants. Who pays for it, in the model?",
            "Why can no California city enact the game's Vacancy Control card today?",
        ),
    ),
    Worksheet(
        4,
        "Who wants what",
        ("Can the Developer and Affordable Housing Organizations both score +1 on one board?",),
        (
            "Name a conflict about money, one about who is housed, and one about place.",
            "Which card would you add to your coalition, and what would you trade for it?",
        ),
    ),
    Worksheet(
        5,
        "When the state steps in",
        (
            "In this model, over 100,000 random boards, which single policy houses the most "
            "low income residents on average?",
        ),
        (
            "When is it rational for a table to let the state decide?",
            "Why can the model not show what matching funds are really for?",
        ),
    ),
    Worksheet(
        6,
        "Streetcar",
        (
            "In this game's scoring, with the same houses removed and the same number of "
            "lines: does the player whose line reaches the buildings score more, the same, or "
            "less?",
        ),
        (
            "What did Berkeley's 1916 zoning rule forbid, and what did the city decide in 2021?",
            "In the game's scoring, why is a removed house worth more when a line reaches "
            "it? Is that true of real cities, and what evidence would tell you?",
        ),
    ),
    Worksheet(
        7,
        "A classroom game",
        (
            "Add Vacancy Control to the computer's finished board: more, the same or fewer low "
            "income residents housed?",
        ),
        (
            "Which real stakeholder did your team's cards stand for?",
            "Who was affected by your table's board but had no card?",
        ),
    ),
    Worksheet(
        8,
        "Question the model",
        (
            "Suppose only high income newcomers can rent a brand-new market rate home (slow "
            "filtering). Which board now houses more low income residents: lesson 3's market "
            "rate board, its public housing board, or still about the same?",
        ),
        (
            "Name one conclusion of lesson 3 or lesson 4 that changed when one assumption was "
            "switched, and the assumption it rested on.",
            "Pick one of the four assumptions (filtering, demand, Costa-Hawkins, budget). What "
            "does the real evidence say, and is the rulebook or the switch closer to it?",
        ),
    ),
)


def worksheet_for(lesson: object) -> Worksheet:
    """The worksheet of lesson 1..8, or a HousingLabError naming the bad number."""
    for sheet in WORKSHEETS:
        if type(lesson) is int and sheet.lesson == lesson:
            return sheet
    raise HousingLabError(
        f"no lesson {lesson!r}: worksheets exist for lessons 1 to {WORKSHEETS[-1].lesson}"
    )


def _page(title: str, body: str) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head>"
        f"<body>{body}</body></html>\n"
    )


def worksheet_html(lesson: object) -> str:
    """A printable worksheet with the lesson's predictions and its exit ticket."""
    sheet = worksheet_for(lesson)
    parts = [
        f"<h1>Lesson {sheet.lesson} · {html.escape(sheet.title)}</h1>",
        f"<div class='meta'>Name: ______________________ &nbsp; Date: ____________ &nbsp; "
        f"(about {sheet.minutes} minutes)</div>",
        "<h2>Predict, then run</h2>",
        "<p>Write your prediction <b>before</b> you find out: in a notebook, before you press "
        "<i>Run the model</i>; in the lab app, before you build the board or tick the policy.</p>",
    ]
    for number, question in enumerate(sheet.predictions, start=1):
        parts.append(
            f"<div class='q'><b>{number}. {html.escape(question)}</b>"
            "<div class='label'>My prediction</div><div class='box'></div>"
            "<div class='label'>What the model did (numbers)</div><div class='box'></div>"
            "<div class='label'>Why (the mechanism)</div><div class='box'></div></div>"
        )
    parts.append("<div class='ticket'><h2>Exit ticket</h2>")
    for number, question in enumerate(sheet.exit_ticket, start=1):
        parts.append(f"<p><b>{number}. {html.escape(question)}</b></p><div class='box'></div>")
    parts.append("</div>")
    return _page(f"Lesson {sheet.lesson} worksheet", "".join(parts))


# --- the answer key: numbers from the engine -------------------------------------------------


def _housed(tiles: dict[str, str], policies: list[str], seed: int) -> dict:
    from housing_lab.north_berkeley import make_scenario, score_scenario

    return score_scenario(make_scenario(tiles, policies, seed=seed)).to_dict()


def _key_1() -> str:
    before = _housed({"B1": "tower_market"}, [], 1)["housed"]
    after = _housed({"B1": "tower_public"}, [], 1)["housed"]
    return (
        f"Low income housed {before['low']} → {after['low']}, middle income {before['middle']} "
        f"→ {after['middle']}: the high income newcomers lose the market rate homes and "
        "displace more middle income residents. The shortage moves, it does not vanish."
    )


EXAMPLE_2 = {"B1": "tower_market", "C1": "tower_inclusionary_25", "B2": "midrise_workforce"}
EXAMPLE_2 = {**EXAMPLE_2, "C2": "park"}
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


def _key_2() -> str:
    before = _housed(EXAMPLE_2, [], 1)["housed"]["middle"]
    after = _housed({**EXAMPLE_2, "B1": "tower_public"}, [], 1)["housed"]["middle"]
    return (
        f"Fewer: middle income housed {before} → {after}. High income newcomers displace low "
        "income residents first, then middle income ones."
    )


def _key_3() -> str:
    empty = _housed(PUBLIC_HOUSING, [], 3)["vacant"]["low"]
    controlled = _housed(PUBLIC_HOUSING, ["vacancy_control"], 3)
    market, public = _housed(MARKET_RATE, [], 3), _housed(PUBLIC_HOUSING, [], 3)
    return (
        f"(1) More: {empty} → {controlled['vacant']['low']} empty low income homes. Nobody is "
        "displaced, so only the newcomers look for the new homes; "
        f"{controlled['outcomes']['high']['newcomer_left']} high income newcomers are turned "
        f"away. (2) In this model, about the same: {market['housed']['low']} low income "
        "residents housed for "
        f"${market['spending']} on the market rate board, {public['housed']['low']} for "
        f"${public['spending']} on the public housing board. The model fills empty market rate "
        "homes with low income newcomers at once (instant filtering); real new homes rent high."
    )


def _key_7() -> str:
    from housing_lab.north_berkeley import make_scenario, score_scenario
    from housing_lab.north_berkeley.play.autoplay import play_random_game

    final = play_random_game(["Red", "Blue", "Green"], seed=7).scenario()
    before = score_scenario(final).to_dict()
    policies = list(dict.fromkeys([*final.policies, "vacancy_control"]))
    after = score_scenario(make_scenario(final.tiles, policies, final.existing)).to_dict()
    return (
        f"Low income housed {before['housed']['low']} → {after['housed']['low']}: "
        f"{before['displaced']['low'] + before['displaced']['middle']} residents were displaced "
        "on that board, and vacancy control only stops displacement."
    )


def _key_5() -> str:
    from housing_lab.north_berkeley.batch.sweep import random_boards, sweep
    from housing_lab.north_berkeley.names import policy_set_name

    boards = sweep(random_boards(100_000, seed=6))  # the lesson's boards
    low = boards.groupby("policies", observed=True)["housed_low"].mean()
    singles = {policy_set_name(p): low[p] for p in SINGLE_POLICIES}
    ranked = sorted(singles, key=singles.__getitem__, reverse=True)
    averages = ", ".join(f"{name} {singles[name]:.2f}" for name in ranked)
    return (
        f"{ranked[0]} (average low income residents housed, of 12: {averages}). Each policy "
        "acts on a different move-in step; vacancy control keeps the existing low income "
        "residents in place whatever is built."
    )


def _key_6() -> str:
    from housing_lab.streetcar.line_experiment import line_experiment, summary

    table = summary(line_experiment(40, seed=2))  # the lesson's experiment
    near, far = table["connect"], table["avoid"]
    return (
        f"The line that reaches the buildings: {near['score']:.1f} against {far['score']:.1f} "
        f"points on average over 40 games, {near['separate_lines']:.0f} line each and the same "
        "houses removed. A removed house scores only for the cubes its owner's lines connect."
    )


def _key_8() -> str:
    from housing_lab.north_berkeley import make_scenario, score_scenario

    def low(tiles: dict[str, str], model: dict | None) -> int:
        board = make_scenario(tiles, [], seed=3, model=model)  # lesson 3's boards and seed
        return score_scenario(board).to_dict()["housed"]["low"]

    slow = {"market_homes_for": ["high"]}
    return (
        f"Public housing, by far: with slow filtering the market rate board houses "
        f"{low(MARKET_RATE, slow)} low income residents (rulebook: {low(MARKET_RATE, None)}), "
        f"the public housing board still {low(PUBLIC_HOUSING, slow)}. The market rate board "
        "housed low income newcomers only because the rulebook lets them rent the market rate "
        "homes left over; the public housing board does not depend on filtering. Lesson 3's "
        "'about the same' was a result of one assumption."
    )


SINGLE_POLICIES = ("vacancy_control", "adu", "matching_funds", "affordable_100")
ANSWER_KEY: dict[int, Callable[[], str]] = {
    1: _key_1,
    2: _key_2,
    3: _key_3,
    4: lambda: (
        "Yes, in this model: the exact solver finds a board of only market rate buildings where "
        "both score +1, because the model lets low income newcomers rent the market rate homes "
        "left over. With slower, partial filtering that board may not exist."
    ),
    5: _key_5,
    6: _key_6,
    7: _key_7,
    8: _key_8,
}


def _qa(question: str, answer: str) -> str:
    return f"<p><b>{html.escape(question)}</b></p><div class='answer'>{html.escape(answer)}</div>"


def _rubric(rows: tuple[tuple[str, str], ...], heading: str) -> str:
    cells = "".join(f"<tr><th>{html.escape(a)}</th><td>{html.escape(b)}</td></tr>" for a, b in rows)
    return f"<h3>{html.escape(heading)}</h3><table class='rubric'>{cells}</table>"


def answer_key_html() -> str:
    """The teacher's key: each prediction's answer with the engine's numbers, then the exit
    tickets' and check-yourself questions' model answers, and the rubrics (worksheet_keys)."""
    from housing_lab.worksheet_keys import (
        MEMO_RUBRIC,
        MEMO_TOTAL,
        QUIZ_KEYS,
        TICKET_KEYS,
        TICKET_RUBRIC,
    )

    parts = ["<h1>Answer key</h1>", _rubric(TICKET_RUBRIC, "Marking an exit ticket (0 to 2)")]
    for sheet in WORKSHEETS:
        parts.append(f"<h2>Lesson {sheet.lesson} · {html.escape(sheet.title)}</h2>")
        parts.append("<h3>Predict, then run</h3>")
        for question in sheet.predictions:
            parts.append(f"<p><b>{html.escape(question)}</b></p>")
        parts.append(f"<div class='answer'>{html.escape(ANSWER_KEY[sheet.lesson]())}</div>")
        parts.append("<h3>Exit ticket</h3>")
        for question, answer in zip(sheet.exit_ticket, TICKET_KEYS[sheet.lesson], strict=True):
            parts.append(_qa(question, answer))
        parts.append("<h3>Check yourself (in the notebook)</h3>")
        parts += [_qa(question, answer) for question, answer in QUIZ_KEYS[sheet.lesson]]
    parts.append("<h2>Policy memo</h2>")
    parts.append(_rubric(MEMO_RUBRIC, f"Four criteria, 0 to 2 each (total {MEMO_TOTAL})"))
    parts.append(
        "<p>The pre/post concept check, five questions with its key, is the page "
        "<i>Concept check</i> in the lessons folder.</p>"
    )
    return _page("Answer key", "".join(parts))


def write_worksheets(folder: str | pathlib.Path, overwrite: bool = False) -> list[pathlib.Path]:
    """Write lesson-1.html .. lesson-8.html and answer-key.html into `folder`; an existing page
    (perhaps a teacher's edit) is refused unless `overwrite` (housing_lab.outputs)."""
    if not isinstance(overwrite, bool):
        raise HousingLabError(f"overwrite must be True or False, got {shown(overwrite)}")
    pages = {f"lesson-{s.lesson}.html": worksheet_html(s.lesson) for s in WORKSHEETS}
    pages["answer-key.html"] = answer_key_html()
    return write_files(pathlib.Path(folder), pages, overwrite)


if __name__ == "__main__":  # pragma: no cover - a thin command line
    try:
        for page in write_worksheets(sys.argv[1] if len(sys.argv) > 1 else "worksheets"):
            print(page)
    except HousingLabError as error:
        sys.exit(f"error: {error}")

"""Printable worksheets, exit tickets and the answer key for the eight lessons, as HTML.

A class without a laptop each, or a teacher who wants a written record, needs paper: one page
per lesson with the lesson's "predict, then run" questions (its choices, a box for the
prediction, one for what the model did, one for why), and an exit ticket to hand in. The
questions, their answers and explanations come from the lessons' data files
(housing_lab/questions), the same the notebook widgets read, and the answer key runs the same
engine experiments the widgets run, so neither can drift from the lessons. Print from the
browser (the pages carry print CSS); no PDF library is needed.

    python -m housing_lab.worksheets OUT_FOLDER      # writes lesson-1.html .. answer-key.html
"""

from __future__ import annotations

import html
import pathlib
import sys
from dataclasses import dataclass

from housing_lab.errors import HousingLabError, shown
from housing_lab.outputs import write_files
from housing_lab.questions import Question, lesson_questions

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
.choices { margin: 4px 0 6px; padding-left: 1.4em; }
h3 { font-size: 15px; margin: 12px 0 4px; }
.rubric { border-collapse: collapse; margin: 4px 0 10px; }
.rubric th, .rubric td { border: 1px solid #9fb3c8; padding: 4px 8px; text-align: left;
                         vertical-align: top; }
@media print { body { margin: 12mm; } .q, .ticket { page-break-inside: avoid; } }
"""


@dataclass(frozen=True)
class Worksheet:
    """One lesson's sheet: its predictions (from the lesson's data file) and the exit
    ticket's questions."""

    lesson: int
    title: str
    exit_ticket: tuple[str, ...]
    # Questions the lesson asks the class to answer in writing (lesson 7's debrief, lesson 8's
    # "Your turn"), with space on the sheet and keys in worksheet_keys.TASK_KEYS.
    tasks: tuple[str, ...] = ()
    tasks_heading: str = "In the lesson"

    @property
    def predictions(self) -> tuple[Question, ...]:
        """The lesson's "predict, then run" questions, in the lesson's order."""
        return tuple(q for q in lesson_questions(self.lesson) if q.kind == "predict")

    @property
    def check_yourself(self) -> tuple[Question, ...]:
        """The lesson's other questions (multiple choice, and answers to reveal)."""
        return tuple(q for q in lesson_questions(self.lesson) if q.kind != "predict")

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

# Lesson 7's debrief, its four steps as the lesson prints them (tests/test_assessment.py).
DEBRIEF_7 = (
    "Sort the cards: sort your team's cards into the four groups of the table. Which group did "
    "your table's board serve best, and which worst? Quote the final scores.",
    "Map to real people: for two of your cards, name who stood for them in the real debate "
    "(the table's last column). If a card had no real voice, what would a real group with that "
    "view have said at a hearing?",
    "The state: AB 2923 (2018) required zoning for at least 7 stories and 75 homes per acre, at "
    "most one parking space for every two homes and 20% of the homes affordable, before any "
    "plan was drawn, and AB 2011 (2022) let the city approve the project without a public "
    'hearing. How is that like, and unlike, "calling the state" in the game?',
    "The real plan in numbers: compare your table's final board with the real plan (739 "
    "homes, 381 of them (52%) affordable, three to eight stories, a parking garage) and with "
    "lesson 4's solver board for the Developer and Affordable Housing Organizations (5 Market "
    "Rate Towers and 4 Market Rate Townhouses: 24 of its 24 new homes market rate, none "
    "affordable, towers, no garage): for each, the share of the new homes that are affordable "
    "(low or middle income), the tallest building, and the garages. Then name one card whose "
    "goal the real plan would meet, and one it would not, with the feature of the plan that "
    "decides each.",
)

WORKSHEETS = (
    Worksheet(
        1,
        "Start here",
        (
            "In one sentence: what is displacement?",
            "Define transit-oriented development, and say why a BART station is a place for it.",
        ),
    ),
    Worksheet(
        2,
        "Build the neighbourhood",
        (
            "Write the move-in order in three steps.",
            "Name one thing the model leaves out, and how it could change the result.",
        ),
    ),
    Worksheet(
        3,
        "Policies, side by side",
        (
            "Vacancy control protects existing tenants. Who pays for it, in the model?",
            "Why can no California city enact the game's Vacancy Control card today?",
        ),
    ),
    Worksheet(
        4,
        "Who wants what",
        (
            "Name a conflict about money, one about who is housed, and one about place.",
            "Which card would you add to your coalition, and what would you trade for it?",
            "Pick one card from your hand and name the real actor in the table The real debate "
            "that it stands for, and what that actor asked for (or say that the card had no real "
            "voice).",
        ),
    ),
    Worksheet(
        5,
        "When the state steps in",
        (
            "When is it rational for a table to let the state decide?",
            "Under the rulebook, why can the model not show what matching funds are really for?",
        ),
        tasks=(
            "Design a \"call the state\" rule closer to California's, using the lesson's table "
            "of the state's tools. Which cards would it please, and which not?",
        ),
    ),
    Worksheet(
        6,
        "Streetcar",
        (
            "What did Berkeley's 1916 zoning rule forbid, and what did the city decide in 2021?",
            "In the game's scoring, why is a removed house worth more when a line reaches "
            "it? Is that true of real cities, and what evidence would tell you?",
            "In the game, every removed limit makes a building appear. About what share of "
            "Minneapolis's new homes came from ending single-family-only zoning, and why? Give "
            "two reasons.",
        ),
    ),
    Worksheet(
        7,
        "A classroom game",
        (
            "In the model, did 100% Affordable in phase 2 help low income residents? Give the "
            "mechanism, and one assumption the answer rests on.",
            "Who was affected by your table's board but had no card?",
        ),
        tasks=DEBRIEF_7,
        tasks_heading="Debrief (15 minutes, with your team)",
    ),
    Worksheet(
        8,
        "Question the model",
        (
            "Name one conclusion of lesson 3, 4 or 5 that changed when one assumption was "
            "switched, and the assumption it rested on.",
            "Pick one of the four assumptions (filtering, demand, Costa-Hawkins, budget). What "
            "does the real evidence say, and is the rulebook or the switch closer to it?",
        ),
        tasks=(
            "First lab, Assumptions: who can rent a new market-rate home? Choose High income only."
            " How many low income residents are housed, and how many new market rate homes are "
            "left empty?",
            "First lab, back to the rulebook: set High income newcomers to 4, then to 14. How many"
            " low income residents are housed each time?",
            "Second lab (the public housing board, Vacancy Control enacted): choose apartments "
            "only for vacancy control. How many residents are displaced?",
            "First lab: tick Limit what the city can spend and lower the budget. Which tiles turn "
            "grey, and what does the lab say when you click one?",
            "Which of your four answers would change lesson 3's conclusion? Say which assumption "
            "it rested on.",
        ),
        tasks_heading="Your turn: flip the switches yourself",
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
        choices = "".join(f"<li>{html.escape(c.text)}</li>" for c in question.choices)
        parts.append(
            f"<div class='q'><b>{number}. {html.escape(question.prompt)}</b>"
            f"<ul class='choices'>{choices}</ul>"
            "<div class='label'>My prediction</div><div class='box'></div>"
            "<div class='label'>What the model did (numbers)</div><div class='box'></div>"
            "<div class='label'>Why (the mechanism)</div><div class='box'></div></div>"
        )
    if sheet.tasks:
        parts.append(f"<h2>{html.escape(sheet.tasks_heading)}</h2>")
        for number, task in enumerate(sheet.tasks, start=1):
            parts.append(
                f"<div class='q'><b>{number}. {html.escape(task)}</b><div class='box'></div>"
                "<div class='box'></div></div>"
            )
    parts.append("<div class='ticket'><h2>Exit ticket</h2>")
    for number, question in enumerate(sheet.exit_ticket, start=1):
        parts.append(f"<p><b>{number}. {html.escape(question)}</b></p><div class='box'></div>")
    parts.append("</div>")
    return _page(f"Lesson {sheet.lesson} worksheet", "".join(parts))


# --- the answer key: numbers from the engine -------------------------------------------------


def prediction_key(question: Question) -> str:
    """A prediction's answer, what the engine computes for it (the experiment the notebook's
    widget runs at the reveal), and why."""
    from housing_lab.questions import run_experiment

    outcome = run_experiment(question.id)
    return f"{question.answer_text}. The model: {outcome.result} Why: {question.explanation}"


def _qa(question: str, answer: str) -> str:
    return f"<p><b>{html.escape(question)}</b></p><div class='answer'>{html.escape(answer)}</div>"


def _rubric(rows: tuple[tuple[str, str], ...], heading: str) -> str:
    cells = "".join(f"<tr><th>{html.escape(a)}</th><td>{html.escape(b)}</td></tr>" for a, b in rows)
    return f"<h3>{html.escape(heading)}</h3><table class='rubric'>{cells}</table>"


def answer_key_html() -> str:
    """The teacher's key: each prediction's answer with the engine's numbers, then the exit
    tickets' model answers (worksheet_keys), the check-yourself questions' keys (the lessons'
    data files), and the rubrics."""
    from housing_lab.worksheet_keys import (
        MEMO_RUBRIC,
        MEMO_TOTAL,
        TASK_KEYS,
        TICKET_KEYS,
        TICKET_RUBRIC,
    )

    parts = ["<h1>Answer key</h1>", _rubric(TICKET_RUBRIC, "Marking an exit ticket (0 to 2)")]
    for sheet in WORKSHEETS:
        parts.append(f"<h2>Lesson {sheet.lesson} · {html.escape(sheet.title)}</h2>")
        parts.append("<h3>Predict, then run</h3>")
        parts += [_qa(question.prompt, prediction_key(question)) for question in sheet.predictions]
        if sheet.tasks:
            parts.append(f"<h3>{html.escape(sheet.tasks_heading)}</h3>")
            for task, answer in zip(sheet.tasks, TASK_KEYS[sheet.lesson], strict=True):
                parts.append(_qa(task, answer))
        parts.append("<h3>Exit ticket</h3>")
        for question, answer in zip(sheet.exit_ticket, TICKET_KEYS[sheet.lesson], strict=True):
            parts.append(_qa(question, answer))
        parts.append("<h3>Check yourself (in the notebook)</h3>")
        parts += [_qa(question.prompt, question.key) for question in sheet.check_yourself]
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

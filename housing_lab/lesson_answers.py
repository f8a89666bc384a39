"""What a lesson's prediction explains once a student has locked in a choice.

A predict cell shows its question and its choices; the explanation and the reasons against
each wrong choice are the answer, so they live here, out of the cell's visible source. A cell
asks `answer_text(8, "no_filtering")` and passes the result to `PredictThenRun`. (Lesson 8's
predictions for now; lessons 1-7 keep theirs in their own data.)

Sentences here that state what the model does are claims backed by the engine
(tools/lesson_sources/claims/, tests/test_lesson_claims.py).
"""

from __future__ import annotations

from typing import Any

from housing_lab.errors import HousingLabError

NO_FILTERING_CHOICES = ("Still about the same", "Public housing, by far", "Market rate, by far")
COALITION_CHOICES = ("Yes, on some board", "No, never")

ANSWERS: dict[tuple[int, str], dict[str, Any]] = {
    (8, "no_filtering"): {
        "explanation": (
            "The market rate board housed low income newcomers only because the rulebook lets "
            "them rent the market rate homes left over. With no filtering those homes stay "
            "empty, and newcomers who may not rent them either outbid low income residents who "
            "lived here. The public housing board does not depend on filtering, so its number "
            "does not move. Lesson 3's 'about the same' was a result of one assumption."
        ),
        "why_not": {
            NO_FILTERING_CHOICES[0]: "Count who may rent the market rate board's homes now: "
            "low income newcomers may not.",
            NO_FILTERING_CHOICES[2]: "The public housing board's homes are for low income "
            "residents whatever the filtering switch says.",
        },
    },
    (8, "coalition"): {
        "explanation": (
            "Lesson 4's board fails with no filtering, but the coalition does not: the exact "
            "solver finds another board on which both score +1. With no filtering a low income "
            "newcomer can rent only an income-restricted home, so the solver swaps the market "
            "rate towers for inclusionary buildings: their market rate homes count for the "
            "Developer, and their affordable homes house the low income residents. Re-scoring "
            "tests one board; re-solving asks the question again."
        ),
        "why_not": {
            COALITION_CHOICES[1]: "Lesson 4's board needed filtering; other boards do not. "
            "Which buildings give the Developer market rate homes and low income residents "
            "homes they can rent?",
        },
    },
}


def answer_text(lesson: int, name: str) -> dict[str, Any]:
    """`explanation` and `why_not` for the prediction `name` of `lesson` (keyword arguments
    of `PredictThenRun`); an unknown one is one line naming it."""
    try:
        found = ANSWERS[(lesson, name)]
    except (KeyError, TypeError):
        raise HousingLabError(f"no prediction {name!r} in lesson {lesson!r}") from None
    return {"explanation": found["explanation"], "why_not": dict(found["why_not"])}

"""The lessons' questions as data (one TOML file per lesson) and the engine runs that answer
the "predict, then run" ones: read by the notebook widgets, the worksheets and the answer key."""

from housing_lab.questions.bank import (
    Choice,
    Question,
    all_questions,
    lesson_questions,
    question,
)
from housing_lab.questions.experiments import Outcome, run_experiment

__all__ = [
    "Choice",
    "Outcome",
    "Question",
    "all_questions",
    "lesson_questions",
    "question",
    "run_experiment",
]

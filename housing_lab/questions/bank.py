"""The lessons' questions as data: one TOML file per lesson (`data/lesson_N.toml`).

A question's answer, explanation and model answer live here, not in a notebook cell, so a
student reading the lesson's code sees the question and nothing of its answer. The notebook
widgets, the printed worksheets and the answer key all read the same file, and every question
and choice has a stable id (a class poll, or a script, names them).

Three kinds of question:

* `predict`: choose, lock in, then the engine runs (`experiments.py`) and must agree with
  `answer`; `explanation` and each wrong choice's `why_not` are shown after the run.
* `choice`: check-yourself multiple choice; `answer`, `explanation`, `why_not` as above.
* `open`: a question whose `model_answer` stays folded until the student opens it.

Every field is checked when a file is read; a bad one is one `HousingLabError` line naming the
file, the question and the value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from housing_lab._data import DataFileError, read_package_toml
from housing_lab.errors import shown

LESSONS = tuple(range(1, 9))
KINDS = ("predict", "choice", "open")
ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
# field -> kinds that need it (and no other kind may have it)
FIELDS: dict[str, tuple[str, ...]] = {
    "id": KINDS,
    "kind": KINDS,
    "prompt": KINDS,
    "choices": ("predict", "choice"),
    "answer": ("predict", "choice"),
    "explanation": ("predict", "choice"),
    "spoiled_by": ("predict",),
    "model_answer": ("open",),
}
CHOICE_FIELDS = ("id", "text")
OPTIONAL_CHOICE_FIELDS = ("why_not",)


@dataclass(frozen=True)
class Choice:
    """One option: a stable id, the words students read, and (for a wrong option) why not."""

    id: str
    text: str
    why_not: str = ""


@dataclass(frozen=True)
class Question:
    """One question of a lesson, as its data file declares it.

    `spoiled_by` (predict questions): text of a notebook cell (its code or its output) that
    runs or shows this question's experiment; no such cell may come before the question."""

    lesson: int
    id: str
    kind: str
    prompt: str
    choices: tuple[Choice, ...] = ()
    answer: str = ""
    explanation: str = ""
    model_answer: str = ""
    spoiled_by: tuple[str, ...] = ()

    def choice(self, choice_id: str) -> Choice:
        """The choice with this id, or a one-line error naming it."""
        for choice in self.choices:
            if choice.id == choice_id:
                return choice
        ids = [c.id for c in self.choices]
        raise DataFileError(
            f"question {self.id!r} has no choice {shown(choice_id)}; its choices are {ids}"
        )

    def choice_for_text(self, text: str) -> Choice:
        """The choice whose words are `text` (what a radio button sends back)."""
        for choice in self.choices:
            if choice.text == text:
                return choice
        raise DataFileError(f"question {self.id!r} has no choice reading {shown(text)}")

    @property
    def answer_text(self) -> str:
        """The right choice's words ("" for an open question)."""
        return self.choice(self.answer).text if self.answer else ""

    @property
    def key(self) -> str:
        """The answer as the answer key and the teacher's guide print it: the right choice and
        why, or the model answer."""
        if self.kind == "open":
            return self.model_answer
        return f"{self.answer_text}. {self.explanation}"

    @property
    def secrets(self) -> tuple[str, ...]:
        """Every text a student must not see before committing: explanation, why-nots and the
        model answer (the answer itself is one of the choices, named only by its id)."""
        texts = (self.explanation, self.model_answer, *(c.why_not for c in self.choices))
        return tuple(text for text in texts if text)


def _text(where: str, name: str, value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise DataFileError(f"{where}: {name} must be non-empty text, got {shown(value)}")
    return value.strip()


def _identifier(where: str, name: str, value: object) -> str:
    if not isinstance(value, str) or not ID.match(value):
        raise DataFileError(
            f"{where}: {name} must be lower-case words joined by '-', got {shown(value)}"
        )
    return value


def _choices(where: str, raw: object) -> tuple[Choice, ...]:
    if not isinstance(raw, list) or len(raw) < 2:
        raise DataFileError(f"{where}: choices must be a list of 2 or more, got {shown(raw)}")
    choices = []
    for number, item in enumerate(raw, start=1):
        place = f"{where} choice {number}"
        if not isinstance(item, dict):
            raise DataFileError(f"{place} must be a table, got {shown(item)}")
        unknown = set(item) - {*CHOICE_FIELDS, *OPTIONAL_CHOICE_FIELDS}
        missing = [name for name in CHOICE_FIELDS if name not in item]
        if unknown or missing:
            bad = sorted(unknown) or missing
            raise DataFileError(f"{place}: {'unknown' if unknown else 'missing'} field {bad[0]!r}")
        choice_id = _identifier(place, "id", item["id"])
        why_not = _text(place, "why_not", item["why_not"]) if "why_not" in item else ""
        choices.append(Choice(choice_id, _text(place, "text", item["text"]), why_not))
    for field in ("id", "text"):
        values = [getattr(c, field) for c in choices]
        repeated = next((v for v in values if values.count(v) > 1), None)
        if repeated is not None:
            raise DataFileError(f"{where}: two choices have the {field} {shown(repeated)}")
    return tuple(choices)


def _question(lesson: int, where: str, raw: object) -> Question:
    if not isinstance(raw, dict):
        raise DataFileError(f"{where} must be a table, got {shown(raw)}")
    kind = raw.get("kind")
    if kind not in KINDS:
        raise DataFileError(f"{where}: kind must be one of {list(KINDS)}, got {shown(kind)}")
    where = f"{where} ({shown(raw.get('id'))})"
    for name in raw:
        if name not in FIELDS or kind not in FIELDS[name]:
            raise DataFileError(f"{where}: a {kind} question has no field {name!r}")
    for name, kinds in FIELDS.items():
        if kind in kinds and name not in raw:
            raise DataFileError(f"{where}: missing field {name!r}")
    question_id = _identifier(where, "id", raw["id"])
    if not question_id.startswith(f"l{lesson}-"):
        raise DataFileError(f"{where}: a lesson {lesson} question's id starts with 'l{lesson}-'")
    fields: dict[str, Any] = {"prompt": _text(where, "prompt", raw["prompt"])}
    if kind == "open":
        fields["model_answer"] = _text(where, "model_answer", raw["model_answer"])
    else:
        fields["choices"] = _choices(where, raw["choices"])
        fields["explanation"] = _text(where, "explanation", raw["explanation"])
        fields["answer"] = raw["answer"]
        ids = [c.id for c in fields["choices"]]
        if raw["answer"] not in ids:
            raise DataFileError(f"{where}: answer {shown(raw['answer'])} is none of {ids}")
        if fields["choices"][ids.index(raw["answer"])].why_not:
            raise DataFileError(f"{where}: the answer {raw['answer']!r} has a why_not")
    if kind == "predict":
        marks = raw["spoiled_by"]
        if not isinstance(marks, list) or not marks:
            raise DataFileError(f"{where}: spoiled_by must be a list of texts, got {shown(marks)}")
        fields["spoiled_by"] = tuple(_text(where, "spoiled_by", mark) for mark in marks)
    return Question(lesson, question_id, kind, **fields)


def parse_lesson(lesson: int, data: dict[str, Any], name: str) -> tuple[Question, ...]:
    """A lesson's questions from its parsed TOML (`name` is the file, for messages)."""
    unknown = set(data) - {"questions"}
    if unknown:
        raise DataFileError(f"{name}: unknown top-level key {sorted(unknown)[0]!r}")
    raw = data.get("questions")
    if not isinstance(raw, list) or not raw:
        raise DataFileError(f"{name}: no [[questions]]")
    questions = tuple(
        _question(lesson, f"{name} question {number}", item)
        for number, item in enumerate(raw, start=1)
    )
    ids = [q.id for q in questions]
    repeated = next((i for i in ids if ids.count(i) > 1), None)
    if repeated is not None:
        raise DataFileError(f"{name}: two questions have the id {repeated!r}")
    return questions


@cache
def lesson_questions(lesson: int) -> tuple[Question, ...]:
    """Lesson `lesson`'s questions, in the order the lesson asks them."""
    if type(lesson) is not int or lesson not in LESSONS:
        raise DataFileError(f"no lesson {shown(lesson)}: lessons are numbered 1 to {LESSONS[-1]}")
    name = f"lesson_{lesson}.toml"
    return parse_lesson(lesson, read_package_toml("housing_lab.questions", name), name)


def all_questions() -> dict[str, Question]:
    """Every lesson's questions by id (ids are unique across lessons: they start `lN-`)."""
    return {q.id: q for lesson in LESSONS for q in lesson_questions(lesson)}


def question(question_id: object) -> Question:
    """The question with this id, or a one-line error naming it."""
    match = re.match(r"^l(\d)-", question_id) if isinstance(question_id, str) else None
    if match and int(match.group(1)) in LESSONS:
        for found in lesson_questions(int(match.group(1))):
            if found.id == question_id:
                return found
    raise DataFileError(
        f"no lesson question {shown(question_id)}: ids look like 'l3-vacancy-control'"
    )


def data_files() -> list[str]:
    """The data files' names (for the docs and the tests)."""
    folder = resources.files("housing_lab.questions").joinpath("data")
    return sorted(entry.name for entry in folder.iterdir() if entry.name.endswith(".toml"))

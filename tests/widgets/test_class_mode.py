"""A lesson's questions in class mode: the page's `#class=CODE` reaches the kernel, the
device's choice goes to the class's store, it may change until the teacher's reveal, and the
reveal unlocks the run (predict) or the answer (choice)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from housing_lab.rooms.class_poll import ClassStore
from housing_lab.widgets.lessons.class_link import class_store
from housing_lab.widgets.lessons.predict import PredictThenRun
from housing_lab.widgets.lessons.quiz import RIGHT, ChoiceQuestion

DEVICE = "device-key-widget-0001"


@pytest.fixture
def polls(tmp_path, monkeypatch) -> Iterator[ClassStore]:
    """The class's store, where the lesson's kernel finds it ($HOUSING_LAB_ROOMS)."""
    url = "sqlite:///" + str(tmp_path / "rooms.sqlite")
    monkeypatch.setenv("HOUSING_LAB_ROOMS", url)
    class_store.cache_clear()
    with ClassStore(url) as opened:
        yield opened
    class_store.cache_clear()


def page_opened(widget, code: str) -> None:
    """What class_link.js sends when the lesson's page has #class=CODE in its address."""
    widget.class_link._message(widget.class_link, {"class": code, "device": DEVICE}, [])


def tick(widget) -> None:
    widget.class_link._message(widget.class_link, {"tick": True}, [])


def test_a_prediction_goes_to_the_class_and_unlocks_on_reveal(polls) -> None:
    made = polls.create_class(3)
    code, token = made["class"], made["teacher"]["token"]
    question = PredictThenRun("l3-vacancy-control")
    page_opened(question, code)
    assert question.in_class and question.lock.description == "Send my answer"
    assert polls.tally(code, token)["joined"] == 1

    question.choice.value = "The same"
    question.lock.click()
    counts = polls.tally(code, token)["questions"][0]["rounds"][0]["counts"]
    assert counts == {"more": 0, "same": 1, "fewer": 0}
    assert "Sent to your teacher" in question.status.value and question.prediction is None
    assert question.run_button.disabled and not question.choice.disabled
    question.choice.value = "More"  # changed before the reveal: the count moves
    question.lock.click()
    counts = polls.tally(code, token)["questions"][0]["rounds"][0]["counts"]
    assert counts == {"more": 1, "same": 0, "fewer": 0}

    tick(question)
    assert question.run_button.disabled  # nothing unlocked before the teacher's reveal
    polls.reveal(code, token, "l3-vacancy-control")
    tick(question)
    assert not question.in_class and question.prediction == "More"
    assert not question.run_button.disabled and question.choice.disabled
    assert question.reveal() is True and "Why:" in question.feedback.value


def test_a_choice_question_shows_its_answer_only_after_the_reveal(polls) -> None:
    made = polls.create_class(3)
    code, token = made["class"], made["teacher"]["token"]
    question = ChoiceQuestion("l3-why-empty")
    page_opened(question, code)
    question.choice.value = question.answer
    assert question.submit() is False and question.explanation not in question.feedback.value
    assert "Sent to your teacher" in question.feedback.value
    polls.vote_again(code, token, "l3-why-empty")
    tick(question)
    assert "Vote again" in question.feedback.value
    polls.reveal(code, token, "l3-why-empty")
    tick(question)
    assert question.check.description == "Check my answer"
    assert "Your teacher revealed" in question.feedback.value  # no answer in round 2
    assert question.submit() is True and question.feedback.value.startswith(RIGHT)


def test_without_a_class_the_question_works_alone(polls) -> None:
    question = PredictThenRun("l3-vacancy-control")
    question.class_link._message(question.class_link, {"class": ""}, [])
    assert not question.in_class and question.lock.description == "Lock in my prediction"
    made = polls.create_class(1)  # a class of another lesson does not ask this question
    page_opened(question, made["class"])
    assert not question.in_class and question.lock.description == "Lock in my prediction"


def test_a_closed_class_gives_the_question_back(polls) -> None:
    made = polls.create_class(3)
    question = PredictThenRun("l3-vacancy-control")
    page_opened(question, made["class"])
    polls.close_class(made["class"], made["teacher"]["token"])
    question.choice.value = "More"
    question.lock.click()  # refused by the store: the question leaves class mode
    assert "has ended" in question.status.value and question.prediction is None
    assert not question.in_class and question.lock.description == "Lock in my prediction"
    question.lock.click()
    assert question.prediction == "More" and not question.run_button.disabled
    tick(question)  # the page's ticks change nothing now
    assert question.prediction == "More" and not question.in_class


def test_what_answers_a_prediction_opens_at_the_class_polls_reveal(polls) -> None:
    from housing_lab.widgets import after_prediction
    from housing_lab.widgets.lessons.commitments import forget_commitments

    forget_commitments()
    made = polls.create_class(3)
    code, token = made["class"], made["teacher"]["token"]
    question = PredictThenRun("l3-vacancy-control")
    gate = after_prediction("l3-vacancy-control", "The table: **4321** empty homes.")
    page_opened(question, code)
    question.choice.value = "More"
    question.lock.click()  # sent to the class: not committed, the answer stays hidden
    tick(question)
    assert not gate.opened and "4321" not in repr([c.get_state() for c in gate.children])
    polls.reveal(code, token, "l3-vacancy-control")
    tick(question)
    assert gate.opened and "4321" in repr([c.get_state() for c in gate.children])

    forget_commitments()  # another device that sent nothing: the reveal opens it too
    silent = PredictThenRun("l3-vacancy-control")
    gate = after_prediction("l3-vacancy-control", "x")
    silent.class_link._message(silent.class_link, {"class": code, "device": DEVICE + "2"}, [])
    assert silent.prediction is None and gate.opened
    forget_commitments()

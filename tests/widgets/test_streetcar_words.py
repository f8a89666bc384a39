"""Streetcar's score and turns in words (issue 26): each term named, one minus sign, turns as
the players count them, the tie-break without "single-colour product", refusals in places."""

from __future__ import annotations

import re

from housing_lab.streetcar import Game, Outcome
from housing_lab.widgets import StreetcarLab
from housing_lab.widgets.streetcar.places import line_refusal
from housing_lab.widgets.streetcar.words import (
    lines_words,
    ordinal,
    outcome_words,
    score_terms,
    turn_words,
    why_negative,
)

CENTRE = [[[0, 0], [1, 0]], [[0, 0], [0, 1]]]


def test_turns_are_counted_as_each_player_counts_them() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"
    ]  # fmt: skip
    label = str.title
    assert turn_words(1, label) == "Turn 1 · Purple · 1st turn"
    assert turn_words(2, label) == "Turn 2 · Red · 1st turn"
    assert turn_words(3, label) == "Turn 3 · Purple · 2nd turn"


def test_after_the_first_turns_both_minus_ten_are_explained() -> None:
    lab = StreetcarLab(seed=4, opponent=None)
    lab.play(CENTRE)  # purple's turn 1: one line, no house removed
    items = lab.game.score_breakdown()
    assert items["purple"].total == -10
    html = lab.score.table.value
    assert score_terms(items["purple"], 10, "Purple") == (
        "Purple −10: colours 0 (no house removed yet); 1 separate line × −10 = −10"
    )
    assert "<li data-terms='purple'>Purple −10: colours 0" in html
    assert "Each separate line costs 10 points" in why_negative(items, 10)
    assert "Each separate line costs 10 points" in html
    assert "separate lines<br><small>(−10 each)" in html
    words = re.sub(r"<style>.*?</style>|<[^>]+>", " ", html) + lab.score.sentence
    assert not re.search(r"-\d", words), "one minus sign: −, never -"
    assert why_negative(Game(seed=4).score_breakdown(), 10) == ""  # no line: nothing to explain


def test_lines_words() -> None:
    assert lines_words(1, 10) == "1 separate line × −10 = −10"
    assert lines_words(3, 10) == "3 separate lines × −10 = −30"
    assert lines_words(0, 10) == "0 separate lines × −10 = 0"


def test_outcomes_in_words_without_jargon() -> None:
    label = str.title
    scores = {"purple": 12, "red": -10}
    won = Outcome(("purple",), scores, {"purple": 12, "red": 0}, "score", "")
    assert outcome_words(won, label) == "Purple wins 12 to Red −10"
    tied = {"purple": 4, "red": 4}
    broke = Outcome(("red",), tied, {"purple": 6, "red": 9}, "best_product", "")
    assert outcome_words(broke, label) == (
        "tied at 4; Red wins on the most points from one colour, 9 to Purple 6"
    )
    shared = Outcome(("purple", "red"), tied, {"purple": 6, "red": 6}, "shared", "")
    assert outcome_words(shared, label) == (
        "tied at 4 and on the most points from one colour (6): a shared win"
    )


def test_line_refusals_name_places_not_coordinates() -> None:
    lab = StreetcarLab(seed=4, opponent=None)
    lab.play(CENTRE)
    game = lab.game  # red to play: purple's lines are drawn
    drawn = game.lines["purple"][0]
    said = line_refusal(game, drawn)
    assert said is not None and said.endswith("is already drawn (Purple's)")
    assert game.explain_illegal_line(drawn) is not None  # the engine refuses it too
    assert not re.search(r"\d+,\s*-?\d+|\[", said)
    legal = game.legal_edges()[0]
    assert line_refusal(game, legal) is None and game.explain_illegal_line(legal) is None

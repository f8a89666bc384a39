"""nb_changes: the sentence after each action, read from two engine results."""

from __future__ import annotations

import re

from housing_lab.north_berkeley import make_scenario, score_scenario
from housing_lab.north_berkeley.constituents import cards
from housing_lab.widgets.lab.changes import (
    NO_CHANGE,
    card_phrases,
    changed_keys,
    describe_change,
    housing_phrases,
    machine_ids,
    outcome_deltas,
    score_word,
    short_change,
    vacancy_phrases,
)

NAMES = {card_id: card.name for card_id, card in cards().items()}


def result(tiles=None, policies=(), seed=1) -> dict:
    return score_scenario(make_scenario(tiles or {}, list(policies), seed=seed)).to_dict()


def test_no_change_says_so() -> None:
    empty = result()
    assert describe_change(empty, empty) == NO_CHANGE


def test_more_housed_and_cards_moved_in_words() -> None:
    before = result({"A1": "park"})
    after = result({"A1": "park", "B2": "tower_social", "C2": "midrise_public"})
    sentence = describe_change(before, after, NAMES)
    assert sentence.endswith(".") and not sentence[0].islower()
    deltas = outcome_deltas(before, after)
    for income, delta in deltas.items():
        if delta > 0:
            assert f"{delta} more {income}" in sentence
    assert "found a home" in sentence
    assert machine_ids(sentence) == []  # names, not ids
    moved = [c for c in NAMES if before["constituents"][c] != after["constituents"][c]]
    assert moved, "this board must move a card, or the test proves nothing"
    assert NAMES[moved[0]] in sentence


def test_fewer_housed_reads_had_to_leave() -> None:
    before = {
        "housed": {"high": 12, "middle": 5, "low": 4},
        "displaced": dict.fromkeys(("high", "middle", "low"), 0),
    }
    after = {**before, "housed": {"high": 12, "middle": 5, "low": 2}}
    assert housing_phrases(before, after) == ["2 more low income residents had to leave"]
    one = {**before, "housed": {"high": 11, "middle": 5, "low": 4}}
    assert housing_phrases(before, one) == ["1 more high income resident had to leave"]


def test_card_phrases_name_two_then_count() -> None:
    old = {"constituents": {c: {"score": 0} for c in NAMES}}
    new = {"constituents": {c: {"score": 1} for c in NAMES}}
    phrases = card_phrases(old, new, NAMES)
    assert len(phrases) == 3 and phrases[-1] == f"{len(NAMES) - 2} more cards changed"
    assert phrases[0] == f"{NAMES[next(iter(NAMES))]} now +1"
    hand = ["urbanists"]
    assert card_phrases(old, new, NAMES, hand) == ["Urbanists now +1"]


def test_building_only_change() -> None:
    before = result()
    after = result({"C3": "park"})
    assert before["outcomes"] == after["outcomes"]  # the engine: a Park moves no one
    sentence = describe_change(before, after, NAMES, hand=[])
    assert sentence == "No one moved; spending $0 → $1; no card's score changed."


def test_every_change_says_who_is_housed_or_that_no_one_moved() -> None:
    """Issue 44: after a Park on C3 the sentence named cards and spending only; it now says
    what happened to people first, as the engine's move-in has it."""
    before = result()
    park = result({"C3": "park"})
    sentence = describe_change(before, park, NAMES)
    assert sentence.startswith("No one moved; ") and "spending $0 → $1" in sentence
    tower = result({"B1": "tower_market"})
    moved = describe_change(before, tower, NAMES)
    assert before["outcomes"] != tower["outcomes"]
    assert "no one moved" not in moved.lower()
    assert re.search(r"found a home|had to leave|displaced|same numbers housed", moved), moved
    # the counts held but people changed places: not "no one moved"
    swapped = {**park, "outcomes": {**park["outcomes"], "low": {"stayed": 0}}}
    assert describe_change(park, swapped, NAMES).startswith("The same numbers housed")


def test_fewer_displaced_is_said() -> None:
    before = {
        "housed": dict.fromkeys(("high", "middle", "low"), 12),
        "displaced": {"high": 0, "middle": 3, "low": 0},
    }
    after = {**before, "displaced": {"high": 0, "middle": 1, "low": 0}}
    assert housing_phrases(before, after) == ["2 fewer middle income residents displaced"]


def test_score_word_uses_a_real_minus() -> None:
    assert [score_word(s) for s in (1, 0, -1)] == ["+1", "0", "−1"]


def test_changed_keys_and_machine_ids() -> None:
    assert changed_keys({"A1": "park", "B1": "garage"}, {"A1": "park", "C1": "x"}) == ["C1", "B1"]
    assert machine_ids("Placed tower_market on B1; high income") == ["tower_market"]
    assert machine_ids("unknown tile 'tower_markt'", allowed=["tower_markt"]) == []


def test_empty_homes_are_said_when_non_zero() -> None:
    base = {
        "housed": dict.fromkeys(("high", "middle", "low"), 4),
        "displaced": dict.fromkeys(("high", "middle", "low"), 0),
        "new_homes": {"total": 8},
        "spending": 2,
        "constituents": {},
    }
    none_empty = {**base, "vacant": {"market": 0, "middle": 0, "low": 0, "adu": 0}}
    assert vacancy_phrases(none_empty) == []
    empty = {**base, "vacant": {"market": 0, "middle": 1, "low": 3, "adu": 2}}
    assert vacancy_phrases(empty) == [
        "1 new middle income home stays empty",
        "3 new low income homes stay empty",
        "2 ADUs stay empty",
    ]
    after = {**empty, "housed": {**base["housed"], "low": 6}}
    sentence = describe_change(base, after)
    assert sentence.endswith("3 new low income homes stay empty; 2 ADUs stay empty.")
    assert describe_change(none_empty, none_empty) == NO_CHANGE
    assert "3 new low income homes stay empty" in describe_change(empty, empty)


def test_engine_vacancies_reach_the_sentence() -> None:
    before = result()
    after = result(dict.fromkeys(("A1", "B1", "C1", "A2"), "tower_public"))
    empty = sum(after["vacant"].values())
    assert empty, "this board must leave homes empty, or the test proves nothing"
    assert vacancy_phrases(after) == ["4 new low income homes stay empty"]
    assert vacancy_phrases(after)[0] in describe_change(before, after, NAMES)


def test_short_change_leads_with_the_biggest_and_folds_the_rest() -> None:
    before = {
        "housed": {"high": 12, "middle": 0, "low": 0},
        "displaced": dict.fromkeys(("high", "middle", "low"), 0),
    }
    after = {**before, "housed": {"high": 11, "middle": 0, "low": 4}}
    assert housing_phrases(before, after)[0].startswith("4 more low")  # 4 before 1
    phrases = [
        "4 more low income residents found a home",
        "1 more high income resident had to leave",
        "Urbanists now +1",
        "spending $2 → $6",
    ]
    done = "Replaced the Market Rate Tower on C1 with the Mixed Income Tower."
    text = short_change(done, phrases, limit=100)
    assert len(text) <= 100 and text.startswith("4 more low income residents found a home")
    assert text.endswith(", and 3 more changes.")  # two people phrases pass 100 characters
    assert short_change("Placed the Park on C3.", phrases[2:], limit=100) == (
        "Placed the Park on C3. Urbanists now +1; spending $2 → $6."
    )
    assert short_change("x", phrases, limit=10).endswith(", and 3 more changes.")

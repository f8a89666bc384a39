"""nb_changes: the sentence after each action, read from two engine results."""

from __future__ import annotations

from housing_lab.north_berkeley import make_scenario, score_scenario
from housing_lab.north_berkeley.constituents import cards
from housing_lab.widgets.nb_changes import (
    NO_CHANGE,
    card_phrases,
    changed_keys,
    describe_change,
    housing_phrases,
    in_words,
    machine_ids,
    outcome_deltas,
    score_word,
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
    if before["housed"] == after["housed"]:
        sentence = describe_change(before, after, NAMES, hand=[])
        assert "Spending $0 → $1" in sentence and "no change in who has a home" in sentence


def test_score_word_uses_a_real_minus() -> None:
    assert [score_word(s) for s in (1, 0, -1)] == ["+1", "0", "−1"]


def test_changed_keys_and_in_words() -> None:
    assert changed_keys({"A1": "park", "B1": "garage"}, {"A1": "park", "C1": "x"}) == ["C1", "B1"]
    names = {"tower_market": "Market Rate Tower", "tower": "Tower", "affordable_100": "100% A"}
    text = "affordable_100 refuses A3 (tower_market); tower_market_x stays"
    assert in_words(text, names) == "100% A refuses A3 (Market Rate Tower); tower_market_x stays"
    assert machine_ids("Placed tower_market on B1; high income") == ["tower_market"]

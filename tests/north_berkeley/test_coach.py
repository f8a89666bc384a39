"""The coach against brute force: the fewest changes, then the least spending, then the tie order.

Brute force here is written independently of the coach: it lists change sets with itertools (or
every board of a reduced catalogue), refuses what `tile_allowed` refuses, scores them with the
batch evaluator (which test_batch.py checks against the scalar engine) and sorts them by the
documented order (docs/coach.md). The coach's enumeration of small sets and its board-space
search are each compared with it; every answer is also re-scored by the scalar engine.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from housing_lab.north_berkeley.batch.boards import Boards
from housing_lab.north_berkeley.batch.evaluator import (
    ALL_POLICY_SETS,
    BatchEvaluator,
    default_evaluator,
    policies_of,
    policy_mask,
)
from housing_lab.north_berkeley.batch.sweep import random_boards
from housing_lab.north_berkeley.coaching import search as coach_search
from housing_lab.north_berkeley.coaching.exact import (
    Change,
    apply_changes,
    best_change_for_hand,
    coach,
)
from housing_lab.north_berkeley.coaching.words import changes_words, coach_sentence, hand_sentence
from housing_lab.north_berkeley.engine.card_rules import CARD_IDS
from housing_lab.north_berkeley.engine.scoring import score_scenario
from housing_lab.north_berkeley.errors import ScenarioFormatError, UnknownIdError
from housing_lab.north_berkeley.layout import default_layout, layout_from_dict
from housing_lab.north_berkeley.policies import AFFORDABLE_100, INCOMES, POLICIES, RuleOptions
from housing_lab.north_berkeley.scenario import make_scenario, tile_allowed
from housing_lab.north_berkeley.tiles import default_catalogue

GOALS = ("win", "no-loss")
UNCHANGED = 1 << 10  # brute force's own rank of "square left as it is" (after every change)


# --- brute force ---------------------------------------------------------------------------------
def refused_table(evaluator: BatchEvaluator) -> np.ndarray:
    """(squares, codes): True where affordable_100 refuses the code on the square."""
    table = np.zeros((len(evaluator.squares), evaluator.empty + 1), dtype=bool)
    for s, square in enumerate(evaluator.squares):
        phase = evaluator.layout.phase_of_square[square]
        for t, tile in enumerate(evaluator.tile_ids):
            table[s, t] = not tile_allowed(evaluator.catalogue[tile], [AFFORDABLE_100], phase)
    return table


def small_sets(evaluator, current, policies, most):
    """(tiles, masks, changes) of every set of at most `most` changes (itertools)."""
    items = [("square", s) for s in range(len(current))] + [("policy", p) for p in POLICIES]
    tiles, masks, counts = [], [], []
    for k in range(most + 1):
        for combo in itertools.combinations(items, k):
            squares = [s for kind, s in combo if kind == "square"]
            after = set(policies) ^ {p for kind, p in combo if kind == "policy"}
            options = [[t for t in range(evaluator.empty + 1) if t != current[s]] for s in squares]
            for values in itertools.product(*options):
                board = list(current)
                for s, v in zip(squares, values, strict=True):
                    board[s] = v
                tiles.append(board)
                masks.append(policy_mask(after))
                counts.append(k)
    return np.array(tiles, dtype=np.uint8), np.array(masks, dtype=np.uint8), np.array(counts)


def every_board(evaluator, current, policies):
    """(tiles, masks, changes) of every board and policy set (small catalogues only)."""
    codes = np.array(list(itertools.product(range(evaluator.empty + 1), repeat=len(current))))
    masks = np.array([policy_mask(p) for p in ALL_POLICY_SETS])
    tiles = np.repeat(codes, len(masks), axis=0).astype(np.uint8)
    mask = np.tile(masks, len(codes)).astype(np.uint8)
    flipped = (mask[:, None] ^ policy_mask(policies)) >> np.arange(len(POLICIES)) & 1
    counts = (tiles != np.array(current)[None, :]).sum(axis=1) + flipped.sum(axis=1)
    return tiles, mask, counts


def brute_force(evaluator, scenario_codes, sets, options=None):
    """Score the sets once: a function (card, goal) -> the expected answer, or None."""
    current, policies, existing = scenario_codes
    tiles, masks, counts = sets
    restricted = (masks & policy_mask([AFFORDABLE_100])) > 0
    refused = refused_table(evaluator)[np.arange(len(current))[None, :], tiles].any(axis=1)
    keep = ~(restricted & refused)
    tiles, masks, counts = tiles[keep], masks[keep], counts[keep]
    n = len(tiles)
    result = evaluator.evaluate(
        Boards(tiles, masks, np.tile(np.array(existing, dtype=np.uint8), (n, 1))), options
    )
    ranks = np.where(tiles == np.array(current)[None, :], UNCHANGED, tiles.astype(np.int64))
    # per policy (POLICIES order): 0 when the set changes it, 1 when it stays
    flipped = 1 - ((masks[:, None].astype(np.int64) ^ policy_mask(policies)) >> np.arange(4) & 1)

    def expected(card: str, goal: str):
        score = result.scores[:, CARD_IDS.index(card)]
        good = np.flatnonzero(score == 1 if goal == "win" else score >= 0)
        if len(good) == 0:
            return None
        keys = [counts[good], result.spending_units[good]]
        keys += [ranks[good, s] for s in range(ranks.shape[1])]
        keys += [flipped[good, i] for i in range(flipped.shape[1])]
        best = good[np.lexsort(keys[::-1])[0]]
        return (
            tuple(int(t) for t in tiles[best]),
            frozenset(policies_of(int(masks[best]))),
            int(counts[best]),
            int(result.spending_units[best]),
        )

    return expected


def codes_of(evaluator, scenario):
    code = {tile: t for t, tile in enumerate(evaluator.tile_ids)}
    current = tuple(code.get(scenario.tiles.get(q), evaluator.empty) for q in evaluator.squares)
    existing = tuple(INCOMES.index(scenario.existing[h]) for h in evaluator.homes)
    return current, frozenset(scenario.policies), existing


def scenario_of(evaluator, boards, i):
    return make_scenario(
        **{
            k: v
            for k, v in evaluator.scenario_dict(boards, i).items()
            if k in ("tiles", "policies", "existing", "seed")
        },
        layout=evaluator.layout,
        catalogue=evaluator.catalogue,
    )


def check_against(
    evaluator, scenario, expected, cards, most=None, searched_too=True, low_income_in_adus=False
):
    """The coach (both ways: enumeration first, the board space only) answers as brute force,
    among sets of at most `most` changes (None: brute force saw every board). Returns the
    numbers of changes answered."""
    current, policies, existing = codes_of(evaluator, scenario)
    sizes = []
    for card in cards:
        for goal in GOALS:
            want = expected(card, goal)
            question = coach_search.Question(
                card, goal, current, policies, existing, low_income_in_adus
            )
            ways = [coach_search.search(evaluator, question)]
            if searched_too:
                ways.append(coach_search.searched(evaluator, question))
            for found in ways:
                got = (found.tiles, found.policies, found.changes, found.spending)
                got = None if found.changes is None else got
                if most is not None and (found.changes is None or found.changes > most):
                    assert want is None, (card, goal, got, want)
                else:
                    assert got == want, (card, goal, got, want)
                sizes.append(found.changes)
    return sizes


# --- reduced catalogues: brute force over every board ---------------------------------------------
REDUCED = {
    "tower_and_park": ("tower_market", "park"),
    "public_and_garage": ("midrise_public", "garage"),
    "inclusionary_and_low_townhouse": ("tower_inclusionary_50", "townhouse_low"),
}


def reduced_evaluator(name: str) -> BatchEvaluator:
    catalogue = default_catalogue()
    return BatchEvaluator(catalogue={t: catalogue[t] for t in REDUCED[name]})


def reduced_scenarios(evaluator, seed, n=1):
    boards = random_boards(
        n, seed=seed, policy_sets=ALL_POLICY_SETS, empty=0.3, evaluator=evaluator
    )
    return [scenario_of(evaluator, boards, i) for i in range(n)]


@pytest.mark.slow
def test_reduced_catalogue_every_board_few_cards() -> None:
    evaluator = reduced_evaluator("tower_and_park")
    (scenario,) = reduced_scenarios(evaluator, seed=1, n=1)
    codes = codes_of(evaluator, scenario)
    expected = brute_force(evaluator, codes, every_board(evaluator, *codes[:2]))
    check_against(evaluator, scenario, expected, ["more_parks"])


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(REDUCED))
def test_reduced_catalogues_every_board_every_card(name) -> None:
    """Every card, both goals, answers of any size (3, 4, ... changes): brute force sees every
    board of the reduced catalogue under every policy set."""
    evaluator = reduced_evaluator(name)
    (scenario,) = reduced_scenarios(evaluator, seed=len(name))
    codes = codes_of(evaluator, scenario)
    expected = brute_force(evaluator, codes, every_board(evaluator, *codes[:2]))
    sizes = check_against(evaluator, scenario, expected, CARD_IDS)
    assert max(s for s in sizes if s is not None) >= 4  # both passes of the search are tried


# --- the full board: brute force over every set of at most 2 changes ------------------------------
def full_scenarios(seed, n, empty):
    evaluator = default_evaluator()
    boards = random_boards(n, seed=seed, policy_sets=ALL_POLICY_SETS, empty=empty)
    return [scenario_of(evaluator, boards, i) for i in range(n)]


def test_full_board_two_changes_a_few_cards() -> None:
    evaluator = default_evaluator()
    (scenario,) = full_scenarios(seed=11, n=1, empty=0.2)
    codes = codes_of(evaluator, scenario)
    expected = brute_force(evaluator, codes, small_sets(evaluator, *codes[:2], most=2))
    check_against(
        evaluator, scenario, expected, ["developer", "park_and_ride", "eco_primitivists"], most=2
    )


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "empty"), [(1, 0.0), (2, 0.4)])
def test_full_board_every_set_of_two_changes_every_card(seed, empty) -> None:
    """All 22 cards, both goals, on seeded random boards (all 16 policy sets, some squares
    empty): no set of at most 2 changes beats the coach, and when the coach needs at most 2 it
    picks brute force's first answer in the tie order."""
    evaluator = default_evaluator()
    (scenario,) = full_scenarios(seed, 1, empty)
    codes = codes_of(evaluator, scenario)
    expected = brute_force(evaluator, codes, small_sets(evaluator, *codes[:2], most=2))
    sizes = check_against(evaluator, scenario, expected, CARD_IDS, most=2)
    assert {0, 1, 2} <= set(sizes) and max(sizes) >= 3


@pytest.mark.slow
def test_low_income_in_adus_rule_option() -> None:
    """With low income residents allowed in ADUs (three market towers, ADUs enacted), the
    answers of the cards that read who is housed change, and the coach follows the option."""
    evaluator = default_evaluator()
    options = RuleOptions(low_income_in_adus=True)
    towers = {"A1": "tower_market", "B1": "tower_market", "C1": "tower_market"}
    scenario = make_scenario(towers, ["adu"], seed=9)
    codes = codes_of(evaluator, scenario)
    sets = small_sets(evaluator, *codes[:2], most=2)
    expected = brute_force(evaluator, codes, sets, options)
    default = brute_force(evaluator, codes, sets)
    cards = ["affordable_housing_orgs", "property_values", "inclusionary_for_all"]
    assert any(expected(c, g) != default(c, g) for c in cards for g in GOALS)
    check_against(evaluator, scenario, expected, cards, most=2, low_income_in_adus=True)
    answer = coach(scenario, "property_values", "win", options=options)
    after = score_scenario(answer.scenario_after, options).to_dict()["constituents"]
    assert after["property_values"]["score"] == answer.after == 1


@pytest.mark.slow
def test_answers_reach_the_goal_in_the_scalar_engine() -> None:
    """Applying the answer's changes to the scenario (validated: affordable_100 included) and
    scoring it with the scalar engine meets the goal, at the stated spending."""
    for scenario in full_scenarios(seed=5, n=2, empty=0.3):
        for card in CARD_IDS:
            for goal in GOALS:
                answer = coach(scenario, card, goal)
                assert answer.changes is not None
                after = score_scenario(apply_changes(scenario, answer.changes))
                score = after.to_dict()["constituents"][card]["score"]
                assert score == answer.after and (score == 1 if goal == "win" else score >= 0)
                assert after.facts.spending == answer.spending_after
                assert answer.scenario_after == apply_changes(scenario, answer.changes)


# --- hand-made cases ------------------------------------------------------------------------------
def test_ties_go_to_the_lowest_spending_then_the_earliest_change() -> None:
    """Two garages anywhere make the park-and-ride coalition win ($1 each, the cheapest second
    tile): the earliest squares, A1 then B1."""
    scenario = make_scenario({}, [], seed=0)
    answer = coach(scenario, "park_and_ride", "win")
    assert answer.changes == (Change("A1", "garage"), Change("B1", "garage"))
    assert (answer.now, answer.after, answer.spending_after) == (-1, 1, Fraction(2))
    # a cheaper way beats an earlier one: the Fiscal Conservatives win (under $5) by replacing
    # the dearest tile, not the first one; at $0, a Market Rate Tower comes before clearing B1
    # (catalogue order, the empty square last)
    scenario = make_scenario({"A1": "park", "B1": "tower_public"}, [], seed=0)
    answer = coach(scenario, "fiscal_conservatives", "win")
    assert answer.changes == (Change("B1", "tower_market"),)
    assert answer.spending_after == Fraction(1)


def test_the_goal_already_met_needs_no_change() -> None:
    scenario = make_scenario({}, [], seed=0)
    answer = coach(scenario, "fiscal_conservatives", "win")
    assert answer.changes == () and answer.now == answer.after == 1
    assert answer.to_dict()["changes"] == []


def test_affordable_100_refuses_the_cheapest_tile() -> None:
    """Four market towers on phase 1 and `affordable_100`: the Tech Corporations need 4 more
    homes for 20. A Market Rate Tower ($0) on A1 is refused there; the coach puts the cheapest
    tower allowed there, a Workforce Housing Tower ($4), rather than also repealing the policy."""
    towers = {square: "tower_market" for square in ("B1", "C1", "B2", "C2")}
    scenario = make_scenario(towers, ["affordable_100"], seed=0)
    answer = coach(scenario, "tech_corporations", "win")
    assert answer.changes == (Change("A1", "tower_workforce"),)
    assert answer.spending_after == Fraction(4)
    # with the policy repealed, the same question costs nothing
    free = coach(make_scenario(towers, [], seed=0), "tech_corporations", "win")
    assert free.changes == (Change("A1", "tower_market"),) and free.spending_after == 0


def test_policies_change_too() -> None:
    """Landlords lose a point while vacancy control is enacted: repealing it is the change."""
    scenario = make_scenario({}, ["vacancy_control"], seed=0)
    answer = coach(scenario, "landlords", "no-loss")
    assert answer.changes == (Change(policy="vacancy_control", enacted=False),)
    assert answer.to_dict()["changes"] == [{"policy": "vacancy_control", "enacted": False}]


def one_greenway_square():
    data = {
        "squares": list(default_layout().squares),
        "phases": {str(k): list(v) for k, v in default_layout().phases.items()},
        "tags": {tag: sorted(members) for tag, members in default_layout().tags.items()},
        "existing": [
            {"id": h.id, "kind": h.kind, "street": h.street} for h in default_layout().existing
        ],
    }
    data["tags"]["greenway"] = ["C1"]
    return layout_from_dict(data, "one greenway square")


def test_unreachable_goal_says_why() -> None:
    """With one Greenway square (at most 4 homes), the Bike Lobby's 10 homes there cannot be."""
    scenario = make_scenario({}, [], seed=0, layout=one_greenway_square())
    answer = coach(scenario, "bike_lobby", "win")
    assert answer.changes is None and answer.after is None and answer.spending_after is None
    assert "the Bike Lobby" in answer.reason and "bike_lobby" not in answer.reason
    assert answer.to_dict()["changes"] is None and answer.to_dict()["reason"] == answer.reason
    assert coach(scenario, "bike_lobby", "no-loss").changes == ()


def test_unreachable_after_a_changed_declaration(monkeypatch) -> None:
    """A card whose +1 no board meets: the coach says so instead of answering."""
    from housing_lab.north_berkeley.engine.card_rules import CARD_RULES, CardRule, Clause, Condition

    impossible = Condition("all", (Clause("new_total", ">=", 100),))
    coach_search.clear_cache()
    monkeypatch.setitem(
        CARD_RULES, "developer", CardRule(impossible, CARD_RULES["developer"].minus)
    )
    try:
        answer = coach(make_scenario({}, [], seed=2), "developer", "win")
        assert answer.changes is None and "the Developer" in answer.reason
    finally:
        monkeypatch.undo()
        coach_search.clear_cache()


def test_words_use_printed_names() -> None:
    scenario = make_scenario({}, [], seed=0)
    answer = coach(scenario, "eco_primitivists", "win")
    assert (
        coach_sentence(answer) == "How could the Eco-Primitivists win? Put a Park on A1 (1 change)."
    )
    answer = coach(make_scenario({}, ["vacancy_control"], seed=0), "landlords", "no-loss")
    assert coach_sentence(answer) == (
        "How could the Landlords avoid losing? Repeal Vacancy Control (1 change)."
    )
    answer = coach(scenario, "park_and_ride", "win")
    assert coach_sentence(answer).endswith("Put a Garage on A1 and B1 (2 changes).")
    for card in ("save_our_parking", "bike_lobby", "fiscal_conservatives"):
        sentence = coach_sentence(coach(scenario, card, "no-loss"))
        assert "_" not in sentence and sentence.startswith("How could ")


def test_changes_with_one_tile_are_said_once() -> None:
    changes = [
        Change("A1", "tower_market"),
        Change("B1", "tower_market"),
        Change("C1", "tower_market"),
        Change("C2", None),
        Change(policy="vacancy_control", enacted=False),
    ]
    assert changes_words(changes) == (
        "Put a Market Rate Tower on A1, B1 and C1; clear C2; repeal Vacancy Control (5 changes)"
    )
    assert changes_words([Change("C3", None), Change(policy="adu", enacted=True)]) == (
        "Clear C3 and enact Accessory Dwelling Units (2 changes)"
    )


def test_best_change_for_a_hand_is_the_best_single_change() -> None:
    """Checked with the scalar engine against every single change."""
    scenario = make_scenario({"A1": "tower_market", "B2": "park"}, ["adu"], seed=4)
    hand = ["urbanists", "more_parks", "developer"]
    advice = best_change_for_hand(scenario, hand)
    assert advice.change is not None

    def total(s):
        scores = score_scenario(s).to_dict()["constituents"]
        return sum(scores[c]["score"] for c in hand)

    assert advice.now == total(scenario) and advice.after == total(advice.scenario_after)
    singles = [Change(policy=p, enacted=p not in scenario.policies) for p in POLICIES]
    for square in scenario.layout.squares:
        for tile in [*scenario.catalogue, None]:
            if tile != scenario.tiles.get(square):
                singles.append(Change(square, tile))
    seen = []
    for change in singles:
        try:
            after = apply_changes(scenario, [change])
        except Exception:  # refused by affordable_100
            continue
        seen.append((total(after), -score_scenario(after).facts.spending, change))
    best = max(t for t, _, _ in seen)
    cheapest = max(s for t, s, _ in seen if t == best)
    assert advice.after == best and -cheapest == advice.spending_after
    assert advice.after > advice.now
    assert "put a" in hand_sentence(advice).lower()


def test_no_single_change_helps() -> None:
    scenario = make_scenario({}, [], seed=0)
    advice = best_change_for_hand(scenario, ["fiscal_conservatives"])  # +1 already, at best
    assert advice.change is None and advice.after is None
    assert hand_sentence(advice) == "No single change raises this hand's total (now 1)."


@pytest.mark.parametrize(
    ("call", "error", "names"),
    [
        (lambda s: coach(s, "nope"), UnknownIdError, "nope"),
        (lambda s: coach(s, "developer", "lose"), ScenarioFormatError, "lose"),
        (lambda s: coach({"tiles": {}}, "developer"), ScenarioFormatError, "Scenario"),
        (lambda s: best_change_for_hand(s, "developer"), ScenarioFormatError, "developer"),
        (lambda s: best_change_for_hand(s, []), ScenarioFormatError, "at least one"),
        (lambda s: best_change_for_hand(s, ["nope"]), UnknownIdError, "nope"),
    ],
)
def test_mistakes_are_one_line_errors(call, error, names) -> None:
    scenario = make_scenario({}, [], seed=0)
    with pytest.raises(error, match=names) as raised:
        call(scenario)
    assert "\n" not in str(raised.value)

"""The engine answers what is legal (engine.legal, Scenario and Game methods), and the array
encoding (batch.encoding) agrees with the scalar engine."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley import Game, make_scenario
from housing_lab.north_berkeley.batch import encoding
from housing_lab.north_berkeley.batch.evaluator import default_evaluator
from housing_lab.north_berkeley.board import Board
from housing_lab.north_berkeley.engine import legal
from housing_lab.north_berkeley.engine.facts import board_counts
from housing_lab.north_berkeley.errors import UnknownIdError
from housing_lab.north_berkeley.layout import default_layout
from housing_lab.north_berkeley.policies import POLICIES
from housing_lab.north_berkeley.tiles import default_catalogue
from housing_lab.widgets.lab.changes import machine_ids

LAYOUT = default_layout()
CATALOGUE = default_catalogue()
ALL_SETS = [list(c) for k in range(len(POLICIES) + 1) for c in combinations(POLICIES, k)]


def accepted(square: str, tile: str, policies: list[str]) -> bool:
    try:
        make_scenario({square: tile}, policies)
    except HousingLabError:
        return False
    return True


@pytest.mark.parametrize("policies", ALL_SETS, ids=lambda p: "+".join(p) or "none")
def test_allowed_tiles_and_refusal_agree_with_make_scenario(policies: list[str]) -> None:
    board = make_scenario({}, policies)
    for square in LAYOUT.squares:
        allowed = legal.allowed_tiles(square, board.policies, board.layout, board.catalogue)
        for tile in CATALOGUE:
            ok = accepted(square, tile, policies)
            assert (tile in allowed) is ok, (square, tile)
            assert (legal.refusal(square, tile, policies, LAYOUT, CATALOGUE) is None) is ok, (
                square,
                tile,
            )


def test_refusal_in_words_for_affordable_100() -> None:
    board = make_scenario({}, ["affordable_100"])
    reason = legal.refusal("A1", "tower_market", board.policies, board.layout, board.catalogue)
    assert (
        reason == "100% Affordable Housing allows only low/middle income tiles on phase-2 squares"
    )
    assert (
        legal.refusal("B1", "tower_market", board.policies, board.layout, board.catalogue) is None
    )  # phase 1 is not limited
    assert machine_ids(reason) == []


def test_unknown_ids_are_bad_input_not_refusals() -> None:
    board = make_scenario()
    with pytest.raises(UnknownIdError, match="Z9"):
        legal.refusal("Z9", "park", board.policies, board.layout, board.catalogue)
    with pytest.raises(UnknownIdError, match="castle"):
        legal.refusal("A1", "castle", board.policies, board.layout, board.catalogue)
    with pytest.raises(UnknownIdError, match="rent_control"):
        legal.policy_refusal("rent_control", board.tiles, board.layout, board.catalogue)


def test_policy_refusal_names_the_squares_in_words() -> None:
    board = make_scenario({"A1": "tower_market", "B1": "tower_market", "A2": "park"})
    reason = legal.policy_refusal("affordable_100", board.tiles, board.layout, board.catalogue)
    assert reason is not None and reason.endswith("market homes on A1 (Market Rate Tower)")
    assert machine_ids(reason) == []
    assert legal.policy_refusal("adu", board.tiles, board.layout, board.catalogue) is None
    assert legal.policy_refusal("affordable_100", {"B1": "tower_market"}, LAYOUT, CATALOGUE) is None


def test_game_refusals_for_each_kind() -> None:
    game = Game(["Red", "Blue"], seed=3)
    assert game.refusal("B1", "tower_market") is None
    assert game.refusal("A1", "park") == "square A1 is not a phase-1 square (B1, C1, B2, C2)"
    assert game.policy_refusal("adu").startswith("policies are enacted after the draft")
    game.call_state()
    game.advance()
    assert game.refusal("B1", "park") == (
        "tiles go on the board in phase 1 and phase 2; now it is the extra draw"
    )
    while game.phase != "policies":
        game.apply(game.legal_actions()[-1] if game.phase != "draft" else game.legal_actions()[0])
    drawn = game.state.policies_drawn
    other = next(p for p in POLICIES if p not in drawn)
    assert "was not drawn" in game.policy_refusal(other)
    assert machine_ids(game.policy_refusal(other)) == []
    for policy in drawn:
        assert game.policy_refusal(policy) is None
    game.enact(["affordable_100"] if "affordable_100" in drawn else [drawn[0]])
    for square in game.phase_squares():
        for tile in CATALOGUE:
            refused = game.refusal(square, tile)
            assert (refused is None) is (tile in game.allowed_tiles(square))
            if refused is not None:
                with pytest.raises(HousingLabError):
                    game.place(square, tile)


def test_tile_costs_with_and_without_matching_funds() -> None:
    printed = {t: tile.cost for t, tile in CATALOGUE.items()}
    assert Board.from_scenario(make_scenario()).tile_costs() == printed
    enacted = make_scenario({"A1": "tower_public"}, ["matching_funds"])
    # 4 low income homes: not in effect yet
    assert Board.from_scenario(enacted).tile_costs() == printed
    full = make_scenario({"A1": "tower_public", "B1": "tower_public"}, ["matching_funds"])
    costs = Board.from_scenario(full).tile_costs()
    assert costs["tower_public"] == Fraction(3) and costs["tower_inclusionary_50"] == Fraction(1, 2)
    assert costs["park"] == 1 and costs["garage"] == 1
    no_funds = make_scenario({"A1": "tower_public", "B1": "tower_public"})
    assert Board.from_scenario(no_funds).tile_costs() == printed


def random_boards(n: int, seed: int) -> list:
    rng = random.Random(seed)
    boards = []
    while len(boards) < n:
        tiles = {s: rng.choice(list(CATALOGUE)) for s in LAYOUT.squares if rng.random() < 0.8}
        policies = rng.choice(ALL_SETS)
        try:
            boards.append(make_scenario(tiles, policies, seed=rng.randrange(100)))
        except HousingLabError:
            continue
    return boards


def test_encoding_agrees_with_the_scalar_engine_on_random_boards() -> None:
    evaluator = default_evaluator()
    scenarios = random_boards(300, seed=5)
    boards = evaluator.encode(scenarios)
    sums = evaluator.sums(boards.tiles)
    halve = encoding.halved(boards.policies, sums["new_low"])
    units = encoding.spending_units(sums["housing_cost"], sums["other_cost"], halve)
    adus = encoding.adu_slots(boards.policies, len(LAYOUT.houses))
    displacing = encoding.can_displace(boards.policies)
    for i, scenario in enumerate(scenarios):
        counts = board_counts(scenario)
        assert Fraction(int(units[i]), evaluator.scale) == legal.spending(
            scenario.tiles, scenario.policies, scenario.catalogue, counts["new_low"]
        )
        assert encoding.policies_of(int(boards.policies[i])) == sorted(
            scenario.policies, key=POLICIES.index
        )
        assert adus[i] == (6 if "adu" in scenario.policies else 0)
        assert displacing[i] == ("vacancy_control" not in scenario.policies)
        for name in counts:
            assert sums[name][i] == counts[name], name
        costs = Board.from_scenario(scenario).tile_costs()
        columns = encoding.cost_columns(
            evaluator.features[0, :-1, -2], evaluator.features[0, :-1, -1], True
        )
        picked = columns[-1] if halve[i] else columns[0]
        assert [Fraction(int(c), evaluator.scale) for c in picked] == list(costs.values())


@pytest.mark.parametrize("policies", ALL_SETS, ids=lambda p: "+".join(p) or "none")
def test_allowed_table_is_the_scalar_refusal(policies: list[str]) -> None:
    table = encoding.allowed_table(LAYOUT, CATALOGUE, policies)
    board = make_scenario({}, policies)
    for s, square in enumerate(LAYOUT.squares):
        want = [
            legal.refusal(square, t, board.policies, board.layout, board.catalogue) is None
            for t in CATALOGUE
        ]
        assert table[s].tolist() == [*want, True]
        assert encoding.allowed_codes(LAYOUT, CATALOGUE, policies)[s] == tuple(
            np.flatnonzero(want).tolist()
        )

"""The exact solver against brute force on reduced spaces (4 free squares, every policy set).

Brute force scores every board of the reduced space with the batch evaluator, which
test_batch.py checks against the scalar engine; the solver must find the same best total (then
the same lowest spending), the same answer to "can every card score >= 0?" and the same Pareto
frontier, for single cards, positional cards, mixed and weighted coalitions.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from housing_lab.north_berkeley.batch.arrays import ArrayFacts, card_scores
from housing_lab.north_berkeley.batch.evaluator import (
    GAME_POLICY_SETS,
    Boards,
    default_evaluator,
    policy_mask,
)
from housing_lab.north_berkeley.batch.sweep import random_boards
from housing_lab.north_berkeley.constituents import CARD_IDS
from housing_lab.north_berkeley.engine.scoring import score_scenario
from housing_lab.north_berkeley.errors import (
    AffordableOnlyError,
    ScenarioFormatError,
    UnknownIdError,
)
from housing_lab.north_berkeley.policies import AFFORDABLE_100, INCOMES, RuleOptions
from housing_lab.north_berkeley.scenario import affordable_violations, shuffled_existing
from housing_lab.north_berkeley.solver import search as solver_search
from housing_lab.north_berkeley.solver.exact import (
    every_card_nonnegative,
    pareto_frontier,
    solve,
)
from housing_lab.north_berkeley.solver.inputs import make_problem

EVALUATOR = default_evaluator()
LAYOUT, CATALOGUE = EVALUATOR.layout, EVALUATOR.catalogue
TILES = EVALUATOR.tile_ids
AFFORDABLE = [t for t in TILES if CATALOGUE[t].affordable_only]

# Reduced spaces: 4 free squares (15^4 boards per policy set), the rest fixed.
CONFIGS = {
    "corners-and-greenway": dict(
        free=("A1", "C1", "B2", "A3"),
        fixed={
            "B1": "tower_market",
            "A2": "midrise_workforce",
            "C2": "townhouse_low",
            "B3": "tower_public",
            "C3": "garage",
        },
        seed=3,
        options=RuleOptions(),
    ),
    "virginia-and-untagged": dict(
        free=("B1", "A2", "C2", "B3"),
        fixed={
            "A1": "townhouse_middle",
            "C1": "tower_inclusionary_25",
            "B2": "midrise_inclusionary_50",
            "A3": "park",
            "C3": "tower_workforce",
        },
        seed=11,
        options=RuleOptions(low_income_in_adus=True),
    ),
    "market-on-phase-two": dict(
        free=("A1", "B1", "C1", "C3"),
        fixed={
            "A2": "tower_market",
            "B2": "park",
            "C2": "midrise_inclusionary_50",
            "A3": "townhouse_market",
            "B3": "garage",
        },
        seed=5,
        options=RuleOptions(),
    ),
    "few-homes": dict(
        free=("C2", "A3", "B3", "C3"),
        fixed={
            "A1": "park",
            "B1": "garage",
            "C1": "midrise_market",
            "A2": "garage",
            "B2": "townhouse_market",
        },
        seed=8,
        options=RuleOptions(),
    ),
    "market-heavy": dict(  # at least 12 market homes: spending alone decides the developer
        free=("A1", "C2", "B3", "C3"),
        fixed={
            "B1": "tower_market",
            "C1": "tower_market",
            "B2": "tower_market",
            "A2": "garage",
            "A3": "park",
        },
        seed=2,
        options=RuleOptions(displaced_first=False),
    ),
}

COALITIONS = [
    *([card] for card in CARD_IDS),
    *({card: -1} for card in CARD_IDS),  # what its opponents want
    ["stop_the_shadows", "neighborhood_character"],
    ["bike_lobby", "urbanists", "inclusionary_for_all"],
    [
        "stop_the_shadows",
        "neighborhood_character",
        "bike_lobby",
        "urbanists",
        "inclusionary_for_all",
    ],
    ["developer", "refuse_capitalism", "tech_corporations"],
    ["affordable_housing_orgs", "property_values", "landlords", "real_estate_speculators"],
    ["labor_unions", "save_our_parking", "eco_primitivists", "park_and_ride"],
    ["middle_class_millennials", "anti_gentrification_activists", "fiscal_conservatives"],
    {"urbanists": 3, "stop_the_shadows": 2, "fiscal_conservatives": 1},
    {"bike_lobby": 2, "save_our_views": -1, "more_parks": 1},
    {"neighborhood_character": 0.5, "inclusionary_for_all": 1.5, "developer": 0.25},
    {
        "business_improvement_district": 1,
        "landlords": -2,
        "real_estate_speculators": 1,
        "tech_corporations": 1,
    },
    {"developer": -1, "tech_corporations": 1, "fiscal_conservatives": -1},
    {"real_estate_speculators": -1, "save_our_views": -1, "more_parks": 1, "save_our_parking": -1},
    {"labor_unions": -1, "save_our_parking": 1, "neighborhood_character": -1},
    list(CARD_IDS),
]


def brute_force(config: dict) -> tuple[object, dict[str, str]]:
    """Every (board, policy set) of the reduced space, scored by the batch evaluator."""
    fixed = config["fixed"]
    assert sorted([*fixed, *config["free"]]) == sorted(LAYOUT.squares)
    existing = shuffled_existing(LAYOUT, config["seed"])
    sets = list(GAME_POLICY_SETS)
    if affordable_violations(fixed, LAYOUT, CATALOGUE):
        sets = [s for s in sets if AFFORDABLE_100 not in s]
    parts = []
    for policies in sets:
        columns = []
        for square in EVALUATOR.squares:
            if square in fixed:
                columns.append([TILES.index(fixed[square])])
            elif AFFORDABLE_100 in policies and LAYOUT.phase_of_square[square] == 2:
                columns.append([TILES.index(t) for t in AFFORDABLE])
            else:
                columns.append(list(range(len(TILES))))
        grid = np.stack(np.meshgrid(*columns, indexing="ij"), axis=-1).reshape(-1, len(columns))
        parts.append((grid, np.full(len(grid), policy_mask(policies))))
    tiles = np.concatenate([grid for grid, _ in parts]).astype(np.uint8)
    masks = np.concatenate([mask for _, mask in parts]).astype(np.uint8)
    placement = np.array([INCOMES.index(existing[h]) for h in EVALUATOR.homes], dtype=np.uint8)
    boards = Boards(tiles, masks, np.broadcast_to(placement, (len(tiles), len(placement))))
    return EVALUATOR.evaluate(boards, config["options"]), existing


@pytest.fixture(scope="module", params=sorted(CONFIGS))
def space(request):
    config = CONFIGS[request.param]
    result, existing = brute_force(config)
    return config, result, existing


def _weights(coalition) -> tuple[list[str], np.ndarray]:
    if isinstance(coalition, dict):
        return list(coalition), np.array(list(coalition.values()), dtype=float)
    return list(coalition), np.ones(len(coalition))


def _best(total: np.ndarray, spending: np.ndarray, valid: np.ndarray) -> tuple[float, float]:
    top = total[valid].max()
    return float(top), float(spending[valid & np.isclose(total, top)].min())


@pytest.mark.slow
@pytest.mark.parametrize("coalition", COALITIONS, ids=lambda c: "+".join(c)[:60])
def test_solver_matches_brute_force(space, coalition) -> None:
    _check_solver(space, coalition)


@pytest.mark.slow
@pytest.mark.parametrize("coalition", COALITIONS, ids=lambda c: "+".join(c)[:60])
def test_pruned_solver_matches_brute_force(space, coalition, prune_everywhere) -> None:
    _check_solver(space, coalition)


def _check_solver(space, coalition) -> None:
    config, result, existing = space
    cards, weights = _weights(coalition)
    scores = result.scores[:, [CARD_IDS.index(c) for c in cards]].astype(float)
    total, spending = scores @ weights, result.spending
    question = dict(fixed=config["fixed"], existing=existing, options=config["options"])

    found = solve(coalition, **question)
    assert (found.score, float(found.spending)) == pytest.approx(
        _best(total, spending, np.ones(len(total), dtype=bool))
    )
    # the board is real: the scalar engine gives it that total and that spending
    scalar = score_scenario(found.scenario, config["options"]).to_dict()
    assert scalar == found.result
    assert sum(
        w * scalar["constituents"][c]["score"] for c, w in zip(cards, weights, strict=True)
    ) == pytest.approx(found.score)
    assert all(found.scenario.tiles[sq] == tile for sq, tile in config["fixed"].items())

    nonnegative = (scores >= 0).all(axis=1)
    assert found.nonnegative_possible == bool(nonnegative.any())
    both = every_card_nonnegative(coalition, **question)
    if not nonnegative.any():
        assert both is None
    else:
        assert both is not None
        assert (both.score, float(both.spending)) == pytest.approx(
            _best(total, spending, nonnegative)
        )
        assert all(both.result["constituents"][c]["score"] >= 0 for c in cards)


def _frontier(low: np.ndarray, spending: np.ndarray) -> list[tuple[int, float]]:
    points, cheapest = [], np.inf
    for housed in sorted(set(low.tolist()), reverse=True):
        cost = spending[low == housed].min()
        if cost < cheapest:
            points.append((housed, float(cost)))
            cheapest = cost
    return points[::-1]


PARETO_CARDS = [
    None,
    ["developer"],
    ["stop_the_shadows", "bike_lobby"],
    ["fiscal_conservatives", "urbanists", "save_our_parking", "landlords"],
    list(CARD_IDS[:12]),
]


@pytest.mark.slow
@pytest.mark.parametrize("cards", PARETO_CARDS)
def test_pareto_frontier_matches_brute_force(space, cards) -> None:
    _check_frontier(space, cards)


@pytest.mark.slow
@pytest.mark.parametrize("cards", PARETO_CARDS)
def test_pruned_pareto_frontier_matches_brute_force(space, cards, prune_everywhere) -> None:
    _check_frontier(space, cards)


def _check_frontier(space, cards) -> None:
    config, result, existing = space
    valid = np.ones(len(result), dtype=bool)
    if cards:
        valid = (result.scores[:, [CARD_IDS.index(c) for c in cards]] >= 0).all(axis=1)
    expected = _frontier(result.housed[valid, 2], result.spending[valid])
    frontier = pareto_frontier(
        cards, fixed=config["fixed"], existing=existing, options=config["options"]
    )
    assert [(p.low_housed, float(p.spending)) for p in frontier] == expected
    for point in frontier:
        out = score_scenario(point.scenario, config["options"]).to_dict()
        assert (out["housed"]["low"], out["spending"]) == (point.low_housed, point.spending)


def test_fixed_policy_set_is_searched_alone() -> None:
    found = solve(["landlords"], policies=["vacancy_control", "adu"])
    assert found.scenario.policies == {"vacancy_control", "adu"}
    assert found.cards["landlords"] <= 0  # vacancy control always costs the landlords -1


@pytest.mark.slow
def test_full_space_beats_every_sampled_board() -> None:
    """The exact answer is at least as good as the best of 200,000 random boards."""
    existing = shuffled_existing(LAYOUT, 0)
    boards = random_boards(200_000, seed=8, existing=existing)
    scores = EVALUATOR.evaluate(boards).scores
    for coalition in (
        ["developer", "urbanists"],
        ["bike_lobby", "neighborhood_character"],
        ["affordable_housing_orgs", "middle_class_millennials", "landlords"],
    ):
        sampled = scores[:, [CARD_IDS.index(c) for c in coalition]].sum(axis=1).max()
        assert solve(coalition).score >= sampled


def test_impossible_together() -> None:
    # under vacancy control nobody is displaced, so a low income tenant keeps an existing
    # apartment: the landlords score -1 (vacancy control) and cannot earn their +1
    existing = shuffled_existing(LAYOUT, 0)
    assert "low" in [existing[h] for h in LAYOUT.apartments]
    question = dict(policies=["vacancy_control"], existing=existing)
    assert every_card_nonnegative(["landlords"], **question) is None
    assert not solve(["landlords", "developer"], **question).nonnegative_possible
    assert every_card_nonnegative(["landlords"], existing=existing) is not None
    # a card that scores +1 and -1 at once nets 0: the bike lobby with 10 Greenway homes and
    # 3 garages is not against a board
    both = every_card_nonnegative(["labor_unions", "save_our_parking", "bike_lobby"])
    assert both is not None and both.result["constituents"]["bike_lobby"]["score"] >= 0


def test_ties_go_to_the_lowest_spending() -> None:
    found = solve(["fiscal_conservatives"])
    assert (found.score, found.spending) == (1, 0)
    assert found.result["spending"] == 0


def test_the_search_time_is_reported() -> None:
    """benchmarks/bench_solver.py measures speed; here only that `seconds` is the search's."""
    started = time.perf_counter()
    found = solve(["developer", "stop_the_shadows", "inclusionary_for_all"], fixed={"A1": "park"})
    assert 0 < found.seconds <= time.perf_counter() - started


@pytest.mark.parametrize(
    ("kwargs", "error", "names"),
    [
        (dict(cards=["developer", "castle"]), UnknownIdError, "'castle'"),
        (dict(cards=["developer"], fixed={"A1": "castle"}), UnknownIdError, "'castle'"),
        (dict(cards=["developer"], fixed={"Z9": "park"}), UnknownIdError, "'Z9'"),
        (dict(cards=["developer"], weights=[1, 2]), ScenarioFormatError, "2 weights"),
        (dict(cards=["developer"], weights=["a"]), ScenarioFormatError, "'a'"),
        (dict(cards=["developer", "developer"]), ScenarioFormatError, "'developer'"),
        (dict(cards=[]), ScenarioFormatError, "at least one"),
        (
            dict(cards=["developer"], fixed={"A3": "tower_market"}, policies=["affordable_100"]),
            AffordableOnlyError,
            "A3 (Market Rate Tower)",
        ),
        (dict(cards=["developer"], policies=["rent_control"]), UnknownIdError, "'rent_control'"),
        (dict(cards=["developer"], existing={"house-1": "rich"}), UnknownIdError, "'rich'"),
    ],
)
def test_mistakes_are_one_line_errors(kwargs, error, names) -> None:
    cards = kwargs.pop("cards")
    with pytest.raises(error) as caught:
        solve(cards, **kwargs)
    assert names in str(caught.value) and "\n" not in str(caught.value)


def test_fixed_market_tile_on_phase_two_drops_affordable_sets() -> None:
    found = solve(["refuse_capitalism"], fixed={"A3": "tower_market"})
    assert "affordable_100" not in found.scenario.policies


@pytest.mark.slow
def test_pruning_drops_states_and_keeps_the_answer(prune_everywhere) -> None:
    """On a reduced space, all 22 cards: the pruned search keeps fewer final states than the
    full one and finds the same best total and spending."""
    config = CONFIGS["virginia-and-untagged"]
    question = dict(fixed=config["fixed"], seed=config["seed"], options=config["options"])
    pruned = solve(list(CARD_IDS), **question)
    problem = make_problem(
        EVALUATOR,
        list(CARD_IDS),
        None,
        config["fixed"],
        None,
        None,
        None,
        config["seed"],
        config["options"],
    )
    full = solver_search.search(EVALUATOR, problem)
    lean = solver_search.search(EVALUATOR, problem, goal="best")
    assert sum(len(p.keys) for p in lean) < sum(len(p.keys) for p in full) / 2
    best = max((p.score.max(), -p.spending[p.score == p.score.max()].min()) for p in full)
    assert (pruned.score, -pruned.spending * EVALUATOR.scale) == best


def test_cards_never_prefer_spending() -> None:
    """Every card's score is non-increasing in spending when its other facts are fixed, which
    lets the searches keep only each state's least cost (`solver_search._least_cost`)."""
    rng = np.random.default_rng(0)
    n = 20_000

    def ints(high: int) -> np.ndarray:
        return rng.integers(0, high, n)

    facts = dict(
        new_market=ints(40),
        new_middle=ints(40),
        new_low=ints(40),
        housed_high=ints(13),
        housed_middle=ints(13),
        housed_low=ints(13),
        towers=ints(10),
        garages=ints(10),
        parks=ints(10),
        tall_squares=ints(10),
        greenway_homes=ints(40),
        tall_on_virginia=ints(3),
        tower_on_virginia_or_acton=ints(5),
        corner_townhouses=ints(5),
        tower_on_corner=ints(5),
        market_only_squares=ints(10),
        apartments_middle_or_high=ints(2) == 1,
        houses_all_high=ints(2) == 1,
        vacancy_control=ints(2) == 1,
    )
    facts["new_total"] = facts["new_market"] + facts["new_middle"] + facts["new_low"]
    spending = ints(40 * EVALUATOR.scale)
    more = spending + rng.integers(1, 10 * EVALUATOR.scale, n)
    scores = []
    for spent in (spending, more):
        plus, minus = card_scores(ArrayFacts(scale=EVALUATOR.scale, spending=spent, **facts))
        scores.append(plus.astype(int) - minus)
    assert (scores[1] <= scores[0]).all()
    assert (scores[1] < scores[0]).any(axis=0).sum() >= 9  # the cards reading spending


@pytest.mark.slow
def test_all_cards_answer_is_unchanged() -> None:
    """The coalition of all 22 cards, full space, default placement: the answers recorded with
    the search before pruning (9 points at $6, matching funds; no board keeps every card
    >= 0, so no frontier)."""
    found = solve(list(CARD_IDS))
    assert (found.score, found.spending) == (9, 6)
    assert found.scenario.policies == {"matching_funds"}
    assert not found.nonnegative_possible
    assert every_card_nonnegative(list(CARD_IDS)) is None
    assert pareto_frontier(list(CARD_IDS)) == []
    half = solve(list(CARD_IDS[:16]))
    assert (half.score, half.spending) == (8, 3)
    assert half.nonnegative_possible
    both = every_card_nonnegative(list(CARD_IDS[:16]))
    assert both is not None and (both.score, both.spending) == (8, 3)
    assert [(p.low_housed, p.spending) for p in pareto_frontier(list(CARD_IDS[:16]))] == [(8, 2)]


def test_an_unknown_keyword_is_refused_not_ignored() -> None:
    for ask in (solve, every_card_nonnegative, pareto_frontier):
        with pytest.raises(TypeError, match="fixd"):
            ask(["developer"], fixd={"A1": "park"})

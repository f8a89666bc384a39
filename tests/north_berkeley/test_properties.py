"""Property tests over random boards, policies, placements and whole games."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley.engine.movein import WAVES, MoveInResult
from housing_lab.north_berkeley.engine.scoring import score_scenario
from housing_lab.north_berkeley.layout import default_layout
from housing_lab.north_berkeley.play.autoplay import play_random_game
from housing_lab.north_berkeley.play.game import Game
from housing_lab.north_berkeley.policies import AFFORDABLE_100, INCOMES, POLICIES, RuleOptions
from housing_lab.north_berkeley.scenario import affordable_violations, make_scenario
from housing_lab.north_berkeley.tiles import default_catalogue

LAYOUT = default_layout()
CATALOGUE = default_catalogue()
TILE_IDS = list(CATALOGUE)

boards = st.fixed_dictionaries(
    {}, optional={square: st.sampled_from(TILE_IDS) for square in LAYOUT.squares}
)
policy_sets = st.sets(st.sampled_from(POLICIES))
placements = st.permutations(["high"] * 4 + ["middle"] * 4 + ["low"] * 4).map(
    lambda incomes: dict(zip(LAYOUT.existing_ids, incomes, strict=True))
)
options = st.builds(RuleOptions, low_income_in_adus=st.booleans(), displaced_first=st.booleans())


def valid(tiles: dict[str, str], policies: set[str]) -> set[str]:
    if affordable_violations(tiles, LAYOUT, CATALOGUE):
        return policies - {AFFORDABLE_100}
    return policies


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(boards, policy_sets, placements, options)
def test_move_in_invariants(tiles, policies, placement, rule_options) -> None:
    scenario = make_scenario(tiles, sorted(valid(tiles, policies)), placement)
    result = score_scenario(scenario, rule_options)
    out = result.to_dict()
    for income in INCOMES:
        # conservation: everyone is housed or not, 12 per income
        assert out["housed"][income] + out["unhoused"][income] == 12
        assert sum(out["outcomes"][income].values()) == 12
        assert out["displaced"][income] <= 4
    assert out["displaced"]["high"] == 0
    if "vacancy_control" in policies:
        assert sum(out["displaced"].values()) == 0
    # capacity: nobody is housed in a home that does not exist
    homes = 12 + out["new_homes"]["total"] + (6 if "adu" in scenario.policies else 0)
    assert sum(out["housed"].values()) <= homes
    move_in = result.move_in
    check_move_in_replay(move_in)
    # every resident who ends up unhoused has exactly one "left" event
    left = [e.resident for e in move_in.events if e.kind == "left"]
    assert len(left) == len(set(left)) == sum(out["unhoused"].values())
    # card scores are consistent
    for card in out["constituents"].values():
        assert card["score"] == int(card["plus"]) - int(card["minus"])
    # homes only hold residents they allow
    for home in move_in.new_homes:
        income = move_in.income_in(home.id)
        if home.type == "low":
            assert income in (None, "low")
        if home.type == "middle":
            assert income in (None, "middle", "low")


def check_move_in_replay(move_in: MoveInResult) -> None:
    """The queries a view reads part-way through move-in agree with the event log."""
    events = move_in.events
    for count, event in enumerate(events):
        before = move_in.occupancy_after(count)
        housed = [r for r in before.values() if r is not None]
        assert len(housed) == len(set(housed)), "a resident lives in two homes"
        if event.kind == "placed":
            assert before[event.home] is None, f"{event} moves into an occupied home"
        elif event.kind == "displaced":
            assert before[event.home] == event.resident, f"{event} is not in that home"
        for income, row in move_in.outcomes_after(count).items():
            assert sum(row.values()) == 12, (count, income, row)
    # the replay ends where the algorithm ended
    assert move_in.occupancy_after() == move_in.occupants
    final = move_in.outcomes_after()
    assert {i: {k: final[i][k] for k in row} for i, row in move_in.outcomes().items()} == (
        move_in.outcomes()
    )
    assert all(row["displaced_waiting"] == row["newcomer_waiting"] == 0 for row in final.values())
    # the waves follow one another: high, then middle, then low income
    bounds = move_in.wave_bounds()
    assert bounds[-1] == len(events)
    for wave, start, end in zip(WAVES, bounds[:-1], bounds[1:], strict=True):
        assert all(event.wave == wave for event in events[start:end])
    # once a wave is over, its newcomers have all had their turn
    for number, wave in enumerate(WAVES, start=1):
        assert move_in.outcomes_after(bounds[number])[wave]["newcomer_waiting"] == 0


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(st.integers(2, 6), st.integers(0, 10**6))
def test_same_seed_same_game(players: int, seed: int) -> None:
    first = play_random_game(players, seed=seed).game_log()
    second = play_random_game(players, seed=seed).game_log()
    assert json.dumps(first) == json.dumps(second)


ILLEGAL_ACTIONS = [
    lambda g, r: g.place(r.choice(LAYOUT.squares), r.choice(TILE_IDS)),
    lambda g, r: g.place(r.choice(["Z1", "A0"]), "park"),
    lambda g, r: g.place("A1", "castle"),
    lambda g, r: g.clear(r.choice(LAYOUT.squares)),
    lambda g, r: g.call_state(minutes_elapsed=r.uniform(0, 9.9)),
    lambda g, r: g.advance(),
    lambda g, r: g.redraw(r.choice([*g.players, "Nobody"])),
    lambda g, r: g.pick(r.choice([*g.players, "Nobody"]), r.choice(list(g.state.deck) or ["x"])),
    lambda g, r: g.enact(r.sample(list(POLICIES), r.randint(0, 3))),
]


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6), st.integers(0, 10**6))
def test_a_refused_action_changes_nothing(players: int, seed: int) -> None:
    """Drive a random game, throwing random (mostly illegal) actions at every phase."""
    rng = random.Random(seed)
    game = Game([f"T{i}" for i in range(players)], seed=seed)
    for _ in range(200):
        if game.phase == "over":
            break
        before = game.to_json()
        action = rng.choice(ILLEGAL_ACTIONS)
        try:
            action(game, rng)
        except HousingLabError as error:
            assert game.to_json() == before, f"refused {error} but state changed"
            assert "\n" not in str(error)
        _make_progress(game, rng)


def _make_progress(game: Game, rng: random.Random) -> None:
    if rng.random() < 0.5:
        return
    if game.phase in ("phase1", "phase2"):
        if game.empty_squares():
            game.call_state()
        game.advance()
    elif game.phase == "extra_draw":
        game.advance()
    elif game.phase == "draft":
        game.pick(game.draft_turn(), rng.choice(game.state.draft_pool))
    elif game.phase == "policies":
        game.enact(game.state.policies_drawn[:1])

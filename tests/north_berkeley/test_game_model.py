"""A game under its own assumptions: `Game(model=...)`, budget refusals in words, the state's
draw within the budget, saves and rooms that replay under the model (RULES.md "Model
assumptions")."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from housing_lab.north_berkeley.engine import legal
from housing_lab.north_berkeley.errors import OverBudgetError, ScenarioFormatError, UnknownIdError
from housing_lab.north_berkeley.model import RULEBOOK, Model
from housing_lab.north_berkeley.play.autoplay import play_random_game
from housing_lab.north_berkeley.play.game import Game
from housing_lab.north_berkeley.policies import MATCHING_FUNDS, RuleOptions
from housing_lab.north_berkeley.scenario import replaced
from housing_lab.rooms import ActionRefused, open_store

PLAYERS = ["Red", "Blue"]
NO_FILTERING = {"market_homes_for": ["high"]}


def spending(game: Game) -> Fraction:
    return legal.spending(game.state.tiles, game.state.policies, game.catalogue)


def to_phase2(game: Game, policies: list[str] | None = None) -> None:
    """Fill phase 1 with the state, play the draft with first picks, enact `policies`."""
    if game.empty_squares():
        game.call_state()
    game.advance()
    while game.phase == "extra_draw":
        game.advance()
    while game.phase == "draft":
        game.apply(game.legal_actions()[0])
    drawn = game.state.policies_drawn
    game.enact(policies if policies is not None else drawn[:1])


# --- the model is part of the options -------------------------------------------------------
def test_model_accepts_a_model_or_its_json_object() -> None:
    by_dict = Game(PLAYERS, 3, model={"budget": 4, **NO_FILTERING})
    by_model = Game(PLAYERS, 3, model=Model.from_dict({"budget": 4, **NO_FILTERING}))
    assert by_dict.model == by_model.model and by_dict.model.budget == 4
    assert by_dict.model.market_homes_for == frozenset({"high"})
    assert by_dict.state.options.model == by_dict.model
    assert Game(PLAYERS, 3).model == RULEBOOK


def test_model_replaces_the_options_model_and_keeps_the_other_options() -> None:
    options = RuleOptions(negotiation_minutes=3, model={"budget": 9})
    game = Game(PLAYERS, 3, options=options, model={"budget": 2})
    assert game.model.budget == 2 and game.state.options.negotiation_minutes == 3


def test_rulebook_options_serialize_without_a_model() -> None:
    assert "model" not in RuleOptions().to_dict()
    assert "model" not in RuleOptions(model=RULEBOOK).to_dict()
    assert RuleOptions.from_dict(RuleOptions().to_dict()) == RuleOptions()
    options = RuleOptions(model={"budget": 2.5})
    assert options.to_dict()["model"]["budget"] == 2.5
    assert RuleOptions.from_dict(options.to_dict()) == options


def test_a_bad_model_is_one_line_naming_it() -> None:
    with pytest.raises(ScenarioFormatError, match=r"budget.*0-999.*1000"):
        Game(PLAYERS, 3, model={"budget": 1000})
    with pytest.raises(UnknownIdError, match="unknown model switch 'budjet'"):
        Game(PLAYERS, 3, model={"budjet": 3})


# --- budget refusals, in words --------------------------------------------------------------
def test_a_placement_over_budget_is_refused_in_words_and_changes_nothing() -> None:
    game = Game(PLAYERS, 3, model={"budget": 3})
    game.place("B1", "park")
    game.place("B2", "park")
    before = game.to_dict()
    reason = game.placement_refusal("C1", "tower_social")
    assert reason == (
        "Mixed Income Social Housing Tower on C1: the board would spend $4, over the city "
        "budget of $3"
    )
    with pytest.raises(OverBudgetError) as refused:
        game.place("C1", "tower_social")
    assert str(refused.value) == reason
    assert game.to_dict() == before
    assert game.placement_refusal("C1", "tower_inclusionary_50") is None  # $3: just within
    assert {"action": "place", "square": "C1", "tile": "tower_social"} not in game.legal_actions()
    assert {"action": "place", "square": "C1", "tile": "park"} in game.legal_actions()


def test_a_placement_counts_the_tile_it_replaces() -> None:
    game = Game(PLAYERS, 3, model={"budget": 6})
    game.place("B1", "tower_public")  # $6: the whole budget
    assert game.placement_refusal("C1", "park") is not None
    assert game.placement_refusal("B1", "tower_workforce") is None  # $4 instead of $6
    game.place("B1", "tower_workforce")
    assert spending(game) == 4


def test_the_rules_are_asked_before_the_budget() -> None:
    game = Game(PLAYERS, 3, model={"budget": 0})
    assert "not a phase-1 square" in game.placement_refusal("B3", "park")
    assert "over the city budget of $0" in game.placement_refusal("B1", "park")


def test_without_a_budget_nothing_is_refused_for_money() -> None:
    game = Game(PLAYERS, 3)
    for square in game.phase_squares():
        game.place(square, "tower_public")  # $24
    assert spending(game) == 24


def _matching_funds_game(budget: int) -> Game:
    """A game in phase 2 with matching funds enacted (the first seed that draws it)."""
    for seed in range(100):
        game = Game(PLAYERS, seed, model={"budget": budget})
        for square in game.phase_squares():
            game.place(square, "townhouse_middle")
        game.advance()
        while game.phase == "extra_draw":
            game.advance()
        while game.phase == "draft":
            game.apply(game.legal_actions()[0])
        if MATCHING_FUNDS in game.state.policies_drawn:
            game.enact([MATCHING_FUNDS])
            return game
    raise AssertionError("no seed below 100 draws matching funds")  # pragma: no cover


def test_clearing_that_loses_matching_funds_is_refused_in_words() -> None:
    """Matching funds halve housing while 7 low income homes stand: clearing one of them
    doubles the rest's cost, which the budget may not hold."""
    game = _matching_funds_game(budget=7)
    game.place("A1", "tower_public")  # 4 low homes: $6
    game.place("A2", "tower_public")  # 8: halved, $6
    game.place("A3", "tower_social")  # 9: halved, $7
    assert spending(game) == 7
    before = game.to_dict()
    reason = game.clear_refusal("A1")  # 5 low homes left: $6 + $2, not halved
    assert reason == "clearing A1: the board would spend $8, over the city budget of $7"
    with pytest.raises(OverBudgetError) as refused:
        game.clear("A1")
    assert str(refused.value) == reason
    assert game.to_dict() == before
    assert {"action": "clear", "square": "A1"} not in game.legal_actions()
    assert "$9" in game.placement_refusal("A1", "park")  # replacing it loses the funds too
    assert game.clear_refusal("A3") is None  # 8 low homes left: still halved, $6
    game.clear("A3")
    assert spending(game) == 6


# --- the state's draw ----------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(8))
def test_the_state_draws_within_the_budget(seed: int) -> None:
    for budget in (0, 1, 3):
        game = Game(PLAYERS, seed, model={"budget": budget})
        game.call_state()
        assert spending(game) <= budget
        to_phase2(game)
        game.call_state()
        assert spending(game) <= budget
        assert game.advance() == "over"
        assert game.winners()


def test_a_tight_budget_changes_the_draw_and_a_loose_one_does_not() -> None:
    """With room to spare every tile is drawable, so the rulebook's draws come out; at $0
    only free tiles are drawn (some seed's rulebook draw costs money)."""
    changed = 0
    for seed in range(8):
        rulebook = Game(PLAYERS, seed).call_state()
        loose = Game(PLAYERS, seed, model={"budget": 999}).call_state()
        free = Game(PLAYERS, seed, model={"budget": 0})
        drawn = free.call_state()
        assert loose == rulebook
        assert all(free.catalogue[tile].cost == 0 for tile in drawn.values())
        changed += drawn != rulebook
    assert changed > 0


@pytest.mark.parametrize("model", [None, {"budget": 999}, NO_FILTERING])
def test_without_a_tight_budget_the_draw_is_the_rulebooks_rng_sequence(model) -> None:
    """The rulebook's draw, as it always was: one `rng.choice` of the allowed tiles per empty
    square, in order, from the seed's `state:<calls>` stream."""
    for seed in range(6):
        game = Game(PLAYERS, seed, model=model)
        game.place("C1", "park")
        rng = random.Random(f"{seed}:state:0")
        expected = {s: rng.choice(game.allowed_tiles(s)) for s in game.empty_squares()}
        assert game.call_state() == expected


def test_final_scores_use_the_games_model() -> None:
    """Without filtering, low income newcomers cannot take market-rate homes: a board of
    market towers houses fewer of them than under the rulebook."""
    results, games = {}, {}
    for name, model in (("rulebook", None), ("high only", NO_FILTERING)):
        game = Game(PLAYERS, 5, model=model)
        for square in game.phase_squares():
            game.place(square, "tower_market")
        to_phase2(game)
        for square in game.phase_squares():
            game.place(square, game.allowed_tiles(square)[0])
        game.advance()
        results[name] = game.result().to_dict()
        games[name] = game
    low = {name: r["housed"]["low"] for name, r in results.items()}
    assert low["high only"] < low["rulebook"]
    assert "model" not in results["rulebook"]
    assert results["high only"]["model"]["market_homes_for"] == ["high"]
    scores = {name: game.final_scores() for name, game in games.items()}
    cards = {name: game.result().cards for name, game in games.items()}
    for name, game in games.items():  # the hands are scored by the game's own result
        for player in PLAYERS:
            own = sum(cards[name][c].score for c in game.state.hands[player])
            assert scores[name][player].total == own


# --- saves ---------------------------------------------------------------------------------
def test_a_save_round_trips_with_its_model() -> None:
    game = Game(PLAYERS, 4, model={"budget": 5, **NO_FILTERING})
    game.place("B1", "tower_social")
    game.call_state()
    text = game.to_json()
    saved = json.loads(text)
    assert saved["options"]["model"]["budget"] == 5
    loaded = Game.from_json(text)
    assert loaded.model == game.model
    assert loaded.to_dict() == game.to_dict() and loaded.to_json() == text
    assert loaded.placement_refusal("B1", "tower_public") is not None  # still under budget $5


def test_a_rulebook_save_has_no_model_and_an_old_save_loads_as_the_rulebook() -> None:
    game = play_random_game(PLAYERS, seed=2)
    saved = json.loads(game.to_json())
    assert "model" not in saved["options"]
    assert Game.from_dict(saved).model == RULEBOOK


def test_a_saved_log_over_its_own_budget_is_refused_by_action() -> None:
    game = Game(PLAYERS, 4, model={"budget": 2})
    game.place("B1", "park")
    saved = json.loads(game.to_json())
    saved["log"].append({"action": "place", "square": "C1", "tile": "tower_public"})
    with pytest.raises(OverBudgetError, match=r"action 2 .* refused: .*over the city budget"):
        Game.from_dict(saved)
    saved["options"].pop("model")  # the same log under the rulebook is fine
    assert Game.from_dict(saved).state.tiles["C1"] == "tower_public"


# --- rooms ---------------------------------------------------------------------------------
def test_a_room_game_replays_under_its_model_on_sqlite(tmp_path) -> None:
    url = "sqlite:///" + str(tmp_path / "rooms.sqlite")
    model = {"budget": 3, **NO_FILTERING}
    with open_store(url) as store:
        room = store.create_room(PLAYERS, seed=6, options={"model": model})
        code, red = room["room"], room["teams"]["Red"]["token"]
        store.act(code, red, {"action": "place", "square": "B1", "tile": "tower_social"})
        with pytest.raises(ActionRefused, match="over the city budget of \\$3"):
            store.act(code, red, {"action": "place", "square": "C1", "tile": "tower_social"})
    with open_store(url) as store:  # a restart: the room is replayed from its log
        view = store.view(code, red)
        assert view["board"]["tiles"] == {"B1": "tower_social"}
        assert view["board"]["model"]["market_homes_for"] == ["high"]
        exported = store.export(code, room["teacher"]["token"])
    replayed = Game.from_dict(exported)
    assert replayed.model == Model.from_dict(model)
    assert replayed.state.tiles == {"B1": "tower_social"}


# --- the command line ----------------------------------------------------------------------
def test_room_create_takes_a_model_and_the_room_plays_under_it(cli, tmp_path) -> None:
    store = "sqlite:///" + str(tmp_path / "rooms.sqlite")
    create = ("room", "create", "--teams", "Red,Blue", "--seed", "4", "--store", store)
    code, out, err = cli(*create, "--model", '{"budget": 2}')
    assert code == 0 and err == ""
    room = json.loads(out)
    red = room["teams"]["Red"]["token"]
    action = json.dumps({"action": "place", "square": "B1", "tile": "tower_social"})
    common = (room["room"], "--store", store, "--token", red)
    assert cli("room", "act", *common, "--action", action)[0] == 0
    action = json.dumps({"action": "place", "square": "C1", "tile": "park"})
    code, out, err = cli("room", "act", *common, "--action", action)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "Park on C1: the board would spend $3, over the city budget of $2" in err


@pytest.mark.parametrize(
    ("model", "said"),
    [
        ('{"budget": 3000}', "model 'budget' must be 0-999, got 3000"),
        ('{"budjet": 3}', "unknown model switch 'budjet'"),
        ('{"budget": 3', "--model: malformed JSON"),
        ("[1]", "'model' must be an object"),
    ],
)
def test_a_bad_model_on_the_command_line_is_one_line_exit_2(cli, tmp_path, model, said) -> None:
    store = "sqlite:///" + str(tmp_path / "rooms.sqlite")
    for command in (
        ("room", "create", "--teams", "Red,Blue", "--store", store),
        ("classroom", "--teams", "Red,Blue", "--store", store, "--no-server", "--no-browser"),
    ):
        code, out, err = cli(*command, "--model", model)
        assert code == 2 and out == "" and err.count("\n") == 1 and said in err, err
    assert (
        not (tmp_path / "rooms.sqlite").exists()
        or cli("room", "create", "--teams", "Red,Blue", "--store", store)[0] == 0
    )  # nothing half-made: the store still works


def test_a_model_is_for_north_berkeley_rooms_only(cli, tmp_path) -> None:
    store = "sqlite:///" + str(tmp_path / "rooms.sqlite")
    code, _, err = cli(
        "room",
        "create",
        "--game",
        "streetcar",
        "--teams",
        "Red,Blue",
        "--store",
        store,
        "--model",
        "{}",
    )
    assert code == 2 and "--model is for north-berkeley rooms, not streetcar" in err


def test_classroom_dry_run_prints_the_model_and_the_command_that_keeps_it(cli, tmp_path) -> None:
    store = "sqlite:///" + str(tmp_path / "rooms.sqlite")
    model = '{"market_homes_for": ["high"]}'
    code, out, err = cli(
        "classroom",
        "--teams",
        "Red,Blue",
        "--seed",
        "5",
        "--store",
        store,
        "--dry-run",
        "--model",
        model,
    )
    assert code == 0, err
    plan = json.loads(out)
    assert plan["options"]["model"]["market_homes_for"] == ["high"]
    assert "--model" in plan["run"] and "--seed 5" in plan["run"]


def test_a_game_board_changed_keeps_its_model() -> None:
    """`Scenario.replace` (the coach, the lab) keeps the board's assumptions."""
    game = Game(PLAYERS, 3, model={"budget": 2})
    board = game.scenario()
    assert replaced(board, tiles={"B1": "park"}).model == game.model
    with pytest.raises(OverBudgetError, match="spends \\$6, over the city budget of \\$2"):
        replaced(board, tiles={"B1": "tower_public"})
    assert replaced(replaced(board, model=None), tiles={"B1": "tower_public"}).model is None

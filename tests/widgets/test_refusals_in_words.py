"""Every refusal and bad input a student or a teacher can meet in the lab and at the game table,
as the screen shows it: the engine's own sentence, unchanged (no view rewrites it, issue 42),
with tiles, policies, cards and phases in words. The only id-like text allowed is the bad value
itself, quoted as it was given (an unknown id has no name)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley.constituents import CARD_IDS
from housing_lab.north_berkeley.play.autoplay import play_random_game
from housing_lab.north_berkeley.policies import POLICIES
from housing_lab.north_berkeley.tiles import default_catalogue
from housing_lab.widgets import GameTable, NorthBerkeleyLab
from housing_lab.widgets.lab.changes import machine_ids

# one-word ids too ("park", "adu", "developer", "phase1"): machine_ids finds only snake_case
KNOWN_IDS = (*default_catalogue(), *POLICIES, *CARD_IDS, "phase1", "phase2", "extra_draw")


def ids_shown(text: str, allowed: Sequence[str] = ()) -> list[str]:
    """The ids in `text` a student must not read (case-sensitive: "Park" is a name)."""
    found = machine_ids(text, allowed)
    for known in KNOWN_IDS:
        if known not in allowed and re.search(rf"(?<![\w-]){re.escape(known)}(?![\w-])", text):
            found.append(known)
    return sorted(set(found))


# --- the lab --------------------------------------------------------------------------------
def plain_lab() -> NorthBerkeleyLab:
    return NorthBerkeleyLab(seed=1)


def budget_lab() -> NorthBerkeleyLab:
    return NorthBerkeleyLab(seed=1, model={"budget": 4})


def affordable_lab() -> NorthBerkeleyLab:
    lab = plain_lab()
    lab.set_policy("affordable_100")
    return lab


def matching_funds_lab() -> NorthBerkeleyLab:
    """$7 of budget spent with matching funds in effect (8 low income homes, then 9)."""
    lab = NorthBerkeleyLab(seed=1, model={"budget": 7})
    lab.set_policy("matching_funds")
    for square, tile in (("A1", "tower_public"), ("A2", "tower_public"), ("A3", "tower_social")):
        lab.place(square, tile)
    return lab


def with_tiles(lab: NorthBerkeleyLab, tiles: dict[str, str]) -> NorthBerkeleyLab:
    for square, tile in tiles.items():
        lab.place(square, tile)
    return lab


def upload(lab: NorthBerkeleyLab, text: str) -> None:
    """The file chooser's upload; it shows a refusal and swallows it, so raise it again."""
    before = lab.scenario
    lab._on_upload_text(text)
    if lab.scenario == before and lab.board.message_kind == "error":
        raise HousingLabError(lab.board.message)


MARKET_ON_PHASE_2 = {"A1": "tower_market", "B3": "midrise_market"}
BAD_SCENARIOS: dict[str, tuple[Any, tuple[str, ...]]] = {
    "an unknown tile": ({"tiles": {"B1": "tower_markt"}}, ("tower_markt",)),
    "an unknown policy": ({"policies": ["rent_control"]}, ("rent_control",)),
    "a policy listed twice": ({"policies": ["adu", "vacancy_control", "adu"]}, ()),
    "market homes under 100% affordable": (
        {"tiles": MARKET_ON_PHASE_2, "policies": ["affordable_100"]},
        (),
    ),
    "over its own budget": ({"tiles": {"B1": "tower_public"}, "model": {"budget": 2}}, ()),
    "policies as text": ({"policies": "adu"}, ("adu",)),
    "an unknown key": ({"tilez": {}}, ()),
    "an unknown income": ({"existing": {"house-1": "rich"}}, ()),
}

LabAction = Callable[[NorthBerkeleyLab], Any]
LAB_CASES: dict[str, tuple[Callable[[], NorthBerkeleyLab], LabAction, tuple[str, ...]]] = {
    "an unknown tile": (plain_lab, lambda lab: lab.place("B1", "tower_markt"), ("tower_markt",)),
    "an unknown square": (plain_lab, lambda lab: lab.place("Z9", "park"), ()),
    "market homes under 100% affordable": (
        affordable_lab,
        lambda lab: lab.place("A1", "tower_market"),
        (),
    ),
    "enacting 100% affordable over market homes": (
        lambda: with_tiles(plain_lab(), MARKET_ON_PHASE_2),
        lambda lab: lab.set_policy("affordable_100"),
        (),
    ),
    "a tile over the city budget": (budget_lab, lambda lab: lab.place("B1", "tower_public"), ()),
    "clearing that loses matching funds": (matching_funds_lab, lambda lab: lab.clear("A1"), ()),
    "repealing matching funds over budget": (
        matching_funds_lab,
        lambda lab: lab.set_policy("matching_funds", False),
        (),
    ),
    "an unknown policy": (plain_lab, lambda lab: lab.set_policy("rent_control"), ("rent_control",)),
    "a seed that is no number": (plain_lab, lambda lab: lab.reshuffle("seven"), ()),  # type: ignore[arg-type]
    "a budget under the board's spending": (
        lambda: with_tiles(plain_lab(), {"B1": "tower_public"}),
        lambda lab: lab.set_model({"budget": 1}),
        (),
    ),
    "coaching an unknown card": (plain_lab, lambda lab: lab.coach("urbanist"), ()),
    "coaching a hand with an unknown card": (
        plain_lab,
        lambda lab: lab.coach(["urbanists", "developers"]),
        (),
    ),
    "an unknown coaching goal": (plain_lab, lambda lab: lab.coach("urbanists", "lose"), ()),
    "applying advice never asked": (plain_lab, lambda lab: lab.apply_coach(), ()),
    "undo with nothing to undo": (plain_lab, lambda lab: lab.undo(), ()),
    "an upload that is no JSON": (plain_lab, lambda lab: upload(lab, '{"tiles": '), ()),
    **{
        f"a file with {name}": (plain_lab, lambda lab, data=data: lab.load_scenario(data), allowed)
        for name, (data, allowed) in BAD_SCENARIOS.items()
    },
    **{
        f"an upload with {name}": (
            plain_lab,
            lambda lab, data=data: upload(lab, json.dumps(data)),
            allowed,
        )
        for name, (data, allowed) in BAD_SCENARIOS.items()
    },
}


@pytest.mark.parametrize("case", LAB_CASES)
def test_the_lab_shows_every_refusal_as_the_engine_words_it(case: str) -> None:
    make, act, allowed = LAB_CASES[case]
    lab = make()
    before = lab.scenario
    with pytest.raises(HousingLabError) as raised:
        act(lab)
    shown = lab.board.message
    assert shown == str(raised.value) and lab.board.message_kind == "error"  # as it is
    assert ids_shown(shown, allowed) == [], shown
    assert lab.scenario == before


@pytest.mark.parametrize(
    "act",
    [
        lambda lab: lab.place("B1", "park"),  # the Park already stands there
        lambda lab: lab.clear("C1"),
        lambda lab: lab.set_policy("adu"),
        lambda lab: lab.set_policy("vacancy_control", False),
    ],
)
def test_the_lab_says_an_action_that_changes_nothing_in_words(act: LabAction) -> None:
    lab = plain_lab()
    lab.place("B1", "park")
    lab.set_policy("adu")
    before = lab.scenario
    act(lab)
    assert lab.scenario == before
    assert lab.board.message and ids_shown(lab.board.message) == [], lab.board.message


# --- the game table -------------------------------------------------------------------------
def phase_1() -> GameTable:
    return GameTable(teams=["Red", "Blue", "Green"], seed=3)


def extra_draw() -> GameTable:
    table = phase_1()
    table.call_state()
    table.next_phase()
    assert table.stage == "extra_draw"
    return table


def draft() -> GameTable:
    table = extra_draw()
    table.next_phase()
    assert table.stage == "draft"
    return table


def policy_choice() -> GameTable:
    """Four teams, seed 1: 100% Affordable Housing and Vacancy Control are drawn."""
    table = GameTable(teams=["A", "B", "C", "D"], seed=1)
    table.call_state()
    table.next_phase()
    while table.stage == "draft":
        table.pick(table.game.draft_turn(), table.game.state.draft_pool[0])
    assert table.game.state.policies_drawn == ["vacancy_control", "affordable_100"]
    return table


def phase_2_affordable() -> GameTable:
    table = policy_choice()
    table.enact(["affordable_100"])
    return table


def budget_table() -> GameTable:
    return GameTable(teams=["Red", "Blue", "Green"], seed=3, options={"model": {"budget": 4}})


def not_drawn(table: GameTable) -> str:
    return next(p for p in POLICIES if p not in table.game.state.policies_drawn)


def out_of_turn(table: GameTable) -> str:
    return next(p for p in table.teams if p != table.game.draft_turn())


def no_redraw(table: GameTable) -> str:
    return next(p for p in table.teams if not table.game.can_redraw(p))


def not_in_hand(table: GameTable, team: str) -> str:
    return next(c for c in CARD_IDS if c not in table.game.state.hands[team])


def saved_game(change: Callable[[list[dict[str, Any]]], Any]) -> dict[str, Any]:
    """A finished game's save (3 players, seed 1: 100% Affordable Housing and Vacancy Control
    are drawn) with its log changed."""
    data = json.loads(play_random_game(3, seed=1).to_json())
    change(data["log"])
    return data


def policy_log_index(log: list[dict[str, Any]]) -> int:
    return next(i for i, action in enumerate(log) if action["action"] == "enact")


def market_tower_after_affordable(log: list[dict[str, Any]]) -> None:
    at = policy_log_index(log)
    log[at] = {"action": "enact", "policies": ["affordable_100"]}
    log.insert(at + 1, {"action": "place", "square": "A1", "tile": "tower_market"})


BAD_SAVES: dict[str, tuple[dict[str, Any], tuple[str, ...]]] = {
    "an unknown tile": (
        saved_game(lambda log: log.insert(0, {"action": "place", "square": "B1", "tile": "towr"})),
        (),
    ),
    "a tile on a square of the other phase": (
        saved_game(lambda log: log.insert(0, {"action": "place", "square": "A1", "tile": "park"})),
        (),
    ),
    "a pick before the draft": (
        saved_game(
            lambda log: log.insert(0, {"action": "pick", "player": "Player 1", "card": "urbanists"})
        ),
        (),
    ),
    "a policy not drawn": (
        saved_game(
            lambda log: log.__setitem__(
                policy_log_index(log),
                {"action": "enact", "policies": ["vacancy_control", "adu", "matching_funds"]},
            )
        ),
        (),
    ),
    "market homes on a phase-2 square": (
        saved_game(market_tower_after_affordable),
        (),
    ),
}

TableAction = Callable[[GameTable], Any]
TABLE_CASES: dict[str, tuple[Callable[[], GameTable], TableAction, tuple[str, ...]]] = {
    "an unknown tile": (phase_1, lambda t: t.place("B1", "tower_markt"), ("tower_markt",)),
    "a square of the other phase": (phase_1, lambda t: t.place("A1", "park"), ()),
    "clearing an empty square": (phase_1, lambda t: t.clear("B1"), ()),
    "calling the state early": (phase_1, lambda t: t.call_state(1), ()),
    "moving on with empty squares": (phase_1, lambda t: t.next_phase(), ()),
    "a tile over the city budget": (budget_table, lambda t: t.place("B1", "tower_public"), ()),
    "undo with nothing to undo": (phase_1, lambda t: t.undo(), ()),
    "applying advice never asked": (phase_1, lambda t: t.apply_coach(), ()),
    "coaching an unknown card": (phase_1, lambda t: t.coach("Red", "urbanist"), ()),
    "coaching a card not in the hand": (
        phase_1,
        lambda t: t.coach("Red", not_in_hand(t, "Red")),
        (),
    ),
    "an unknown coaching goal": (phase_1, lambda t: t.coach("Red", None, "lose"), ()),
    "placing in the extra draw": (extra_draw, lambda t: t.place("B1", "park"), ()),
    "picking in the extra draw": (extra_draw, lambda t: t.pick("Red", "urbanists"), ()),
    "enacting in the extra draw": (extra_draw, lambda t: t.enact(["adu"]), ()),
    "a redraw of a card not at -1": (extra_draw, lambda t: t.redraw(no_redraw(t)), ()),
    "picking out of turn": (
        draft,
        lambda t: t.pick(out_of_turn(t), t.game.state.draft_pool[0]),
        (),
    ),
    "picking a card not face up": (
        draft,
        lambda t: t.pick(t.game.draft_turn(), t.game.state.hands["Red"][0]),
        (),
    ),
    "picking an unknown card": (draft, lambda t: t.pick(t.game.draft_turn(), "urbanist"), ()),
    "moving on during the draft": (draft, lambda t: t.next_phase(), ()),
    "enacting a policy not drawn": (policy_choice, lambda t: t.enact([not_drawn(t)]), ()),
    "enacting an unknown policy": (
        policy_choice,
        lambda t: t.enact(["rent_control"]),
        ("rent_control",),
    ),
    "enacting no policy": (policy_choice, lambda t: t.enact([]), ()),
    "moving on before enacting": (policy_choice, lambda t: t.next_phase(), ()),
    "placing during the policy choice": (policy_choice, lambda t: t.place("A1", "park"), ()),
    "market homes under 100% affordable": (
        phase_2_affordable,
        lambda t: t.place("A1", "tower_market"),
        (),
    ),
    **{
        f"a saved game with {name}": (phase_1, lambda t, data=data: t.load(data), allowed)
        for name, (data, allowed) in BAD_SAVES.items()
    },
    **{
        f"an uploaded saved game with {name}": (
            phase_1,
            lambda t, data=data: (
                t._on_panel_action({"action": "load", "text": json.dumps(data)}) or _raise_shown(t)
            ),
            allowed,
        )
        for name, (data, allowed) in BAD_SAVES.items()
    },
}


def _raise_shown(table: GameTable) -> None:
    """A click's refusal is shown and swallowed: raise it again to check it."""
    if table.panel.message_kind == "error":
        raise HousingLabError(table.panel.message)


@pytest.mark.parametrize("case", TABLE_CASES)
def test_the_table_shows_every_refusal_as_the_engine_words_it(case: str) -> None:
    make, act, allowed = TABLE_CASES[case]
    table = make()
    before = table.state
    with pytest.raises(HousingLabError) as raised:
        act(table)
    shown = table.panel.message
    assert shown == str(raised.value) and table.panel.message_kind == "error"  # as it is
    assert ids_shown(shown, allowed) == [], shown
    assert table.board.message in ("", shown)
    assert table.state == before


def test_a_locked_square_is_explained_in_words() -> None:
    table = policy_choice()
    text = table.explain_square("B1")
    assert text == table.panel.message and ids_shown(text) == [], text
    assert "the policy choice" in text


def test_the_words_check_finds_ids() -> None:
    """The check itself: snake_case and one-word ids are found, names and allowed values not."""
    assert ids_shown("market homes on A1 (tower_market)") == ["tower_market"]
    assert ids_shown("adu was not drawn; choose park or developer") == ["adu", "developer", "park"]
    assert ids_shown("that action belongs to phase1") == ["phase1"]
    assert ids_shown("unknown tile 'towr_x' (tiles: Park)", ["towr_x"]) == []
    assert ids_shown("East Bay Park and Ride Coalition: Accessory Dwelling Units") == []

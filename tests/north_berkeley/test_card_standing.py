"""A card's conditions and where a board stands on them, in words (`card_standing`).

The words are checked clause by clause on their own, so every test holds them to the card's
actual score (`score_card`): at each card's boundaries and on whole boards, as they stand and
after move-in.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from housing_lab.north_berkeley.card_standing import card_standing, dollars
from housing_lab.north_berkeley.constituents import CARD_IDS, score_card
from housing_lab.north_berkeley.engine.card_rules import CARD_RULES, CardRule, Clause, Condition
from housing_lab.north_berkeley.engine.scoring import facts_as_is, score_scenario
from housing_lab.north_berkeley.errors import UnknownIdError
from housing_lab.north_berkeley.play.autoplay import play_random_game
from housing_lab.north_berkeley.scenario import make_scenario

from .helpers import housed, neutral_facts
from .test_cards import CASES


@pytest.mark.parametrize(("card", "facts", "plus", "minus"), CASES)
def test_standing_agrees_with_the_card_at_its_boundaries(
    card: str, facts: dict[str, Any], plus: bool, minus: bool
) -> None:
    standing = card_standing(card, neutral_facts(**facts))
    assert (standing.plus.met, standing.minus.met) == (plus, minus)
    assert standing.score == int(plus) - int(minus)
    assert standing.plus.text.startswith("+1 now: " if plus else "+1 if ")
    assert standing.minus.text.startswith("\u22121 now: " if minus else "\u22121 if ")


def _boards() -> list[Any]:
    """Facts of whole boards: random games at their end (after move-in) and as they stand."""
    boards = []
    for seed in range(4):
        game = play_random_game(3, seed=seed)
        boards += [game.result().facts, facts_as_is(game.scenario())]
    boards.append(facts_as_is(make_scenario({}, [], seed=1)))
    return boards


@pytest.mark.parametrize("card", CARD_IDS)
def test_every_card_in_words_agrees_with_its_score_on_whole_boards(card: str) -> None:
    for facts in BOARDS:
        standing = card_standing(card, facts)
        score = score_card(card, facts)
        assert (standing.plus.met, standing.minus.met) == (score.plus, score.minus)
        assert standing.text == f"{standing.plus.text}; {standing.minus.text}"
        assert "_" not in standing.text  # words, never a fact's id
        assert standing.to_dict()["score"] == score.score


BOARDS = _boards()


def test_the_issue_example_reads_as_asked() -> None:
    """ "+1 now: 12 low income housed; -1 if fewer than 6" (issue 44)."""
    standing = card_standing("affordable_housing_orgs", neutral_facts(housed=housed(12, 6, 12)))
    assert standing.text == (
        "+1 now: all 12 low income residents housed; "
        "\u22121 if fewer than 6 low income residents housed"
    )
    short = card_standing("affordable_housing_orgs", neutral_facts(housed=housed(12, 6, 5)))
    assert short.text == (
        "+1 if all 12 low income residents housed (now 7 without a home); "
        "\u22121 now: 5 low income residents housed"
    )


def test_the_figures_now_are_the_boards() -> None:
    facts = neutral_facts(spending="7.5", garages=1, parks=2)
    assert card_standing("fiscal_conservatives", facts).text == (
        "+1 if spending under $5 (now $7.50); \u22121 if spending over $8"
    )
    assert card_standing("eco_primitivists", facts).text == (
        "+1 now: 2 parks, 1 garage; \u22121 if more than 1 garage"
    )
    labor = card_standing("labor_unions", facts)  # 14 new homes: 6 market, 4 middle, 4 low
    assert labor.plus.text == (
        "+1 if at least 18 new homes (now 14) and at least half of the new homes low or middle "
        "income (now 8 of 14)"
    )
    assert labor.minus.text == "\u22121 if fewer than 12 new homes"
    # the example in docs/game_table.md and docs/classroom.md
    assert card_standing("more_parks", neutral_facts(parks=0, spending=3)).text == (
        "+1 if at least 2 parks (now 0) and spending under $11 (now $3); \u22121 now: 0 parks"
    )
    landlords = card_standing("landlords", neutral_facts(vacancy_control=True))
    assert landlords.minus.text == "\u22121 now: vacancy control in effect"
    assert dollars(Fraction(13, 2)) == "$6.50" and dollars(7) == "$7"


def test_the_words_follow_the_declaration(monkeypatch: pytest.MonkeyPatch) -> None:
    """A card's words come from its declared clauses: change a threshold, the words change."""
    rule = CARD_RULES["park_and_ride"]
    monkeypatch.setitem(
        CARD_RULES,
        "park_and_ride",
        CardRule(Condition("all", (Clause("garages", ">=", 3),)), rule.minus),
    )
    standing = card_standing("park_and_ride", neutral_facts(garages=2))
    assert standing.plus.text == "+1 if at least 3 garages (now 2)"
    assert not standing.plus.met


def test_an_unknown_card_is_one_line() -> None:
    with pytest.raises(UnknownIdError, match="unknown constituent card 'nope'"):
        card_standing("nope", neutral_facts())


def test_a_projected_board_after_move_in() -> None:
    result = score_scenario(make_scenario({"A1": "tower_market"}, [], seed=7))
    for card in CARD_IDS:
        assert card_standing(card, result.facts).score == result.cards[card].score

"""Hidden hands: no question to the game table's coach tells a card a team holds from one it
does not (issue 25). Every card not on screen gets the same refusal, word for word, on the
projector and in the raised error alike."""

from __future__ import annotations

import pytest

from housing_lab.north_berkeley.constituents import cards
from housing_lab.north_berkeley.errors import IllegalActionError
from housing_lab.widgets import GameTable

TEAMS = ["Red", "Blue", "Green"]


def refusal(table: GameTable, team: str, card: str) -> tuple[str, str]:
    """The raised message and what the panel shows for one coach question."""
    with pytest.raises(IllegalActionError) as caught:
        table.coach(team, card)
    return str(caught.value), table.panel.message


@pytest.mark.parametrize("seed", [0, 7])
def test_every_hidden_card_gets_the_same_refusal(seed: int) -> None:
    table = GameTable(teams=TEAMS, seed=seed, hidden_hands=True)
    held = set(table.game.state.hands["Red"])
    assert held and not table.view["coachable"]["Red"]
    answers = {card: refusal(table, "Red", card) for card in [*cards(), "not-a-card"]}
    held_answers = {answers[card] for card in held}
    other_answers = {answers[card] for card in answers if card not in held}
    assert len(held_answers) == 1 and held_answers == other_answers
    message = next(iter(held_answers))[0]
    assert "Red's starting cards are hidden" in message
    assert not any(card in message for card in cards())  # no id, no printed name either
    assert not any(cards()[card].name in message for card in cards())


def test_open_hands_name_the_card_in_words() -> None:
    table = GameTable(teams=TEAMS, seed=0, hidden_hands=False)
    missing = next(card for card in cards() if card not in table.game.state.hands["Red"])
    message, _ = refusal(table, "Red", missing)
    assert message == f"{cards()[missing].name} is not in Red's hand"


def test_revealed_hand_is_coached_and_the_others_still_refused_alike() -> None:
    table = GameTable(teams=TEAMS, seed=3, hidden_hands=True)
    table.reveal("Red")
    red_card = table.game.state.hands["Red"][0]
    assert table.coach("Red", red_card).card == red_card
    blue = set(table.game.state.hands["Blue"])
    answers = {refusal(table, "Blue", card)[0] for card in cards()}
    assert len(answers) == 1 and blue

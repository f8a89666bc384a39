"""Players' hands scored on a board's cards, and the winners by the rulebook's tie-breaks
(the highest total; then the fewest -1 cards; then all of them win)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from housing_lab.north_berkeley.engine.scoring import CardScore, check_card


@dataclass(frozen=True)
class PlayerScore:
    player: str
    total: int
    minus_cards: int
    cards: Mapping[str, CardScore]

    def to_dict(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "minus_cards": self.minus_cards,
            "cards": {card: score.to_dict() for card, score in self.cards.items()},
        }


def score_hand(
    player: str, hand: Sequence[str], card_scores: Mapping[str, CardScore]
) -> PlayerScore:
    chosen = {check_card(card): card_scores[card] for card in hand}
    return PlayerScore(
        player=player,
        total=sum(score.score for score in chosen.values()),
        minus_cards=sum(score.minus for score in chosen.values()),
        cards=chosen,
    )


def winners(scores: Sequence[PlayerScore]) -> list[str]:
    """Highest total wins; tie: fewest -1 cards; still tied: all of them win (seating order)."""
    if not scores:
        return []
    best = max(s.total for s in scores)
    leaders = [s for s in scores if s.total == best]
    fewest = min(s.minus_cards for s in leaders)
    return [s.player for s in leaders if s.minus_cards == fewest]


def _points(total: int) -> str:
    return f"{total} point" if abs(total) == 1 else f"{total} points"


def tie_break_explanation(scores: Sequence[PlayerScore]) -> str:
    """One sentence saying how the winners were decided, for scoreboards."""
    won = winners(scores)
    best = max((s.total for s in scores), default=0)
    leaders = [s for s in scores if s.total == best]
    if len(leaders) == 1:
        return f"{won[0]} wins with {_points(best)}."
    if len(won) == 1:
        return (
            f"{', '.join(s.player for s in leaders)} tie on {_points(best)}; {won[0]} wins "
            f"with the fewest \u22121 cards."
        )
    minus = leaders[0].minus_cards if leaders else 0
    # "both" or "all 3", never "they all win" when others are left out (issue 44)
    together = "both win" if len(won) == 2 else f"all {len(won)} win"
    return (
        f"{', '.join(won)} tie on {_points(best)} and on \u22121 cards ({minus} each): {together}."
    )

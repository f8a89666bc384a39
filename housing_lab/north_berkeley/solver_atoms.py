"""What each card can see of a board: the atoms the solver's compression must keep apart.

Every card condition compares a fact with thresholds ("at least 6 tall squares", "spending over
$13") or relates two facts ("more parks than garages"). Written as "fact >= t" thresholds
(spending: (amount, strict), strict meaning "over"), a fact's value matters to a coalition only
through the thresholds its cards use: values between two thresholds can be merged. A fact given
as None is kept exactly (it meets another fact in an arithmetic relation), True marks a yes/no
fact. Tests check the solver built on this table against brute force for every card.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

Spec = tuple | None | bool

# Facts derived from the numbers of new homes by type (market, middle, low): the move-in and the
# new-home counts. Those marked POLICY_DEPENDENT differ per policy set.
NEW_HOME_FACTS = ("new_market", "new_total", "new_low", "labor")
POLICY_DEPENDENT = (
    "housed_low",
    "housed_middle",
    "housed_high",
    "anti",
    "apartments_middle_or_high",
    "houses_all_high",
)

MOST_GARAGES = 36  # more than any board holds (one per square); extra thresholds cost nothing

CARD_ATOMS: dict[str, dict[str, Spec]] = {
    "affordable_housing_orgs": {"housed_low": (6, 12)},
    "labor_unions": {"new_total": (12, 18), "labor": True},  # labor: 2(low+middle) >= total
    "developer": {"new_market": (10,), "spending": ((10, False), (13, True))},
    "middle_class_millennials": {"housed_middle": (8, 12)},
    "anti_gentrification_activists": {"anti": True, "housed_low": (4,)},
    "business_improvement_district": {
        "new_total": (16,),
        "garages": (1,),
        "spending": ((10, True),),
    },
    "refuse_capitalism": {"housed_low": (8,), "new_market": (5, 9)},
    "fiscal_conservatives": {"spending": ((5, False), (8, True))},
    "property_values": {"housed_low": (5, 9)},
    "landlords": {"apartments_middle_or_high": True},
    "real_estate_speculators": {"houses_all_high": True, "spending": ((9, False), (12, True))},
    "park_and_ride": {"garages": (1, 2)},
    "more_parks": {"parks": (1, 2), "spending": ((11, False),)},
    "stop_the_shadows": {"tall_on_virginia": (1,), "tower_on_virginia_or_acton": (1,)},
    "save_our_views": {"towers": (1, 3), "spending": ((8, False),)},
    "urbanists": {"tall_squares": (4, 6)},
    "bike_lobby": {"greenway_homes": (10,), "garages": (2,)},
    "tech_corporations": {"new_total": (20,), "new_market": (8,), "spending": ((12, False),)},
    "inclusionary_for_all": {
        "market_only_squares": (1,),
        "housed_low": (7,),
        "housed_middle": (7,),
    },
    "eco_primitivists": {"parks>garages": True, "garages": (2,)},
    "neighborhood_character": {
        "corner_townhouses": (3,),
        "tower_on_corner": (1,),
        "spending": ((14, True),),
    },
    # 6 x garages >= total and 8 x garages < total: with garages exact, the total matters only
    # through where it falls among 6g + 1 and 8g + 1 for every possible number of garages g
    "save_our_parking": {
        "garages": None,
        "new_total": tuple(
            sorted(
                {6 * g + 1 for g in range(MOST_GARAGES + 1)}
                | {8 * g + 1 for g in range(MOST_GARAGES + 1)}
            )
        ),
        "spending": ((11, True),),
    },
}


def merge(specs: Iterable[Mapping[str, Spec]]) -> dict[str, Spec]:
    """Union of atom needs: thresholds add up, an exact need (None) wins over thresholds."""
    merged: dict[str, Spec] = {}
    for spec in specs:
        for fact, need in spec.items():
            old = merged.get(fact, ())
            if fact not in merged:
                merged[fact] = need
            elif old is None or need is None:
                merged[fact] = None
            elif isinstance(old, tuple) and isinstance(need, tuple):
                merged[fact] = tuple(sorted(set(old) | set(need)))
    return merged


def spending_thresholds(spec: Spec, scale: int) -> tuple[int, ...]:
    """Spending thresholds in 1/scale dollars as ">= t" ("over $13" is ">= 13 + 1/scale")."""
    assert isinstance(spec, tuple)
    return tuple(sorted({amount * scale + (1 if strict else 0) for amount, strict in spec}))

"""Words for students: every id the engine uses, said the way the cards and the board say it.

Ids stay in the API and the JSON; whatever a student reads (lesson tables, widget messages, chart
labels) comes from here, so a name is written once. Tile, policy and card names are the printed
ones, read from the data files.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from housing_lab.north_berkeley.constituents import cards
from housing_lab.north_berkeley.engine.movein import MoveEvent, MoveInResult
from housing_lab.north_berkeley.layout import Layout
from housing_lab.north_berkeley.policies import POLICY_NAMES
from housing_lab.north_berkeley.scenario import Scenario
from housing_lab.north_berkeley.tiles import Catalogue

INCOME_NAMES = {"high": "high income", "middle": "middle income", "low": "low income"}
HOME_TYPE_NAMES = {"market": "market rate", "middle": "middle income", "low": "low income"}
OUTCOME_NAMES = {
    "stayed": "stayed in their home",
    "newcomer_housed": "newcomers who found a home",
    "rehoused": "displaced, found another home",
    "displaced_left": "displaced and had to leave",
    "newcomer_left": "newcomers who found no home",
}
STEP_NAMES = {
    "new_market": "new market rate homes",
    "new_middle": "new middle income homes",
    "new_homes": "any empty new home",
    "adu": "accessory dwelling units",
    "displace_houses": "taking homes in existing houses",
    "displace_apartments": "taking homes in existing apartments",
    "left": "no home left",
}
EVENT_COLUMNS = ("Step", "Who", "What happened", "Where")
# For chart labels and table rows, where the printed names are too long to repeat.
POLICY_SHORT_NAMES = {
    "vacancy_control": "Vacancy Control",
    "affordable_100": "100% Affordable",
    "adu": "ADUs",
    "matching_funds": "Matching Funds",
}
NO_POLICY = "No policy"
# The measure columns of results and sweeps (`sweep.sweep`), as table headers.
MEASURE_NAMES = {
    "spending": "Spending ($)",
    "new_market": "New market rate homes",
    "new_middle": "New middle income homes",
    "new_low": "New low income homes",
    "new_total": "New homes",
    **{f"housed_{i}": f"{n.capitalize()} housed" for i, n in INCOME_NAMES.items()},
    **{f"unhoused_{i}": f"{n.capitalize()} not housed" for i, n in INCOME_NAMES.items()},
    **{f"displaced_{i}": f"{n.capitalize()} displaced" for i, n in INCOME_NAMES.items()},
}


def income_name(income: str) -> str:
    return INCOME_NAMES[income]


def tile_name(tile_id: str, catalogue: Catalogue) -> str:
    return catalogue[tile_id].name


def policy_name(policy_id: str) -> str:
    return POLICY_NAMES[policy_id]


def policy_set_name(policies: str | Iterable[str], *, short: bool = True) -> str:
    """A set of policies as one label: "adu+vacancy_control" (a sweep's key) or a list."""
    ids = [p for p in policies.split("+") if p != "none"] if isinstance(policies, str) else policies
    names = POLICY_SHORT_NAMES if short else POLICY_NAMES
    return " + ".join(names[p] for p in ids) or NO_POLICY


def measure_name(column: str) -> str:
    return MEASURE_NAMES[column]


def card_name(card_id: str) -> str:
    return cards()[card_id].name


def _number(home_id: str) -> str:
    return home_id.rsplit("-", 1)[1]


def describe_home(home_id: str, scenario: Scenario) -> str:
    """ "house 2 on Acton Street", "the ADU at house 2", "home 3 of the Market Rate Tower on C1"."""
    layout: Layout = scenario.layout
    existing = {home.id: home for home in layout.existing}
    if home_id in existing:
        home = existing[home_id]
        street = f" on {home.street} Street" if home.street else ""
        return f"{home.kind} {_number(home_id)}{street}"
    if home_id.startswith("adu-"):
        houses = layout.houses
        index = int(_number(home_id)) - 1
        house = houses[index] if 0 <= index < len(houses) else None
        return f"the ADU at house {_number(house)}" if house else "an ADU"
    square, _, quadrant = home_id.rpartition("-")
    tile = scenario.tiles.get(square)
    building = f"the {scenario.catalogue[tile].name}" if tile else "the new building"
    return f"home {quadrant} of {building} on {square}"


def describe_resident(resident_id: str, result: MoveInResult) -> str:
    """ "a high income newcomer" or "a low income resident" (someone who already lived here)."""
    resident = result.residents[resident_id]
    who = "newcomer" if resident.newcomer else "resident"
    return f"a {INCOME_NAMES[resident.income]} {who}"


def describe_step(step: str) -> str:
    """ "high:new_market" -> "High income: new market rate homes"."""
    income, _, stage = step.partition(":")
    return f"{INCOME_NAMES[income].capitalize()}: {STEP_NAMES.get(stage, stage)}"


def describe_event(event: MoveEvent, result: MoveInResult, scenario: Scenario) -> dict[str, str]:
    """One move-in event as a row a student can read (the columns of EVENT_COLUMNS)."""
    who = describe_resident(event.resident, result)
    if event.kind == "placed":
        happened, where = "moved in", describe_home(str(event.home), scenario)
    elif event.kind == "displaced":
        by = describe_resident(event.by, result) if event.by else "someone"
        happened, where = f"displaced by {by}", describe_home(str(event.home), scenario)
    else:
        happened, where = "found no home and left", "(leaves the neighbourhood)"
    return dict(zip(EVENT_COLUMNS, (describe_step(event.step), who, happened, where), strict=True))


def event_rows(result: MoveInResult, scenario: Scenario) -> list[dict[str, str]]:
    """The whole move-in, in order, in words (for a table)."""
    return [describe_event(event, result, scenario) for event in result.events]


def outcome_rows(outcomes: Mapping[str, Mapping[str, int]]) -> dict[str, dict[str, int]]:
    """Per-income outcome counts with readable labels: {"high income": {"stayed ...": 4}}."""
    return {
        INCOME_NAMES[income]: {OUTCOME_NAMES[key]: value for key, value in counts.items()}
        for income, counts in outcomes.items()
    }


VACANT_NAMES = {
    "market": "new market rate homes",
    "middle": "new middle income homes",
    "low": "new low income homes",
    "adu": "ADUs",
}
"""The kinds of the result's `vacant` entry (movein.VACANT_KEYS), as a student reads them."""


def vacant_rows(vacant: Mapping[str, int]) -> dict[str, int]:
    """A result's `vacant` entry in words: {"new low income homes": 6, ...}."""
    return {VACANT_NAMES[kind]: count for kind, count in vacant.items()}

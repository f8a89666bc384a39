"""Move-in: who ends up where, step by step, as RULES.md part 1 orders it.

The result keeps an ordered event log (placed / displaced / left) and answers what a view needs
while the move-in plays out: who lives where after the first k events (`occupancy_after`,
`incomes_after`), how each income group is doing then (`outcomes_after`), and where each wave
ends (`wave_bounds`). Views read these; none replays the log itself. Residents have stable ids:
`low-1`..`low-4` are the existing low income residents in layout order of their starting homes,
`low-5`..`low-12` the newcomers (as many as the scenario's model brings: `model.py`).

The model's switches act here and nowhere else in the scalar engine: how many newcomers of each
income arrive, who may take a vacant new market-rate home, and which kinds of existing home
vacancy control covers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from housing_lab.north_berkeley.engine.scenario_view import ScenarioView
from housing_lab.north_berkeley.errors import IllegalActionError
from housing_lab.north_berkeley.policies import ADU, INCOMES, VACANCY_CONTROL

EventKind = Literal["placed", "displaced", "left"]
OUTCOMES = ("stayed", "newcomer_housed", "rehoused", "displaced_left", "newcomer_left")
DISPLACED_WAITING = "displaced_waiting"  # displaced, their own group has not moved in yet
NEWCOMER_WAITING = "newcomer_waiting"  # a newcomer whose turn has not come yet
PROGRESS = (*OUTCOMES, DISPLACED_WAITING, NEWCOMER_WAITING)
"""Where a resident stands part-way through move-in; once it is over, only `OUTCOMES`."""
WAVES = ("high", "middle", "low")
"""The order in which the income groups move in (each wave is one income group)."""
INCOME_RANK = {"low": 0, "middle": 1, "high": 2}
VACANT_KEYS = ("market", "middle", "low", "adu")
"""Kinds of home that can be left empty: new homes by type, and ADU slots (existing homes are
never empty: a displaced resident's home goes straight to the displacer)."""
# (event kind, newcomer?) -> where the resident stands after that event
_STATUS_AFTER = {
    ("displaced", False): DISPLACED_WAITING,
    ("displaced", True): DISPLACED_WAITING,
    ("placed", False): "rehoused",
    ("placed", True): "newcomer_housed",
    ("left", False): "displaced_left",
    ("left", True): "newcomer_left",
}


@dataclass(frozen=True)
class Resident:
    id: str
    income: str
    newcomer: bool


@dataclass(frozen=True)
class MoveEvent:
    """One thing that happened. `home` is None for "left"; `by` names the displacer."""

    step: str
    kind: EventKind
    resident: str
    income: str
    home: str | None
    by: str | None = None

    @property
    def wave(self) -> str:
        """The income group whose turn it is (`step` is "<wave>:<what>", e.g. "high:adu")."""
        return self.step.split(":", 1)[0]

    def to_dict(self) -> dict[str, str | None]:
        event: dict[str, str | None] = {
            "step": self.step,
            "kind": self.kind,
            "resident": self.resident,
            "income": self.income,
            "home": self.home,
        }
        if self.by is not None:
            event["by"] = self.by
        return event


@dataclass(frozen=True)
class NewHome:
    id: str
    square: str
    type: str


@dataclass(frozen=True)
class MoveInResult:
    """Where everyone lives after move-in (`occupants`: home id -> resident id or None)."""

    initial: dict[str, str]
    occupants: dict[str, str | None]
    residents: dict[str, Resident]
    new_homes: tuple[NewHome, ...]
    events: tuple[MoveEvent, ...]
    displaced: frozenset[str]
    adu_slots: tuple[str, ...] = ()  # the ADU slots in play (none without the `adu` policy)

    def income_in(self, home: str) -> str | None:
        resident = self.occupants.get(home)
        return None if resident is None else self.residents[resident].income

    def housed(self) -> dict[str, int]:
        counts = dict.fromkeys(INCOMES, 0)
        for resident in self.occupants.values():
            if resident is not None:
                counts[self.residents[resident].income] += 1
        return counts

    def outcome_of(self, resident_id: str) -> str:
        return self._outcome(resident_id, self._housed_ids())

    def _outcome(self, resident_id: str, housed_ids: set[str]) -> str:
        resident = self.residents[resident_id]
        housed = resident_id in housed_ids
        if resident.newcomer:
            return "newcomer_housed" if housed else "newcomer_left"
        if resident_id not in self.displaced:
            return "stayed"
        return "rehoused" if housed else "displaced_left"

    def outcomes(self) -> dict[str, dict[str, int]]:
        """Per income, how many stayed / newcomer housed / rehoused / left (5 outcomes)."""
        table = {income: dict.fromkeys(OUTCOMES, 0) for income in INCOMES}
        housed_ids = self._housed_ids()
        for resident_id, resident in self.residents.items():
            table[resident.income][self._outcome(resident_id, housed_ids)] += 1
        return table

    def vacant(self) -> dict[str, int]:
        """Per kind (`VACANT_KEYS`), how many homes nobody lives in after move-in.

        Income-restricted homes stay empty when their income group has run out of people
        (vacancy control, for one, leaves nobody displaced to fill them); the lessons show it."""
        counts = dict.fromkeys(VACANT_KEYS, 0)
        for home in self.new_homes:
            counts[home.type] += self.occupants[home.id] is None
        counts["adu"] = sum(self.occupants[slot] is None for slot in self.adu_slots)
        return counts

    def newcomers(self) -> dict[str, int]:
        """Per income, how many newcomers try to move in (the rulebook: 8 each)."""
        counts = dict.fromkeys(INCOMES, 0)
        for resident in self.residents.values():
            counts[resident.income] += int(resident.newcomer)
        return counts

    # --- part-way through: what a view shows after the first `count` events ----------------
    def wave_bounds(self) -> tuple[int, ...]:
        """Event counts once 0, 1, 2 and all 3 waves (`WAVES`) have moved in.

        `occupancy_after(wave_bounds()[1])` is the board once high income has moved in."""
        bounds = [0]
        for wave in WAVES:
            bounds.append(bounds[-1] + sum(event.wave == wave for event in self.events))
        return tuple(bounds)

    def occupancy_after(self, count: int | None = None) -> dict[str, str | None]:
        """Home id -> resident id (None: vacant) after the first `count` events (None: all).

        Replays the event log from the starting placement, as an animation shows it; after
        the last event it equals `occupants`."""
        occupants: dict[str, str | None] = dict.fromkeys(self.occupants)
        occupants.update(self.initial)
        for event in self.events[: self._checked_count(count)]:
            if event.kind == "placed":
                occupants[str(event.home)] = event.resident
            elif event.kind == "displaced":
                occupants[str(event.home)] = None
        return occupants

    def incomes_by_step(self) -> list[dict[str, str | None]]:
        """`incomes_after(count)` for every count from 0 to all events, in one pass over the
        log (the frames a replay steps through)."""
        occupants = self.occupancy_after(0)
        frames = [self._incomes(occupants)]
        for event in self.events:
            if event.kind == "placed":
                occupants[str(event.home)] = event.resident
            elif event.kind == "displaced":
                occupants[str(event.home)] = None
            frames.append(self._incomes(occupants))
        return frames

    def _incomes(self, occupants: Mapping[str, str | None]) -> dict[str, str | None]:
        return {
            home: None if resident is None else self.residents[resident].income
            for home, resident in occupants.items()
        }

    def incomes_after(self, count: int | None = None) -> dict[str, str | None]:
        """Home id -> income of whoever lives there (None: vacant) after `count` events."""
        return self._incomes(self.occupancy_after(count))

    def outcomes_after(self, count: int | None = None) -> dict[str, dict[str, int]]:
        """Per income, how many residents stand in each `PROGRESS` category after `count`
        events (None: all). Always every resident of each income (12 under the rulebook); at
        the end, `outcomes()` plus two zeros."""
        status = {
            resident_id: NEWCOMER_WAITING if resident.newcomer else "stayed"
            for resident_id, resident in self.residents.items()
        }
        for event in self.events[: self._checked_count(count)]:
            newcomer = self.residents[event.resident].newcomer
            status[event.resident] = _STATUS_AFTER[event.kind, newcomer]
        table = {income: dict.fromkeys(PROGRESS, 0) for income in INCOMES}
        for resident_id, category in status.items():
            table[self.residents[resident_id].income][category] += 1
        return table

    def _checked_count(self, count: int | None) -> int:
        if count is None:
            return len(self.events)
        total = len(self.events)
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= total:
            raise IllegalActionError(
                f"move-in has {total} events; cannot show the state after {count!r} of them"
            )
        return count

    def _housed_ids(self) -> set[str]:
        return {r for r in self.occupants.values() if r is not None}


def new_homes_of(scenario: ScenarioView) -> tuple[NewHome, ...]:
    """Every quadrant of every placed tile, squares in layout order, quadrants in printed order."""
    homes = []
    for square in scenario.layout.squares:
        tile_id = scenario.tiles.get(square)
        if tile_id is None:
            continue
        for index, home_type in enumerate(scenario.catalogue[tile_id].homes, start=1):
            homes.append(NewHome(id=f"{square}-{index}", square=square, type=home_type))
    return tuple(homes)


def initial_residents(scenario: ScenarioView) -> tuple[dict[str, Resident], dict[str, str]]:
    """Every resident (36 under the rulebook) and the starting placement (existing home id ->
    resident id)."""
    model = scenario.assumptions
    residents: dict[str, Resident] = {}
    placement: dict[str, str] = {}
    numbers = dict.fromkeys(INCOMES, 0)
    for home in scenario.layout.existing_ids:
        income = scenario.existing[home]
        numbers[income] += 1
        resident = Resident(id=f"{income}-{numbers[income]}", income=income, newcomer=False)
        residents[resident.id] = resident
        placement[home] = resident.id
    for income in INCOMES:
        newcomers = model.newcomers_of(income, existing=numbers[income])
        for number in range(numbers[income] + 1, numbers[income] + newcomers + 1):
            resident = Resident(id=f"{income}-{number}", income=income, newcomer=True)
            residents[resident.id] = resident
    return residents, placement


class _MoveIn:
    """The algorithm's working state; `run_move_in` is the public entry point."""

    def __init__(self, scenario: ScenarioView, low_income_in_adus: bool, displaced_first: bool):
        self.scenario = scenario
        self.low_income_in_adus = low_income_in_adus
        self.displaced_first = displaced_first
        self.residents, self.initial = initial_residents(scenario)
        self.occupants: dict[str, str | None] = dict(self.initial)
        layout = scenario.layout
        self.adu_slots = layout.adu_slots if ADU in scenario.policies else ()
        for slot in self.adu_slots:
            self.occupants[slot] = None
        self.new_homes = new_homes_of(scenario)
        for home in self.new_homes:
            self.occupants[home.id] = None
        self.events: list[MoveEvent] = []
        self.displaced: list[str] = []
        self.model = scenario.assumptions
        vacancy_control = VACANCY_CONTROL in scenario.policies
        # kind of existing home -> may its residents be displaced?
        self.can_displace = {
            kind: not (vacancy_control and self.model.protects(kind))
            for kind in ("houses", "apartments")
        }

    # --- building blocks -------------------------------------------------------------------
    def new_homes_of_type(self, *types: str) -> list[str]:
        return [home.id for t in types for home in self.new_homes if home.type == t]

    def place(self, step: str, pool: list[str], homes: Iterable[str]) -> None:
        """Fill the vacant homes among `homes`, in order, from the front of `pool`."""
        for home in homes:
            if not pool:
                return
            if self.occupants[home] is None:
                resident = pool.pop(0)
                self.occupants[home] = resident
                self.events.append(
                    MoveEvent(step, "placed", resident, self.residents[resident].income, home)
                )

    def displace(self, step: str, pool: list[str], kind: str, victims: tuple[str, ...]) -> None:
        """Take existing homes of `kind` ("houses", "apartments") from residents of the
        `victims` incomes: lowest income first, then the home that comes first in layout
        order. Vacancy control forbids it where it covers that kind of home."""
        if not self.can_displace[kind]:
            return
        layout = self.scenario.layout
        homes = layout.houses if kind == "houses" else layout.apartments
        for victim_income in sorted(victims, key=INCOME_RANK.__getitem__):
            for home in homes:
                if not pool:
                    return
                occupant = self.occupants[home]
                if occupant is None or self.residents[occupant].income != victim_income:
                    continue
                incoming = pool.pop(0)
                self.events.append(
                    MoveEvent(step, "displaced", occupant, victim_income, home, by=incoming)
                )
                self.displaced.append(occupant)
                self.occupants[home] = incoming
                self.events.append(
                    MoveEvent(step, "placed", incoming, self.residents[incoming].income, home)
                )

    def pool_for(self, income: str) -> list[str]:
        newcomers = [r.id for r in self.residents.values() if r.income == income and r.newcomer]
        displaced = [r for r in self.displaced if self.residents[r].income == income]
        return displaced + newcomers if self.displaced_first else newcomers + displaced

    def leave(self, step: str, pool: list[str]) -> None:
        for resident in pool:
            self.events.append(
                MoveEvent(step, "left", resident, self.residents[resident].income, None)
            )
        pool.clear()

    # --- the three income steps ------------------------------------------------------------
    def run(self) -> MoveInResult:
        pool = self.pool_for("high")
        self.place("high:new_market", pool, self.new_homes_of_type("market"))
        self.place("high:adu", pool, self.adu_slots)
        self.displace("high:displace_houses", pool, "houses", ("low", "middle"))
        self.displace("high:displace_apartments", pool, "apartments", ("low", "middle"))
        self.leave("high:left", pool)

        pool = self.pool_for("middle")
        self.place("middle:new_middle", pool, self.new_homes_of_type("middle"))
        if self.model.market_home_for("middle"):
            self.place("middle:new_market", pool, self.new_homes_of_type("market"))
        self.place("middle:adu", pool, self.adu_slots)
        self.displace("middle:displace_houses", pool, "houses", ("low",))
        self.displace("middle:displace_apartments", pool, "apartments", ("low",))
        self.leave("middle:left", pool)

        pool = self.pool_for("low")
        low_types = (
            ("low", "middle", "market") if self.model.market_home_for("low") else ("low", "middle")
        )
        self.place("low:new_homes", pool, self.new_homes_of_type(*low_types))
        if self.low_income_in_adus:
            self.place("low:adu", pool, self.adu_slots)
        self.leave("low:left", pool)

        return MoveInResult(
            initial=dict(self.initial),
            occupants=self.occupants,
            residents=self.residents,
            new_homes=self.new_homes,
            events=tuple(self.events),
            displaced=frozenset(self.displaced),
            adu_slots=tuple(self.adu_slots),
        )


def run_move_in(
    scenario: ScenarioView, low_income_in_adus: bool = False, displaced_first: bool = True
) -> MoveInResult:
    """Run the whole move-in (high, then middle, then low income) on a validated scenario."""
    return _MoveIn(scenario, low_income_in_adus, displaced_first).run()

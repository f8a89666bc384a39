"""What a room needs from a game, in one small interface, and the two games that provide it.

A room never re-derives a rule: the engine's `legal_actions()` and `apply()` decide; a `RoomGame`
only adds who may play which action (teacher or which team), what each of them may see, and the
room clock for timers. The implementations are `nb_room.NorthBerkeleyRoom` and
`streetcar_room.StreetcarRoom`; `registry.room_game(name)` finds them by name.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from housing_lab.errors import shown
from housing_lab.rooms.errors import RoomError
from housing_lab.team_names import check_name


@dataclass(frozen=True)
class Role:
    """Who holds a token: the teacher, or one team (by its name)."""

    team: str | None = None  # None: the teacher

    @property
    def is_teacher(self) -> bool:
        return self.team is None

    @property
    def actor(self) -> str:
        """How the action log names the actor: "teacher" or "team:<name>"."""
        return "teacher" if self.team is None else f"team:{self.team}"

    def to_dict(self) -> dict[str, str]:
        return {"role": "teacher"} if self.team is None else {"role": "team", "team": self.team}


TEACHER = Role()


@dataclass(frozen=True)
class RoomInfo:
    """What a room is, fixed when it is created: game, seed, options and teams."""

    code: str
    game: str
    seed: int | None  # None only in a team's copy (`RoomStore.info`): the seed rebuilds hands
    options: Mapping[str, Any]
    teams: tuple[str, ...]
    created_at: float


@dataclass
class Clock:
    """The room clock as a view or an action sees it (seconds since the epoch)."""

    now: float
    phase_started_at: float

    @property
    def minutes_elapsed(self) -> float:
        return max(0.0, self.now - self.phase_started_at) / 60


@dataclass
class Replay:
    """A game replayed to `seq` actions, with when its current phase began."""

    seq: int
    game: Any
    phase: str
    phase_started_at: float


class RoomGame(ABC):
    """One game as rooms play it. Stateless: every method takes the engine game it works on."""

    name: ClassVar[str]

    def check_teams(self, teams: object) -> tuple[str, ...]:
        """Team names: text, unique, short, no commas (the CLI splits on them)."""
        if isinstance(teams, str) or not isinstance(teams, Sequence):
            raise RoomError(f"teams must be a list of names, got {shown(teams)}")
        names = []
        for team in teams:
            name = check_name(team, error=RoomError)
            if "," in name:
                raise RoomError(
                    f"a team name is written without commas (the CLI splits on them), "
                    f"got {shown(team)}"
                )
            if name in names:
                raise RoomError(f"team name {shown(name)} is used twice")
            names.append(name)
        return tuple(names)

    @abstractmethod
    def check_options(self, options: object) -> dict[str, Any]:
        """The game's rule options as plain JSON, checked by the engine."""

    @abstractmethod
    def new_game(self, info: RoomInfo) -> Any:
        """The engine game before any action."""

    @abstractmethod
    def copy(self, game: Any) -> Any:
        """An independent copy to try an action on."""

    @abstractmethod
    def phase(self, game: Any) -> str:
        """A short phase name; a change of phase restarts the room clock."""

    @abstractmethod
    def prepare(self, game: Any, info: RoomInfo, role: Role, action: object, clock: Clock) -> Any:
        """The action as it will be logged, if `role` may play it (raises ActionRefused);
        whether the rules allow it is left to `apply`."""

    @abstractmethod
    def apply(self, game: Any, action: Any) -> None:
        """Play a logged action through the engine (its own error when refused)."""

    @abstractmethod
    def view(self, game: Any, info: RoomInfo, role: Role, clock: Clock) -> dict[str, Any]:
        """What `role` may see now, `legal_actions` included (never another team's hand)."""

    @abstractmethod
    def export(self, game: Any) -> dict[str, Any]:
        """The engine's saved game (North Berkeley) or game record (Streetcar)."""

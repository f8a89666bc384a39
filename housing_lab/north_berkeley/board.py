"""`Board`: North Berkeley's one front door, modelled on python-chess's `Board`.

A Board holds one board (tiles, policies, existing residents, seed) and the model it is scored
under, and answers every question a view asks of it: which actions are legal now and why the
others are refused (`legal_actions`, `is_legal`, `refusal`), what each tile costs on a square
and whether it may go there (`palette`), and the result (`result`, cached). `push` plays an
action, `pop` takes the last one back. The rules themselves are `engine.legal`'s; the board's
value is a validated `Scenario` (`scenario`), and `to_dict()` is RULES.md's scenario JSON.

Actions are small JSON-ready dicts::

    {"action": "place", "square": "B1", "tile": "park"}
    {"action": "clear", "square": "B1"}
    {"action": "set_policy", "policy": "adu", "enacted": True}
    {"action": "set_board", "board": {...}}   # a whole scenario JSON (a load, a reshuffle)

An action that would leave the board as it is (the tile already there, an empty square, a
policy already so) is refused as "no_change". `set_board` replaces the whole board at once (a
lab's load, reshuffle, reset or the coach's several changes, each one step for `pop`); it is
never among `legal_actions()` (there are endlessly many), and a board the rules refuse is bad
input there, refused in make_scenario's one line.

>>> board = Board(seed=7)
>>> board.push({"action": "place", "square": "A1", "tile": "tower_market"})
>>> board.result().to_dict()["housed"]["high"]
12
>>> board.refusal({"action": "set_policy", "policy": "affordable_100", "enacted": True}).rule
'affordable_100'
>>> board.pop()
{'action': 'place', 'square': 'A1', 'tile': 'tower_market'}
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from housing_lab.errors import shown
from housing_lab.north_berkeley.engine import legal
from housing_lab.north_berkeley.engine.legal import Refusal
from housing_lab.north_berkeley.engine.scoring import ScenarioResult, score_scenario
from housing_lab.north_berkeley.errors import (
    AffordableOnlyError,
    IllegalActionError,
    NorthBerkeleyError,
    OverBudgetError,
    ScenarioFormatError,
    UnknownIdError,
)
from housing_lab.north_berkeley.layout import Layout
from housing_lab.north_berkeley.model import Model
from housing_lab.north_berkeley.policies import POLICIES, RuleOptions
from housing_lab.north_berkeley.scenario import (
    DEFAULT_SEED,
    Scenario,
    make_scenario,
    scenario_from_dict,
)
from housing_lab.north_berkeley.tiles import Catalogue

__all__ = ["ACTION_FIELDS", "Board", "PaletteTile", "Refusal"]

Action = dict[str, Any]

ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "place": ("square", "tile"),
    "clear": ("square",),
    "set_policy": ("policy", "enacted"),
    "set_board": ("board",),
}


class PaletteTile(NamedTuple):
    """One tile of a square's palette: whether it may go there now, what it costs now
    (matching funds applied as the board stands) and why not (None when `legal`). A named
    tuple: a palette makes one per tile and square at every click."""

    tile: str
    legal: bool
    cost: Fraction
    refusal: Refusal | None


def check_board_action(action: object) -> tuple[str, dict[str, Any]]:
    """The kind and fields of a well-formed board action (the shape only); one line naming
    the bad value for anything else."""
    if not isinstance(action, Mapping):
        raise ScenarioFormatError(
            f"an action must be an object like {{'action': 'place', ...}}, got {shown(action)}"
        )
    kind = action.get("action")
    if not isinstance(kind, str) or kind not in ACTION_FIELDS:
        raise UnknownIdError(
            f"unknown board action {shown(kind)} (known: {', '.join(ACTION_FIELDS)})"
        )
    wanted = ACTION_FIELDS[kind]
    for key in action:
        if key != "action" and key not in wanted:
            raise ScenarioFormatError(
                f"action {kind} has no field {shown(key)} (fields: {', '.join(wanted)})"
            )
    fields = {}
    for key in wanted:
        if key not in action:
            raise ScenarioFormatError(f"action {kind} needs the field {key!r}")
        value = action[key]  # an id's type is the id check's (`UnknownIdError`, naming it)
        if key == "enacted" and not isinstance(value, bool):
            raise ScenarioFormatError(
                f"action {kind}: enacted must be true or false, got {shown(value)}"
            )
        if key == "board" and not isinstance(value, Mapping):
            raise ScenarioFormatError(
                f"action {kind}: board must be a scenario object, got {shown(value)}"
            )
        fields[key] = value
    return kind, fields


def _error(reason: Refusal, kind: str, scenario: Scenario) -> NorthBerkeleyError:
    """The one-line error `push` raises for a refusal of a `kind` action: its words (its ids
    in the error's `ids`), and for a tile refused on a square, where (the words are the
    square's, shared by every tile the palette greys there)."""
    if reason.rule == legal.RULE_AFFORDABLE and kind == "place":
        _, square, tile = reason.ids
        words = legal.market_homes_words((square,), {square: tile}, scenario.catalogue)
        return AffordableOnlyError(words, ids=reason.ids)
    if reason.rule == legal.RULE_AFFORDABLE:
        return AffordableOnlyError(reason.words, ids=reason.ids)
    if reason.rule == legal.RULE_BUDGET:
        return OverBudgetError(reason.words, ids=reason.ids)
    return IllegalActionError(reason.words, ids=reason.ids)


def _check_options(options: object) -> RuleOptions:
    """The move-in's house rules; the model is the board's (`model=`), so options carrying
    another one are refused rather than silently ignored."""
    if options is None:
        return RuleOptions()
    if not isinstance(options, RuleOptions):
        raise ScenarioFormatError(f"options must be RuleOptions, got {shown(options, 60)}")
    if not options.assumptions.is_rulebook:
        raise ScenarioFormatError(
            "give a board's model as Board(model=...), not in its options (options.model)"
        )
    return options


class Board:
    """One North Berkeley board and its model; see the module docstring.

    `model`: a `Model`, its JSON object or None (the rulebook's; `to_dict` then has no
    "model", as `Scenario`). `options`: the move-in's house rules (`RuleOptions` without a
    model). `layout`, `catalogue`: a custom kit (default: the printed game's)."""

    def __init__(
        self,
        tiles: Mapping[str, str] | None = None,
        policies: Any = (),
        existing: Mapping[str, str] | None = None,
        seed: int = DEFAULT_SEED,
        model: Model | Mapping[str, Any] | None = None,
        *,
        options: RuleOptions | None = None,
        layout: Layout | None = None,
        catalogue: Catalogue | None = None,
    ) -> None:
        scenario = make_scenario(tiles, policies, existing, seed, layout, catalogue, model)
        self._start(scenario, _check_options(options))

    @classmethod
    def from_scenario(
        cls, scenario: Scenario | Mapping[str, Any], options: RuleOptions | None = None
    ) -> Board:
        """A board from a `Scenario` or its JSON object (RULES.md's input format)."""
        board = cls.__new__(cls)
        if not isinstance(scenario, Scenario):
            scenario = scenario_from_dict(scenario)
        board._start(scenario, _check_options(options))
        return board

    def _start(self, scenario: Scenario, options: RuleOptions) -> None:
        self._scenario = scenario
        self._options = options
        self._result: ScenarioResult | None = None
        self._costs: dict[str, Fraction] | None = None
        self._stack: list[tuple[Action, Scenario]] = []  # each action and the board before it

    # --- what the board is ----------------------------------------------------------------
    @property
    def scenario(self) -> Scenario:
        """The board now as a validated `Scenario` (immutable: a value to keep or score)."""
        return self._scenario

    @property
    def model(self) -> Model:
        """The assumptions the board is scored under (the rulebook's unless one was given)."""
        return self._scenario.assumptions

    @property
    def options(self) -> RuleOptions:
        return self._options

    @property
    def tiles(self) -> dict[str, str]:
        return dict(self._scenario.tiles)

    @property
    def policies(self) -> frozenset[str]:
        return self._scenario.policies

    @property
    def action_stack(self) -> list[Action]:
        """The actions pushed and not popped, oldest first (copies)."""
        return [copy.deepcopy(action) for action, _ in self._stack]

    @property
    def can_pop(self) -> bool:
        """Whether an action has been pushed and not popped (an undo button's state)."""
        return bool(self._stack)

    def to_dict(self) -> dict[str, Any]:
        """RULES.md's scenario JSON (`Scenario.to_dict`)."""
        return self._scenario.to_dict()

    def copy(self) -> Board:
        """An independent board, its action stack included."""
        twin = copy.copy(self)
        twin._stack = list(self._stack)  # entries are immutable values
        return twin

    def __repr__(self) -> str:
        return f"Board({self.to_dict()!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # a board changes

    # --- what the rules allow (engine.legal) ----------------------------------------------
    def refusal(self, action: Mapping[str, Any]) -> Refusal | None:
        """Why the rules refuse `action` now, or None if it is legal. A malformed action
        (unknown kind or field, a wrong type, an unknown id) is bad input: one line raised."""
        kind, fields = check_board_action(action)
        s = self._scenario
        if kind == "place":
            square = legal.check_square(fields["square"], s.layout)
            return self._place_refusal(square, legal.check_tile(fields["tile"], s.catalogue))
        if kind == "clear":
            return legal.clear_refusal(
                fields["square"], s.tiles, s.policies, s.layout, s.catalogue, s.assumptions
            )
        if kind == "set_policy":
            return legal.policy_change_refusal(
                fields["policy"],
                fields["enacted"],
                s.tiles,
                s.policies,
                s.layout,
                s.catalogue,
                s.assumptions,
            )
        after = self._whole_board(fields["board"])
        if after.to_dict() == s.to_dict():
            return Refusal(legal.RULE_NO_CHANGE, (), "the board is already as asked")
        return None

    def first_refusal(self, actions: Sequence[Mapping[str, Any]]) -> Refusal | None:
        """Why playing `actions` one after another would be refused: the refusal of the first
        one refused on the board the earlier ones leave (None if every one is legal). The
        board is left as it is (a coach's several changes, asked before they are offered)."""
        if isinstance(actions, (str, bytes, Mapping)) or not isinstance(actions, Sequence):
            raise ScenarioFormatError(f"actions must be a list of actions, got {shown(actions)}")
        trial = self.copy()
        for action in actions:
            reason = trial.refusal(action)
            if reason is not None:
                return reason
            trial.push(action)
        return None

    def is_legal(self, action: Mapping[str, Any]) -> bool:
        """Whether `push(action)` would be accepted (malformed actions raise, as `refusal`)."""
        return self.refusal(action) is None

    def legal_actions(self) -> list[Action]:
        """Every place, clear and set_policy action legal now, in a fixed order (squares in
        layout order, tiles in catalogue order, then clears, then policies)."""
        s = self._scenario
        actions: list[Action] = [
            {"action": "place", "square": square, "tile": entry.tile}
            for square in s.layout.squares
            for entry in self.palette(square)
            if entry.legal
        ]
        actions += [
            {"action": "clear", "square": square}
            for square in s.layout.squares
            if legal.clear_refusal(
                square, s.tiles, s.policies, s.layout, s.catalogue, s.assumptions
            )
            is None
        ]
        for policy in POLICIES:
            action = {"action": "set_policy", "policy": policy, "enacted": policy not in s.policies}
            if self.refusal(action) is None:
                actions.append(action)
        return actions

    def palette(self, square: str) -> list[PaletteTile]:
        """Every tile of the catalogue on `square` now, in catalogue order: whether it may go
        there, its cost now and its refusal (what the lab and the game table draw)."""
        s = self._scenario
        square = legal.check_square(square, s.layout)
        costs = self._tile_costs()
        refusals = legal.square_refusals(
            square, s.tiles, s.policies, s.layout, s.catalogue, s.assumptions
        )
        return [
            PaletteTile(tile, refusals[tile] is None, cost, refusals[tile])
            for tile, cost in costs.items()
        ]

    def tile_costs(self) -> dict[str, Fraction]:
        """What each tile costs on the board now (matching funds applied), catalogue order."""
        return dict(self._tile_costs())

    @property
    def matching_funds_in_effect(self) -> bool:
        """Matching funds enacted and at least 7 low income homes built: housing costs half."""
        s = self._scenario
        return legal.housing_halved(s.policies, legal.new_low_homes(s.tiles, s.catalogue))

    def spending(self) -> Fraction:
        """What the board costs the city now (matching funds applied)."""
        s = self._scenario
        return legal.spending(s.tiles, s.policies, s.catalogue)

    # --- playing and taking back ----------------------------------------------------------
    def push(self, action: Mapping[str, Any]) -> None:
        """Play `action`. Refused (nothing changed) with one `HousingLabError` line naming the
        bad value when it is malformed, or the rules' words when it is illegal."""
        reason = self.refusal(action)
        kind, fields = check_board_action(action)
        if reason is not None:
            raise _error(reason, kind, self._scenario)
        s = self._scenario
        if kind == "place":
            after = dataclasses.replace(s, tiles={**s.tiles, fields["square"]: fields["tile"]})
        elif kind == "clear":
            tiles = {sq: t for sq, t in s.tiles.items() if sq != fields["square"]}
            after = dataclasses.replace(s, tiles=tiles)
        elif kind == "set_policy":
            policy = fields["policy"]
            policies = s.policies | {policy} if fields["enacted"] else s.policies - {policy}
            after = dataclasses.replace(s, policies=policies)
        else:
            after = self._whole_board(fields["board"])
        record = {"action": kind, **copy.deepcopy(fields)}
        self._stack.append((record, s))
        self._scenario, self._result, self._costs = after, None, None

    def pop(self) -> Action:
        """Take back the last action pushed and return it (refused when there is none)."""
        if not self._stack:
            raise IllegalActionError("nothing to undo: the board has not changed yet")
        action, self._scenario = self._stack.pop()
        self._result = self._costs = None
        return action

    def result(self) -> ScenarioResult:
        """The board scored (move-in, facts, cards; `to_dict()` is RULES.md's result JSON);
        kept until the board changes (scored again after `pop`: the stack keeps boards, not
        results, so a long session stays small)."""
        if self._result is None:
            self._result = score_scenario(self._scenario, self._options)
        return self._result

    # --- internals ------------------------------------------------------------------------
    def _tile_costs(self) -> Mapping[str, Fraction]:
        """`tile_costs`, kept until the board changes (every square's palette reads it)."""
        if self._costs is None:
            s = self._scenario
            self._costs = legal.tile_costs(s.tiles, s.policies, s.catalogue)
        return self._costs

    def _place_refusal(self, square: str, tile: str) -> Refusal | None:
        """`refusal` of placing a known `tile` on a known `square`: no change, the rules, the
        budget (the palette asks this for every tile)."""
        s = self._scenario
        return legal.same_tile_refusal(square, tile, s.tiles, s.catalogue) or legal.place_refusal(
            square, tile, s.tiles, s.policies, s.layout, s.catalogue, s.assumptions
        )

    def _whole_board(self, data: Mapping[str, Any]) -> Scenario:
        """A `set_board` action's scenario, validated whole as a loaded file is."""
        s = self._scenario
        return scenario_from_dict(dict(data), s.layout, s.catalogue)

"""The whole North Berkeley game as a state machine (RULES.md part 1, "Game flow").

`Game` holds a `GameState` (plain data that round-trips through JSON) and offers one method per
decision the table makes. Every method validates first and raises a specific error with a clear
message; a refused action leaves the state exactly as it was. Phases, in order:

    phase1 -> extra_draw (2-3 players only) -> draft -> policies -> phase2 -> over

Setup (shuffling the existing residents, the constituent deck and the policy deck, and dealing)
happens in the constructor; move-in and scoring happen when phase 2 is finished.

Every decision is also an action, a small JSON-ready dict (see `actions.py`):
`legal_actions()` lists those the rules allow now, `apply(action)` plays one through the same
method a direct call uses, and `history()` / `from_actions(...)` turn a game into its action log
and back.

>>> game = Game(["Red", "Blue"], seed=3)
>>> game.apply({"action": "place", "square": "B1", "tile": "park"})
>>> game.history()
[{'action': 'place', 'square': 'B1', 'tile': 'park'}]
>>> Game.from_actions(["Red", "Blue"], 3, actions=game.history()).to_dict() == game.to_dict()
True
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from housing_lab.errors import shown
from housing_lab.north_berkeley.board import Board, PaletteTile
from housing_lab.north_berkeley.constituents import (
    CARD_IDS,
    CardScore,
    cards,
    check_card,
    score_all,
)
from housing_lab.north_berkeley.engine import legal
from housing_lab.north_berkeley.engine.facts import BoardFacts
from housing_lab.north_berkeley.engine.hands import (
    PlayerScore,
    score_hand,
    tie_break_explanation,
    winners,
)
from housing_lab.north_berkeley.engine.legal import Refusal
from housing_lab.north_berkeley.engine.scoring import ScenarioResult, facts_as_is, score_scenario
from housing_lab.north_berkeley.errors import (
    IllegalActionError,
    NorthBerkeleyError,
    OverBudgetError,
    ScenarioFormatError,
)
from housing_lab.north_berkeley.layout import Layout, default_layout
from housing_lab.north_berkeley.model import RULEBOOK, Model, check_model, dollars
from housing_lab.north_berkeley.play import saves as saves
from housing_lab.north_berkeley.play.actions import (
    Action,
    action_of_record,
    action_words,
    check_action,
)
from housing_lab.north_berkeley.play.state import (
    PHASES,
    GameState,
    check_players,
    check_seed,
)
from housing_lab.north_berkeley.policies import (
    AFFORDABLE_100,
    MAX_MINUTES,
    POLICIES,
    POLICY_NAMES,
    RuleOptions,
    check_policy,
)
from housing_lab.north_berkeley.rules import (
    DRAFT_SIZE,
    POLICIES_DRAWN,
    cards_dealt,
    has_extra_draw,
)
from housing_lab.north_berkeley.scenario import (
    Scenario,
    affordable_error,
    affordable_violations,
    check_square,
    check_tile,
    make_scenario,
    shuffled_existing,
)
from housing_lab.north_berkeley.tiles import Catalogue, default_catalogue
from housing_lab.numbers import check_number

__all__ = ["PHASES", "Game", "GameState", "cards_dealt"]

PHASE_WORDS = {  # a phase as a refusal names it
    "phase1": "phase 1",
    "extra_draw": "the extra draw",
    "draft": "the draft",
    "policies": "the policy choice",
    "phase2": "phase 2",
    "over": "the end of the game",
}


def check_options(options: object, model: Model | Mapping[str, Any] | None = None) -> RuleOptions:
    """A game's house rules: `RuleOptions`, their JSON object or None (the rules as printed);
    `model`, when given, replaces the options' assumptions (a `Model` or its JSON object)."""
    if options is None:
        options = RuleOptions()
    elif isinstance(options, Mapping):
        options = RuleOptions.from_dict(options)
    elif not isinstance(options, RuleOptions):
        raise ScenarioFormatError(
            f"options must be RuleOptions or an object of rule options, got {shown(options, 60)}"
        )
    if model is not None:
        options = dataclasses.replace(options, model=check_model(model))
    return options


class Game:
    """A game of North Berkeley for 2-6 players or teams.

    `model` (a `Model` or its JSON object) sets the assumptions the game is played and scored
    under: a placement that would break its city budget is refused, the state draws only tiles
    within the budget, and the final scores use its move-in. It is part of the options
    (`options.model`), so saves and rooms keep it.

    >>> game = Game(["Red", "Blue"], seed=3)
    >>> game.phase
    'phase1'
    """

    def __init__(
        self,
        players: Sequence[str],
        seed: int = 0,
        options: RuleOptions | Mapping[str, Any] | None = None,
        layout: Layout | None = None,
        catalogue: Catalogue | None = None,
        model: Model | Mapping[str, Any] | None = None,
    ) -> None:
        if layout is not None and not isinstance(layout, Layout):
            raise ScenarioFormatError(f"layout must be a Layout, got {shown(layout, 60)}")
        if catalogue is not None and not isinstance(catalogue, Mapping):
            raise ScenarioFormatError(f"catalogue must be a Catalogue, got {shown(catalogue, 60)}")
        self.layout = layout or default_layout()
        self.catalogue = catalogue if catalogue is not None else default_catalogue()
        players = check_players(players)
        seed = check_seed(seed)
        options = check_options(options, model)
        deck = list(CARD_IDS)
        random.Random(f"{seed}:constituents").shuffle(deck)
        policy_deck = list(POLICIES)
        random.Random(f"{seed}:policies").shuffle(policy_deck)
        state = GameState(
            players=players,
            seed=seed,
            options=options,
            existing=shuffled_existing(self.layout, seed),
            deck=deck,
            policy_deck=policy_deck,
        )
        dealt = cards_dealt(len(players))
        for player in players:  # deal one card at a time, round the table
            state.hands[player] = []
        for _ in range(dealt):
            for player in players:
                state.hands[player].append(state.deck.pop(0))
        state.log.append({"action": "setup", "seed": seed, "dealt": dealt})
        self.state = state
        self._history: list[GameState] = []

    # --- reading the state ------------------------------------------------------------------
    @property
    def phase(self) -> str:
        return self.state.phase

    @property
    def players(self) -> list[str]:
        return list(self.state.players)

    @property
    def model(self) -> Model:
        """The assumptions this game is played and scored under (the rulebook's by default)."""
        return self.state.options.assumptions

    def scenario(self) -> Scenario:
        """The board as it stands, in the RULES.md scenario form (existing residents included;
        the game's model when it is not the rulebook's, so the board is scored under it)."""
        model = self.model
        return make_scenario(
            self.state.tiles,
            self.state.policies,
            self.state.existing,
            self.state.seed,
            self.layout,
            self.catalogue,
            model=None if model == RULEBOOK else model,
        )

    def board(self) -> Board:
        """The board as it stands as an engine `Board` (model included): what the building
        actions ask (`building_refusal`, `legal_actions`, `tile_costs`), so a game and the lab
        answer from one implementation. A new value each call: pushing on it changes no game."""
        return Board.from_scenario(self.scenario())

    def phase_squares(self) -> tuple[str, ...]:
        phase = {"phase1": 1, "phase2": 2}.get(self.state.phase)
        return self.layout.phases[phase] if phase else ()

    def empty_squares(self) -> list[str]:
        return [s for s in self.phase_squares() if s not in self.state.tiles]

    def allowed_tiles(self, square: str) -> tuple[str, ...]:
        """The tiles `place(square, tile)` accepts now, in catalogue order.

        Empty outside a building phase and for squares of the other phase; on a phase-2 square
        under `affordable_100`, only tiles without market homes (`engine.legal`).
        """
        square = check_square(square, self.layout)
        if square not in self.phase_squares():
            return ()
        return legal.allowed_tiles(square, self.state.policies, self.layout, self.catalogue)

    def palettes(self) -> dict[str, list[PaletteTile]]:
        """Square -> every tile on it now, as the game table draws it (`Board.palette` of the
        game's board, in layout order): on this phase's squares the board's answers (the tile
        already there is legal in a game); elsewhere, and outside the building phases, every
        tile refused for the phase (rule "phase")."""
        board = self.board()
        return {square: self._palette(board, square) for square in self.layout.squares}

    def _palette(self, board: Board, square: str) -> list[PaletteTile]:
        phase = self._phase_refusal(square)
        if phase is not None:
            return [PaletteTile(t, False, cost, phase) for t, cost in board.tile_costs().items()]
        return [
            PaletteTile(e.tile, True, e.cost, None)
            if e.refusal is not None and e.refusal.rule == legal.RULE_NO_CHANGE
            else e
            for e in board.palette(square)
        ]

    def building_refusal(self, action: Mapping[str, Any]) -> Refusal | None:
        """Why a `place` or `clear` action would be refused now: the phase first (rule
        "phase"), then what the game's `board()` answers (the rules, the model's city budget);
        None if it is allowed. Unlike a `Board`, a game lets a player place the tile already on
        a square again (saved logs may hold such a move)."""
        kind, fields = check_action(action)
        if kind not in ("place", "clear"):
            raise ScenarioFormatError(
                f"building_refusal asks about place and clear actions, got {shown(kind)}"
            )
        square = check_square(fields["square"], self.layout)
        if kind == "place":
            check_tile(fields["tile"], self.catalogue)
        phase = self._phase_refusal(square)
        if phase is not None:
            return phase
        reason = self.board().refusal(action)
        if reason is not None and kind == "place" and reason.rule == legal.RULE_NO_CHANGE:
            return None
        return reason

    def refusal(self, square: str, tile: str) -> str | None:
        """Why `place(square, tile)` would be refused now by the phase or the rules (the
        budget aside: `placement_refusal`), in words; None if it is allowed."""
        square, tile = check_square(square, self.layout), check_tile(tile, self.catalogue)
        reason = self._phase_refusal(square) or legal.tile_refusal(
            square, tile, self.state.policies, self.layout, self.catalogue
        )
        return None if reason is None else reason.words

    def refusals(self) -> dict[str, str]:
        """Square -> why a tile is refused there now (`refusal` of the first tile refused),
        for the squares where some tile is; empty outside the building phases. Views show it
        when a student taps or focuses a greyed tile."""
        if self.state.phase not in ("phase1", "phase2"):
            return {}
        reasons = {}
        for square in self.layout.squares:
            allowed = set(self.allowed_tiles(square))
            refused = next((tile for tile in self.catalogue if tile not in allowed), None)
            if refused is not None:
                reasons[square] = self.refusal(square, refused) or ""
        return reasons

    def placement_refusal(self, square: str, tile: str) -> str | None:
        """Why `place(square, tile)` would be refused now, in words: the phase, the rules,
        then the model's city budget (counting the tile replaced); None if it is allowed."""
        reason = self.building_refusal({"action": "place", "square": square, "tile": tile})
        return None if reason is None else reason.words

    def clear_refusal(self, square: str) -> str | None:
        """Why `clear(square)` would be refused now, in words; None if it is allowed.

        Clearing can break the city budget: taking low income homes below matching funds'
        7 doubles what the other housing costs."""
        reason = self.building_refusal({"action": "clear", "square": square})
        return None if reason is None else reason.words

    def tile_costs(self) -> dict[str, Fraction]:
        """What each tile costs on the board now (matching funds applied)."""
        return self.board().tile_costs()

    def policy_refusal(self, policy: str) -> str | None:
        """Why enacting `policy` (alone) would be refused now, in words; None if allowed."""
        policy = check_policy(policy)
        if self.state.phase != "policies":
            return f"policies are enacted after the draft; now it is {self._phase_words()}"
        if policy not in self.state.policies_drawn:
            return self._not_drawn(policy)
        return legal.policy_refusal(policy, self.state.tiles, self.layout, self.catalogue)

    def current_facts(self) -> BoardFacts:
        """The board's facts the current scores read, by the `current_score` option: the board
        as it stands, or as if move-in happened now (`projected`)."""
        if self.state.options.current_score == "projected":
            return score_scenario(self.scenario(), self.state.options).facts
        return facts_as_is(self.scenario())

    def current_card_scores(self) -> dict[str, CardScore]:
        """Scores of all cards now, by the `current_score` option (as it stands / projected)."""
        return score_all(self.current_facts())

    def current_scores(self) -> dict[str, PlayerScore]:
        cards = self.current_card_scores()
        return {p: score_hand(p, self.state.hands[p], cards) for p in self.state.players}

    def draft_turn(self) -> str | None:
        """The player who picks next in the draft (None outside the draft)."""
        if self.state.phase != "draft":
            return None
        return self.state.draft_order[self.state.draft_picks]

    def can_redraw(self, player: str) -> bool:
        """In the extra draw: the player's face-up card already scores -1 and cards remain."""
        state = self.state
        if state.phase != "extra_draw" or not isinstance(player, str) or player not in state.extra:
            return False
        return (
            self.current_card_scores()[state.extra[player]].minus and len(state.deck) > DRAFT_SIZE
        )

    def result(self) -> ScenarioResult:
        """The move-in and card results of the board as it stands."""
        return score_scenario(self.scenario(), self.state.options)

    def final_scores(self) -> dict[str, PlayerScore]:
        self._require("over")
        cards = self.result().cards
        return {p: score_hand(p, self.state.hands[p], cards) for p in self.state.players}

    def winners(self) -> list[str]:
        return winners(list(self.final_scores().values()))

    def tie_break_explanation(self) -> str:
        return tie_break_explanation(list(self.final_scores().values()))

    # --- actions (each validates fully before it changes anything) -----------------------
    def place(self, square: str, tile: str) -> None:
        """Put `tile` on `square` (replacing what was there) during a building phase."""
        square = check_square(square, self.layout)
        tile = check_tile(tile, self.catalogue)
        self._check_buildable(square)
        if tile not in self.allowed_tiles(square):
            raise affordable_error([square], {square: tile}, self.catalogue)
        reason = self.placement_refusal(square, tile)
        if reason is not None:  # the rules allow it, so the city budget refuses it
            raise OverBudgetError(reason)
        with self._change() as state:
            state.tiles[square] = tile
            state.log.append({"action": "place", "square": square, "tile": tile})

    def clear(self, square: str) -> None:
        square = check_square(square, self.layout)
        self._check_buildable(square)
        reason = self.building_refusal({"action": "clear", "square": square})
        if reason is not None:  # an empty square, or the city budget
            error = OverBudgetError if reason.rule == legal.RULE_BUDGET else IllegalActionError
            raise error(reason.words)
        with self._change() as state:
            del state.tiles[square]
            state.log.append({"action": "clear", "square": square})

    def call_state(self, minutes_elapsed: float | None = None) -> dict[str, str]:
        """The state steps in: every empty square of this phase gets a random tile (seeded).

        `minutes_elapsed`, when given, must have reached the negotiation timer. Under a model
        with a city budget, each square draws only among the tiles that keep the board within
        it (without a budget, or with room to spare, the draws are the rulebook's).
        Returns the tiles placed, square -> tile.
        """
        self._require("phase1", "phase2")
        minutes_elapsed = check_minutes(minutes_elapsed)
        timer = self.state.options.negotiation_minutes
        if minutes_elapsed is not None and minutes_elapsed < timer:
            raise IllegalActionError(
                f"the state can be called after {timer:g} minutes of negotiation; "
                f"only {minutes_elapsed:g} have passed"
            )
        empty = self.empty_squares()
        if not empty:
            raise IllegalActionError(f"every {self._phase_name()} square already has a tile")
        filled = self._state_draw(empty)
        with self._change() as state:
            state.tiles.update(filled)
            state.state_calls += 1
            state.log.append({"action": "call_state", "tiles": dict(filled)})
        return filled

    def advance(self, tie_order: Sequence[str] | None = None) -> str:
        """Finish the current step and start the next; returns the new phase.

        Leaving a building phase needs every square of it filled (or the state called).
        `tie_order` (players, first goes first) breaks draft ties; default: seating order.
        """
        phase = self.state.phase
        if phase in ("phase1", "phase2"):
            if self.empty_squares():
                raise IllegalActionError(
                    f"{self._phase_name()} squares {', '.join(self.empty_squares())} are still "
                    f"empty: place tiles or call the state"
                )
        elif phase == "draft":
            raise IllegalActionError(f"the draft is not finished: {self.draft_turn()} picks next")
        elif phase == "policies":
            drawn = self.state.policies_drawn
            raise IllegalActionError(
                f"enact one or both of the drawn policies first ({self._policy_names(drawn)})",
                ids=drawn,
            )
        elif phase == "over":
            raise IllegalActionError("the game is over")
        order = self._tie_order(tie_order)
        with self._change() as state:
            record: dict[str, Any] = {"action": "advance", "from": phase}
            if order != state.players:  # kept so that the log replays to the same draft order
                record["tie_order"] = order
            state.log.append(record)
            if phase == "phase1" and has_extra_draw(len(state.players)):
                self._start_extra_draw(state)
            elif phase in ("phase1", "extra_draw"):
                self._start_draft(state, order)
            else:  # phase2: the board is complete; move-in and scoring are read from it
                state.phase = "over"
        return self.state.phase

    def redraw(self, player: str) -> str:
        """Extra draw: discard a face-up card that already scores -1 and draw another."""
        self._require("extra_draw")
        player = self._check_player(player)
        card = self.state.extra[player]
        if not self.current_card_scores()[card].minus:
            raise IllegalActionError(
                f"{player} may redraw only while {cards()[card].name} scores -1 on the "
                "current board",
                ids=(card,),
            )
        if len(self.state.deck) <= DRAFT_SIZE:
            raise IllegalActionError(
                f"no card left to redraw for {player}: the deck keeps {DRAFT_SIZE} for the draft"
            )
        with self._change() as state:
            state.hands[player].remove(card)
            state.discard.append(card)
            new_card = state.deck.pop(0)
            state.hands[player].append(new_card)
            state.extra[player] = new_card
            state.log.append(
                {"action": "redraw", "player": player, "discarded": card, "drew": new_card}
            )
        return new_card

    def pick(self, player: str, card: str) -> None:
        """Draft: the player whose turn it is takes one of the face-up cards."""
        self._require("draft")
        player = self._check_player(player)
        card = check_card(card)
        if player != self.draft_turn():
            raise IllegalActionError(f"it is {self.draft_turn()}'s turn to pick, not {player}'s")
        pool = self.state.draft_pool
        if card not in pool:
            names = ", ".join(cards()[c].name for c in pool)
            raise IllegalActionError(
                f"{cards()[card].name} is not among the face-up cards ({names})",
                ids=(card, *pool),
            )
        with self._change() as state:
            state.draft_pool.remove(card)
            state.hands[player].append(card)
            state.draft_picks += 1
            state.log.append({"action": "pick", "player": player, "card": card})
            if state.draft_picks == len(state.players):
                state.discard.extend(state.draft_pool)
                state.draft_pool.clear()
                state.policies_drawn = state.policy_deck[:POLICIES_DRAWN]
                state.policy_deck = state.policy_deck[POLICIES_DRAWN:]
                state.phase = "policies"

    def enact(self, policies: Sequence[str]) -> None:
        """Enact one or both of the two drawn policy cards; phase 2 begins."""
        self._require("policies")
        if isinstance(policies, str):
            policies = [policies]
        if not isinstance(policies, (list, tuple)) or not all(isinstance(p, str) for p in policies):
            raise ScenarioFormatError(
                f"policies to enact must be a policy id or a list of them, got {shown(policies)}"
            )
        chosen = list(dict.fromkeys(policies))
        drawn = self.state.policies_drawn
        for policy in chosen:
            if policy not in drawn:
                known = policy in POLICY_NAMES
                raise IllegalActionError(
                    self._not_drawn(policy), ids=(policy, *drawn) if known else drawn
                )
        if not 1 <= len(chosen) <= POLICIES_DRAWN:
            raise IllegalActionError(
                f"enact one or both of {self._policy_names(drawn)}, not none", ids=drawn
            )
        violations = self._enact_violations(chosen)
        if violations:
            raise affordable_error(violations, self.state.tiles, self.catalogue)
        with self._change() as state:
            state.policies = [p for p in drawn if p in chosen]
            state.phase = "phase2"
            state.log.append({"action": "enact", "policies": list(state.policies)})

    def clone(self) -> Game:
        """An independent copy to try actions on (undo history included, shared safely:
        a state is never changed in place once an action has finished)."""
        twin = copy.copy(self)
        twin.state = self.state.copy()
        twin._history = list(self._history)
        return twin

    @property
    def can_undo(self) -> bool:
        return bool(self._history)

    def undo(self) -> None:
        """Take back the last action (a teacher's undo); setup cannot be undone."""
        if not self._history:
            raise IllegalActionError("nothing to undo")
        self.state = self._history.pop()

    # --- actions as data (OpenSpiel style) -------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every action `apply` accepts now, in a fixed order; empty once the game is over.

        Optional fields are left out: `call_state` is listed without `minutes_elapsed`, and
        `advance` without `tie_order` (any order naming every player once is accepted too).
        `enact` lists each drawn policy alone, then both, in the order they were drawn.
        """
        phase = self.state.phase
        if phase in ("phase1", "phase2"):
            return self._building_actions()
        if phase == "extra_draw":
            players = [p for p in self.state.players if self.can_redraw(p)]
            return [*({"action": "redraw", "player": p} for p in players), {"action": "advance"}]
        if phase == "draft":
            turn = self.draft_turn()
            return [{"action": "pick", "player": turn, "card": c} for c in self.state.draft_pool]
        if phase == "policies":
            drawn = self.state.policies_drawn
            choices = [[p] for p in drawn] + ([list(drawn)] if len(drawn) > 1 else [])
            return [
                {"action": "enact", "policies": choice}
                for choice in choices
                if not self._enact_violations(choice)
            ]
        return []

    def apply(self, action: Mapping[str, Any]) -> None:
        """Play one action dict through the method of the same name (`place`, `pick`, ...).

        A malformed or illegal action raises that method's one-line error; nothing changes.
        """
        kind, fields = check_action(action)
        methods = {
            "place": self.place,
            "clear": self.clear,
            "call_state": self.call_state,
            "advance": self.advance,
            "redraw": self.redraw,
            "pick": self.pick,
            "enact": self.enact,
        }
        methods[kind](**fields)

    def history(self) -> list[Action]:
        """The actions played since setup, in order (undone ones left out): the game's log."""
        actions = [a for a in map(action_of_record, self.state.log) if a is not None]
        return copy.deepcopy(actions)  # the caller may change them; the log stays as it was

    @classmethod
    def from_actions(
        cls,
        players: Sequence[str],
        seed: int = 0,
        options: RuleOptions | None = None,
        actions: Iterable[Mapping[str, Any]] = (),
        layout: Layout | None = None,
        catalogue: Catalogue | None = None,
        model: Model | Mapping[str, Any] | None = None,
    ) -> Game:
        """Set up a game and replay an action log (`history()`) on it: the same seed, options
        (model included) and actions give the same game. A refused action is reported with
        its number."""
        if isinstance(actions, (str, bytes, Mapping)) or not isinstance(actions, Iterable):
            raise ScenarioFormatError(
                f"actions must be a list of action objects, got {shown(actions, 60)}"
            )
        game = cls(players, seed, options, layout, catalogue, model)
        for number, action in enumerate(actions, start=1):
            try:
                game.apply(action)
            except NorthBerkeleyError as error:
                said = f"action {number} ({action_words(action)}): {error}"
                raise type(error)(said, ids=error.ids) from None
        return game

    # --- saving and resuming (the file format is saves.py's job) ----------------------------
    def to_dict(self) -> dict[str, Any]:
        """The whole state as plain data (the version-1 saved game; `from_dict` reads it)."""
        return self.state.to_dict()

    def to_json(self) -> str:
        """The saved game, version 2: players, seed, options and the action log."""
        return saves.save_json(self)

    @classmethod
    def from_dict(
        cls, data: Any, layout: Layout | None = None, catalogue: Catalogue | None = None
    ) -> Game:
        """Resume a saved game (version 2, or 1): set up from its seed, its log replayed
        through `apply`; one error line names the first action the rules refuse."""
        saved = saves.read_save(data)
        game = cls(saved.players, saved.seed, saved.options, layout, catalogue)
        saves.replay(game, saved)
        return game

    @classmethod
    def from_json(cls, text: str, layout: Layout | None = None) -> Game:
        return cls.from_dict(saves.parse_json(text), layout)

    def game_log(self) -> dict[str, Any]:
        """The summary the CLI prints: who held what, the board, the result and the winners."""
        state = self.state
        log: dict[str, Any] = {
            "players": list(state.players),
            "seed": state.seed,
            "phase": state.phase,
            "hands": {p: list(h) for p, h in state.hands.items()},
            "draft_order": list(state.draft_order),
            "policies_drawn": list(state.policies_drawn),
            "policies_enacted": list(state.policies),
            "scenario": self.scenario().to_dict(),
            "actions": copy.deepcopy(state.log),
        }
        if state.phase == "over":
            result = self.result()
            scores = self.final_scores()
            log["result"] = result.to_dict()
            log["scores"] = {p: s.total for p, s in scores.items()}
            log["minus_cards"] = {p: s.minus_cards for p, s in scores.items()}
            log["winners"] = winners(list(scores.values()))
            log["tie_break"] = tie_break_explanation(list(scores.values()))
            log["events"] = [event.to_dict() for event in result.move_in.events]
        return log

    # --- internals --------------------------------------------------------------------------
    def _change(self) -> _Change:
        return _Change(self)

    def _require(self, *phases: str) -> None:
        if self.state.phase not in phases:
            belongs = " or ".join(PHASE_WORDS[phase] for phase in phases)
            raise IllegalActionError(
                f"that action belongs to {belongs}; now it is {self._phase_words()}"
            )

    @staticmethod
    def _policy_names(policies: Sequence[str]) -> str:
        return " and ".join(POLICY_NAMES[p] for p in policies)

    def _not_drawn(self, policy: str) -> str:
        """Why `policy` (an id, or any text a caller gave) cannot be enacted: not drawn."""
        choices = " or ".join(POLICY_NAMES[p] for p in self.state.policies_drawn)
        what = POLICY_NAMES.get(policy) or f"policy {shown(policy)}"
        return f"{what} was not drawn; choose {choices}"

    def _phase_name(self) -> str:
        return {"phase1": "phase-1", "phase2": "phase-2"}.get(self.state.phase, self.state.phase)

    def _phase_words(self) -> str:
        return PHASE_WORDS[self.state.phase]

    def _not_this_phase(self, square: str) -> str:
        return (
            f"square {square} is not a {self._phase_name()} square "
            f"({', '.join(self.phase_squares())})"
        )

    def _phase_refusal(self, square: str) -> Refusal | None:
        """Why nothing may be built on `square` now: not a building phase, or a square of the
        other phase (rule "phase"); None in a building phase on one of its squares."""
        if self.state.phase not in ("phase1", "phase2"):
            words = f"tiles go on the board in phase 1 and phase 2; now it is {self._phase_words()}"
            return Refusal(legal.RULE_PHASE, (square,), words)
        if square not in self.phase_squares():
            return Refusal(legal.RULE_PHASE, (square,), self._not_this_phase(square))
        return None

    def _check_buildable(self, square: str) -> None:
        self._require("phase1", "phase2")
        if square not in self.phase_squares():
            raise IllegalActionError(self._not_this_phase(square))

    def _building_actions(self) -> list[Action]:
        """The board's legal placements and clears on this phase's squares (`Board.palette`),
        the tile already on a square included (a game allows it), then the state's call."""
        squares = self.phase_squares()
        board = self.board()
        actions: list[Action] = [
            {"action": "place", "square": square, "tile": entry.tile}
            for square in squares
            for entry in self._palette(board, square)
            if entry.legal
        ]
        actions += [
            {"action": "clear", "square": s}
            for s in squares
            if board.is_legal({"action": "clear", "square": s})
        ]
        actions.append({"action": "call_state" if self.empty_squares() else "advance"})
        return actions

    def _enact_violations(self, chosen: Sequence[str]) -> list[str]:
        """Squares that would break `affordable_100` if `chosen` were enacted (the board holds
        only phase-1 tiles in normal play, so this matters only for edited saved games)."""
        if AFFORDABLE_100 not in chosen:
            return []
        return affordable_violations(self.state.tiles, self.layout, self.catalogue)

    def _check_player(self, player: object) -> str:
        if not isinstance(player, str) or player not in self.state.players:
            raise IllegalActionError(
                f"unknown player {shown(player, 60)} (players: {', '.join(self.state.players)})"
            )
        return player

    def _tie_order(self, tie_order: Sequence[str] | None) -> list[str]:
        if tie_order is None:
            return list(self.state.players)
        if not isinstance(tie_order, (list, tuple)):
            raise ScenarioFormatError(
                f"tie order must be a list of players, got {shown(tie_order, 60)}"
            )
        order = [self._check_player(p) for p in tie_order]
        if sorted(order) != sorted(self.state.players):
            raise IllegalActionError(
                f"tie order {shown(list(tie_order))} must name every player exactly once"
            )
        return order

    def _state_draw(self, empty: Sequence[str]) -> dict[str, str]:
        """The state's random tiles for the `empty` squares, one draw per square in order.

        Without a budget each square draws among its allowed tiles (the rulebook's draws,
        the same for a seed as ever). With one, among those that keep the board, as drawn so
        far, within it: filling a square never makes another tile dearer, so a $0 tile
        always fits; a catalogue without one may leave a square that nothing fits."""
        rng = random.Random(f"{self.state.seed}:state:{self.state.state_calls}")
        model, policies = self.model, self.state.policies
        board = dict(self.state.tiles)
        filled: dict[str, str] = {}
        for square in empty:
            choices = self.allowed_tiles(square)
            if model.city_budget() is not None:
                choices = tuple(
                    tile
                    for tile in choices
                    if legal.budget_refusal(
                        {**board, square: tile}, policies, self.catalogue, model
                    )
                    is None
                )
                if not choices:
                    raise OverBudgetError(self._cannot_fill(square, board))
            tile = rng.choice(choices)
            board[square] = filled[square] = tile
        return filled

    def _cannot_fill(self, square: str, board: Mapping[str, str]) -> str:
        """Why the state cannot fill `square` of `board` within the budget, in words, and what
        can be done: clear a tile players placed in this phase, when that makes room; else
        nothing, and the game cannot finish under this budget (a teacher's catalogue without a
        free tile that 100% Affordable Housing allows, say)."""
        policies, catalogue = self.state.policies, self.catalogue
        allowed = self.allowed_tiles(square)
        costs = {t: legal.spending({**board, square: t}, policies, catalogue) for t in allowed}
        cheapest = min(allowed, key=costs.__getitem__)
        limited = legal.restricts_tiles(policies, self.layout.phase_of_square[square])
        which = f"the cheapest tile {POLICY_NAMES[AFFORDABLE_100]} allows" if limited else ""
        which = which or "the cheapest tile"
        said = (
            f"the state cannot fill square {square} within the city budget of "
            f"{dollars(self.model.city_budget() or 0)}: {which} there, "
            f"{catalogue[cheapest].name}, would bring the board's spending to "
            f"{dollars(costs[cheapest])}"
        )
        phase = self.phase_squares()  # the tiles players placed in this phase can be cleared
        cleared = {s: t for s, t in board.items() if s not in phase or s not in self.state.tiles}
        model = self.model
        if any(
            legal.budget_refusal({**cleared, square: t}, policies, catalogue, model) is None
            for t in allowed
        ):
            return f"{said}; clear or change a tile of this phase first"
        undo = " (undo to the policy choice to enact others)" if limited else ""
        return (
            f"{said}, and no tile of this phase can be cleared to make room: this game cannot "
            f"be finished under this budget{undo}"
        )

    def _start_extra_draw(self, state: GameState) -> None:
        for player in state.players:
            card = state.deck.pop(0)
            state.hands[player].append(card)
            state.extra[player] = card
        state.phase = "extra_draw"

    def _start_draft(self, state: GameState, tie_order: list[str]) -> None:
        scores = self.current_scores()  # the board does not change between here and the draft
        state.draft_order = sorted(
            state.players, key=lambda p: (scores[p].total, tie_order.index(p))
        )
        state.draft_pool = state.deck[:DRAFT_SIZE]
        state.deck = state.deck[DRAFT_SIZE:]
        state.draft_picks = 0
        state.extra = {}
        state.phase = "draft"
        state.log.append(
            {
                "action": "draft_order",
                "order": list(state.draft_order),
                "scores": {p: scores[p].total for p in state.players},
            }
        )


def check_minutes(minutes: object) -> float | None:
    """Minutes of negotiation as `call_state` takes them: None, or a number 0 to
    `MAX_MINUTES` (NaN, infinity and huge integers are refused before any comparison)."""
    if minutes is None:
        return None
    return float(
        check_number(minutes, "minutes_elapsed", low=0, high=MAX_MINUTES, error=ScenarioFormatError)
    )


class _Change:
    """Apply an action to a copy of the state and keep it only if nothing raised."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def __enter__(self) -> GameState:
        self.before = self.game.state
        # log records are shared, not copied: a long log replays in linear time
        self.game.state = self.before.copy()
        return self.game.state

    def __exit__(self, kind: object, error: object, traceback: object) -> None:
        if error is None:
            self.game._history.append(self.before)
        else:
            self.game.state = self.before

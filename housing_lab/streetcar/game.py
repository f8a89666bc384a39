"""The Streetcar game state: legal moves, push / pop, copy, is_over and outcome.

Modelled on python-chess: one `Game` object holds the position and a stack of the moves played,
`push` applies a whole turn after checking it (an illegal move raises `IllegalMoveError` and
leaves the state unchanged) and `pop` undoes it from a small saved record. `legal_actions()` and
`apply(action)` are the same in OpenSpiel's style, with moves as JSON-ready actions. The
position is kept in flat lists indexed by the board's hex, edge and intersection ids; only this
module touches them. Everyone else reads the position through the friendly views (`houses`,
`buildings`, `lines`, ...) or, in hot loops, through `tables()` (see tables.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from housing_lab.errors import shown
from housing_lab.streetcar import lines as line_rules
from housing_lab.streetcar import position, scoring
from housing_lab.streetcar.board import Board, hex_json
from housing_lab.streetcar.buildings import Building, placements
from housing_lab.streetcar.errors import BoardError, IllegalMoveError, StreetcarError
from housing_lab.streetcar.hexgrid import Edge, Hex
from housing_lab.streetcar.moves import Move
from housing_lab.streetcar.rules import (
    COLOURS,
    CUBES_PER_COLOUR,
    PLAYERS,
    Rules,
)
from housing_lab.streetcar.scoring import Outcome, ScoreBreakdown
from housing_lab.streetcar.tables import Tables


class _Undo(NamedTuple):
    """What `pop` needs to take one turn back."""

    edges: tuple[int, ...]
    claimed: tuple[int, ...]  # intersections this turn's lines touched first
    removed_hex: int  # -1 on turn 1
    removed_colour: int
    placed: tuple[int, ...]  # hexes that got a building, in placement order
    blocked: tuple[int, ...]  # houses that became unremovable (flipped)


class Game:
    """A game of Streetcar from its first turn (or from a constructed position)."""

    def __init__(
        self,
        board: Board | None = None,
        *,
        seed: int | None = 0,
        houses: Mapping[object, str] | None = None,
        rules: Rules | None = None,
    ) -> None:
        """Set up a game: houses dealt with `seed`, or given as {hex: colour} for every hex."""
        if board is not None and not isinstance(board, Board):
            raise StreetcarError(f"board must be a streetcar Board, not {shown(board)}")
        if rules is not None and not isinstance(rules, Rules):
            raise StreetcarError(f"rules must be streetcar Rules, not {shown(rules)}")
        self._board = board or Board.standard()
        self._rules = rules or Rules()
        if houses is None:
            start = self._board.deal_houses(seed)
        else:
            given = position.houses_from_mapping(self._board, houses)
            missing = [h for i, h in enumerate(self._board.hexes) if i not in given]
            if missing:
                raise StreetcarError(f"hex {hex_json(missing[0])} has no house")
            start = [given[i] for i in range(len(self._board.hexes))]
        self._initial: tuple[int, ...] | None = tuple(start)
        self._reset(houses=list(start), buildings={}, edges={}, removed=[[0] * 4, [0] * 4], turn=1)

    def _reset(
        self,
        *,
        houses: list[int],
        buildings: Mapping[int, tuple[int, int]],
        edges: Mapping[int, int],
        removed: list[list[int]],
        turn: int,
    ) -> None:
        board = self._board
        self._house = houses
        self._bcol = [-1] * len(board.hexes)
        self._bcubes = [0] * len(board.hexes)
        self._supply = [CUBES_PER_COLOUR] * len(COLOURS)
        self._order: list[int] = []
        for x, (colour, cubes) in buildings.items():
            self._bcol[x], self._bcubes[x] = colour, cubes
            self._supply[colour] -= cubes
            self._order.append(x)
        self._edge_owner = [-1] * len(board.edges)
        self._vertex_owner = [-1] * len(board.vertices)
        for e, p in edges.items():
            self._edge_owner[e] = p
            for v in board.edge_vertices[e]:
                self._vertex_owner[v] = p
        self._removed = removed
        self._removable = {
            x
            for x, colour in enumerate(houses)
            if colour >= 0 and all(self._bcol[y] < 0 for y in board.hex_neighbours[x])
        }
        self._turn = turn
        self._over = turn > 1 and not self._removable
        self._stack: list[tuple[Move, _Undo]] = []
        self._tables: Tables | None = None

    @classmethod
    def from_position(
        cls,
        board: Board | None = None,
        *,
        houses: Mapping[object, str],
        buildings: Iterable[Sequence[object]] = (),
        lines: Mapping[str, Iterable[object]] | None = None,
        removed: Mapping[str, Mapping[str, int]] | None = None,
        turn: int = 2,
        rules: Rules | None = None,
    ) -> Game:
        """A constructed position (lessons, tests, a teacher's scenario); it has no record.

        `houses` maps the hexes that still hold a house to colours; `buildings` lists
        `[q, r, colour, cubes]`; `lines` maps players to their edges; `turn` is the number of the
        turn about to be played (odd: purple). The position must obey the rules' invariants: no
        intersection touches two colours, no more than 16 cubes of a colour, and no empty hex
        without a building next to exactly 3 houses.
        """
        game = cls.__new__(cls)
        game._board = board = board or Board.standard()
        game._rules = rules or Rules()
        game._initial = None
        spec = position.parse(board, houses, buildings, lines or {}, removed or {}, turn)
        game._reset(**spec)
        position.check_reachable(board, game._house, game._bcol, game._edge_owner, game._supply)
        return game

    # -- basic state ------------------------------------------------------------------------

    @property
    def board(self) -> Board:
        return self._board

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def turn(self) -> int:
        """Number of the turn about to be played (1 = purple's opening turn)."""
        return self._turn

    @property
    def current_player(self) -> str:
        """Whose turn it is: purple on odd turns, red on even ones."""
        return PLAYERS[(self._turn - 1) % 2]

    @property
    def move_stack(self) -> list[Move]:
        """The moves played so far, oldest first."""
        return [move for move, _ in self._stack]

    def is_over(self) -> bool:
        """True after the turn that left no removable house."""
        return self._over

    # -- position views (for scoring, records and the widget) -------------------------------

    @property
    def houses(self) -> dict[Hex, str]:
        """The houses still on the board."""
        return {self._board.hexes[x]: COLOURS[c] for x, c in enumerate(self._house) if c >= 0}

    @property
    def initial_houses(self) -> dict[Hex, str] | None:
        """The houses as dealt (None for a constructed position)."""
        if self._initial is None:
            return None
        return {self._board.hexes[x]: COLOURS[c] for x, c in enumerate(self._initial)}

    @property
    def buildings(self) -> list[Building]:
        """All buildings, in the order they were placed."""
        return [self._building(x) for x in self._order]

    def _building(self, x: int) -> Building:
        return Building(self._board.hexes[x], COLOURS[self._bcol[x]], self._bcubes[x])

    def last_buildings(self) -> list[Building]:
        """Buildings placed by the last move (for animation); empty before any move."""
        if not self._stack:
            return []
        return [self._building(x) for x in self._stack[-1][1].placed]

    @property
    def lines(self) -> dict[str, list[Edge]]:
        """Each player's drawn edges."""
        drawn: dict[str, list[Edge]] = {name: [] for name in PLAYERS}
        for e, p in enumerate(self._edge_owner):
            if p >= 0:
                drawn[PLAYERS[p]].append(self._board.edges[e])
        return drawn

    @property
    def removed(self) -> dict[str, dict[str, int]]:
        """Houses each player has removed, by colour (all four colours listed)."""
        return {PLAYERS[p]: dict(zip(COLOURS, self._removed[p], strict=True)) for p in range(2)}

    @property
    def supply(self) -> dict[str, int]:
        """Cubes left in the supply, by colour."""
        return dict(zip(COLOURS, self._supply, strict=True))

    def removable_houses(self) -> list[Hex]:
        """Houses not next to a building, in board order (none may be removed on turn 1)."""
        return [self._board.hexes[x] for x in sorted(self._removable)]

    def flipped_houses(self) -> list[Hex]:
        """Houses next to a building: flipped, they can no longer be removed."""
        return [
            self._board.hexes[x]
            for x, c in enumerate(self._house)
            if c >= 0 and x not in self._removable
        ]

    def house_at(self, where: object) -> str | None:
        """Colour of the house on a hex, or None when it holds none."""
        colour = self._house[self._board.hex_id(where)]
        return COLOURS[colour] if colour >= 0 else None

    def building_at(self, where: object) -> Building | None:
        """The building on a hex, or None when it has none."""
        x = self._board.hex_id(where)
        return self._building(x) if self._bcol[x] >= 0 else None

    def edge_owner(self, edge: object) -> str | None:
        """The player who drew an edge, or None while it is undrawn."""
        p = self._edge_owner[self._board.edge_id(edge)]
        return PLAYERS[p] if p >= 0 else None

    def intersection_owner(self, vertex: object) -> str | None:
        """The player whose line touches an intersection, or None when no line does."""
        p = self._vertex_owner[self._board.vertex_id(vertex)]
        return PLAYERS[p] if p >= 0 else None

    def buildings_after(self, house: object) -> list[Building]:
        """The buildings that removing `house` would place now, in placement order."""
        board = self._board
        x = board.hex_id(house)
        if self._house[x] < 0:
            raise StreetcarError(f"hex {hex_json(board.hexes[x])} holds no house")
        return [
            Building(board.hexes[y], COLOURS[colour], cubes)
            for y, colour, cubes in self.buildings_after_ids(x)
        ]

    # -- the public position as tables (the fast path; see tables.py) -----------------------

    def tables(self) -> Tables:
        """The position as read-only tuples indexed by board ids, shared until push or pop."""
        if self._tables is None:
            self._tables = Tables(
                houses=tuple(self._house),
                building_colours=tuple(self._bcol),
                building_cubes=tuple(self._bcubes),
                edge_owners=tuple(self._edge_owner),
                vertex_owners=tuple(self._vertex_owner),
                removed=tuple(map(tuple, self._removed)),
                removable=tuple(sorted(self._removable)),
                supply=tuple(self._supply),
            )
        return self._tables

    @property
    def player_index(self) -> int:
        """Index into PLAYERS of the player to move (0 purple, 1 red)."""
        return (self._turn - 1) % 2

    def line_choice_ids(self) -> list[tuple[int, ...]]:
        """`legal_line_choices()` as edge ids: pairs (e, f) with e < f, lone edges, or ()."""
        if self._over:
            return []
        return line_rules.line_choice_ids(
            self._board, self._edge_owner, self._vertex_owner, self.player_index
        )

    def buildings_after_ids(self, x: int) -> list[tuple[int, int, int]]:
        """(hex id, colour, cubes) of the buildings removing the house on hex `x` would place."""
        if not 0 <= x < len(self._house) or self._house[x] < 0:
            raise StreetcarError(f"hex id {shown(x)} holds no house")
        return placements(self._board.hex_neighbours, self._house, self._bcol, self._supply, x)

    def snapshot(self) -> tuple[object, ...]:
        """Every mutable part of the position, for exact equality checks (undo, copy)."""
        return (
            tuple(self._house),
            tuple(self._bcol),
            tuple(self._bcubes),
            tuple(self._supply),
            tuple(self._order),
            tuple(self._edge_owner),
            tuple(self._vertex_owner),
            tuple(sorted(self._removable)),
            tuple(map(tuple, self._removed)),
            self._turn,
            self._over,
            tuple(self._stack),
        )

    # -- legal moves ------------------------------------------------------------------------

    def legal_line_choices(self) -> list[tuple[Edge, ...]]:
        """Every legal line part of this turn (pairs, lone edges, or the empty choice)."""
        edges = self._board.edges
        return [tuple(edges[e] for e in choice) for choice in self.line_choice_ids()]

    def legal_edges(self) -> list[Edge]:
        """Edges the current player may draw now (the first edge of a turn)."""
        if self._over:
            return []
        ids = line_rules.legal_edge_ids(
            self._board, self._edge_owner, self._vertex_owner, self.player_index
        )
        return [self._board.edges[e] for e in ids]

    def legal_second_edges(self, first: object) -> list[Edge]:
        """Edges that may complete a turn after `first`; empty means `first` may stand alone."""
        e = self._board.edge_id(first)
        problem = self._edge_problem(e)
        if problem:
            raise self._illegal(Move([self._board.edges[e]]), *problem)
        ids = line_rules.partner_ids(
            self._board, self._edge_owner, self._vertex_owner, e, self.player_index
        )
        return [self._board.edges[f] for f in ids]

    def explain_illegal_line(self, edge: object, first: object | None = None) -> str | None:
        """Why the current player may not draw `edge` (after `first`, if given); None if legal."""
        try:
            e = self._board.edge_id(edge)
            f = None if first is None else self._board.edge_id(first)
        except BoardError as error:
            return str(error)
        problem = self._edge_problem(e)
        if problem is None and f is not None:
            problem = line_rules.lines_problem(
                self._board, self._edge_owner, self._vertex_owner, (f, e), self.player_index
            )
        return None if problem is None else problem[1]

    def _edge_problem(self, e: int) -> tuple[str, str] | None:
        if self._over:
            return "game-over", "the game is over"
        return line_rules.edge_problem(
            self._board, self._edge_owner, self._vertex_owner, e, self.player_index
        )

    def legal_moves(self) -> Iterator[Move]:
        """Every legal move (line choice x removable house), lazily, in a stable order."""
        if self._over:
            return
        edges, hexes = self._board.edges, self._board.hexes
        removals: list[Hex | None] = (
            [None] if self._turn == 1 else [hexes[x] for x in sorted(self._removable)]
        )
        for choice in self.line_choice_ids():
            drawn = [edges[e] for e in choice]
            for h in removals:
                yield Move(drawn, h)

    def count_legal_moves(self) -> int:
        """len(list(legal_moves())) without building the moves."""
        if self._over:
            return 0
        removals = 1 if self._turn == 1 else len(self._removable)
        return len(self.line_choice_ids()) * removals

    def is_legal(self, move: Move) -> bool:
        """True when `push(move)` would succeed."""
        try:
            self._check(move)
        except IllegalMoveError:
            return False
        return True

    # -- push / pop -------------------------------------------------------------------------

    def _illegal(self, move: Move, rule: str, reason: str) -> IllegalMoveError:
        return IllegalMoveError(
            f"illegal move on turn {self._turn} ({self.current_player}): {move}: {reason}",
            rule=rule,
            turn=self._turn,
            reason=reason,
        )

    def check_lines(self, lines: object) -> str | None:
        """Why the current player may not draw `lines` (this turn's 2, 1 or 0 edges) now, in
        words; None when they may. A widget holds the lines until the house is chosen, so it
        asks this instead of pushing a trial move."""
        try:
            error = self.lines_error(lines)
        except BoardError as bad:
            return str(bad)
        return None if error is None else error.reason

    def lines_error(self, lines: object) -> IllegalMoveError | None:
        """The error to raise for this turn's `lines` (as `check_lines`, with its rule id), or
        None when `push` would accept them with a removable house. Malformed lines raise."""
        move = Move(lines)
        problem = self._lines_problem(move)[1]
        if problem is None:
            return None
        rule, reason = problem
        return IllegalMoveError(
            f"illegal lines on turn {self._turn} ({self.current_player}): {move}: {reason}",
            rule=rule,
            turn=self._turn,
            reason=reason,
        )

    def _lines_problem(self, move: Move) -> tuple[tuple[int, ...], line_rules.Problem | None]:
        """The edge ids of `move`'s lines and why they may not be drawn now (None: they may)."""
        if self._over:
            return (), ("game-over", "the game is over")
        board = self._board
        if len(move.lines) > 2:
            return (), ("too-many-edges", f"a turn draws at most 2 edges, not {len(move.lines)}")
        try:
            edges = tuple(board.edge_id(edge) for edge in move.lines)
        except BoardError as error:
            return (), ("edge-not-on-board", str(error))
        problem = line_rules.lines_problem(
            board, self._edge_owner, self._vertex_owner, edges, self.player_index
        )
        return edges, problem

    def _check(self, move: Move) -> tuple[tuple[int, ...], int]:
        """Edge ids and removed hex id of a legal move, or IllegalMoveError."""
        if not isinstance(move, Move):
            raise StreetcarError(
                f"a move is a Move (its lines and the house removed), not {shown(move, 60)}"
            )
        edges, problem = self._lines_problem(move)
        if problem:
            raise self._illegal(move, *problem)
        board = self._board
        if self._turn == 1:
            if move.remove is not None:
                raise self._illegal(move, "removal-on-turn-1", "turn 1 removes no house")
            return edges, -1
        if move.remove is None:
            raise self._illegal(
                move, "missing-removal", "every turn after the first removes a house"
            )
        x = board.hex_index.get(move.remove)
        where = hex_json(move.remove)
        if x is None:
            raise self._illegal(move, "hex-not-on-board", f"hex {where} is not on the board")
        if self._house[x] < 0:
            raise self._illegal(move, "no-house", f"hex {where} holds no house")
        if x not in self._removable:
            near = next(y for y in board.hex_neighbours[x] if self._bcol[y] >= 0)
            raise self._illegal(
                move,
                "house-next-to-building",
                f"house {where} is next to the building on {hex_json(board.hexes[near])}",
            )
        return edges, x

    def push(self, move: Move) -> None:
        """Play a whole turn after checking it; an illegal move raises and changes nothing."""
        edges, x = self._check(move)
        self._apply(move, edges, x)

    def legal_actions(self) -> list[dict[str, Any]]:
        """`legal_moves()` as JSON-ready actions `{"lines": [...], "remove": [q, r] | None}`."""
        return [move.to_action() for move in self.legal_moves()]

    def apply(self, action: object) -> None:
        """Play a turn given as an action, through `push`; refused with IllegalMoveError.

        An action may carry the record's `player` key; it must name the player to move.
        """
        try:
            move = Move.from_action(action)
        except BoardError as error:
            raise IllegalMoveError(
                f"illegal action on turn {self._turn} ({self.current_player}): {error}",
                rule="malformed-action",
                turn=self._turn,
                reason=str(error),
            ) from None
        player = action.get("player", self.current_player) if isinstance(action, dict) else None
        if player != self.current_player:
            reason = f"it is {self.current_player}'s turn, not {shown(player)}"
            raise self._illegal(move, "wrong-player", reason)
        self.push(move)

    def _apply(self, move: Move, edges: tuple[int, ...], x: int) -> None:
        board, p = self._board, self.player_index
        claimed: list[int] = []
        for e in edges:
            self._edge_owner[e] = p
            for v in board.edge_vertices[e]:
                if self._vertex_owner[v] < 0:
                    self._vertex_owner[v] = p
                    claimed.append(v)
        colour = -1
        placed: tuple[int, ...] = ()
        blocked: list[int] = []
        if x >= 0:
            colour = self._house[x]
            self._removed[p][colour] += 1
            self._removable.discard(x)
            new = self.buildings_after_ids(x)
            self._house[x] = -1
            for y, bcolour, cubes in new:
                self._bcol[y], self._bcubes[y] = bcolour, cubes
                self._supply[bcolour] -= cubes
                self._order.append(y)
                for z in board.hex_neighbours[y]:
                    if z in self._removable:
                        self._removable.discard(z)
                        blocked.append(z)
            placed = tuple(y for y, _, _ in new)
        self._stack.append((move, _Undo(edges, tuple(claimed), x, colour, placed, tuple(blocked))))
        self._turn += 1
        self._over = not self._removable
        self._tables = None

    def pop(self) -> Move:
        """Undo the last turn exactly and return its move."""
        if not self._stack:
            raise StreetcarError("no move to undo")
        move, undo = self._stack.pop()
        self._tables = None
        self._turn -= 1
        self._over = False
        p = self.player_index
        for y in reversed(undo.placed):
            self._supply[self._bcol[y]] += self._bcubes[y]
            self._bcol[y], self._bcubes[y] = -1, 0
            self._order.pop()
        self._removable.update(undo.blocked)
        if undo.removed_hex >= 0:
            self._house[undo.removed_hex] = undo.removed_colour
            self._removable.add(undo.removed_hex)
            self._removed[p][undo.removed_colour] -= 1
        for v in undo.claimed:
            self._vertex_owner[v] = -1
        for e in undo.edges:
            self._edge_owner[e] = -1
        return move

    def peek(self) -> Move | None:
        """The last move played, if any."""
        return self._stack[-1][0] if self._stack else None

    def copy(self) -> Game:
        """An independent copy, move stack included (pop works on it)."""
        twin = Game.__new__(Game)
        twin.__dict__.update(self.__dict__)
        twin._house = self._house[:]
        twin._bcol = self._bcol[:]
        twin._bcubes = self._bcubes[:]
        twin._supply = self._supply[:]
        twin._order = self._order[:]
        twin._edge_owner = self._edge_owner[:]
        twin._vertex_owner = self._vertex_owner[:]
        twin._removed = [row[:] for row in self._removed]
        twin._removable = set(self._removable)
        twin._stack = self._stack[:]
        return twin

    # -- scoring ----------------------------------------------------------------------------

    def score_breakdown(self) -> dict[str, ScoreBreakdown]:
        """Per player: removed houses, connected cubes and products by colour, lines, total."""
        return scoring.breakdowns(self)

    def scores(self) -> dict[str, int]:
        """Each player's score as the position stands."""
        return {name: item.total for name, item in self.score_breakdown().items()}

    def outcome(self) -> Outcome | None:
        """Winner(s), scores and the tie-break explanation; None while the game goes on."""
        return scoring.outcome(self) if self._over else None

    def standings(self) -> Outcome:
        """The outcome as if the game ended now (for the widget's running score)."""
        return scoring.outcome(self)

    def __repr__(self) -> str:
        state = "over" if self._over else f"turn {self._turn}, {self.current_player} to move"
        return f"<Game {self._board!r}, {state}>"

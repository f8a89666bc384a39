"""The public position as compact, read-only tables: the fast path for scoring and bots.

`Game.tables()` returns one `Tables` per position (built once, shared until the next push or
pop). Every table is a tuple indexed by the board's ids: position i of a per-hex table is
`board.hexes[i]`, of a per-edge table `board.edges[i]`, of a per-intersection table
`board.vertices[i]`. Colours are indices into `COLOURS`, players into `PLAYERS`, and -1 means
"none". The friendly forms (`Game.houses`, `Game.buildings`, `Game.lines`, ...) say the same in
coordinates and names; these exist so hot loops (greedy, scoring) index plain tuples.

    >>> from housing_lab.streetcar import Game
    >>> tables = Game(seed=7).tables()
    >>> len(tables.houses), len(tables.edge_owners), len(tables.vertex_owners)
    (52, 181, 130)
    >>> set(tables.building_colours), tables.removed
    ({-1}, ((0, 0, 0, 0), (0, 0, 0, 0)))
"""

from __future__ import annotations

from typing import NamedTuple


class Tables(NamedTuple):
    """One position, table by table (see the module docstring for the indexing)."""

    houses: tuple[int, ...]
    """Per hex: colour of the house on it, -1 when it holds none."""
    building_colours: tuple[int, ...]
    """Per hex: colour of its building, -1 when it has none (a 0-cube building keeps a colour)."""
    building_cubes: tuple[int, ...]
    """Per hex: cubes on its building (0 without a building, or when the supply ran short)."""
    edge_owners: tuple[int, ...]
    """Per edge: the player who drew it, -1 while undrawn."""
    vertex_owners: tuple[int, ...]
    """Per intersection: the player whose line touches it, -1 when none does."""
    removed: tuple[tuple[int, ...], ...]
    """Per player, per colour: houses that player has removed."""
    removable: tuple[int, ...]
    """Hex ids of the houses next to no building, ascending (none may be taken on turn 1)."""
    supply: tuple[int, ...]
    """Per colour: cubes left in the supply."""

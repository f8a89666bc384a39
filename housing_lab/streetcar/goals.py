"""Development goals (RULES.md part 2, Variants; *option*, none in play by default).

Each connected building that meets a goal in play scores that goal's bonus for every player
connected to it. Readings where RULES.md is terse (see docs/streetcar.md): an empty space is a
board hex with neither house nor building; a 0-cube building is a building but holds no colour,
so it never counts for low-rise, arts district or diversity; diversity scores the buildings of
every colour tied for the fewest buildings, and nothing when some colour has none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from housing_lab.streetcar.hexgrid import DIRECTIONS
from housing_lab.streetcar.rules import COLOURS, GOAL_BONUS

if TYPE_CHECKING:
    from housing_lab.streetcar.game import Game


def bonuses(game: Game, reach: set[int]) -> dict[str, int]:
    """Bonus per goal in play for a player whose lines touch the hexes in `reach`."""
    if not game.rules.goals:
        return {}
    meeting = meets(game)
    return {
        name: GOAL_BONUS[name] * len(meeting[name] & reach) for name in game.rules.sorted_goals()
    }


def meets(game: Game) -> dict[str, set[int]]:
    """For each goal in play, the building hexes that meet it."""
    board, tables = game.board, game.tables()
    bcol, bcubes, house = tables.building_colours, tables.building_cubes, tables.houses
    built = {x for x, c in enumerate(bcol) if c >= 0}
    coloured = {x for x in built if bcubes[x] > 0}
    tests = {
        "parks": lambda x: any(house[y] < 0 and bcol[y] < 0 for y in board.hex_neighbours[x]),
        "community_centre": lambda x: all(bcol[y] < 0 for y in board.hex_neighbours[x]),
        "low_rise": lambda x: bcubes[x] == 1,
        "cycling": lambda x: _longest_run(game, x, built) >= 4,
        "immigration": lambda x: board.on_rim[x],
    }
    result: dict[str, set[int]] = {}
    for name in game.rules.sorted_goals():
        if name in tests:
            result[name] = {x for x in built if tests[name](x)}
        elif name == "arts_district":
            result[name] = _arts_district(game, built)
        elif name == "diversity":
            counts = [sum(1 for x in coloured if bcol[x] == c) for c in range(len(COLOURS))]
            fewest = min(counts)
            result[name] = {x for x in coloured if fewest > 0 and counts[bcol[x]] == fewest}
    return result


def _longest_run(game: Game, x: int, built: set[int]) -> int:
    """Length of the longest straight run of buildings through hex `x` along the 3 axes."""
    hexes, index = game.board.hexes, game.board.hex_index
    q, r = hexes[x]
    best = 1
    for dq, dr in DIRECTIONS[:3]:
        run = 1
        for sign in (1, -1):
            step = 1
            while index.get((q + sign * step * dq, r + sign * step * dr), -1) in built:
                run += 1
                step += 1
        best = max(best, run)
    return best


def _arts_district(game: Game, built: set[int]) -> set[int]:
    """Buildings in a connected group (hex adjacency) whose cubes show all four colours."""
    tables = game.tables()
    nbrs, bcol, bcubes = game.board.hex_neighbours, tables.building_colours, tables.building_cubes
    found: set[int] = set()
    seen: set[int] = set()
    for start in built:
        if start in seen:
            continue
        group, stack = {start}, [start]
        seen.add(start)
        while stack:
            x = stack.pop()
            for y in nbrs[x]:
                if y in built and y not in seen:
                    seen.add(y)
                    group.add(y)
                    stack.append(y)
        if len({bcol[x] for x in group if bcubes[x] > 0}) == len(COLOURS):
            found |= group
    return found

"""The building rule: where removing a house places buildings, and which cubes they get."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from housing_lab.streetcar.hexgrid import Hex


@dataclass(frozen=True)
class Building:
    """A building on a hex: its colour and how many cubes it holds (0 if the supply ran out)."""

    hex: Hex
    colour: str
    cubes: int

    def to_json(self) -> list[object]:
        """As the record's final block writes it: [q, r, colour, cubes]."""
        return [self.hex[0], self.hex[1], self.colour, self.cubes]


def placements(
    neighbours: Sequence[Sequence[int]],
    houses: Sequence[int],
    building_colours: Sequence[int],
    supply: Sequence[int],
    x: int,
) -> list[tuple[int, int, int]]:
    """(hex id, colour, cubes) of the buildings that removing the house on hex `x` places.

    Tables as in `Tables` (hex ids, colour indices, -1 for none). Candidates are the removed hex
    and its empty neighbours (no other hex loses a house), taken in board order so a short
    supply is shared out the same way every time.
    """
    left = list(supply)
    empty = [z for z in neighbours[x] if houses[z] < 0 and building_colours[z] < 0]
    new: list[tuple[int, int, int]] = []
    for y in sorted([x, *empty]):
        around = [houses[z] for z in neighbours[y] if houses[z] >= 0 and z != x]
        if len(around) == 3:
            colour, wanted = building_for(around)
            cubes = min(wanted, left[colour])
            left[colour] -= cubes
            new.append((y, colour, cubes))
    return new


def building_for(colours: Sequence[int], palette: int = 4) -> tuple[int, int]:
    """(colour, cubes wanted) for the three house colours (indices) around an empty hex.

    All one colour: 3 cubes of it. Two of one colour: 2 cubes of that colour. Three different
    colours: 1 cube of the missing fourth colour. The supply cap is applied by the caller.
    """
    a, b, c = colours
    if a == b == c:
        return a, 3
    if a in (b, c):
        return a, 2
    if b == c:
        return b, 2
    missing = next(x for x in range(palette) if x not in (a, b, c))
    return missing, 1

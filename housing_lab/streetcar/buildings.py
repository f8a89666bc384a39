"""The building rule: which cubes a new building gets from the three houses around it."""

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

"""What one tile on one square adds to the board's counts: each counted fact described once.

A board's counted facts (new homes by type, towers, garages, homes on Greenway squares, towers on
corners, ...) are sums over squares of what each placed tile contributes there, given the
square's tags. The scalar engine (`facts.board_facts`) adds these up for one board; the batch
evaluator (`batch.tile_features`) tabulates them per (square, tile) and adds tables for many
boards. Both read this one table, so a positional rule changes in one place.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from housing_lab.north_berkeley.layout import Layout
from housing_lab.north_berkeley.tiles import Tile

TALL_KINDS = ("tower", "midrise")

Contribution = Callable[[Tile, Collection[str]], int]

# fact name -> what `tile` adds to it on a square with `tags`
TILE_COUNTS: dict[str, Contribution] = {
    "new_market": lambda tile, tags: tile.homes.count("market"),
    "new_middle": lambda tile, tags: tile.homes.count("middle"),
    "new_low": lambda tile, tags: tile.homes.count("low"),
    "parks": lambda tile, tags: int(tile.kind == "park"),
    "garages": lambda tile, tags: int(tile.kind == "garage"),
    "towers": lambda tile, tags: int(tile.kind == "tower"),
    "tall_squares": lambda tile, tags: int(tile.kind in TALL_KINDS),
    "greenway_homes": lambda tile, tags: len(tile.homes) if "greenway" in tags else 0,
    "tall_on_virginia": lambda tile, tags: int(tile.kind in TALL_KINDS and "virginia" in tags),
    "tower_on_virginia_or_acton": lambda tile, tags: int(
        tile.kind == "tower" and ("virginia" in tags or "acton" in tags)
    ),
    "corner_townhouses": lambda tile, tags: int(tile.kind == "townhouse" and "corner" in tags),
    "tower_on_corner": lambda tile, tags: int(tile.kind == "tower" and "corner" in tags),
    # housing with no low or middle income home: "every square with housing has one" is 0 of these
    "market_only_squares": lambda tile, tags: int(
        tile.is_housing and tile.homes.count("market") == len(tile.homes)
    ),
}


def square_tags(layout: Layout, square: str) -> frozenset[str]:
    """The tags (street, corner, greenway, ...) of `square`."""
    return frozenset(tag for tag in layout.tags if layout.has_tag(square, tag))


def tile_counts(tile: Tile, tags: Collection[str]) -> dict[str, int]:
    """Every counted fact `tile` adds on a square with `tags`."""
    return {name: contribution(tile, tags) for name, contribution in TILE_COUNTS.items()}

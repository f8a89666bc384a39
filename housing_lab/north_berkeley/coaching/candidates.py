"""Every set of at most k changes to a board, as one batch for the batch evaluator.

A change sets one square to a tile or empties it, or enacts or repeals one policy. Sets that
`affordable_100` refuses (the engine's `tile_allowed`) are left out. With k = 2 there are about
8,600 sets on the printed board: the batch evaluator scores them all in milliseconds, so small
answers (and the best single change for a hand) are found by enumeration; the coach's search
(`coaching.search`) is needed only beyond.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from housing_lab.north_berkeley.batch.boards import Boards
from housing_lab.north_berkeley.batch.encoding import refused_table
from housing_lab.north_berkeley.batch.evaluator import BatchEvaluator, policy_mask
from housing_lab.north_berkeley.policies import AFFORDABLE_100, POLICIES

Array = np.ndarray


@dataclass(frozen=True)
class ChangeSets:
    """Boards reached by sets of changes: `boards` (tiles, policy masks, residents), the
    number of changes of each and its place in the tie order (`order`: a sort key per row,
    the first change coming earliest)."""

    boards: Boards
    changes: Array
    order: Array  # (n, squares + policies) ranks: compare rows as lists


def _refused(evaluator: BatchEvaluator) -> Array:
    """(squares, tiles + 1): True where `affordable_100` refuses the tile on the square."""
    return refused_table(evaluator.layout, evaluator.catalogue)


def change_sets(
    evaluator: BatchEvaluator,
    current: Sequence[int],
    policies: frozenset[str],
    existing: Sequence[int],
    most: int,
    unchanged_rank: int,
) -> ChangeSets:
    """Every set of at most `most` changes to the board `current` (tile codes, the
    evaluator's `empty` for an empty square) and `policies`, with residents `existing`."""
    squares = len(current)
    values = [[t for t in range(evaluator.empty + 1) if t != current[s]] for s in range(squares)]
    tiles, masks, counts, toggles = [], [], [], []
    base = np.array(current, dtype=np.uint8)
    for k in range(most + 1):
        for changed in (c for n in range(k + 1) for c in combinations(range(squares), n)):
            grid = np.array(np.meshgrid(*(values[s] for s in changed), indexing="ij"))
            rows = np.tile(base, (grid[0].size if changed else 1, 1))
            for i, s in enumerate(changed):
                rows[:, s] = grid[i].ravel()
            for flipped in combinations(range(len(POLICIES)), k - len(changed)):
                after = policies ^ {POLICIES[i] for i in flipped}
                tiles.append(rows)
                masks.append(np.full(len(rows), policy_mask(after), dtype=np.uint8))
                counts.append(np.full(len(rows), k))
                toggles.append(
                    np.tile(
                        [0 if i in flipped else 1 for i in range(len(POLICIES))], (len(rows), 1)
                    )
                )
    board = np.concatenate(tiles)
    mask = np.concatenate(masks)
    restricted = (mask & policy_mask([AFFORDABLE_100])) > 0
    refused = _refused(evaluator)[np.arange(squares)[None, :], board].any(axis=1)
    keep = ~(restricted & refused)
    rank = np.where(board == base[None, :], unchanged_rank, board.astype(np.int64))
    order = np.concatenate([rank, np.concatenate(toggles)], axis=1)
    n = int(keep.sum())
    return ChangeSets(
        Boards(board[keep], mask[keep], np.tile(np.array(existing, dtype=np.uint8), (n, 1))),
        np.concatenate(counts)[keep],
        order[keep],
    )


def first_in_order(candidates: Array, *keys: Array) -> int | None:
    """Index of the first of `candidates` (a boolean mask) sorted by `keys` in turn (each a
    column, or an (n, m) array of columns compared as lists); None when there is none."""
    rows = np.flatnonzero(candidates)
    if len(rows) == 0:
        return None
    columns: list[Array] = []
    for key in keys:
        key = key[rows]
        columns += [key] if key.ndim == 1 else [key[:, j] for j in range(key.shape[1])]
    return int(rows[np.lexsort(columns[::-1])[0]])

"""Every board at once, as the distinct values of the few sums a question can tell apart.

Cards read sums over squares (homes by type, costs, towers, homes on Greenway squares, ...).
Adding one square at a time and keeping only distinct partial sums is a dynamic programme over
squares. Two refinements keep its layers small:

- Features are split into groups (e.g. the three new-home counts, which the move-in mixes). The
  question gives each group a signature of its final sums (what the cards can see of them, e.g.
  "at least 6 tall squares", or the housed counts under each policy set). After k squares, two
  partial sums of a group are merged when every sum the remaining squares can add gives them the
  same signature: the smaller stands for both. No answer changes, by construction.
- Costs are not part of the state but values: each state keeps the least cost (in whole units)
  of the boards that reach it, so ties can go to the cheapest board.

A state is one int64 (features in bit fields); a layer is the sorted array of distinct states
after the first k squares of `order`, with their least costs. A board is recovered by walking
back: a predecessor of (state, cost) is any (state', tile) of the previous layer that steps to
it with cost' + cost(tile) == cost.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

Array = np.ndarray
MAX_BITS = 63
COMPRESS_LIMIT = 1 << 22  # partial sums x completions compared per group and layer, at most
Prune = Callable[["BoardSpace", int, Array, Array], "Array | None"]


@dataclass(frozen=True)
class Group:
    """Features compressed together. `signature(values)` maps final sums (m, len(features)) to
    atom columns (m, c): what the question can see of them. None: kept exactly."""

    features: tuple[str, ...]
    signature: Callable[[Array], Array] | None = None


class GroupTables:
    """A group's value space (mixed radix of its features' maxima), signature codes and, once
    placed, its bit fields in the state."""

    def __init__(self, group: Group, columns: list[int], maxima: list[int]):
        self.group, self.columns, self.maxima = group, columns, maxima
        self.strides = np.cumprod([1, *[m + 1 for m in maxima[:-1]]]).tolist()
        self.size = int(np.prod([m + 1 for m in maxima]))
        self.values = np.stack(
            np.unravel_index(np.arange(self.size), [m + 1 for m in maxima][::-1])[::-1], axis=1
        )  # (size, features), the first feature fastest
        self.codes = (
            None
            if group.signature is None
            else row_labels(np.asarray(group.signature(self.values), dtype=np.int64))
        )

    def place(self, shifts: list[int], masks: list[int]) -> None:
        self.shifts, self.masks = shifts, masks
        self.widths = [m.bit_length() for m in masks]
        self.packed = sum(self.values[:, i].astype(np.int64) << s for i, s in enumerate(shifts))
        # the group's fields lie side by side: one run of bits from `start`
        self.start, self.bits = shifts[0], sum(self.widths)

    def index(self, keys: Array) -> Array:
        """Position of states' group sums in the value space."""
        return sum(
            ((keys >> s) & m) * st
            for s, m, st in zip(self.shifts, self.masks, self.strides, strict=True)
        )

    def field(self, keys: Array) -> Array:
        """States' group sums as one number: the group's run of bits (the same order as
        `index`, in one shift and one mask)."""
        return (keys >> self.start) & ((1 << self.bits) - 1)

    def field_index(self, fields: Array) -> Array:
        """`index` of the group's runs of bits (`field`)."""
        return self.index(fields << self.start)


class BoardSpace:
    """All boards with tiles `allowed[s]` (codes) on square s, reduced for one question.

    `contributions[s, t]` holds tile t's features on square s (names `feature_names`) and
    `costs[s, t]` its costs (one column per cost kind, whole units, minimized). `order`: the
    squares in the order the layers add them (default: the most varied last); the coach steps
    in reverse layout order so that walking back decides A1 first (its tie order).
    """

    def __init__(
        self,
        contributions: Array,
        feature_names: Sequence[str],
        costs: Array,
        allowed: Sequence[Sequence[int]],
        groups: Sequence[Group],
        order: Sequence[int] | None = None,
    ):
        names = list(feature_names)
        self.allowed = [np.asarray(tiles, dtype=np.intp) for tiles in allowed]
        self.features = [f for g in groups for f in g.features]
        columns = [names.index(f) for f in self.features]
        self.parts = [
            contributions[s][tiles][:, columns].astype(np.int64)
            for s, tiles in enumerate(self.allowed)
        ]
        self.costs = [costs[s][tiles].astype(np.int64) for s, tiles in enumerate(self.allowed)]
        maxima = [int(sum(p[:, i].max() for p in self.parts)) for i in range(len(columns))]
        self.groups, at = [], 0
        for group in groups:
            span = list(range(at, at + len(group.features)))
            self.groups.append(GroupTables(group, span, [maxima[i] for i in span]))
            at += len(group.features)
        self.order = self._order() if order is None else list(order)
        # Merges first (they need only each group's own sums), then bit fields just wide enough
        # for the sums that can occur, then the layers themselves.
        self._suffixes()
        self.maps: list[list[Array | None]] = [[None] * len(self.groups)]
        self.befores: list[list[Array]] = [list(self.present)]
        for depth in range(1, len(self.order) + 1):
            self.maps.append([self._compression(g, depth) for g in range(len(self.groups))])
            self.befores.append(list(self.before))
        self._place()
        self.steps = [(p << np.array(self.shifts, dtype=np.int64)).sum(axis=1) for p in self.parts]
        self.value_bits = max(1, int(sum(c.max(axis=0).max() for c in self.costs)).bit_length())
        self.segments = [self._segments(depth) for depth in range(len(self.order) + 1)]
        self.layers: list[tuple[Array, Array]] = []

    def with_costs(self, costs: Array) -> BoardSpace:
        """This space (merges, bit fields: all shared) with costs `costs[s, t, column]`, no
        larger than the costs it was made with (they fix the width of a cost)."""
        space = copy.copy(self)
        space.costs = [costs[s][tiles].astype(np.int64) for s, tiles in enumerate(self.allowed)]
        return space

    def built(self, prune: Prune | None = None) -> BoardSpace:
        """A copy of this space with its layers built. `prune(space, depth, keys, costs)`, when
        given, returns which states of a layer to keep (None: all). Dropping a state is safe for
        a question when no completion of it can matter to the answer: every state a kept final
        state descends from is then kept too, so its least cost stays exact."""
        space = copy.copy(self)
        space.layers = [
            (np.zeros(1, dtype=np.int64), np.zeros((1, self.costs[0].shape[1]), dtype=np.int64))
        ]
        for depth, square in enumerate(self.order, start=1):
            keys, values = space._next_layer(depth, square)
            keep = None if prune is None else prune(space, depth, keys, values)
            if keep is not None:
                keys, values = keys[keep], values[keep]
            space.layers.append((keys, values))
        return space

    def _place(self) -> None:
        """Bit fields: each feature as wide as the largest sum any layer can hold."""
        widths = []
        for g, tables in enumerate(self.groups):
            seen = np.concatenate([before[g] for before in self.befores])
            for i in range(len(tables.columns)):
                largest = int(((seen // tables.strides[i]) % (tables.maxima[i] + 1)).max())
                widths.append(max(1, largest.bit_length()))
        self.shifts = [sum(widths[:i]) for i in range(len(widths))]
        self.masks = [(1 << w) - 1 for w in widths]
        self.bits = sum(widths)
        if self.bits > MAX_BITS:
            raise ValueError(f"the search state needs {self.bits} bits; at most {MAX_BITS} fit")
        for tables in self.groups:
            tables.place(
                [self.shifts[i] for i in tables.columns], [self.masks[i] for i in tables.columns]
            )

    def _next_layer(self, depth: int, square: int) -> tuple[Array, Array]:
        """Step every state by every tile, merge, keep distinct states with least costs.

        When they fit, the costs ride in the low bits of the key, so that one sort orders
        states and, within a state, the first cost column (a second column's least is then
        taken run by run, no second sort)."""
        keys, values = self.layers[-1]
        columns, width = values.shape[1], self.value_bits
        low = width * columns
        if self.bits + low > 63:
            candidates = (keys[:, None] + self.steps[square]).ravel()
            costs = (values[:, None, :] + self.costs[square][None, :, :]).reshape(
                len(candidates), -1
            )
            return _least(self._compress(depth, candidates), costs, self.bits, width)
        shifts = [width * (columns - 1 - c) for c in range(columns)]
        packed = keys << low
        steps = self.steps[square] << low
        for c, shift in enumerate(shifts):
            packed |= values[:, c] << shift
            steps = steps + (self.costs[square][:, c] << shift)
        candidates = self._stepped(depth, square, packed, steps, low)
        candidates.sort()
        state = candidates >> low
        starts = np.flatnonzero(_firsts(state))
        mask = (1 << width) - 1
        least = [(candidates[starts] >> shifts[0]) & mask]
        for shift in shifts[1:]:  # another cost column: the least of each state's run
            column = (candidates >> shift if shift else candidates) & mask
            least.append(np.minimum.reduceat(column, starts))
        return state[starts], np.stack(least, axis=1)

    def _order(self) -> list[int]:
        """Squares with one tile first, then those whose tiles vary more features (the tagged
        squares: their position-only features are then final, and merged, early), so that the
        interchangeable untagged squares come last."""

        def varying(s: int) -> int:
            return int((self.parts[s].min(axis=0) != self.parts[s].max(axis=0)).sum())

        return sorted(
            range(len(self.parts)), key=lambda s: (len(self.allowed[s]) > 1, -varying(s), s)
        )

    # --- compression ------------------------------------------------------------------------
    def _suffixes(self) -> None:
        """Per group: the distinct sums each square adds (`adds[g][square]`), and per depth the
        distinct sums the squares after `depth` can still add (`suffix[g][depth]`)."""
        self.adds: list[list[Array]] = []
        self.suffix: list[list[Array]] = []
        for tables in self.groups:
            strides = np.array(tables.strides, dtype=np.int64)
            adds = [_unique((part[:, tables.columns] * strides).sum(axis=1)) for part in self.parts]
            sums = [np.zeros(1, dtype=np.int64)]
            for square in reversed(self.order):
                sums.append(_unique((sums[-1][:, None] + adds[square]).ravel()))
            self.adds.append(adds)
            self.suffix.append(sums[::-1])  # sums of squares order[depth:]
        # a superset of each group's sums present in each layer (kept small: distinct sums)
        self.present = [np.zeros(1, dtype=np.int64) for _ in self.groups]
        self.before = list(self.present)  # the same, before this layer's merging

    def _compression(self, g: int, depth: int) -> Array | None:
        """Merge map of group g's sums after `depth` squares (None: nothing to merge)."""
        tables = self.groups[g]
        square = self.order[depth - 1]
        present = _unique((self.present[g][:, None] + self.adds[g][square]).ravel())
        self.present[g] = self.before[g] = present
        if tables.codes is None:
            return None
        future = self.suffix[g][depth]
        if len(present) * len(future) > COMPRESS_LIMIT:
            return None
        labels = row_labels(tables.codes[present[:, None] + future[None, :]])
        first = np.full(labels.max() + 1, -1, dtype=np.int64)
        first[labels[::-1]] = present[::-1]  # present is sorted: the smallest sum stands in
        if (first[labels] == present).all():
            return None  # nothing to merge
        mapping = np.arange(tables.size, dtype=np.int64)
        mapping[present] = first[labels]
        self.present[g] = _unique(first[labels])
        return mapping

    def _segments(self, depth: int) -> list[tuple[int, int, Array]]:
        """The compression of a layer as look-up tables over runs of adjacent groups' bits:
        (shift, mask, table) with key += table[(key >> shift) & mask]. Tables are filled only
        at the sums present in the layer (the others never occur)."""
        runs: list[list[int]] = [[]]
        if depth == 0:
            return []
        for g, mapping in enumerate(self.maps[depth]):
            width = sum(self.groups[g].widths)
            if mapping is None:
                runs.append([])
            elif runs[-1] and sum(sum(self.groups[h].widths) for h in runs[-1]) + width > 20:
                runs.append([g])
            else:
                runs[-1].append(g)
        segments = []
        for run in filter(None, runs):
            start = self.groups[run[0]].shifts[0]
            width = sum(sum(self.groups[g].widths) for g in run)
            bits, delta = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64)
            for g in run:
                tables, mapping = self.groups[g], self.maps[depth][g]
                present = self.befores[depth][g]
                bits = (bits[:, None] + tables.packed[present]).ravel()
                delta = (
                    delta[:, None] + tables.packed[mapping[present]] - tables.packed[present]
                ).ravel()
            table = np.zeros(1 << width, dtype=np.int64)
            table[bits >> start] = delta
            segments.append((start, (1 << width) - 1, table))
        return segments

    def _stepped(self, depth: int, square: int, keys: Array, steps: Array, low: int) -> Array:
        """`_compress(depth, keys[:, None] + steps)`, flattened, with each look-up done once
        per distinct field of the states rather than once per (state, tile): a field of a
        sum is the sum of the fields (each field is as wide as any sum it holds, so nothing
        carries), so the merge of (state, tile) is table[field(state) + field(tile)]."""
        out = keys[:, None] + steps
        for shift, mask, table in self.segments[depth]:
            fields, slot = distinct_positions((keys >> (shift + low)) & mask, mask + 1)
            tiles = (self.steps[square] >> shift) & mask
            delta = table[fields[:, None] + tiles] << low
            out += delta[slot]
        return out.ravel()

    def _compress(self, depth: int, keys: Array, low: int = 0) -> Array:
        """Apply layer `depth`'s merges to states (whose fields start at bit `low`)."""
        for shift, mask, table in self.segments[depth]:
            keys = keys + (table << low if low else table)[(keys >> (shift + low)) & mask]
        return keys

    def advance(self, depth: int, keys: Array) -> Array:
        """States of layer `depth` + 1 reached from `keys` (layer `depth`) by each tile:
        shape (len(keys), tiles on that square)."""
        square = self.order[depth]
        step = keys[:, None] + self.steps[square]
        return self._compress(depth + 1, step.ravel()).reshape(step.shape)

    # --- reading the final states -----------------------------------------------------------
    @property
    def final(self) -> tuple[Array, Array]:
        """Final states and their least costs (one column per cost kind)."""
        return self.layers[-1]

    def decode(self, keys: Array) -> dict[str, Array]:
        """Feature sums of states (a merged state reads as the sums that stand for it)."""
        return {
            f: (keys >> s) & m
            for f, s, m in zip(self.features, self.shifts, self.masks, strict=True)
        }

    def board(self, key: int, column: int, cost: int) -> list[int]:
        """A board (tile code per square) reaching final state `key` at cost `cost`.

        Walking back, a predecessor must match the cost and, in every group the layer did not
        merge, the exact sums; only the few (state, tile) pairs left are stepped forward."""
        tiles: dict[int, int] = {}
        for depth in range(len(self.order), 0, -1):
            square = self.order[depth - 1]
            keys, values = self.layers[depth - 1]
            exact = self._unmerged_bits(depth)
            wanted = (key & exact) - (self.steps[square] & exact)
            adds = self.costs[square][:, column]
            # the states whose cost some tile completes, then those states x tiles in full
            fits = np.flatnonzero(np.isin(values[:, column], cost - adds))
            rows, positions = np.nonzero(
                ((keys[fits] & exact)[:, None] == wanted[None, :])
                & (values[fits, column][:, None] + adds[None, :] == cost)
            )
            rows = fits[rows]
            reach = self._compress(depth, keys[rows] + self.steps[square][positions])
            hits = np.flatnonzero(reach == key)
            if len(hits) == 0:  # pragma: no cover - would be a bug in the layers
                raise RuntimeError("no predecessor: the board space is inconsistent")
            row, position = int(rows[hits[0]]), int(positions[hits[0]])
            tiles[square] = int(self.allowed[square][position])
            key, cost = int(keys[row]), int(values[row, column])
        return [tiles[s] for s in range(len(self.order))]

    def _unmerged_bits(self, depth: int) -> int:
        """Bit mask of the fields of groups that layer `depth` keeps exactly."""
        bits = 0
        for tables, mapping in zip(self.groups, self.maps[depth], strict=True):
            if mapping is None:
                for shift, mask in zip(tables.shifts, tables.masks, strict=True):
                    bits |= mask << shift
        return bits

    @property
    def sizes(self) -> list[int]:
        return [len(keys) for keys, _ in self.layers]


def across(ufunc: np.ufunc, rows: Array) -> Array:
    """`ufunc.reduce(rows, axis=1)` of an (n, few) array, column by column: numpy reduces a
    short last axis row by row, about ten times slower for the layers' (n, policy sets)."""
    if rows.shape[1] == 0:
        return ufunc.reduce(rows, axis=1)
    out = rows[:, 0].copy()
    for column in range(1, rows.shape[1]):
        ufunc(out, rows[:, column], out=out)
    return out


def distinct_positions(index: Array, size: int) -> tuple[Array, Array]:
    """The distinct values of `index` (in range(size)), sorted, and each one's position."""
    if size > 8 * len(index) + 4096:  # few values in a wide range: sorting them is cheaper
        unique, positions = np.unique(index, return_inverse=True)
        return unique, positions.ravel()
    seen = np.zeros(size, dtype=bool)
    seen[index] = True
    unique = np.flatnonzero(seen)
    rank = np.empty(size, dtype=np.intp)  # read only where seen
    rank[unique] = np.arange(len(unique))
    return unique, rank[index]


def _unique(values: Array) -> Array:
    """Sorted distinct values (faster than np.unique for int64 here)."""
    values = np.sort(values, axis=None)
    if len(values) < 2:
        return values
    keep = np.empty(len(values), dtype=bool)
    keep[0] = True
    np.not_equal(values[1:], values[:-1], out=keep[1:])
    return values[keep]


def row_labels(rows: Array) -> Array:
    """Label rows 0.. so that equal rows, and only they, share a label (hash, then verify):
    a row's label is its hash's rank among the distinct hashes, and every row must equal the
    first row of its label (else a hash collision: the exact, slower way)."""
    rows = rows.reshape(len(rows), -1)
    hashed = rows @ _multipliers(rows.shape[1])  # wrapping int64 arithmetic
    ranked = np.sort(hashed)
    distinct = ranked[_firsts(ranked)]
    labels = np.searchsorted(distinct, hashed)
    leader = np.empty(len(distinct), dtype=np.intp)
    leader[labels[::-1]] = np.arange(len(rows))[::-1]
    if not (rows == rows[leader[labels]]).all():  # a hash collision
        return np.unique(rows, axis=0, return_inverse=True)[1].ravel()
    return labels


@lru_cache(maxsize=64)
def _multipliers(n: int) -> Array:
    """Odd pseudo-random int64 multipliers for row hashing (wrapping arithmetic); cached and
    read-only: a search hashes rows of the same few widths tens of thousands of times."""
    with np.errstate(over="ignore"):
        x = np.arange(1, n + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
        x ^= x >> np.uint64(31)
        x *= np.uint64(0xBF58476D1CE4E5B9)
    multipliers = (x | np.uint64(1)).view(np.int64)
    multipliers.flags.writeable = False
    return multipliers


def _firsts(sorted_values: Array) -> Array:
    """Where each run of equal values starts in a sorted array."""
    first = np.empty(len(sorted_values), dtype=bool)
    first[:1] = True
    np.not_equal(sorted_values[1:], sorted_values[:-1], out=first[1:])
    return first


def _least(keys: Array, costs: Array, key_bits: int, value_bits: int) -> tuple[Array, Array]:
    """Distinct keys (sorted) with the least of each cost column among their duplicates."""
    if key_bits + value_bits <= 63 and costs.min(initial=0) >= 0:
        columns = []
        for c in range(costs.shape[1]):
            packed = np.sort((keys << value_bits) | costs[:, c])
            first = np.empty(len(packed), dtype=bool)
            first[:1] = True
            shifted = packed >> value_bits
            np.not_equal(shifted[1:], shifted[:-1], out=first[1:])
            columns.append(packed[first] & ((1 << value_bits) - 1))
        return shifted[first], np.stack(columns, axis=1)
    order = np.lexsort((costs[:, 0], keys))
    keys, costs = keys[order], costs[order]
    first = np.empty(len(keys), dtype=bool)
    first[:1] = True
    np.not_equal(keys[1:], keys[:-1], out=first[1:])
    starts = np.flatnonzero(first)
    return keys[starts], np.minimum.reduceat(costs, starts, axis=0)

"""Bounds for pruning the solver's search: what each card can still score from a partial state.

A state after d squares holds, per group, a partial sum v; the squares left can add any sum f of
`space.suffix[g][d]`. A card sees a group only through its own atoms (`card_atoms`, the same
thresholds the search keeps): its *view* of the group's final sum. For every state and card,
the views each group can still reach are the views of v + f over f; the card's best (and worst)
score is at most the best over every combination of reachable views, each group completed
independently. That relaxes only the coupling of groups (and of cards) through shared squares,
so it is an upper bound on the card's score over every real completion, per policy set.

Summed over the coalition (weight times the best or worst score, by the weight's sign), it
bounds the total; a card whose best is negative rules out "every card >= 0". At the last layer
nothing remains and the bound is the exact total.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from housing_lab.north_berkeley.batch.encoding import HALVING_ATOMS, may_halve
from housing_lab.north_berkeley.batch.evaluator import BatchEvaluator
from housing_lab.north_berkeley.solver.atoms import (
    POLICY_DEPENDENT,
    Spec,
    card_atoms,
    merge,
    spending_thresholds,
)
from housing_lab.north_berkeley.solver.facts import SPENDING, atom_classes
from housing_lab.north_berkeley.solver.space import (
    BoardSpace,
    GroupTables,
    distinct_positions,
    row_labels,
)

Array = np.ndarray
REACH_LIMIT = 1 << 23  # partial sums x completions looked at per group and layer, at most
FIELD_BITS = 20  # a group this narrow finds its distinct sums with one table of 2^bits
MERGED_CLASSES = 1 << 16  # wheres are merged while their joint classes stay this few
SPENT = -1  # the pseudo group of spending's lower bound (see `Bounds`)


@dataclass
class _CardTable:
    """One card's score over combinations of its views of the groups it reads."""

    groups: list[int]  # indices into space.groups
    views: list[Array]  # per group: view code of every value of the group's value space
    best: Array  # (views..., policy sets): weight x score, maximized by the weight's sign
    score: Array  # (views..., policy sets): the card's own score
    both: Array  # (views..., 2 x policy sets): best, then score (one reduction for the two)


@dataclass
class _Grid:
    """A card's views of its groups and the representative sums (and costs) of every
    combination of views, in C order over `shape`."""

    groups: list[int]
    views: list[Array]
    shape: tuple[int, ...]
    values: dict[str, Array]
    costs: Array


class Bounds:
    """Per-policy-set bounds on a coalition's total and on "every card >= 0" for states of one
    board space. `scorer(cards, values, costs, policies)` scores decoded sums as the final
    scoring does (rows of `values`, a dict feature -> array)."""

    def __init__(
        self,
        evaluator: BatchEvaluator,
        space: BoardSpace,
        cards: tuple[str, ...],
        weights: tuple[float, ...],
        policy_sets: tuple[frozenset[str], ...],
        facts_of: dict[int, dict[str, Array]],
        scorer,
    ) -> None:
        self.space, self.policy_sets = space, policy_sets
        halves = may_halve(policy_sets)
        # Without a spending group (the states keep least costs instead), spending is bounded
        # below by a state's least cost plus the least the squares left can cost: the pseudo
        # group SPENT holds the classes of that bound among all the cards' thresholds, for
        # both cost kinds (full, housing halved), and any classes at or above are reachable.
        read = [card_atoms(c) for c in cards]  # (read off the declarations once)
        specs = [atoms["spending"] for atoms in read if "spending" in atoms]
        self.spent = bool(specs) and all(t.group.features != SPENDING for t in space.groups)
        if self.spent:
            self.thresholds = np.array(
                spending_thresholds(
                    merge([{"spending": s} for s in specs])["spending"], evaluator.scale
                ),
                dtype=np.int64,
            )
            least = np.stack([c.min(axis=0) for c in space.costs])  # (squares, cost kinds)
            least = least[space.order][:, [0, -1]]
            self.least_left = np.concatenate(
                [np.cumsum(least[::-1], axis=0)[::-1], np.zeros((1, 2), dtype=np.int64)]
            )
            side = len(self.thresholds) + 1
            self.spent_values = np.stack(np.divmod(np.arange(side * side), side), axis=1)
        self.evaluator = evaluator
        # whole weights: totals are small integers, exact in float32 (half the memory traffic)
        self.dtype = (
            np.float32
            if all(isinstance(w, int) and abs(w) < 1 << 16 for w in weights)
            else np.float64
        )
        grids = []
        for atoms in read:
            if halves and "spending" in atoms:
                atoms = merge([atoms, HALVING_ATOMS])
            grids.append(self._grid(evaluator, atoms, facts_of))
        self.tables = []
        scores = self._scores(cards, grids, scorer)
        for grid, score, weight in zip(grids, scores, weights, strict=True):
            score = score.astype(np.float64).reshape(*grid.shape, len(policy_sets))
            best = weight * score
            self.tables.append(
                _CardTable(
                    grid.groups, grid.views, best, score, np.concatenate([best, score], axis=-1)
                )
            )
        # cards reading the same view of a group share its reachable sets
        interned: dict[tuple[int, bytes], Array] = {}
        for table in self.tables:
            table.views = [
                interned.setdefault((g, view.tobytes()), view)
                for g, view in zip(table.groups, table.views, strict=True)
            ]
        # each card's groups are looked up within a largest set of groups holding them
        wheres = sorted({tuple(t.groups) for t in self.tables}, key=lambda w: (-len(w), w))
        self.folded: dict[tuple[int, ...], tuple[int, ...]] = {}
        for where in wheres:
            self.folded[where] = next(
                (w for w in wheres if set(where) <= set(w) and self.folded.get(w) == w), where
            )

    def _grid(
        self,
        evaluator: BatchEvaluator,
        atoms: dict[str, Spec],
        facts_of: dict[int, dict[str, Array]],
    ) -> _Grid:
        """A card's views of the groups it reads, and a representative of every combination
        of views: the sums (and costs) its table is scored on."""
        groups, views, reps = [], [], []
        if self.spent and "spending" in atoms:
            thresholds = spending_thresholds(atoms["spending"], evaluator.scale)
            lowest = self._spent_lowest()
            view = _labels(
                [atom_classes(lowest[:, 0], thresholds), atom_classes(lowest[:, 1], thresholds)]
            )
            groups.append(SPENT)
            views.append(view)
            reps.append(_firsts_of(view))
        for g in range(len(self.space.groups)):
            facts = facts_of[g]
            columns = []
            for fact, spec in atoms.items():
                if fact == "spending" and "spending" in facts:
                    thresholds = spending_thresholds(spec, evaluator.scale)
                    columns += [
                        atom_classes(facts["spending"], thresholds),
                        atom_classes(facts["spending_halved"], thresholds),
                    ]
                elif fact in POLICY_DEPENDENT:
                    columns += [
                        atom_classes(facts[f"{fact}@{i}"], spec)
                        for i in range(len(self.policy_sets))
                        if f"{fact}@{i}" in facts
                    ]
                elif fact in facts:
                    columns.append(atom_classes(facts[fact], spec))
            if not columns:
                continue
            view = _labels(columns)
            groups.append(g)
            views.append(view)
            reps.append(_firsts_of(view))
        grid = [r.ravel() for r in np.meshgrid(*[np.arange(len(r)) for r in reps], indexing="ij")]
        values: dict[str, Array] = {}
        costs = np.zeros((len(grid[0]) if grid else 1, 2), dtype=np.int64)
        for g, rep, codes in zip(groups, reps, grid, strict=True):
            if g == SPENT:
                costs = self._spent_lowest()[rep[codes]]
                continue
            tables: GroupTables = self.space.groups[g]
            rows = tables.values[rep[codes]]
            for i, feature in enumerate(tables.group.features):
                values[feature] = rows[:, i].astype(np.int64)
            if tables.group.features == SPENDING:
                housing, other = rows[:, 0].astype(np.int64), rows[:, 1].astype(np.int64)
                costs = np.stack([2 * (housing + other), housing + 2 * other], axis=1)
        return _Grid(groups, views, tuple(len(r) for r in reps), values, costs)

    def _scores(self, cards: tuple[str, ...], grids: list[_Grid], scorer) -> list[Array]:
        """Each card's scores on its grid (rows, policy sets). Cards reading the same groups
        have grids of the same sums: they are scored together, one call per policy set (the
        scoring goes row by row, so a row's scores do not depend on the others)."""
        together: dict[tuple[int, ...], list[int]] = {}
        for i, grid in enumerate(grids):
            together.setdefault(tuple(grid.groups), []).append(i)
        out: list[Array] = [np.empty(0)] * len(grids)
        for members in together.values():
            first = grids[members[0]]
            values = {
                f: np.concatenate([grids[i].values[f] for i in members]) for f in first.values
            }
            costs = np.concatenate([grids[i].costs for i in members])
            names = tuple(cards[i] for i in members)
            scored = [scorer(names, values, costs, p) for p in self.policy_sets]
            ends = np.cumsum([len(grids[i].costs) for i in members])
            for k, (i, end) in enumerate(zip(members, ends, strict=True)):
                start = end - len(grids[i].costs)
                out[i] = np.stack([s[start:end, k] for s in scored], axis=1)
        return out

    def _spent_lowest(self) -> Array:
        """The least spending (full, halved) of each SPENT value (a pair of classes)."""
        lowest = np.concatenate([[0], self.thresholds])
        return lowest[self.spent_values]

    def _present(
        self, depth: int, keys: Array, costs: Array
    ) -> tuple[dict[int, tuple[Array, Array, Array, int]], list[Array]] | None:
        """The groups the cards read, in a layer: per group, its distinct values, the run each
        belongs to and each distinct value of the run's position among the group's, and per
        distinct value the values its completions can reach; per run, each state's position
        among the run's distinct values (None: a group has too many completions to look at).

        A run is a few groups side by side in the state's bits (at most `FIELD_BITS` of them):
        its distinct values are found once, with one shift and one mask over the states, and
        each group's from those few (the spending classes SPENT are a run of their own)."""
        used = sorted({g for t in self.tables for g in t.groups})
        present: dict[int, tuple[Array, Array, Array, int]] = {}
        runs: list[Array] = []
        if SPENT in used:
            side = len(self.thresholds) + 1
            unique, slot = distinct_positions(self._spent_index(depth, costs), side * side)
            full, half = np.divmod(unique, side)  # any pair of classes at or above
            reach = np.maximum(full[:, None], self.spent_values[None, :, 0]) * side + np.maximum(
                half[:, None], self.spent_values[None, :, 1]
            )
            present[SPENT] = (unique, np.arange(len(unique)), reach, len(runs))
            runs.append(slot)
        groups = self.space.groups
        chunks: list[list[int]] = []
        for g in (g for g in used if g != SPENT):
            first = groups[chunks[-1][0]] if chunks else None
            tables = groups[g]
            if (
                first is not None
                and chunks[-1][-1] == g - 1
                and first.bits <= FIELD_BITS
                and tables.start + tables.bits - first.start <= FIELD_BITS
            ):
                chunks[-1].append(g)
            else:
                chunks.append([g])
        for chunk in chunks:
            first, last = groups[chunk[0]], groups[chunk[-1]]
            if first.bits > FIELD_BITS:  # a wide group alone: its value-space positions
                index, slot = distinct_positions(first.index(keys), first.size)
                fields, starts = index, None
            else:
                width = last.start + last.bits - first.start
                fields, slot = distinct_positions(
                    (keys >> first.start) & ((1 << width) - 1), 1 << width
                )
                starts = first.start
            for g in chunk:
                tables = groups[g]
                if starts is None:
                    unique, at = fields, np.arange(len(fields))
                else:
                    own = (fields >> (tables.start - starts)) & ((1 << tables.bits) - 1)
                    mine, at = np.unique(own, return_inverse=True)
                    unique, at = tables.field_index(mine), at.ravel()
                future = self.space.suffix[g][depth]
                if len(unique) * len(future) > REACH_LIMIT:
                    return None
                present[g] = (unique, at, unique[:, None] + future[None, :], len(runs))
            runs.append(slot)
        return present, runs

    def _spent_index(self, depth: int, costs: Array) -> Array:
        """Each state's SPENT value: the classes (full, halved) of the least it can spend."""
        side = len(self.thresholds) + 1
        full = costs[:, 0] + self.least_left[depth, 0]
        half = costs[:, -1] + self.least_left[depth, 1]
        top = int(max(full.max(initial=0), half.max(initial=0))) + 1
        if min(full.min(initial=0), half.min(initial=0)) < 0 or top > 1 << 20:
            classes = np.searchsorted(self.thresholds, np.stack([full, half]), side="right")
            return classes[0] * side + classes[1]
        # whole units, few of them: each amount's class looked up
        classes = np.searchsorted(self.thresholds, np.arange(top), side="right")
        return classes[full] * side + classes[half]

    def evaluate(
        self, depth: int, keys: Array, costs: Array, want_total: bool, want_nonnegative: bool
    ) -> tuple[Array | None, Array | None]:
        """(n, policy sets) upper bounds on the total and whether every card can still score
        >= 0 (None when not asked, or when a group has too many completions to look at).

        Each card's bound is a table over the sets of views its groups can still reach. Cards
        reading groups within one set of groups (a "where") share one summed table, looked up
        once per state: by the state's class in each group, the distinct values of the group
        that no card of the where tells apart (the same reachable views for every one)."""
        sets = len(self.policy_sets)
        found = self._present(depth, keys, costs)
        if found is None:
            return None, None
        present, runs = found
        # per (group, view): the set of views each distinct value of the group can reach
        reached: dict[tuple[int, int], tuple[Array, Array]] = {}
        for table in self.tables:
            for g, view in zip(table.groups, table.views, strict=True):
                if (g, id(view)) not in reached:
                    reached[g, id(view)] = _reachable(view[present[g][2]], int(view.max()) + 1)
        total = nonnegative = None
        for where, tables, classes in self._wheres(reached):
            shape = [int(classes[g].max()) + 1 for g in where]
            # each state's combination of classes, in C order over `shape`: each run of
            # groups adds its share, worked out once per distinct value of the run
            shares: dict[int, Array] = {}
            for i, g in enumerate(where):
                _, at, _, run = present[g]
                share = classes[g][at] * int(np.prod(shape[i + 1 :], dtype=np.int64))
                shares[run] = shares[run] + share if run in shares else share
            flat = None  # (each part freed before the next: fresh memory is slow to get)
            for run, share in shares.items():
                part = share[runs[run]]
                flat = part if flat is None else np.add(flat, part, out=flat)
            if flat is None:
                flat = np.zeros(len(keys), dtype=np.int64)
            unique, inverse = _distinct(flat, int(np.prod(shape, dtype=np.float64)))
            # each distinct combination of classes, as a distinct value of each group in it
            slots = {
                g: _firsts_of(classes[g])[c]
                for g, c in zip(
                    where, np.unravel_index(unique, shape) if where else (), strict=True
                )
            }
            best = able = None
            for table in tables:
                labels, masks = [], []
                for g, view in zip(table.groups, table.views, strict=True):
                    label, distinct = reached[g, id(view)]
                    labels.append(label[slots[g]])
                    masks.append(distinct)
                if want_total and want_nonnegative:
                    both = _reduce(table.both, masks)[tuple(labels)]
                    tops, sign = both[:, :sets], both[:, sets:] >= 0
                else:
                    tops = _reduce(table.best, masks)[tuple(labels)] if want_total else None
                    sign = (
                        _reduce(table.score, masks)[tuple(labels)] >= 0
                        if want_nonnegative
                        else None
                    )
                if tops is not None:
                    best = tops if best is None else best + tops
                if sign is not None:
                    able = sign if able is None else able & sign
            if best is not None:
                part = np.take(best.astype(self.dtype), inverse, axis=0)
                total = part if total is None else np.add(total, part, out=total)
            if able is not None:
                part = np.take(able, inverse, axis=0)
                nonnegative = (
                    part
                    if nonnegative is None
                    else np.logical_and(nonnegative, part, out=nonnegative)
                )
        if want_total and total is None:
            total = np.zeros((len(keys), sets), dtype=self.dtype)
        if want_nonnegative and nonnegative is None:
            nonnegative = np.ones((len(keys), sets), dtype=bool)
        return total, nonnegative

    def _wheres(
        self, reached: dict[tuple[int, int], tuple[Array, Array]]
    ) -> list[tuple[tuple[int, ...], list[_CardTable], dict[int, Array]]]:
        """The cards' tables by where, each where with its classes: per group, a label of
        each distinct value of the group, equal for values that reach the same views in every
        view the where's cards take of the group. A card's groups go to a largest set of
        groups holding them (`folded`); wheres with few classes are merged (each where costs
        a few passes over the states)."""

        def classes_of(where: tuple[int, ...], tables: list[_CardTable]) -> dict[int, Array]:
            out = {}
            for g in where:
                labels = {
                    id(view): reached[g, id(view)][0]
                    for table in tables
                    for h, view in zip(table.groups, table.views, strict=True)
                    if h == g
                }
                out[g] = _labels(list(labels.values()))
            return out

        def size(classes: dict[int, Array]) -> float:
            return float(np.prod([float(c.max()) + 1 for c in classes.values()]))

        grouped: dict[tuple[int, ...], list[_CardTable]] = {}
        for table in self.tables:
            grouped.setdefault(self.folded[tuple(table.groups)], []).append(table)
        parts = sorted(
            ((where, tables, classes_of(where, tables)) for where, tables in grouped.items()),
            key=lambda part: (size(part[2]), part[0]),
        )
        merged: list[tuple[tuple[int, ...], list[_CardTable], dict[int, Array]]] = []
        for where, tables, classes in parts:
            for i, (other, others, _) in enumerate(merged):
                union, together = tuple(sorted({*other, *where})), others + tables
                joint = classes_of(union, together)
                if size(joint) <= MERGED_CLASSES:
                    merged[i] = (union, together, joint)
                    break
            else:
                merged.append((where, tables, classes))
        return merged


def _labels(columns: list[Array]) -> Array:
    """Label rows of non-negative integer columns 0.. so that equal rows, and only they, share
    a label (dense codes when they fit, else hashed rows)."""
    code, size = np.zeros(len(columns[0]), dtype=np.int64), 1
    for column in columns:
        top = int(column.max()) + 1
        size *= top
        if size > 1 << 22:
            return row_labels(np.stack(columns, axis=1).astype(np.int64))
        code = code * top + column.astype(np.int64)
    return distinct_positions(code, size)[1]


def _distinct(values: Array, size: int) -> tuple[Array, Array]:
    """Sorted distinct values in range(size) and each value's position among them."""
    if size > 4 * len(values) + 4096:  # sparse: sorting is cheaper
        unique, inverse = np.unique(values, return_inverse=True)
        return unique, inverse.ravel()
    return distinct_positions(values, size)


def _firsts_of(view: Array) -> Array:
    """For each view code, the first value showing it (its representative)."""
    first = np.full(view.max() + 1, -1, dtype=np.int64)
    first[view[::-1]] = np.arange(len(view))[::-1]
    return first


def _reachable(codes: Array, views: int) -> tuple[Array, Array]:
    """Per row of view codes, the set of views it holds: (label of the set per row, the
    distinct sets as a boolean matrix)."""
    words = []
    for start in range(0, views, 62):
        bits = np.left_shift(np.int64(1), np.clip(codes - start, 0, 62))
        bits = np.where((codes >= start) & (codes < start + 62), bits, 0)
        words.append(np.bitwise_or.reduce(bits, axis=1))
    packed = np.stack(words, axis=1)
    label = row_labels(packed)
    first = np.full(label.max() + 1, -1, dtype=np.int64)
    first[label[::-1]] = np.arange(len(label))[::-1]
    shifts = np.arange(62, dtype=np.int64)
    distinct = ((packed[first][:, :, None] >> shifts) & 1).astype(bool).reshape(len(first), -1)
    return label, distinct[:, :views]


def _reduce(values: Array, masks: list[Array]) -> Array:
    """Max over the views each mask allows, axis by axis: (masks..., policy sets)."""
    for axis, mask in enumerate(masks):
        moved = np.moveaxis(values, axis, 0)
        rest = moved.shape[1:]
        flat = moved.reshape(moved.shape[0], -1)
        out = np.where(mask[:, :, None], flat[None, :, :], -np.inf).max(axis=1)
        values = np.moveaxis(out.reshape(len(mask), *rest), 0, axis)
    return values

"""The scalar engine's JSON result lines, written for a batch of boards from fragments.

Every section of a line is `scoring.member(key, value)` of the value that
`batch.result.result_sections` makes of the board's codes, the table `BatchResult.to_dicts`
reads too, in `scoring.KEYS` order: byte for byte `json.dumps(result.to_dict(i))`, and so the
scalar engine's `json.dumps(score_scenario(...).to_dict())` (tests/north_berkeley/test_output.py
and tests/reliability/test_cli_stream.py check both on random boards). `nb score` and
`nb sample` write their lines with it.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from housing_lab.north_berkeley.batch.evaluator import BatchEvaluator
from housing_lab.north_berkeley.batch.result import (
    ABSENT,
    BatchResult,
    MemberSection,
    Section,
    result_sections,
)
from housing_lab.north_berkeley.engine import scoring

MAX_CACHED = 20_000  # JSON fragments kept per result section (about 30 MB at most)
MEMBERS_PER_GROUP = 4  # every combination of the codes of 4 members is written up front
SLICE = 1024  # boards whose texts are made at once (at most MAX_CACHED; a few MB of text)


def row_keys(codes: np.ndarray) -> list[bytes]:
    """One hashable key per row of codes: the row's bytes (a void view: no arithmetic)."""
    rows = np.ascontiguousarray(codes)
    width = rows.dtype.itemsize * rows.shape[1]
    return rows.view(np.dtype((np.void, width))).ravel().tolist()


class MemberTable:
    """The text of a `MemberSection` for a row of codes, from fragments precomputed for
    groups of a few members.

    Caching whole rows would miss on varied input (22 cards have 4^22 combinations), so every
    combination of the codes of each group of members is written once, up front, each member
    as `, "name": value` (nothing when ABSENT): a row is then a few list lookups."""

    def __init__(self, section: MemberSection, most: int = MEMBERS_PER_GROUP):
        self.prefix = scoring.member(section.key, {})[:-1]  # '"key": {'
        fragments = [
            ["" if v is ABSENT else ", " + scoring.member(name, v) for v in section.values]
            for name in section.members
        ]
        self.base = len(section.values)
        self.sizes = [min(most, len(fragments) - a) for a in range(0, len(fragments), most)]
        starts = list(itertools.accumulate(self.sizes, initial=0))
        self.tables = [
            ["".join(combination) for combination in itertools.product(*fragments[a:b])]
            for a, b in itertools.pairwise(starts)
        ]

    def keys(self, codes: np.ndarray) -> list[list[int]]:
        """Per group, the index of each row's combination in the group's table."""
        keys, start = [], 0
        for size in self.sizes:
            part = codes[:, start : start + size].astype(np.int64)
            weights = self.base ** np.arange(size, dtype=np.int64)[::-1]
            keys.append((part @ weights).tolist())
            start += size
        return keys

    def texts(self, codes: np.ndarray) -> Callable[[slice], list[str]]:
        """The section's texts of a slice of the rows of `codes`."""
        keys = self.keys(codes)
        text = self.prefix.replace("%", "%%") + "%s}"
        cut = operator.itemgetter(slice(2, None))  # each member's text starts ", "

        def texts(rows: slice) -> list[str]:
            parts = [
                list(map(t.__getitem__, k[rows])) for t, k in zip(self.tables, keys, strict=True)
            ]
            return list(map(text.__mod__, map(cut, map("".join, zip(*parts, strict=True)))))

        return texts


class ResultLines:
    """The scalar engine's JSON result lines of a batch, assembled from fragments: member
    sections from `MemberTable`s, every other section's text cached by its row of codes."""

    def __init__(self, evaluator: BatchEvaluator):
        self.evaluator = evaluator
        self.sections = result_sections(evaluator)
        self.tables = {s.key: MemberTable(s) for s in self.sections if isinstance(s, MemberSection)}
        self.caches: dict[Any, dict[bytes, str]] = {}

    def lines(self, result: BatchResult) -> Iterator[str]:
        """The result line of every board of `result`, in order (`SLICE` boards at a time:
        each section's texts are looked up for the slice at once, then joined per board)."""
        plan: list[Callable[[slice], list[str]]] = []
        for section in self.sections:
            codes = section.codes(result)
            if isinstance(section, MemberSection):
                plan.append(self.tables[section.key].texts(codes))
            else:
                # a cache per section, type and width of its codes: a key is their bytes
                cache = self.caches.setdefault((section.key, codes.dtype.str, codes.shape[1]), {})
                plan.append(_cached_texts(section, codes, cache))
        end = (
            "}"
            if result.model is None
            else ", " + scoring.member(scoring.MODEL, result.model.to_dict()) + "}"
        )
        line = "{%s" + end.replace("%", "%%")  # a line of its sections' texts joined
        for start in range(0, len(result), SLICE):
            rows = slice(start, start + SLICE)
            sections = zip(*(texts(rows) for texts in plan), strict=True)
            yield from map(line.__mod__, map(", ".join, sections))


def _cached_texts(
    section: Section, codes: np.ndarray, cache: dict[bytes, str]
) -> Callable[[slice], list[str]]:
    """The `"key": value` texts of a slice of boards, each made once per row of codes and
    remembered in `cache` (which never grows past MAX_CACHED: flat memory on any input).

    A text is made from `codes[i].tolist()` only for a row not seen before: converting whole
    arrays to lists would cost more than all the rest."""

    def texts(rows: slice) -> list[str]:
        keys = row_keys(codes[rows])
        first = dict(zip(keys, range(rows.start, rows.stop), strict=False))
        new = first.keys() - cache.keys()
        if len(cache) + len(new) > MAX_CACHED:
            cache.clear()
            new = first.keys()
        for key in new:
            row = codes[first[key]].tolist()
            cache[key] = scoring.member(section.key, section.value(row))
        return list(map(cache.__getitem__, keys))

    return texts

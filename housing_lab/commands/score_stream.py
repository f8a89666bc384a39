"""`nb score`'s writers: the batch's chunks of result lines (`batch.stream`), or the scalar
engine one board at a time (with the move-in events); each line one write, so that a stop
leaves whole lines."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, TextIO

from housing_lab.north_berkeley.batch.stream import scored_chunks, with_line
from housing_lab.north_berkeley.engine.scoring import score_scenario
from housing_lab.north_berkeley.layout import Layout
from housing_lab.north_berkeley.policies import RuleOptions
from housing_lab.north_berkeley.scenario import scenario_from_dict


def score_batched(
    documents: Iterable[tuple[int | None, Any]], layout: Layout, options: RuleOptions, out: TextIO
) -> None:
    """Write the result line of every document, a chunk at a time through the batch evaluator
    (the results before a bad document are written before its error stops the run)."""
    for lines in scored_chunks(documents, layout, options):
        for line in lines:
            out.write(line + "\n")  # one write: a stop leaves whole lines
        out.flush()


def score_scalar(
    documents: Iterable[tuple[int | None, Any]],
    layout: Layout,
    options: RuleOptions,
    out: TextIO,
    events: bool = False,
) -> None:
    """Write the result line of every document, one at a time through the scalar engine (which
    also knows the move-in events)."""
    for number, document in documents:
        scenario = with_line(number, lambda d: scenario_from_dict(d, layout), document)
        result = score_scenario(scenario, options)
        output = result.to_dict()
        if events:
            output["events"] = [event.to_dict() for event in result.move_in.events]
        out.write(json.dumps(output) + "\n")  # one write: a stop leaves whole lines
        out.flush()

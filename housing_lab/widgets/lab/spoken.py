"""The lab's screen in words, for students who cannot see it (issue 27).

Charts are pictures; each one gets a visually hidden table of the numbers it draws, rebuilt with
the chart, and the board a one-paragraph summary read out on request ("Describe the screen").
Pure text from the engine's RULES.md result: names come from `north_berkeley.names`, never ids.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from housing_lab.north_berkeley.names import INCOME_NAMES, policy_name
from housing_lab.north_berkeley.policies import INCOMES, RESIDENTS_PER_INCOME
from housing_lab.widgets.common import hidden_table

HOME_KINDS = {"market": "market rate", "middle": "middle income", "low": "low income"}


def outcome_table(
    outcomes: Mapping[str, Mapping[str, int]],
    labels: Mapping[str, str],
    caption: str = "Who is housed: residents per income group",
) -> str:
    """The stacked outcome bars as a table: a row per outcome, a column per income group."""
    columns = [INCOME_NAMES[i] for i in INCOMES]
    rows = [
        (labels[outcome], [outcomes[income][outcome] for income in INCOMES]) for outcome in labels
    ]
    return hidden_table(caption, "outcome", columns, rows, "hl-chart-table hl-outcome-table")


def homes_table(result: Mapping[str, Any]) -> str:
    """The new-homes bars as a table (one row per kind of home) with the spending."""
    new = result["new_homes"]
    rows = [(HOME_KINDS[kind], [new[kind]]) for kind in HOME_KINDS]
    caption = f"New homes by type: {new['total']} in all, spending ${result['spending']:g}"
    return hidden_table(caption, "type", ["new homes"], rows, "hl-chart-table hl-homes-table")


def housed_words(result: Mapping[str, Any]) -> str:
    """'30 of 36 residents housed: high income 12, middle income 10, low income 8'."""
    housed = result["housed"]
    total = sum(housed[i] for i in INCOMES)
    parts = ", ".join(f"{INCOME_NAMES[i]} {housed[i]}" for i in INCOMES)
    outcomes = result.get("outcomes")  # 12 each under the rulebook; 4 + newcomers otherwise
    residents = (
        sum(sum(outcomes[i].values()) for i in INCOMES)
        if outcomes
        else RESIDENTS_PER_INCOME * len(INCOMES)
    )
    return f"{total} of {residents} residents housed: {parts}"


def screen_summary(
    result: Mapping[str, Any],
    tiles: Mapping[str, str],
    tile_names: Mapping[str, str],
    policies: Sequence[str],
    last_change: str,
) -> str:
    """The whole screen in a few sentences: board, policies, who is housed, the last change."""
    buildings = len(tiles)
    homes = result["new_homes"]["total"]
    where = "; ".join(f"{tile_names[tile]} on {square}" for square, tile in sorted(tiles.items()))
    board = f"Board: {buildings} building{'' if buildings == 1 else 's'}, {homes} new homes"
    board += f" ({where})." if where else "."
    enacted = ", ".join(policy_name(p) for p in sorted(policies)) or "none"
    return (
        f"{board} Policies: {enacted}. {housed_words(result)}. "
        f"Spending ${result['spending']:g}. What changed: {last_change}"
    )

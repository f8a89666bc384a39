"""What one change did, and the whole screen, in words a student knows (pure Python: no
widget, no engine call).

The lab keeps the engine's result before and after every action (the RULES.md output dicts)
and this module compares them: who gained or lost a home, which cards' scores moved, what was
built and spent, which squares and homes changed. It says nothing about rules; it only reads
two results the engine produced. `screen_summary` is the board in a paragraph, read out on
request ("Describe the screen") to students who cannot see it (issue 27).

>>> before = {"housed": {"high": 12, "middle": 0, "low": 0}, "displaced": {"high": 0,
...     "middle": 4, "low": 4}, "new_homes": {"total": 0}, "spending": 0, "constituents": {}}
>>> after = {**before, "housed": {"high": 12, "middle": 0, "low": 2}}
>>> describe_change(before, after)
'2 more low income residents found a home.'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from housing_lab.north_berkeley.names import INCOME_NAMES, VACANT_NAMES, policy_name
from housing_lab.north_berkeley.policies import RESIDENTS_PER_INCOME

INCOMES = ("high", "middle", "low")
MAX_CARDS_NAMED = 2
NO_CHANGE = "No change in who has a home or in any card's score."
# When no count of who is housed or displaced moved: the move-in's outcomes (who stayed, moved
# in, was displaced or left, per income) are the same, or people only changed places.
NO_ONE_MOVED = "no one moved"
SAME_COUNTS = "the same numbers housed and displaced"
NO_SCORE_MOVED = "no card's score changed"
SHORT_CHARS = 100
"""The shown "What changed" line's length: two lines of the lab's 430 px column at 1366x768
(measured in tests/browser/test_nb_lab_browser.py); the full sentence is its tooltip."""


def _people(count: int, income: str) -> str:
    noun = "resident" if count == 1 else "residents"
    return f"{count} more {income} income {noun}"


def _incomes(counts: list[tuple[int, str]]) -> str:
    """[(1, "high"), (2, "low")] -> "1 more high and 2 more low income resident(s)"."""
    parts = [f"{n} more {income}" for n, income in counts]
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    total = sum(n for n, _ in counts)
    return f"{listed} income {'resident' if total == 1 else 'residents'}"


def housing_phrases(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """Who gained a home, who lost one, who was displaced but rehoused, who is no longer
    displaced (one phrase each)."""
    found, left, moved, spared = [], [], [], []
    for income in INCOMES:
        housed = after["housed"][income] - before["housed"][income]
        displaced = after["displaced"][income] - before["displaced"][income]
        if housed > 0:
            found.append((housed, income))
        elif housed < 0:
            left.append((-housed, income))
        elif displaced > 0:
            moved.append((displaced, income))
        elif displaced < 0:
            spared.append((-displaced, income))
    phrases = []  # (how many people, phrase): the biggest change is said first
    if found:
        phrases.append((sum(n for n, _ in found), f"{_incomes(found)} found a home"))
    if left:
        phrases.append((sum(n for n, _ in left), f"{_incomes(left)} had to leave"))
    if moved:
        phrases.append((sum(n for n, _ in moved), f"{_incomes(moved)} displaced (and rehoused)"))
    if spared:
        fewer = _incomes(spared).replace(" more ", " fewer ")
        phrases.append((sum(n for n, _ in spared), f"{fewer} displaced"))
    return [text for _, text in sorted(phrases, key=lambda p: -p[0])]


def score_word(score: int) -> str:
    """A card's net score as students write it: +1, 0, −1 (a real minus sign)."""
    return f"+{score}" if score > 0 else ("0" if score == 0 else f"−{-score}")


def card_phrases(
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    names: Mapping[str, str] | None = None,
    hand: Sequence[str] | None = None,
) -> list[str]:
    """ "Urbanists now +1" for each card (of `hand`, default all) whose net score moved."""
    names = names or {}
    old, new = before.get("constituents", {}), after.get("constituents", {})
    cards = [c for c in (hand if hand is not None else new) if c in new and c in old]
    moved = [c for c in cards if new[c]["score"] != old[c]["score"]]
    phrases = [
        f"{names.get(c, c)} now {score_word(new[c]['score'])}" for c in moved[:MAX_CARDS_NAMED]
    ]
    if len(moved) > MAX_CARDS_NAMED:
        more = len(moved) - MAX_CARDS_NAMED
        phrases.append(f"{more} more card{'s' if more > 1 else ''} changed")
    return phrases


def building_phrases(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """New homes and spending, when they moved."""
    phrases = []
    homes = after["new_homes"]["total"] - before["new_homes"]["total"]
    if homes:
        noun = "home" if abs(homes) == 1 else "homes"
        phrases.append(f"{abs(homes)} {'more' if homes > 0 else 'fewer'} new {noun}")
    if after["spending"] != before["spending"]:
        phrases.append(f"spending ${before['spending']:g} → ${after['spending']:g}")
    return phrases


def vacancy_phrases(result: Mapping[str, Any]) -> list[str]:
    """ "3 new low income homes stay empty", per kind of home left empty (the result's
    `vacant`; results without it say nothing)."""
    phrases = []
    for kind, count in result.get("vacant", {}).items():
        if count:
            noun = VACANT_NAMES[kind]
            noun = noun if count > 1 else noun[:-1]  # "homes" -> "home", "ADUs" -> "ADU"
            phrases.append(f"{count} {noun} {'stay' if count > 1 else 'stays'} empty")
    return phrases


def change_phrases(
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    names: Mapping[str, str] | None = None,
    hand: Sequence[str] | None = None,
) -> list[str]:
    """The sentence's parts, most important first: people (the biggest change first, or "no
    one moved"), cards, building and money, then the homes that stay empty. Empty: nothing
    anyone sees moved."""
    people = housing_phrases(before, after)
    if not people and before.get("outcomes") != after.get("outcomes"):
        people = [SAME_COUNTS]  # people changed places; only the counts held
    cards = card_phrases(before, after, names, hand)
    building = building_phrases(before, after)
    if not (people or cards or building):
        return []
    if not people:  # the point of every change: who is housed (issue 44)
        people = [NO_ONE_MOVED]
        if not cards:
            building = [*building, NO_SCORE_MOVED]
    return people + cards + building + vacancy_phrases(after)


def describe_change(
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    names: Mapping[str, str] | None = None,
    hand: Sequence[str] | None = None,
) -> str:
    """One sentence: people first, then cards, then homes and money, then empty homes."""
    phrases = change_phrases(before, after, names, hand)
    if not phrases:
        empty = vacancy_phrases(after)
        return NO_CHANGE if not empty else f"{NO_CHANGE[:-1]}; {'; '.join(empty)}."
    return f"{_capital('; '.join(phrases))}."


def short_change(done: str, phrases: Sequence[str], limit: int = SHORT_CHARS) -> str:
    """The shown line: the whole sentence when it fits in `limit` characters; otherwise the
    effects without the action (the board's message line says it), the biggest first, the rest
    folded: "4 more low income residents found a home; Urbanists now +1, and 3 more changes."."""
    if not phrases:
        return done
    whole = f"{done} {_capital('; '.join(phrases))}."
    if len(whole) <= limit:
        return whole
    for kept in range(len(phrases), 0, -1):
        rest = len(phrases) - kept
        tail = f", and {rest} more change{'s' if rest > 1 else ''}" if rest else ""
        text = f"{_capital('; '.join(phrases[:kept]))}{tail}."
        if len(text) <= limit or kept == 1:
            return text
    return whole  # pragma: no cover - the loop always returns


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


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


def changed_keys(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """Keys whose value differs (added, removed or changed), in `after`'s order then `before`'s."""
    keys = list(after) + [k for k in before if k not in after]
    return [k for k in keys if before.get(k) != after.get(k)]


def outcome_deltas(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, int]:
    """Housed now minus housed before, per income (the chart's delta labels)."""
    return {i: after["housed"][i] - before["housed"][i] for i in INCOMES}


SNAKE_ID = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")


def machine_ids(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """snake_case ids in `text` (what a student must never read), but those `allowed`; tests
    use this."""
    allowed = set(allowed)
    return [m for m in SNAKE_ID.findall(text) if m not in allowed]

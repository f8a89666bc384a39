"""Every sentence that states what the model does is a claim, and each claim asks the engine.

The claims live as data in tools/lesson_sources/claims/*.toml (tools/claims.py). Here each
claim's query runs under every setting of the switches its sentence covers (existential claims
with the exact solver, rankings with the batch), and the sentence, filled with the values it
expects, must appear word for word in the built lesson and in every file it names. The engine's
answers are cached in tools/claims.py, so each question is asked once per test process."""

from __future__ import annotations

import importlib
import importlib.util
import json
import pathlib
import re
import sys

import pytest

from housing_lab._data import read_toml_file
from housing_lab.questions.notes import lesson_notes

ROOT = pathlib.Path(__file__).resolve().parents[1]
SOURCES = ROOT / "tools" / "lesson_sources"


def _load_claims_module():
    spec = importlib.util.spec_from_file_location("claims", ROOT / "tools" / "claims.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("claims", module)
    spec.loader.exec_module(sys.modules["claims"])
    return sys.modules["claims"]


claims = _load_claims_module()
CLAIMS = claims.all_claims()


def _params(*, engine: bool = False):
    """One test per claim. The engine's questions stay in the inner loop (the slowest, lesson
    5's 100,000 boards under four settings and the first exact solves under seven, took
    0.3-0.75 s on the shared machine; every later question is cached) except the claims marked
    `slow` (lesson 6's Streetcar matches, 2-6 s each), which the inner loop leaves out."""
    return [
        pytest.param(c, id=c.id, marks=[pytest.mark.slow] if engine and c.slow else [])
        for c in CLAIMS.values()
    ]


def _words(text: str) -> str:
    return " ".join(text.split())


def _notebook_text(path: pathlib.Path) -> str:
    """A lesson's Markdown, and its gated notes (shown after a prediction: build_lessons.py)."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    notes = lesson_notes.__wrapped__(int(path.stem[:2]))
    return _words(
        " ".join(
            ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]
            + [text for texts in notes.values() for text in texts]
        )
    )


def _strings(value: object) -> list[str]:
    """Every string inside `value` (nested dicts, lists, tuples)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    if isinstance(value, (list, tuple)):
        return [s for item in value for s in _strings(item)]
    return []


def _python_text(dotted: str) -> str:
    """The strings of a Python object ("housing_lab.worksheet_keys.TICKET_KEYS"), joined: a
    sentence wrapped over several string literals is found whole."""
    module, _, name = dotted.rpartition(".")
    return _words(" ".join(_strings(getattr(importlib.import_module(module), name))))


def _text_of(where: str) -> str:
    if where.startswith("python:"):
        return _python_text(where.removeprefix("python:"))
    path = ROOT / where
    if path.suffix == ".ipynb":
        return _notebook_text(path)
    if path.suffix == ".toml":  # a data file's texts as read (a lesson's questions)
        return _words(" ".join(_strings(read_toml_file(path))))
    return _words(re.sub(r"^> ?", "", path.read_text(encoding="utf-8"), flags=re.M))


def _used_in_lessons() -> dict[str, list[str]]:
    """claim id -> the lessons whose source names it as {{claim:ID}}."""
    used: dict[str, list[str]] = {}
    for source in sorted(SOURCES.glob("[0-9][0-9]_*.py")):
        for claim_id in claims.PLACEHOLDER.findall(source.read_text(encoding="utf-8")):
            used.setdefault(claim_id, []).append(f"lessons/{source.stem}.ipynb")
    return used


USED = _used_in_lessons()


@pytest.mark.parametrize("claim", _params(engine=True))
def test_the_engine_agrees_with_the_claim(claim) -> None:
    assert claims.check(claim) == []


@pytest.mark.parametrize("claim", _params())
def test_the_sentence_is_printed_where_it_is_used(claim) -> None:
    sentence = claims.render(claim)
    places = [*USED.get(claim.id, []), *claim.where]
    assert places, f"claim {claim.id} is used nowhere"
    missing = [where for where in places if sentence not in _text_of(where)]
    assert missing == [], f"{sentence!r} is not in {missing}"


def test_every_claim_a_lesson_names_exists() -> None:
    assert set(USED) <= set(CLAIMS), sorted(set(USED) - set(CLAIMS))
    assert USED, "no lesson names a claim"


def test_no_placeholder_is_left_in_a_built_lesson() -> None:
    for notebook in sorted((ROOT / "lessons").glob("*.ipynb")):
        assert not claims.PLACEHOLDER.search(notebook.read_text(encoding="utf-8")), notebook.name


# --- the mechanism can fail -------------------------------------------------------------------
def _falsified(claim, **changes):
    from dataclasses import replace

    return replace(claim, **changes)


def test_a_falsified_value_is_named() -> None:
    claim = CLAIMS["no-filtering-market-board"]
    wrong = _falsified(claim, expect_by={**claim.expect_by, "no_filtering": {"low": 11}})
    assert claims.check(wrong) == [
        "no-filtering-market-board under no_filtering: low is 3, the claim says 11"
    ]


def test_a_claim_that_needs_a_switch_fails_under_the_rulebook() -> None:
    """The public housing board's middle income count depends on demand: a claim of 0 under
    fewer newcomers is false, and a claim of 4 under every setting is false too."""
    claim = CLAIMS["public-board-middle"]
    assert claims.check(_falsified(claim, expect_by={}))  # 0 everywhere: fewer newcomers says 4
    assert claims.check(_falsified(claim, expect={"middle": 4}, expect_by={}))


def test_a_sentence_may_print_only_what_it_checks() -> None:
    claim = CLAIMS["public-board-budget"]
    with pytest.raises(claims.ClaimError, match="low"):
        claims.render(_falsified(claim, text="It houses {rulebook[low]}."))


def test_a_lesson_build_stops_on_a_false_claim() -> None:
    claim = CLAIMS["partial-filtering-market-board"]
    wrong = _falsified(claim, expect={"low": 12, "empty_market": 4})
    assert claims.fill("x {{claim:partial-filtering-market-board}} y", {claim.id: claim}) == (
        f"x {claims.render(claim)} y"
    )
    with pytest.raises(claims.ClaimError, match="low is 7, the claim says 12"):
        claims.fill("{{claim:partial-filtering-market-board}}", {claim.id: wrong})
    with pytest.raises(claims.ClaimError, match="unknown claim 'nope'"):
        claims.fill("{{claim:nope}}", CLAIMS)


def test_a_bad_claim_file_is_one_line(tmp_path: pathlib.Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[[claim]]\nid = "x"\ntext = "t"\nquery = {kind = "guess"}\n')
    with pytest.raises(claims.ClaimError, match=r"bad\.toml: claim x: query kind"):
        claims.load(bad)
    bad.write_text('[[claim]]\nid = "x"\ntext = "t"\nquery = {kind = "score"}\nsettings=["y"]\n')
    with pytest.raises(claims.ClaimError, match="unknown setting 'y'"):
        claims.load(bad)
    bad.write_text('[[claim]]\nid = "x"\ntext = "t"\nquery = {kind = "score", board = "b"}\n')
    with pytest.raises(claims.ClaimError, match="claim x: unknown board 'b'"):
        claims.load(bad)
    bad.write_text("[[claim\n")
    with pytest.raises(claims.ClaimError, match=r"bad\.toml"):
        claims.load(bad)


def test_a_before_and_after_claim_names_both_boards_values() -> None:
    claim = CLAIMS["l1-guide-key"]  # low income housed 0 → 4 when the tower is swapped
    wrong = _falsified(claim, expect={**claim.expect, "low": [0, 5]})
    assert claims.check(wrong) == [
        "l1-guide-key under rulebook: low is [0, 4], the claim says [0, 5]"
    ]


def test_a_policy_that_changes_who_is_housed_breaks_a_same_housed_claim() -> None:
    claim = CLAIMS["l3-matching-funds-never-changed"]
    vacancy_control = _falsified(claim, query={**claim.query, "policies": ["vacancy_control"]})
    assert claims.check(claim) == []
    assert claims.check(vacancy_control) == [
        "l3-matching-funds-never-changed under rulebook: same_housed is [True, False, False], "
        "the claim says [True, True, True]"
    ]


def test_the_coach_claim_counts_the_single_changes() -> None:
    claim = CLAIMS["l4-coach-changes"]  # "several single changes" was false for the Landlords
    wrong = _falsified(claim, expect={**claim.expect, "single_changes_reaching": [6, 2, 0, 0]})
    assert claims.check(wrong) == [
        "l4-coach-changes under rulebook: single_changes_reaching is [6, 1, 0, 0], the claim "
        "says [6, 2, 0, 0]"
    ]

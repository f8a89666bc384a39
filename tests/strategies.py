"""Hypothesis strategies shared by the tests: arbitrary JSON, scenario-like documents, North
Berkeley models (random switches), argument values that probe every bound, Streetcar hex
coordinates and custom boards."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

from housing_lab.north_berkeley.layout import default_layout
from housing_lab.north_berkeley.policies import INCOMES, POLICIES
from housing_lab.north_berkeley.tiles import default_catalogue

SQUARES = list(default_layout().squares)
HOMES = list(default_layout().existing_ids)
TILES = list(default_catalogue())

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
json_values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


def _near(valid: list[str]) -> st.SearchStrategy[Any]:
    """Mostly valid ids, sometimes anything."""
    return st.sampled_from(valid) | json_values


scenario_documents = st.fixed_dictionaries(
    {},
    optional={
        "tiles": st.dictionaries(_near(SQUARES).map(str), _near(TILES), max_size=9) | json_values,
        "policies": st.lists(_near(list(POLICIES)), max_size=4) | json_values,
        "existing": st.dictionaries(st.sampled_from(HOMES), _near(list(INCOMES)), max_size=12)
        | st.permutations([i for i in INCOMES for _ in range(4)]).map(
            lambda incomes: dict(zip(HOMES, incomes, strict=True))
        )
        | json_values,
        "seed": st.integers() | json_values,
        "extra": json_values,
    },
)
documents = scenario_documents | json_values


@st.composite
def models(draw: st.DrawFn) -> dict[str, Any]:
    """A JSON `model` object with any subset of the switches set to any allowed value."""
    switches = {
        "newcomers": st.dictionaries(st.sampled_from(INCOMES), st.integers(0, 16), max_size=3),
        "market_homes_for": st.sets(st.sampled_from(["middle", "low"])).map(
            lambda s: ["high", *sorted(s)]
        ),
        "vacancy_control_protects": st.sampled_from(
            [["houses"], ["apartments"], ["houses", "apartments"]]
        ),
        "budget": st.one_of(st.none(), st.integers(0, 40), st.sampled_from([2.5, 7.5, 999])),
    }
    return {key: draw(value) for key, value in switches.items() if draw(st.booleans())}


def document_text(value: Any) -> str:
    return json.dumps(value)


# Texts that are not the JSON a user meant: each must be refused in one line.
tricky_json = st.sampled_from(
    [
        "[" * 3000 + "]" * 3000,
        '{"a": ' * 3000 + "1" + "}" * 3000,
        '{"seed": 1, "seed": 2}',
        '{"seed": NaN}',
        '{"seed": Infinity}',
        '{"seed": -Infinity}',
        '{"seed": 1e999}',
        '{"seed": ' + "7" * 5000 + "}",
        '{"tiles": {"A1": ["park"]}}',
        '{"tiles": []}',
        '{"tiles": 0}',
        '{"tiles": false}',
        '{"tiles": ""}',
        '{"existing": {"house-1": ["low"]}}',
        '"\\ud800"',
        "",
        "   \n\n",
        "{",
        '{"tiles": {}}\n{',
        "{} {}",
    ]
)

tricky_values = st.sampled_from(
    [
        "-1",
        "0",
        "1",
        "2",
        "3",
        "99999999999999999999",
        "1" * 5000,
        "1e300",
        "1e20",
        "-1e20",
        "nan",
        "inf",
        "-inf",
        "Infinity",
        "",
        " ",
        "a\nb",
        "x" * 300,
        "1.5",
        "0x10",
        "١",
        "1_000",
        "-",
        "/nope",
        "/nope/x.json",
        "/dev/null",
        "/",
        "developer",
        "developer,urbanists",
        "A1=park",
        "A1=park,A1=park",
        "A1=",
        "adu",
        "none",
        "greedy,random",
        "random,random",
        "greedy",
        "parks,cycling",
        "zoo",
        "{}",
        '{"house-1": "low"}',
        "[]",
        "A,B,C",
        "A,,B",
        ",",
    ]
)
argument_values = tricky_values | st.text(max_size=30)


# --- Streetcar ------------------------------------------------------------------------------
coords = st.tuples(st.integers(-3, 3), st.integers(-3, 3))  # axial hexes around the centre


def streetcar_boards(max_size: int) -> st.SearchStrategy[set[tuple[int, int]] | None]:
    """The standard board (None) or a custom set of up to `max_size` hexes."""
    return st.one_of(st.none(), st.sets(coords, min_size=1, max_size=max_size))

"""The loaders (jsonio, scenario JSON, layout files): every input is accepted, or refused with
one `HousingLabError` line that names the problem; never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from housing_lab import jsonio, outputs
from housing_lab._data import DataFileError, read_package_toml
from housing_lab.errors import HousingLabError, one_line, quote_path, shown
from housing_lab.north_berkeley.layout import check_kit, layout_from_dict, load_layout
from housing_lab.north_berkeley.scenario import Scenario, scenario_from_dict, scenario_from_json

from ..strategies import documents, json_values, tricky_json


def assert_one_line(error: BaseException) -> None:
    message = str(error)
    assert isinstance(error, HousingLabError), repr(error)
    assert message and "\n" not in message and "\r" not in message
    assert len(message) <= 1000


# --- errors.py helpers ----------------------------------------------------------------------
def test_shown_shortens_and_keeps_one_line() -> None:
    assert len(shown("x" * 100_000_000)) <= 200
    assert shown("a\nb") == "'a\\nb'"
    assert "bits" in shown(10**5000)  # repr alone raises past 4,300 digits
    assert quote_path(Path("/tmp/a\nb")) == "'/tmp/a\\nb'"
    assert one_line("x\ny\rz") == "x\\ny\\rz"
    assert len(one_line("y" * 5000)) == 1000


# --- jsonio -----------------------------------------------------------------------------------
@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(json_values)
def test_any_json_value_round_trips(value: object) -> None:
    text = json.dumps(value)
    try:
        loaded = jsonio.loads(text)
    except HousingLabError as error:  # only the integer limit can refuse plain JSON values
        assert_one_line(error)
        assert "digits" in str(error)
    else:
        assert loaded == value


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_any_bytes_are_json_or_one_line(data: bytes) -> None:
    try:
        jsonio.loads(data)
    except HousingLabError as error:
        assert_one_line(error)


@settings(max_examples=60, deadline=None)
@given(tricky_json)
def test_tricky_json_is_refused_in_one_line(text: str) -> None:
    try:
        value = jsonio.loads(text, source="line 7")
    except HousingLabError as error:
        assert_one_line(error)
        assert str(error).startswith("line 7: ")
    else:  # the few tricky texts that are valid JSON stay plain values
        assert json.loads(text) == value


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ('{"a": 1, "a": 2}', "'a' appears twice"),
        ("[NaN]", "NaN"),
        ("[-Infinity]", "-Infinity"),
        ("[1e400]", "1e400"),
        ("[" + "9" * 4301 + "]", "4301 digits"),
        ("[" * 100 + "]" * 100, "nested deeper than 32"),
        (b"[\xff]", "not UTF-8"),
    ],
)
def test_jsonio_refusals_name_the_problem(text: str | bytes, names: str) -> None:
    with pytest.raises(jsonio.JsonInputError, match=names.replace("[", r"\[")):
        jsonio.loads(text)


def test_nesting_at_the_limit_is_fine_and_brackets_in_strings_do_not_count() -> None:
    deep = "[" * jsonio.MAX_DEPTH + "]" * jsonio.MAX_DEPTH
    assert jsonio.loads(deep) is not None
    assert jsonio.loads(json.dumps({"x": "[" * 500})) == {"x": "[" * 500}


def test_read_text_refuses_other_encodings_and_big_files(tmp_path: Path) -> None:
    latin = tmp_path / "latin.json"
    latin.write_bytes('{"name": "Zoë"}'.encode("latin-1"))
    with pytest.raises(jsonio.JsonInputError, match="not UTF-8"):
        jsonio.load_path(latin)
    big = tmp_path / "big.json"
    big.write_text("[" + "1," * 100 + "1]")
    with pytest.raises(jsonio.JsonInputError, match="larger than 50 bytes"):
        jsonio.load_path(big, limit=50)
    with pytest.raises(jsonio.JsonInputError, match="cannot read"):
        jsonio.load_path(tmp_path / "missing.json")
    with pytest.raises(jsonio.JsonInputError, match="not a file name"):  # found by a hunt
        jsonio.load_path("game\x00.json")


def test_write_text_replaces_whole_files(tmp_path: Path) -> None:
    target = tmp_path / "r.json"
    outputs.write_text(target, "old")
    outputs.write_text(target, "new")
    assert target.read_text() == "new" and [p.name for p in tmp_path.iterdir()] == ["r.json"]
    with pytest.raises(HousingLabError, match="cannot write"):
        outputs.write_text(tmp_path / "no" / "r.json", "x")


# --- scenario JSON ----------------------------------------------------------------------------
@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(documents)
def test_any_document_is_a_scenario_or_one_line(document: object) -> None:
    try:
        scenario = scenario_from_dict(document)
    except HousingLabError as error:
        assert_one_line(error)
    else:
        assert isinstance(scenario, Scenario)
        assert scenario_from_json(scenario.to_json()) == scenario


@pytest.mark.parametrize("tiles", [[], 0, False, "", "A1", [["A1", "park"]]])
def test_tiles_must_be_an_object(tiles: object) -> None:
    with pytest.raises(HousingLabError, match="'tiles' must be an object"):
        scenario_from_dict({"tiles": tiles})


def test_unhashable_ids_are_unknown_ids() -> None:
    with pytest.raises(HousingLabError, match=r"unknown tile \['park'\]"):
        scenario_from_dict({"tiles": {"A1": ["park"]}})
    with pytest.raises(HousingLabError, match=r"unknown policy \['adu'\]"):
        scenario_from_dict({"policies": [["adu"]]})


def test_null_keys_count_as_absent() -> None:
    assert scenario_from_dict({"tiles": None, "policies": None, "seed": None}) == (
        scenario_from_dict({})
    )


def test_a_huge_value_is_shown_short() -> None:
    with pytest.raises(HousingLabError) as caught:
        scenario_from_dict({"tiles": {"A1": "x" * 10_000_000}})
    assert len(str(caught.value)) < 1000


# --- layouts ----------------------------------------------------------------------------------
def printed() -> dict:
    return read_package_toml("housing_lab.north_berkeley", "layout.toml")


def write_layout(path: Path, data: dict) -> Path:
    lines = [f"name = {json.dumps(data.get('name', 'custom'))}"]
    lines.append(f"squares = {json.dumps(data['squares'])}")
    lines.append("[phases]")
    lines += [f'"{k}" = {json.dumps(v)}' for k, v in data["phases"].items()]
    lines.append("[tags]")
    lines += [f"{k} = {json.dumps(v)}" for k, v in data["tags"].items()]
    for home in data["existing"]:
        lines.append("[[existing]]")
        lines += [f"{k} = {json.dumps(v)}" for k, v in home.items()]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_printed_layout_round_trips_through_a_file(tmp_path: Path) -> None:
    layout = load_layout(write_layout(tmp_path / "same.toml", printed()))
    assert layout.squares == load_layout().squares
    assert layout.existing == load_layout().existing


@pytest.mark.parametrize("homes", [11, 13, 15, 24])
def test_a_layout_with_another_number_of_homes_is_refused(tmp_path: Path, homes: int) -> None:
    data = printed()
    data["existing"] = [{"id": f"house-{i}", "kind": "house"} for i in range(1, homes + 1)]
    with pytest.raises(DataFileError, match=f"{homes} existing homes") as caught:
        load_layout(write_layout(tmp_path / "homes.toml", data))
    assert_one_line(caught.value)


def test_a_layout_with_other_phase_sizes_is_refused(tmp_path: Path) -> None:
    data = printed()
    data["phases"] = {"1": ["A1", "B1", "C1", "A2", "B2"], "2": ["C2", "A3", "B3", "C3"]}
    with pytest.raises(DataFileError, match="phase 1 has 5 squares; the game deals 4"):
        load_layout(write_layout(tmp_path / "phases.toml", data))


def test_a_layout_that_cannot_split_residents_evenly_is_refused_even_without_the_kit() -> None:
    data = printed()
    data["existing"] = data["existing"] + [{"id": "house-7", "kind": "house"}]
    with pytest.raises(DataFileError, match="13 existing homes"):
        layout_from_dict(data)
    assert check_kit(layout_from_dict(printed())).existing_ids == load_layout().existing_ids


def test_layout_files_that_are_not_utf8_or_toml(tmp_path: Path) -> None:
    latin = tmp_path / "latin.toml"
    latin.write_bytes("name = 'Zoë'\n".encode("latin-1"))
    with pytest.raises(DataFileError, match="not UTF-8"):
        load_layout(latin)
    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(DataFileError) as caught:
        load_layout(deep)
    assert_one_line(caught.value)


layout_values = st.fixed_dictionaries(
    {},
    optional={
        "name": json_values,
        "squares": st.just(printed()["squares"]) | json_values,
        "phases": st.just(printed()["phases"]) | json_values,
        "tags": st.just(printed()["tags"]) | json_values,
        "existing": st.just(printed()["existing"])
        | st.lists(
            st.fixed_dictionaries(
                {"id": st.text(max_size=5) | json_values, "kind": st.sampled_from(["house", "x"])}
            ),
            max_size=15,
        )
        | json_values,
    },
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(layout_values)
def test_any_layout_data_is_a_layout_or_one_line(data: dict) -> None:
    try:
        check_kit(layout_from_dict(data))
    except HousingLabError as error:
        assert_one_line(error)

"""Arbitrary argument lists and documents for every command this package owns: each run is
accepted, or exits 2 with exactly one stderr line and nothing on stdout; never a traceback."""

from __future__ import annotations

import contextlib
import io
import json
import sys
import tempfile
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from housing_lab.cli import main
from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley import scenario_from_dict, score_scenario
from housing_lab.numbers import MAX_SEED

from ..strategies import argument_values, documents, tricky_json, tricky_values
from ..support import run_cli

# relative --out paths land here; removed when the process exits (mkdtemp left one per run)
SCRATCH = tempfile.TemporaryDirectory(prefix="housing-lab-hunt-")


def run(args: list[str], stdin: bytes | None = None) -> tuple[int, str, str]:
    """`housing-lab ARGS` in-process, in a scratch folder, stdin empty unless given."""
    return run_cli(*args, stdin=stdin or b"", cwd=SCRATCH.name)


def assert_contract(code: int, out: str, err: str) -> None:
    if code == 0:
        assert err == ""
        for line in out.splitlines():
            json.loads(line)  # every output line is JSON (or usage text for --help)
    else:
        assert code == 2, (code, err)
        assert out == ""
        assert err.count("\n") == 1 and err.startswith("housing-lab: error: "), err
        assert len(err) < 1100


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("hunt")
    (root / "latin.json").write_bytes('{"name": "Zoë"}'.encode("latin-1"))
    (root / "scenario.json").write_text(json.dumps({"tiles": {"A1": "park"}}))
    (root / "full").mkdir()
    (root / "full" / "old.json").write_text("{}")
    printed = resources.files("housing_lab.north_berkeley") / "data" / "layout.toml"
    extra = "\n[[existing]]\nid = 'house-7'\nkind = 'house'\n"
    (root / "layout13.toml").write_text(printed.read_text(encoding="utf-8") + extra)
    return {name.stem: str(name) for name in root.iterdir()}


def values(files: dict[str, str]) -> st.SearchStrategy[str]:
    return argument_values | st.sampled_from(sorted(files.values()))


COMMANDS: dict[tuple[str, ...], dict[str, bool]] = {  # options -> takes a value
    ("nb", "play"): {"--players": True, "--seed": True, "--names": True, "--current-score": True},
    ("nb", "sample"): {
        "--boards": True,
        "--seed": True,
        "--out": True,
        "--all-policy-sets": False,
        "--low-income-in-adus": False,
    },
    ("nb", "solve"): {
        "--cards": True,
        "--weights": True,
        "--fix": True,
        "--policies": True,
        "--existing": True,
        "--seed": True,
        "--nonnegative": False,
    },
    ("nb", "score"): {"--layout": True, "--events": False, "--newcomers-first": False},
    ("streetcar", "simulate"): {
        "--games": True,
        "--seed": True,
        "--bots": True,
        "--out": True,
        "--penalty": True,
        "--goals": True,
        "--force": False,
    },
    ("streetcar", "replay"): {},
    ("streetcar", "perft"): {},
}
# values whose valid reading stays small, for the options that size the work
SMALL = {
    "--boards": st.sampled_from(["-1", "0", "3", "1e3", "x", "99999999999999999999", "1000000001"]),
    "--games": st.sampled_from(["-1", "0", "1", "2", "x", "100001", "99999999999999999999"]),
}


@st.composite
def argument_lists(draw: st.DrawFn, files: dict[str, str]) -> list[str]:
    command = draw(st.sampled_from(sorted(COMMANDS)))
    options = COMMANDS[command]
    args = list(command)
    for name in draw(st.lists(st.sampled_from(sorted(options) or ["--x"]), max_size=5)):
        args.append(name)
        if options.get(name):
            args.append(draw(SMALL.get(name, values(files))))
    if command == ("nb", "score") or command == ("streetcar", "replay"):
        args.append(draw(values(files)))
    if command == ("streetcar", "simulate") and "--out" not in args:
        args += ["--out", draw(st.sampled_from([files["full"], "/proc/nope", files["scenario"]]))]
    if draw(st.booleans()):
        args.insert(draw(st.integers(0, len(args))), draw(tricky_values))
    return args


@pytest.mark.slow
@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_any_argument_list(files: dict[str, str], data: st.DataObject) -> None:
    args = data.draw(argument_lists(files))
    code, out, err = run(args, stdin=b'{"tiles": {"A1": "park"}}')
    assert_contract(code, out, err)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(documents)
def test_any_document_on_stdin(document: object) -> None:
    code, out, err = run(["nb", "score", "-"], stdin=json.dumps(document).encode())
    assert_contract(code, out, err)
    if code == 0:
        expected = score_scenario(scenario_from_dict(document)).to_dict()
        assert out == json.dumps(expected) + "\n"


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(tricky_json | st.binary(max_size=50).map(lambda b: b.decode("latin-1")))
def test_tricky_text_on_stdin(text: str) -> None:
    code, _out, err = run(["nb", "score", "-"], stdin=text.encode("latin-1", "replace"))
    if code == 0:
        assert err == ""
    else:
        assert code == 2 and err.count("\n") == 1


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(st.lists(documents, min_size=2, max_size=6))
def test_json_lines_stop_at_the_first_bad_line_after_writing_the_good_ones(
    lines: list[object],
) -> None:
    stdin = "".join(json.dumps(line) + "\n" for line in lines).encode()
    code, out, err = run(["nb", "score", "-"], stdin=stdin)
    expected = []
    for number, document in enumerate(lines, start=1):
        try:
            expected.append(json.dumps(score_scenario(scenario_from_dict(document)).to_dict()))
        except HousingLabError:  # the first bad line ends the run
            assert code == 2 and err.startswith(f"housing-lab: error: line {number}: ")
            assert err.count("\n") == 1
            break
    else:
        assert (code, err) == (0, "")
    assert out.splitlines() == expected


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["nb", "sample", "--seed", "-1", "--boards", "1"], "'-1'"),
        (["nb", "sample", "--boards", "100000000000"], "'100000000000'"),
        (["nb", "play", "--players", "99999999999999999999"], "99999999999999999999"),
        (["nb", "play", "--players", "2", "--names", "A,B,C"], "3 names"),
        (["nb", "play", "--names", "A"], "1 names"),
        (["nb", "solve", "--cards", "developer,urbanists", "--weights=1e300,1e300"], "1e300"),
        (["nb", "solve", "--cards", "developer,urbanists", "--weights=1e20,1"], "1e20"),
        (["nb", "solve", "--cards", "developer", "--weights=nan"], "nan"),
        (["nb", "solve", "--cards", "developer", "--weights=0.0000001"], "decimal places"),
        (["nb", "score", "/tmp/a\nb"], "'/tmp/a\\nb'"),
        (["nb", "score", "x" * 100_000], "at most 10000 characters"),
        (["streetcar", "simulate", "--games", "0", "--out", "/tmp/x"], "at least 1"),
    ],
)
def test_bad_arguments_name_the_value(args: list[str], names: str) -> None:
    code, out, err = run(args)
    assert_contract(code, out, err)
    assert code == 2 and names in err


def test_names_alone_set_the_number_of_players() -> None:
    code, out, _ = run(["nb", "play", "--names", "Ana,Bo", "--seed", "1"])
    assert code == 0 and json.loads(out)["players"] == ["Ana", "Bo"]


def test_a_nul_byte_in_the_file_name_is_one_line() -> None:
    """Found by a fresh hunt (2026-12-03): `nb score` opened the name itself and let
    Python's ValueError out."""
    code, out, err = run(["nb", "score", "board\x00.json"])
    assert (code, out) == (2, "")
    assert err == "housing-lab: error: cannot read 'board\\x00.json': not a file name\n"


@pytest.mark.parametrize("seed", [MAX_SEED + 1, -MAX_SEED - 1, 10**30])
def test_a_seed_past_the_limit_is_refused_on_stdin_as_in_a_file(seed: int) -> None:
    """Found by a fresh hunt (2026-12-03): `nb score`'s fast reader took seed 2**64, which
    every other loader refuses (numbers.MAX_SEED); it now hands it to the one that words it."""
    code, out, err = run(["nb", "score", "-"], stdin=json.dumps({"seed": seed}).encode())
    assert (code, out) == (2, "")
    assert "'seed' must be between" in err and err.count("\n") == 1
    code, out, err = run(["nb", "score", "-"], stdin=json.dumps({"seed": MAX_SEED}).encode())
    assert code == 0 and err == ""


def test_stdin_closed() -> None:
    saved = sys.stdin
    sys.stdin = None  # what Python sets when file descriptor 0 is closed
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()) as out:
            code = main(["nb", "score", "-"])
    finally:
        sys.stdin = saved
    assert (code, out.getvalue()) == (2, "") and "stdin: it is closed" in err.getvalue()


def test_non_utf8_files_for_layout_score_and_replay(files: dict[str, str]) -> None:
    for args in (
        ["nb", "score", files["latin"]],
        ["nb", "score", "--layout", files["latin"], files["scenario"]],
        ["streetcar", "replay", files["latin"]],
    ):
        code, out, err = run(args)
        assert_contract(code, out, err)
        assert code == 2 and "not UTF-8" in err, args


def test_layout_off_the_kit_is_refused(files: dict[str, str]) -> None:
    code, out, err = run(["nb", "score", "--layout", files["layout13"], files["scenario"]])
    assert_contract(code, out, err)
    assert code == 2 and "13 existing homes" in err


def test_write_failure_says_cannot_write(tmp_path: Path) -> None:
    code, out, err = run(["nb", "sample", "--boards", "2", "--out", str(tmp_path)])
    assert_contract(code, out, err)
    assert code == 2 and "cannot write" in err


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> dict:
    out = tmp_path_factory.mktemp("records")
    code, _, err = run(["streetcar", "simulate", "--seed", "2", "--out", str(out / "games")])
    assert (code, err) == (0, "")
    return json.loads((out / "games" / "game-0001.json").read_text())


@pytest.mark.slow
@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    key=st.sampled_from(["board", "houses", "players", "penalty", "turns", "final", "extra"]),
    value=documents,
)
def test_replay_of_any_damaged_record(
    record: dict, tmp_path_factory: pytest.TempPathFactory, key: str, value: object
) -> None:
    path = tmp_path_factory.mktemp("damaged") / "r.json"
    path.write_text(json.dumps({**record, key: value}))
    assert_contract(*run(["streetcar", "replay", str(path)]))


def test_replay_of_a_record_with_a_list_as_goal(record: dict, tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps({**record, "goals": [["parks"]]}))
    assert_contract(*run(["streetcar", "replay", str(path)]))


def test_simulate_refuses_a_folder_with_files_unless_forced(tmp_path: Path) -> None:
    out = tmp_path / "games"
    assert run(["streetcar", "simulate", "--seed", "1", "--out", str(out)])[0] == 0
    before = (out / "game-0001.json").read_text()
    code, stdout, err = run(["streetcar", "simulate", "--seed", "2", "--out", str(out)])
    assert (code, stdout) == (2, "") and "is not empty (use --force" in err
    assert (out / "game-0001.json").read_text() == before
    code, _, err = run(["streetcar", "simulate", "--seed", "2", "--out", str(out), "--force"])
    assert (code, err) == (0, "") and (out / "game-0001.json").read_text() != before
    assert sorted(p.name for p in out.iterdir()) == ["game-0001.json"]  # no temporary left


@pytest.mark.slow
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["nb", "play"], ["nb", "sample", "--boards", "5"]])
def test_a_full_disk_says_cannot_write(args: list[str]) -> None:
    import subprocess

    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "housing_lab.cli", *args],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    assert done.returncode == 2
    assert done.stderr == "housing-lab: error: cannot write the output: No space left on device\n"


weights_in_bounds = st.decimals(
    min_value=-1000, max_value=1000, places=6, allow_nan=False, allow_infinity=False
).map(str)


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(
    st.lists(
        weights_in_bounds | st.sampled_from(["1000", "-1000", "0.000001", "-999.999999"]),
        min_size=2,
        max_size=2,
    )
)
def test_solver_and_scalar_engine_agree_on_any_accepted_weights(weights: list[str]) -> None:
    args = ["nb", "solve", "--cards", "developer,urbanists", f"--weights={','.join(weights)}"]
    code, out, err = run(args)
    assert_contract(code, out, err)
    assert code == 0, err
    solution = json.loads(out)
    result = score_scenario(scenario_from_dict(solution["scenario"])).to_dict()
    total = sum(
        float(w) * result["constituents"][card]["score"]
        for card, w in zip(("developer", "urbanists"), weights, strict=True)
    )
    assert abs(total - solution["score"]) <= 1e-6

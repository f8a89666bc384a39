"""Every option a link is made from is checked before anything is created: a bad one is one
line naming it, exit 2, and no room (issue 43, "Links that cannot work, accepted")."""

from __future__ import annotations

import pytest

from housing_lab.cli import main
from housing_lab.errors import HousingLabError
from housing_lab.rooms import open_store
from housing_lab.rooms.urls import check_page_url
from housing_lab.widgets.table.room import open_table_room

BAD_PAGES = [
    ("http://10.0.0.5:8866/room/#top", "#fragment"),
    ("javascript:alert(1)//", "must start with http"),
    ("JavaScript:alert(1)", "must start with http"),
    ("data:text/html,hi", "must start with http"),
    ("//evil.example/room", "must start with http"),
    ("http://10.0.0.5:99999/room/", "not an address"),
    ("http://a b:8866/room/", "space"),
    ("http:///room/", "names no server"),
    ("http://10.0.0.5:8866/room/?key=x", "key= in its query"),
]


@pytest.mark.parametrize(("url", "words"), BAD_PAGES)
def test_room_create_url_and_classroom_page_url_refuse_links_that_cannot_work(
    tmp_path, capsys, url, words
) -> None:
    store = tmp_path / "r.sqlite"
    common = ["--teams", "Red,Blue", "--store", f"sqlite:///{store}"]
    for argv, option in (
        (["room", "create", *common, "--url", url], "--url"),
        (["classroom", *common, "--no-server", "--page-url", url], "--page-url"),
    ):
        assert main(argv) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err.count("\n") == 1, captured
        assert option in captured.err and words in captured.err, captured.err
    assert not store.exists()  # checked before the store was opened: no room


@pytest.mark.parametrize(
    ("hub", "words"),
    [
        ("https://hub/hub/home", "give https://hub, not"),
        ("https://school.org/jupyter/hub/login?next=x", "give https://school.org/jupyter,"),
        ("https://hub/user/ana/lab", "give https://hub, not"),
        ("https://hub/?next=/hub/home", "give https://hub, not"),
        ("https://hub/#x", "#fragment"),
        ("hub.school.org", "like https://hub.school.org"),
    ],
)
def test_hub_takes_the_hubs_address_only(tmp_path, capsys, hub, words) -> None:
    argv = ["classroom", "--teams", "Red,Blue", "--store", f"sqlite:///{tmp_path / 'r.sqlite'}"]
    assert main([*argv, "--no-server", "--hub", hub]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "--hub" in err, err
    assert not (tmp_path / "r.sqlite").exists()


def test_a_hub_under_a_prefix_is_accepted(tmp_path, capsys) -> None:
    argv = ["classroom", "--teams", "Red,Blue", "--store", f"sqlite:///{tmp_path / 'r.sqlite'}"]
    links = tmp_path / "links"
    assert (
        main(
            [
                *argv,
                "--no-server",
                "--hub",
                "https://school.org/jupyter/",
                "--links-dir",
                str(links),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "https://school.org/jupyter/hub/user-redirect/housing-lab/room?room=" in out


@pytest.mark.parametrize(
    "host", ["a b", "lap top.local", "host/room", "x-", "a..b", "\u0430.local"]
)
def test_a_host_that_is_no_address_is_one_line(tmp_path, capsys, host) -> None:
    argv = ["classroom", "--teams", "Red,Blue", "--store", f"sqlite:///{tmp_path / 'r.sqlite'}"]
    assert main([*argv, "--no-server", "--host", host]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--host" in err and "not a host name" in err, err
    assert not (tmp_path / "r.sqlite").exists()


@pytest.mark.parametrize(
    "argv",
    [
        ["app", "lab", "--port", "99999", "--dry-run"],
        ["app", "lab", "--port", "-5", "--dry-run"],
        ["app", "lab", "--port", "0", "--dry-run"],
        ["lab", "--port", "65536", "--dry-run"],
        ["classroom", "--teams", "A,B", "--port", "-5", "--dry-run"],
        ["classroom", "--teams", "A,B", "--port", "9" * 5000, "--dry-run"],
    ],
)
def test_ports_out_of_range_are_one_line(capsys, argv) -> None:
    with pytest.raises(SystemExit) as stopped:  # argparse's refusal, worded by the CLI
        main(argv)
    assert stopped.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert "argument --port: a port must" in captured.err


def test_create_room_refuses_a_join_base_that_is_no_address(tmp_path) -> None:
    with open_store(f"sqlite:///{tmp_path / 'r.sqlite'}") as store:
        for bad in (None, 5, "", "javascript:alert(1)//", "http://x/room#k"):
            with pytest.raises(HousingLabError, match="join_base") as refused:
                store.create_room(["Red", "Blue"], join_base=bad)
            assert "\n" not in str(refused.value)
        room = store.create_room(["Red", "Blue"], join_base="housing-lab/room")  # Binder's
        assert room["teacher"]["url"].startswith("housing-lab/room?room=")
        assert store.seq(room["room"], room["teacher"]["token"]) == 0


def test_open_room_refuses_a_join_base_that_is_no_address(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    with pytest.raises(HousingLabError, match=r"join_base .*must start with http"):
        open_table_room(
            ["Red", "Blue"],
            1,
            _options(),
            f"sqlite:///{tmp_path / 'r.sqlite'}",
            "javascript:alert(1)//",
        )
    assert not (tmp_path / "r.sqlite").exists()


def test_good_page_addresses_pass() -> None:
    for url in (
        "http://192.168.1.20:8866/room/",
        "https://hub.school.org/hub/user-redirect/housing-lab/room",
        "http://[::1]:8866/room/",
        "/user/ana/housing-lab/room",
        "housing-lab/room",
        "http://x/room?lang=en",
    ):
        assert check_page_url(url) == url


def _options():
    from housing_lab.north_berkeley.policies import RuleOptions

    return RuleOptions()

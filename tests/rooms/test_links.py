"""Join links, QR codes and the links file (mode 600)."""

from __future__ import annotations

import json
import os
import stat
import sys

import pytest

from housing_lab.errors import HousingLabError
from housing_lab.rooms.links import (
    lan_host,
    links_path,
    load_links,
    page_base,
    qr_svg,
    room_links,
    save_links,
)

CREATED = {
    "room": "ABC234",
    "game": "north-berkeley",
    "teacher": {"token": "teacher-secret", "url": "ignored"},
    "teams": {"Red": {"token": "red-secret"}, "Blue": {"token": "blue secret&x"}},
}


def test_room_links_give_one_url_per_token_in_the_fragment():
    links = room_links(CREATED, "http://10.1.2.3:8866/")
    assert links["teacher"] == "http://10.1.2.3:8866/?room=ABC234#key=teacher-secret"
    assert links["teams"]["Red"].endswith("#key=red-secret")
    assert links["teams"]["Blue"].endswith("#key=blue+secret%26x")  # quoted, not cut at &
    assert list(links["teams"]) == ["Red", "Blue"]


def test_room_links_refuse_something_else():
    with pytest.raises(HousingLabError, match="not a created room"):
        room_links({"room": "ABC234"}, "http://x/")


def test_page_base_and_ports():
    assert page_base("192.168.1.20", 8866) == "http://192.168.1.20:8866/room/"
    assert page_base("::1", 80) == "http://[::1]:80/room/"
    for bad in (0, 70000, True, "8866"):
        with pytest.raises(HousingLabError, match="port"):
            page_base("127.0.0.1", bad)


def test_lan_host_is_an_address():
    parts = lan_host().split(".")
    assert len(parts) == 4 and all(p.isdigit() for p in parts)


def test_qr_svg_is_inline_svg_that_changes_with_the_url():
    one = qr_svg("http://127.0.0.1:8866/?room=ABC234&token=a", title="Join link for Red")
    two = qr_svg("http://127.0.0.1:8866/?room=ABC234&token=b")
    assert one.startswith("<svg") and one.rstrip().endswith("</svg>")
    assert "<title>Join link for Red</title>" in one and "<path" in one
    assert one.replace("<title>Join link for Red</title>", "") != two
    assert "http" not in one.split("<title>")[0]  # no external reference


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file modes")
def test_links_file_is_private_even_over_an_old_file(tmp_path):
    links = room_links(CREATED, "http://127.0.0.1:8866/")
    path = links_path("ABC234", tmp_path)
    path.write_text("old")
    os.chmod(path, 0o644)
    with pytest.raises(HousingLabError, match="already exists"):
        save_links(links, tmp_path)
    assert path.read_text() == "old"
    assert save_links(links, tmp_path, overwrite=True) == path
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_links("abc234", tmp_path) == links


def test_links_file_in_the_data_folder_by_default(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    if sys.platform.startswith("linux"):
        assert links_path("ABC234") == tmp_path / "housing-lab" / "rooms" / "ABC234.links.json"


def test_load_links_none_when_missing_or_for_another_room(tmp_path):
    assert load_links("ABC234", tmp_path) is None
    save_links(room_links(CREATED, "http://x:1/"), tmp_path)
    links_path("ZZZ999", tmp_path).write_text(links_path("ABC234", tmp_path).read_text())
    assert load_links("ZZZ999", tmp_path) is None  # a copied file names another room
    links_path("QQQ999", tmp_path).write_text("{not json")
    assert load_links("QQQ999", tmp_path) is None


@pytest.mark.parametrize("bad", ["../etc", "", "AB/CD", 42])
def test_links_path_refuses_what_is_not_a_room_code(tmp_path, bad):
    with pytest.raises(HousingLabError, match="not a room code"):
        links_path(bad, tmp_path)


def test_save_links_into_an_unwritable_place_is_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(HousingLabError, match="cannot write"):
        save_links(room_links(CREATED, "http://x:1/"), blocker / "sub")


def test_links_carry_the_key_in_the_fragment_no_server_sees():
    links = room_links(CREATED, "https://hub/hub/user-redirect/housing-lab/room")
    red = links["teams"]["Red"]
    assert red == "https://hub/hub/user-redirect/housing-lab/room?room=ABC234#key=red-secret"
    assert "red-secret" not in red.split("#")[0]


def test_a_links_file_from_before_the_fragment_is_read_in_the_fragment_form(tmp_path):
    """A links file written when keys were in the query gives the teacher page links (and QR
    codes) the page still opens."""
    old = {
        "room": "ABC234",
        "teacher": "http://x:1/room/?room=ABC234&token=teacher-secret",
        "teams": {"Red": "http://x:1/room/?token=red+secret%26x&room=ABC234"},
    }
    links_path("ABC234", tmp_path).write_text(json.dumps(old), encoding="utf-8")
    links = load_links("ABC234", tmp_path)
    assert links["teacher"] == "http://x:1/room/?room=ABC234#key=teacher-secret"
    assert links["teams"]["Red"] == "http://x:1/room/?room=ABC234#key=red+secret%26x"

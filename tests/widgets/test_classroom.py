"""ClassroomPage without a browser: who sees what, which actions are offered, live polling."""

from __future__ import annotations

import asyncio
import concurrent.futures
import html
import json
import re
from typing import Any

import pytest

from housing_lab.north_berkeley.card_standing import card_standing
from housing_lab.north_berkeley.engine.scoring import facts_as_is
from housing_lab.north_berkeley.policies import POLICY_NAMES, POLICY_TEXT
from housing_lab.north_berkeley.scenario import scenario_from_dict
from housing_lab.rooms import open_store
from housing_lab.rooms.links import room_links, save_links
from housing_lab.widgets.classroom.page import ClassroomPage, RoomEntry, page_from_environment

TEAMS = ["Red", "Blue", "Green"]


def run_in_own_loop(scenario):
    """asyncio.run in a thread of its own: in the full suite Playwright's sync API keeps an
    event loop running in the main thread, and asyncio.run refuses to start inside it."""
    with concurrent.futures.ThreadPoolExecutor(1) as worker:
        return worker.submit(asyncio.run, scenario()).result(timeout=60)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store(tmp_path, clock):
    with open_store("sqlite:///" + str(tmp_path / "rooms.sqlite"), clock=clock) as opened:
        yield opened


@pytest.fixture
def room(store) -> dict[str, Any]:
    created = store.create_room(TEAMS, seed=3)
    created["tokens"] = {"teacher": created["teacher"]["token"]}
    created["tokens"].update({t: created["teams"][t]["token"] for t in TEAMS})
    return created


def page(store, room, who: str, clock=None, **kwargs: Any) -> ClassroomPage:
    if clock is not None:
        kwargs["clock"] = clock
    return ClassroomPage(store, room["room"], room["tokens"][who], **kwargs)


def walk(widget: Any):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from walk(child)


def page_state(p: ClassroomPage) -> str:
    """Everything the page's widgets would send to the browser, as one text."""
    return json.dumps([w.get_state() for w in walk(p)], default=str)


def key(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True)


def offered_equals_legal(p: ClassroomPage) -> None:
    assert p.view is not None
    assert sorted(map(key, p.offered_actions())) == sorted(map(key, p.view["legal_actions"]))


def hidden_cards(store, room, team: str) -> set[str]:
    """A team's secret cards (hand and extra card), as only its own view shows them."""
    view = store.view(room["room"], room["tokens"][team])
    cards = {card["card"] for card in view.get("hand", [])}
    return cards | ({view["extra_card"]} if view.get("extra_card") else set())


def play_step(store, room, public: set[str]) -> bool:
    """One step towards the end of the game, always via the store; False once it is over.
    `public` collects every card that was ever face up in the draft."""
    tokens = room["tokens"]
    teacher = store.view(room["room"], tokens["teacher"])
    if teacher["phase"] == "over":
        return False
    public.update(teacher["draft"]["face_up"])
    for team in TEAMS:
        for action in store.view(room["room"], tokens[team])["legal_actions"]:
            if action["action"] in ("place", "pick") and (
                action["action"] == "pick" or action["square"] in teacher["empty_squares"]
            ):
                store.act(room["room"], tokens[team], action)
                return True
    store.act(room["room"], tokens["teacher"], teacher["legal_actions"][-1])
    return True


def test_team_page_shows_its_hand_and_offers_exactly_its_legal_actions(store, room):
    red = page(store, room, "Red")
    assert red.role is not None and red.role.team == "Red"
    assert "Your hand (secret)" in red.side.value
    assert red.board is not None
    offered_equals_legal(red)
    places = [a for a in red.offered_actions() if a["action"] == "place"]
    assert places and all(a["square"] in ("B1", "C1", "B2", "C2") for a in places)
    assert red.board.allowed["A1"] == []  # a square outside this phase is greyed


def standing_words(view: dict[str, Any]) -> dict[str, str]:
    """Each card of a team's hand, in the engine's words on the board as it stands (a room's
    current score is the board as it stands)."""
    facts = facts_as_is(scenario_from_dict(view["board"]))
    return {c["card"]: card_standing(c["card"], facts).text for c in view["hand"]}


def shown_standing(p: ClassroomPage) -> dict[str, str]:
    """The +1 and -1 lines under each card of the page's hand, as the browser shows them."""
    rows = re.findall(r"<tr data-card='([a-z_]+)'>(.*?)</tr>", p.side.value)
    return {
        card: "; ".join(
            html.unescape(line) for line in re.findall(r"hl-classroom-cond[^>]*>(.*?)</span>", row)
        )
        for card, row in rows
    }


def test_team_page_says_what_each_card_wants_and_where_it_stands_live(store, room):
    """Issue 44: every card in the hand with its +1 and -1 conditions and the figures now, in
    the engine's words, redrawn when another device changes the board."""
    red = page(store, room, "Red")
    assert red.view is not None
    before = standing_words(red.view)
    assert shown_standing(red) == before and len(before) == len(red.view["hand"])
    assert all("+1 " in text and "\u22121 " in text for text in before.values())
    blue = page(store, room, "Blue")
    blue.act({"action": "place", "square": "B1", "tile": "tower_social"})
    assert red.poll_once()
    after = standing_words(red.view)
    assert after != before  # spending moved: a card of this hand reads it
    assert shown_standing(red) == after
    for card in red.view["hand"]:  # the score shown beside the words is the same board's
        facts = facts_as_is(scenario_from_dict(red.view["board"]))
        assert card["score"] == card_standing(card["card"], facts).score


def test_teacher_page_has_the_phase_buttons_and_no_hand(store, room, tmp_path):
    links = room_links(room, "http://127.0.0.1:8866/")
    save_links(links, tmp_path / "links")
    teacher = page(store, room, "teacher", links_folder=tmp_path / "links")
    offered_equals_legal(teacher)
    assert [b.description for b, _ in teacher._buttons] == [
        "Start phase 1: the negotiation timer",
        "Call the state now",
    ]
    assert "Your hand" not in page_state(teacher)
    for team in TEAMS:  # each team's code in turn, one at a time
        assert teacher.links.value.count("<svg") == 1
        assert links["teams"][team].replace("&", "&amp;") in teacher.links.value
        teacher.code_next.click()
    state = page_state(teacher)
    for team in TEAMS:
        for card in hidden_cards(store, room, team):
            assert card not in state


def test_a_team_page_never_shows_the_join_links(store, room, tmp_path):
    save_links(room_links(room, "http://127.0.0.1:8866/"), tmp_path / "links")
    red = page(store, room, "Red", links_folder=tmp_path / "links")
    state = page_state(red)
    for team in ("Blue", "Green"):
        assert room["tokens"][team] not in state
    assert room["tokens"]["teacher"] not in state


@pytest.mark.parametrize("token", [None, "", "not-a-token"])
def test_missing_or_wrong_token_shows_one_line_and_nothing_else(store, room, token):
    p = ClassroomPage(store, room["room"], token)
    assert p.role is None and p.board is None
    texts = [w.value for w in walk(p) if hasattr(w, "value") and "<style>" not in str(w.value)]
    assert len(texts) == 1 and texts[0].count("<p") == 1
    assert "token" in texts[0] or "link" in texts[0]
    assert p.offered_actions() == [] and p.poll_once() is False
    assert store.seq(room["room"], room["tokens"]["teacher"]) == 0


def test_missing_room_is_one_line_too(store):
    p = ClassroomPage(store, "ZZZZZZ", "whatever")
    assert p.role is None
    assert "ZZZZZZ" in p.title.value


def test_board_click_acts_in_the_store_and_a_refusal_is_one_line(store, room):
    red = page(store, room, "Red")
    red.board.selected = "B1"
    red._board_action({"action": "place", "square": "B1", "tile": "park"})
    assert red.view["board"]["tiles"] == {"B1": "park"}
    assert "You built a Park on B1." in red.notice.value
    assert red.board.message == "You built a Park on B1."  # no longer "B1 chosen: pick ..."
    red._board_action({"action": "place", "square": "A1", "tile": "park"})  # not this phase
    assert "hl-classroom-error" in red.notice.value
    assert store.seq(room["room"], room["tokens"]["Red"]) == 1


def test_teacher_board_clicks_do_nothing(store, room):
    teacher = page(store, room, "teacher")
    teacher._board_action({"action": "place", "square": "B1", "tile": "park"})
    assert store.seq(room["room"], room["tokens"]["teacher"]) == 0
    assert "own devices" in teacher.notice.value


def test_polling_picks_up_another_teams_action(store, room):
    blue = page(store, room, "Blue")
    assert blue.poll_once() is False
    store.act(
        room["room"], room["tokens"]["Red"], {"action": "place", "square": "C1", "tile": "park"}
    )
    assert blue.poll_once() is True
    assert blue.board.tiles == {"C1": "park"}
    offered_equals_legal(blue)
    assert blue.poll_once() is False


def test_the_asyncio_poller_updates_the_page_within_a_second(store, room):
    async def scenario() -> dict[str, str]:
        blue = page(store, room, "Blue", poll_seconds=0.05)
        blue.start()
        store.act(
            room["room"], room["tokens"]["Red"], {"action": "place", "square": "B2", "tile": "park"}
        )
        for _ in range(20):
            await asyncio.sleep(0.05)
            if blue.board.tiles:
                break
        blue.stop()
        return dict(blue.board.tiles)

    assert run_in_own_loop(scenario) == {"B2": "park"}


def test_call_state_appears_when_the_timer_runs_out(store, room, clock):
    red = page(store, room, "Red", clock=clock)
    assert not any(a["action"] == "call_state" for a in red.offered_actions())
    assert "10:00 (starts when the teacher starts the phase)" in red.status.value
    clock.now += 15 * 60  # the room waits for the teacher: no time passes on the timer
    assert red.poll_once() is False and "starts when the teacher" in red.status.value
    page(store, room, "teacher", clock=clock).act({"action": "start_timer"})
    assert red.poll_once() is True and "10:00 left" in red.status.value
    clock.now += 9 * 60 + 30
    assert red.poll_once() is False and "0:30 left" in red.status.value
    clock.now += 31
    assert red.poll_once() is True
    labels = [b.description for b, _ in red._buttons]
    assert labels == ["Call the state (time is up)"]
    offered_equals_legal(red)
    before = dict(red.view["board"]["tiles"])
    red._buttons[0][0].click()  # the state fills every empty square of the phase
    assert sorted(red.view["board"]["tiles"]) == ["B1", "B2", "C1", "C2"]
    said = red.notice.value
    changed = [sq for sq, tile in red.view["board"]["tiles"].items() if before.get(sq) != tile]
    assert len(changed) >= 3 and said.count(" on ") == len(changed)
    assert all(f" on {square}" in said for square in changed)
    assert said.split("'status'>")[1].startswith("The state built a")


def test_a_whole_game_offers_legal_actions_and_never_leaks_hidden_cards(
    store, room, recording_comms
):
    red = page(store, room, "Red")
    public: set[str] = set()
    steps = 0
    while play_step(store, room, public):
        steps += 1
        red.poll_once()
        offered_equals_legal(red)
        others = (hidden_cards(store, room, "Blue") | hidden_cards(store, room, "Green")) - public
        mine = hidden_cards(store, room, "Red")
        sent = page_state(red) + json.dumps(
            [m for comm in recording_comms for m in comm.messages], default=str
        )
        for card in others - mine:
            assert card not in sent, (red.view["phase"], card)
        for card in red.view["hand"]:  # the check can see what the page shows: its own hand
            assert html.escape(card["name"], quote=True) in sent
    assert steps > 10
    assert red.view["phase"] == "over"
    assert "Final scores" not in red.side.value  # the projector shows the move-in first
    store.act(room["room"], room["tokens"]["teacher"], {"action": "movein_step", "step": 4})
    assert red.poll_once()
    assert "Final scores" in red.side.value and "Winner" in red.side.value


def test_redraw_and_pick_buttons_are_the_teams_own(store, room):
    tokens = room["tokens"]
    red = page(store, room, "Red")
    public: set[str] = set()
    while store.view(room["room"], tokens["teacher"])["phase"] != "extra_draw":
        play_step(store, room, public)
    red.poll_once()
    assert [b.description for b, _ in red._buttons] == ["Redraw our extra card"]
    assert red._buttons[0][1] == {"action": "redraw", "player": "Red"}
    red._buttons[0][0].click()
    assert red._buttons == []  # one redraw each
    store.act(room["room"], tokens["teacher"], {"action": "advance"})
    red.poll_once()
    turn = red.view["draft"]["turn"]
    picks = [b.description for b, a in red._buttons if a["action"] == "pick"]
    assert bool(picks) == (turn == "Red")
    assert "Face-up cards" in red.side.value
    offered_equals_legal(red)


def test_reopening_the_link_resumes(store, room):
    store.act(
        room["room"], room["tokens"]["Red"], {"action": "place", "square": "B1", "tile": "park"}
    )
    again = page(store, room, "Red")
    assert again.board.tiles == {"B1": "park"} and again.seq == 1


def test_a_key_in_the_query_opens_nothing_and_says_use_the_hash_link(room, store):
    """Servers and hubs log a query (a hub's user-redirect logs the whole link), so a key there
    is refused in words; only the #fragment's key opens a page (issue 43)."""
    env = {"HOUSING_LAB_ROOMS": store.url}
    code, green, blue = room["room"], room["tokens"]["Green"], room["tokens"]["Blue"]
    for query in (f"room={code}&token={green}", f"room={code}&key={blue}", f"key=x&room={code}"):
        refused = page_from_environment({**env, "QUERY_STRING": query})
        assert not isinstance(refused, (ClassroomPage, RoomEntry)), query
        text = refused.children[0].value
        assert "opens nothing now" in text and "#key=" in text, query
    # a Jupyter server's own login token in the query is not a room key: the page waits for #
    login = f"room={code}&token=jupyter-login-token"
    entry = page_from_environment({**env, "QUERY_STRING": login})
    assert isinstance(entry, RoomEntry) and entry.page is None
    entry.reader._message(entry.reader, {"key": green}, [])
    assert entry.page is not None and entry.page.role.team == "Green"


def test_streetcar_room_page(tmp_path):
    with open_store("sqlite:///" + str(tmp_path / "s.sqlite")) as store:
        created = store.create_room(["Red", "Blue"], seed=1, game="streetcar")
        red = ClassroomPage(store, created["room"], created["teams"]["Red"]["token"])
        blue = ClassroomPage(store, created["room"], created["teams"]["Blue"]["token"])
        assert red.board is None and "Red plays" in red.side.value
        assert red.streetcar is not None and red.streetcar.board.legal_edges
        assert blue.streetcar is not None and blue.streetcar.board.legal_edges == []
        assert red.offered_actions() == blue.offered_actions() == []  # no buttons: the board


def test_the_poller_survives_a_store_that_fails(store, room, monkeypatch):
    async def scenario() -> str:
        blue = page(store, room, "Blue", poll_seconds=0.02)

        def broken(*args: Any) -> int:
            raise OSError("connection reset")

        monkeypatch.setattr(store, "seq", broken)
        blue.start()
        await asyncio.sleep(0.1)
        monkeypatch.undo()
        store.act(
            room["room"], room["tokens"]["Red"], {"action": "place", "square": "B2", "tile": "park"}
        )
        await asyncio.sleep(0.2)
        blue.stop()
        return blue.board.tiles.get("B2", "")

    assert run_in_own_loop(scenario) == "park"


def test_a_fragment_link_waits_for_its_key_from_the_browser(room, store):
    env = {"QUERY_STRING": f"room={room['room']}", "HOUSING_LAB_ROOMS": store.url}
    entry = page_from_environment(env)
    assert isinstance(entry, RoomEntry) and entry.page is None
    entry.reader._message(entry.reader, {"key": room["tokens"]["Blue"]}, [])
    assert entry.page is not None and entry.page.role.team == "Blue"
    assert entry.page.view["hand"]  # its own hand, from the key the browser sent
    entry.reader._message(entry.reader, {"key": room["tokens"]["Red"]}, [])
    assert entry.page.role.team == "Blue"  # a second message changes nothing


def test_a_page_made_outside_a_running_loop_schedules_nothing(room, store):
    """A plain script has an event loop that never runs: a poller or heartbeat put on it
    never ran, and each was reported as a coroutine "never awaited" when collected."""

    def made_in_a_script() -> tuple[object, object]:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)  # as Python gives a script's main thread: set, not running
        try:
            env = {"QUERY_STRING": f"room={room['room']}", "HOUSING_LAB_ROOMS": store.url}
            entry = page_from_environment(env)
            team = page_from_environment(env)
            team.use_key(room["tokens"]["Blue"])
            return entry._beats, team.page._task
        finally:
            asyncio.set_event_loop(None)
            loop.close()

    with concurrent.futures.ThreadPoolExecutor(1) as worker:
        assert worker.submit(made_in_a_script).result(timeout=60) == (None, None)

    async def in_a_kernel() -> bool:  # a kernel runs each cell inside its running loop
        env = {"QUERY_STRING": f"room={room['room']}", "HOUSING_LAB_ROOMS": store.url}
        entry = page_from_environment(env)
        beating = entry._beats is not None and not entry._beats.done()
        entry._beats.cancel()
        return beating

    assert run_in_own_loop(in_a_kernel)


def test_a_link_without_its_key_says_what_to_do(room, store):
    entry = page_from_environment(
        {"QUERY_STRING": f"room={room['room']}", "HOUSING_LAB_ROOMS": store.url}
    )
    entry.reader._message(entry.reader, {"key": "", "missing": True}, [])
    assert entry.page is None and "lost its key" in entry.message.value


def test_join_codes_one_team_at_a_time_and_shown_again_at_any_time(store, room, tmp_path):
    """Issue 44: one team's code at a time (nobody scans another team's), stepped through;
    the first action hides them, and the teacher shows them again during play."""
    links = room_links(room, "http://127.0.0.1:8866/")
    save_links(links, tmp_path / "links")
    teacher = page(store, room, "teacher", links_folder=tmp_path / "links")

    def shown_team() -> str | None:
        found = re.search(r"data-team='(\w+)'", teacher.links.value)
        return found.group(1) if found else None

    assert teacher.links.value.count("<svg") == 1 and shown_team() == "Red"
    assert links["teams"]["Red"].replace("&", "&amp;") in teacher.links.value
    assert links["teams"]["Blue"] not in teacher.links.value
    assert "phones and other computers cannot open them" in teacher.links.value
    teacher.code_next.click()
    assert shown_team() == "Blue" and "Team 2 of 3" in teacher.links.value
    teacher.code_previous.click()
    teacher.code_previous.click()
    assert shown_team() == "Green"  # round from the first to the last
    teacher.toggle_codes()
    assert teacher.links.value == "" and teacher.codes_button.description == "Show join codes"
    assert teacher.codes_nav.layout.display == "none"
    red = page(store, room, "Red")  # Red joins; shown again, the codes start at Blue
    teacher.toggle_codes()
    assert shown_team() == "Blue" and teacher.codes_button.description == "Hide join codes"
    red.act({"action": "place", "square": "B1", "tile": "park"})
    teacher.poll_once()
    assert "<svg" not in teacher.links.value  # play began: the codes left the projector
    assert teacher.codes_button.layout.display != "none"
    teacher.toggle_codes()  # a latecomer during play: the teacher shows them again
    assert teacher.links.value.count("<svg") == 1
    red.act({"action": "place", "square": "C1", "tile": "park"})
    teacher.poll_once()
    assert teacher.links.value.count("<svg") == 1  # shown on purpose: they stay


def test_projector_shows_which_teams_joined(store, room, tmp_path):
    """A team counts as joined once its page opened with its key; the store keeps it, so a
    projector on another server (another store object on the same database) agrees."""
    teacher = page(store, room, "teacher")
    joined = re.findall(r"data-joined='(\w+)'>(\w+):", teacher.joined.value)
    assert joined == [("false", "Red"), ("false", "Blue"), ("false", "Green")]
    ClassroomPage(store, room["room"], "not-a-key")  # a wrong key joins nobody
    page(store, room, "Blue")
    with open_store(store.url) as other:  # another server's store on the same database
        elsewhere = ClassroomPage(other, room["room"], room["tokens"]["teacher"])
        assert "data-joined='true'>Blue: joined" in elsewhere.joined.value
    teacher._joins_read_at = -10.0  # the next poll reads the joins again
    teacher.poll_once()
    assert "data-joined='true'>Blue: joined" in teacher.joined.value
    assert "data-joined='false'>Red" in teacher.joined.value
    page(store, room, "Red")
    page(store, room, "Green")
    teacher._joins_read_at = -10.0
    teacher.poll_once()
    assert "All 3 teams joined" in teacher.joined.value
    assert list(teacher.joined_teams) == ["Blue", "Red", "Green"]
    red = page(store, room, "Red")  # opened again: still one join, first time kept
    assert red.joined.value == ""  # a team page shows nobody's joins


def test_projector_policy_decision_is_current_and_explained(store, room):
    """Issue 44 item 7: the teacher's "Now: Draft ..." stayed under "Policy decision" once the
    last pick moved the room on; the drawn policies were names only."""
    teacher = page(store, room, "teacher")
    tokens = room["tokens"]
    teacher.act({"action": "call_state"})
    while store.view(room["room"], tokens["teacher"])["phase"] != "draft":
        teacher.refresh()
        advance = [a for a in teacher.view["legal_actions"] if a["action"] == "advance"]
        teacher.act(advance[0])
    assert "Now: Draft" in teacher.notice.value
    while store.view(room["room"], tokens["teacher"])["phase"] == "draft":
        for team in TEAMS:  # the teams pick on their own devices
            picks = [
                a
                for a in store.view(room["room"], tokens[team])["legal_actions"]
                if a["action"] == "pick"
            ]
            if picks:
                store.act(room["room"], tokens[team], picks[0])
                break
    assert teacher.poll_once()
    assert "Draft" not in teacher.notice.value
    assert "Now: Policy decision." in teacher.notice.value
    drawn = teacher.view["policies_drawn"]
    for policy in drawn:
        assert html.escape(POLICY_NAMES[policy]) in teacher.side.value
        assert html.escape(POLICY_TEXT[policy]) in teacher.side.value
    enact = [b for b, a in teacher._buttons if a["action"] == "enact"]
    assert enact and all("hl-act-main" in b._dom_classes for b in enact)


def test_building_choices_only_while_the_team_can_build(store, room):
    """Issue 44: a team page hides the (all greyed) building choices when it has nothing to
    build, so on a phone its decision is not below a screen of inactive buttons."""
    red = page(store, room, "Red")
    assert "hl-classroom-nobuild" not in red._dom_classes  # phase 1: Red builds
    teacher = page(store, room, "teacher")
    teacher.act({"action": "call_state"})
    teacher.act({"action": "advance"})
    red.poll_once()
    assert red.view["phase"] == "extra_draw" and "hl-classroom-nobuild" in red._dom_classes
    assert [action["action"] for _, action in red._buttons] == ["redraw"]
    assert "hl-classroom-nobuild" not in teacher._dom_classes  # the projector shows no palette

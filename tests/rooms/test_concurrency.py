"""Teams acting at the same moment: every accepted action logged once, in order; the refused
ones nowhere; the room's final state is a bare engine game fed the logged actions."""

from __future__ import annotations

import random
import threading

import pytest

from housing_lab.north_berkeley.play.game import Game
from housing_lab.rooms import ActionRefused, open_store

from .helpers import tokens_of

TEAMS = ["Red", "Blue", "Green", "Gold", "Teal", "Plum"]
ACTIONS_PER_TEAM = 15


def _team(url: str, code: str, token: str, seed: int, accepted: list, refused: list) -> None:
    """One team's device: its own store connection, acting on what it last saw."""
    rng = random.Random(seed)
    with open_store(url) as store:
        for _ in range(ACTIONS_PER_TEAM):
            view = store.view(code, token)
            if rng.random() < 0.4:  # clearing races: only one of two clears of a tile can win
                action = {"action": "clear", "square": rng.choice(view["phase_squares"])}
            else:
                places = [a for a in view["legal_actions"] if a["action"] == "place"]
                action = rng.choice(places)
            try:
                accepted.append((store.act(code, token, action)["seq"], token, action))
            except ActionRefused as error:
                refused.append((action, str(error)))


@pytest.mark.slow
def test_simultaneous_teams_lose_and_double_nothing(store_url) -> None:
    with open_store(store_url) as store:
        room = store.create_room(TEAMS, seed=9)
    code, tokens = room["room"], tokens_of(room)
    accepted: list = []
    refused: list = []
    threads = [
        threading.Thread(target=_team, args=(store_url, code, tokens[t], i, accepted, refused))
        for i, t in enumerate(TEAMS)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads)
    assert len(accepted) + len(refused) == len(TEAMS) * ACTIONS_PER_TEAM
    assert refused, "some clears must meet an empty square"
    assert all("already empty" in message for _, message in refused)
    with open_store(store_url) as store:
        log = store.log(code, tokens["teacher"])
        export = store.export(code, tokens["teacher"])
    assert [entry.seq for entry in log] == list(range(1, len(accepted) + 1))
    by_seq = {seq: (token, action) for seq, token, action in accepted}
    assert len(by_seq) == len(accepted)  # no number handed out twice
    holder = {f"team:{t}": tokens[t] for t in TEAMS}
    for entry in log:
        assert by_seq[entry.seq] == (holder[entry.actor], entry.action)
    bare = Game.from_actions(TEAMS, 9, actions=[entry.action for entry in log])
    assert bare.to_dict() == export

"""What the widgets give screen readers (issue 27): the charts' hidden tables follow the charts,
the screen summary names places and buildings in words, announcements are new each time, every
Streetcar line knows its turn, and the game table marks the squares not in play."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from housing_lab.north_berkeley.engine.movein import DISPLACED_WAITING
from housing_lab.north_berkeley.names import INCOME_NAMES
from housing_lab.streetcar import Game, make_bot
from housing_lab.widgets import GameTable, NorthBerkeleyLab, StreetcarLab
from housing_lab.widgets.lab.changes import machine_ids
from housing_lab.widgets.lab.charts import CHART_CATEGORIES, OUTCOME_LABELS
from housing_lab.widgets.streetcar.board import edge_key, line_turns
from housing_lab.widgets.table.charts import LABELS


class Cells(HTMLParser):
    """The rows of an HTML table as lists of cell texts (headers included)."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.caption = ""
        self._in: str | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th", "caption"):
            self._in = tag
            if tag != "caption":
                self.rows[-1].append("")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th", "caption"):
            self._in = None

    def handle_data(self, data: str) -> None:
        if self._in == "caption":
            self.caption += data
        elif self._in:
            self.rows[-1][-1] += data


def cells(markup: str) -> Cells:
    parser = Cells()
    parser.feed(markup)
    return parser


def test_outcome_table_follows_the_chart_after_each_change() -> None:
    lab = NorthBerkeleyLab(seed=1)
    for square, tile in (("B1", "tower_market"), ("B2", "tower_inclusionary_25")):
        lab.place(square, tile)
        table = cells(lab.outcome_chart.words)
        outcomes = lab.result["outcomes"]
        assert table.rows[0] == ["outcome", *(INCOME_NAMES[i] for i in ("high", "middle", "low"))]
        want = [
            [label, *(str(outcomes[i][o]) for i in ("high", "middle", "low"))]
            for o, label in OUTCOME_LABELS.items()
        ]
        assert table.rows[1:] == want
        # the bars also stack "displaced, looking for a home" (drawn only part-way through
        # move-in, 0 after it; the table says it only then)
        rows = dict(zip(CHART_CATEGORIES, lab.outcome_chart.bars.y, strict=True))
        assert list(rows.pop(DISPLACED_WAITING)) == [0, 0, 0]
        bars = [[int(v) for v in row] for row in rows.values()]
        assert [[int(c) for c in row[1:]] for row in table.rows[1:]] == bars


def test_homes_table_says_the_new_homes_and_the_spending() -> None:
    lab = NorthBerkeleyLab(seed=1)
    lab.place("B1", "tower_inclusionary_25")
    table = cells(lab.homes_chart.words)
    new = lab.result["new_homes"]
    assert table.rows[1:] == [
        ["market rate", str(new["market"])],
        ["middle income", str(new["middle"])],
        ["low income", str(new["low"])],
    ]
    assert f"{new['total']} in all" in table.caption


def test_screen_summary_names_buildings_and_policies_without_ids() -> None:
    lab = NorthBerkeleyLab(seed=1)
    lab.place("B1", "tower_market")
    lab.set_policy("vacancy_control")
    summary = lab.board.screen_summary
    assert summary.startswith("Board: 1 building, ")
    assert "Market Rate Tower on B1" in summary and "Vacancy Control" in summary
    housed = sum(lab.result["housed"].values())
    assert f"{housed} of 36 residents housed" in summary
    assert machine_ids(summary) == [], machine_ids(summary)


def test_every_change_is_announced_and_a_repeat_is_a_new_announcement() -> None:
    lab = NorthBerkeleyLab(seed=1)
    lab.place("B1", "tower_market")
    first = dict(lab.board.announcement)
    assert first["text"] == lab.last_change
    lab.undo()
    lab.place("B1", "tower_market")
    assert lab.board.announcement["text"] == first["text"]
    assert lab.board.announcement["n"] > first["n"]
    lab.board.say("quiet", announce=False)
    assert lab.board.message == "quiet" and lab.board.announcement["text"] == first["text"]


def test_the_lab_announces_who_is_housed_after_every_change() -> None:
    """Issue 44 item 8: a Park on C3 was read out as cards and spending only; every
    announcement now says who found a home, left or was displaced, or that no one moved (as
    the engine's move-in outcomes have it), for tiles, policies and undo alike."""
    lab = NorthBerkeleyLab(seed=1)
    housing = re.compile(
        r"no one moved|found a home|had to leave|displaced|same numbers housed|"
        r"no change in who has a home"
    )
    before = lab.result["outcomes"]
    lab.place("C3", "park")
    said = lab.board.announcement["text"]
    assert said.startswith("Placed the Park on C3. No one moved; "), said
    assert lab.result["outcomes"] == before  # the engine agrees: nobody moved
    for act in (
        lambda: lab.place("B1", "tower_market"),
        lambda: lab.set_policy("adu"),
        lambda: lab.reshuffle(5),
        lab.undo,
        lambda: lab.clear("C3"),
    ):
        previous = lab.result["outcomes"]
        act()
        said = lab.board.announcement["text"]
        assert housing.search(said.lower()), said
        unmoved = "No one moved" in said or "No change in who has a home" in said
        assert unmoved == (lab.result["outcomes"] == previous), said


def test_streetcar_lines_carry_the_turn_they_were_drawn_on() -> None:
    game = Game(seed=3)
    bots = make_bot("greedy", 1), make_bot("greedy", 2)
    moves = []
    for turn in range(4):
        move = bots[turn % 2].choose(game)
        game.push(move)
        moves.append(move)
    turns = line_turns(game)
    assert turns == {edge_key(e): n for n, m in enumerate(moves, start=1) for e in m.lines}
    lab = StreetcarLab(seed=1, opponent="greedy", bot_delay=0)
    assert lab.board.line_turns == {}
    move = make_bot("greedy", 5).choose(lab.game)
    lab.play([list(map(list, e)) for e in move.lines], move.remove)
    drawn = {k for keys in lab.board.lines.values() for k in keys}
    assert set(lab.board.line_turns) == drawn
    assert {lab.board.line_turns[edge_key(e)] for e in move.lines} == {1}


def test_score_chart_in_words_matches_the_bars() -> None:
    lab = StreetcarLab(seed=1, opponent="greedy", bot_delay=0)
    move = make_bot("greedy", 5).choose(lab.game)
    lab.play([list(map(list, e)) for e in move.lines], move.remove)
    table = cells(lab.score.words)
    assert [[int(c) for c in row[1:]] for row in table.rows[1:]] == [
        [int(v) for v in row] for row in lab.score.bars.y
    ]


def test_game_table_locks_the_other_phase_and_words_its_chart() -> None:
    table = GameTable(teams=["Red", "Blue"], seed=1)
    phase_one = set(table.game.phase_squares())
    locked = set(table.board.locked)
    assert locked and not locked & phase_one
    assert locked | phase_one == set(table.board.site["squares"])
    table.call_state()
    while table.stage != "movein":
        if table.stage == "draft":
            table.pick(table.game.draft_turn(), table.game.state.draft_pool[0])
        elif table.stage == "policies":
            table.enact(table.panel.view["decision"]["choices"][0]["policies"])
        else:
            if table.stage == "phase2":
                table.call_state()
            table.next_phase()
    assert table.board.locked == []
    table.next_phase()  # the first wave of move-in
    chart = table.chart
    shown = cells(chart.words)
    rows = {row[0]: row[1:] for row in shown.rows[1:]}
    assert set(rows) == set(LABELS.values())
    assert re.sub(r"\s+", " ", shown.caption) == str(chart.figure.title)
    assert [[int(c) for c in row[1:]] for row in shown.rows[1:]] == chart.rows
    assert any(any(int(c) for c in row) for row in rows.values()), "move-in shows nobody yet"

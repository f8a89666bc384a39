"""NorthBerkeleyLab: build the neighbourhood, toggle policies, watch who is displaced.

The lab keeps one engine `Board` (tiles, policies, existing residents, seed, model) and asks it
everything: whether a change is legal and why not (`refusal`, in the words shown), the palette
(`palette`), the result (`result`) and undo (`push`/`pop`: every change, a tile, a policy, a
reshuffle, a load, the coach's advice, is one action on the board's stack). A refused change
shows the engine's words and leaves everything as it was. After a change the lab compares the
result before and after (`changes.py`): one sentence says what changed, the chart outlines the
previous housed counts and the board marks the squares and homes that changed.

One screen (docs/nb_lab.md): the board with its palette on the left; the last change, the
"who is housed" chart and the policies on the right; cards, new homes, compare, policy
explanations and files in tabs below. The scoreboard tab starts with the coach
(`nb_coach`): ask how a card could win, apply the advice as one action, undo any action.
A tile click goes: the board's message (`board.py`) -> `_on_board_action` here -> `place` ->
the engine's `Board` (`north_berkeley/board.py`): `refusal` and `push` check and play it,
`result` scores it, and `palette` gives what the palette greys, why, and the costs.
"""

from __future__ import annotations

import contextlib
import html
import os
import pathlib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import ipywidgets

from housing_lab.errors import HousingLabError, shown
from housing_lab.jsonio import read_bytes
from housing_lab.north_berkeley.board import Board
from housing_lab.north_berkeley.coaching.exact import (
    CoachAnswer,
    HandAdvice,
    apply_changes,
    best_change_for_hand,
    check_goal,
)
from housing_lab.north_berkeley.coaching.exact import coach as coach_for
from housing_lab.north_berkeley.coaching.words import (
    changes_words,
    coach_sentence,
    hand_sentence,
)
from housing_lab.north_berkeley.constituents import cards
from housing_lab.north_berkeley.engine.legal import RULE_NO_CHANGE
from housing_lab.north_berkeley.engine.scoring import ScenarioResult, score_as_is
from housing_lab.north_berkeley.errors import ScenarioFormatError
from housing_lab.north_berkeley.layout import Layout, default_layout
from housing_lab.north_berkeley.model import Model, check_model
from housing_lab.north_berkeley.policies import (
    MATCHING_FUNDS,
    POLICIES,
    POLICY_NAMES,
    POLICY_TEXT,
    RuleOptions,
)
from housing_lab.north_berkeley.scenario import (
    Scenario,
    replaced,
    scenario_from_dict,
    scenario_from_json,
)
from housing_lab.north_berkeley.tiles import Catalogue, default_catalogue
from housing_lab.numbers import check_seed
from housing_lab.widgets.common import JsonSource, MadeWhenOpened, save_json
from housing_lab.widgets.lab.assumptions import AssumptionsPanel
from housing_lab.widgets.lab.board import NorthBerkeleyBoard, palette_traits
from housing_lab.widgets.lab.changes import (
    change_phrases,
    changed_keys,
    describe_change,
    score_word,
    screen_summary,
    short_change,
    vacancy_phrases,
)
from housing_lab.widgets.lab.charts import HomesChart, OutcomeChart, model_line, step_title
from housing_lab.widgets.lab.coach import CoachPanel
from housing_lab.widgets.lab.compare import ComparePanel
from housing_lab.widgets.lab.policies import PolicyPanel
from housing_lab.widgets.lab.scoreboard import Scoreboard
from housing_lab.widgets.lab.toolbar import LabToolbar

SCENARIO = "a scenario"
FIRST_HINT = "Nothing changed yet: click a square, then a building; or tick a policy."
TABS = ("Who is pleased", "New homes", "Compare", "Policies", "Save and load", "Assumptions")
HOMES_TAB = 1
COMPARE_TAB = 2
ASSUMPTIONS_TAB = 5


def summary(result: Mapping[str, Any]) -> str:
    """Who is housed, the spending, and the homes that stay empty, in one or two sentences."""
    housed = result["housed"]
    residents = {i: sum(result["outcomes"][i].values()) for i in ("high", "middle", "low")}
    of = (
        f"of {residents['high']} each"
        if len(set(residents.values())) == 1
        else f"of {residents['high']}, {residents['middle']} and {residents['low']}"
    )
    text = (
        f"Housed: {housed['high']} high, {housed['middle']} middle, {housed['low']} low "
        f"income ({of}). Spending ${result['spending']:g}."
    )
    empty = vacancy_phrases(result)
    if empty:
        text += f" {'; '.join(empty)}."
    return text[:1].upper() + text[1:]


def describe(scenario: Scenario) -> str:
    """A board in a few words: its tile count and policies (the compare panel's labels)."""
    policies = ", ".join(POLICY_NAMES[p] for p in sorted(scenario.policies)) or "no policy"
    return f"{len(scenario.tiles)} tiles, {policies}"


def _kept_model(model: Model) -> Model | None:
    """The model a scenario keeps: None for the rulebook, so a rulebook board's JSON (and its
    saved file) stays exactly as before the switches existed."""
    return None if model.is_rulebook else model


def _board_only(scenario: Scenario) -> dict[str, Any]:
    """A scenario's board without its assumptions (comparing the coach's advice)."""
    data = scenario.to_dict()
    data.pop("model", None)
    return data


def _check_instance(value: object, kind: type | tuple[type, ...], what: str) -> None:
    if value is not None and not isinstance(value, kind):
        raise HousingLabError(f"{what}, got {shown(value)}")


def _check_hand(hand: object) -> list[str] | None:
    if hand is None:
        return None
    if (
        isinstance(hand, (str, bytes))
        or not isinstance(hand, Sequence)
        or not all(isinstance(card, str) for card in hand)
    ):
        raise HousingLabError(f"hand must be a list of card ids, got {shown(hand)}")
    return list(hand)


def read_scenario(source: object, layout: Layout, catalogue: Catalogue) -> Scenario:
    """A scenario from a dict, JSON text or a file path, validated whole by the engine."""
    if isinstance(source, Mapping):
        return scenario_from_dict(dict(source), layout, catalogue)
    if isinstance(source, str) and source.lstrip().startswith("{"):
        return scenario_from_json(source, layout, catalogue)
    if isinstance(source, (str, os.PathLike)) and str(source) not in ("", "-"):
        try:
            data = read_bytes(source)
        except HousingLabError as error:
            raise ScenarioFormatError(str(error)) from None
        return scenario_from_json(data, layout, catalogue)
    raise ScenarioFormatError(
        f"{SCENARIO} is a dict, JSON text or a file path, not {shown(source)}"
    )


class NorthBerkeleyLab(ipywidgets.VBox):
    """The whole app. Drive it from Python (lessons, tests) or by clicking.

    >>> lab = NorthBerkeleyLab(seed=1)
    >>> lab.place("B1", "tower_market")
    >>> lab.result["housed"]["high"]
    12
    """

    def __init__(
        self,
        seed: int = 0,
        hand: Sequence[str] | None = None,
        options: RuleOptions | None = None,
        layout: Layout | None = None,
        catalogue: Catalogue | None = None,
        scenario: JsonSource | None = None,
        model: Model | Mapping[str, Any] | None = None,
    ) -> None:
        """`model`: the assumptions to start under (a `Model` or its JSON object; None: the
        scenario's own, or the rulebook's)."""
        seed = check_seed(seed)
        hand = _check_hand(hand)
        _check_instance(options, RuleOptions, "options must be a RuleOptions")
        _check_instance(layout, Layout, "layout must be a Layout (north_berkeley.layout)")
        _check_instance(catalogue, Mapping, "catalogue must be a tile catalogue (a dict)")
        self.options, model = (options or RuleOptions()).split_model(model)  # one carrier
        self.site = layout or default_layout()
        self.catalogue = catalogue if catalogue is not None else default_catalogue()
        if scenario is None:
            start = scenario_from_dict({"seed": seed}, self.site, self.catalogue)
        else:
            start = read_scenario(scenario, self.site, self.catalogue)
        if model is not None:
            start = replaced(start, model=_kept_model(check_model(model)))
        self._board = Board.from_scenario(start, self.options)
        self._result_dict = self._result.to_dict()
        self._previous: ScenarioResult | None = None
        # the seed, policies and undo shown: set on the controls only when they change
        self._shown_controls: tuple[int, frozenset[str], bool] | None = None
        # the printed names (the catalogue's and the cards'), by id, for the lab's own sentences
        self._tile_names = {tile_id: tile.name for tile_id, tile in self.catalogue.items()}
        self._card_names = {card_id: card.name for card_id, card in cards().items()}
        self.last_change = FIRST_HINT
        self.last_change_shown = FIRST_HINT
        self.coach_answer: CoachAnswer | HandAdvice | None = None
        self.coach_text = ""

        self.board = NorthBerkeleyBoard(compact=True)
        self.board.on_action = self._on_board_action
        self.policy_panel = PolicyPanel(compact=True)
        self.policy_panel.on_toggle = self._on_policy_toggle
        self.outcome_chart = OutcomeChart(width=420, height=290)
        self._homes_chart: HomesChart | None = None  # made when first shown or asked for
        self.scoreboard = Scoreboard(hand)
        self.coach_panel = CoachPanel(self.scoreboard.hand, hand_chosen=hand is not None)
        self.coach_panel.on_ask = self._on_coach_ask
        self.coach_panel.on_apply = self._on_coach_apply
        self.coach_panel.on_undo = self._on_undo
        self.compare = ComparePanel()
        self.compare.on_keep = lambda: self.keep_snapshot()
        self.compare.on_clear = self.clear_snapshot
        self.toolbar = LabToolbar(self._scenario.seed)
        self.toolbar.on_seed = self.reshuffle
        self.toolbar.on_reshuffle = lambda: self.reshuffle()
        self.toolbar.on_reset = self.reset
        self.toolbar.on_save = lambda: self.board.offer_json(
            "north-berkeley-board.json", self.scenario
        )
        self.toolbar.on_upload = self._on_upload_text
        self.seed_box = self.toolbar.seed_box
        self.upload = self.toolbar.upload
        self.change_line = ipywidgets.HTML()
        self.change_line.add_class("hl-last-change")
        self.model_line = ipywidgets.HTML()  # "Not the rulebook: ...", beside the chart
        self.model_line.add_class("hl-model-line")
        self._assumptions = MadeWhenOpened(self._make_assumptions, self._show_assumptions)
        self.board.observe(self._on_replay_step, names="replay_index")
        super().__init__(self._screen())
        self.add_class("hl-nb-lab")
        self._refresh()

    def _screen(self) -> list[ipywidgets.Widget]:
        """Board left; last change, chart and policies right; the rest in tabs below."""
        title = ipywidgets.HTML(
            "<div style='font-size:15px;margin:0 0 4px'><h2 style='display:inline;font-size:18px;"
            "margin:0;line-height:inherit'>North Berkeley lab</h2> &middot; "
            "click a square, then a building; tick policies. "
            "The chart shows who finds a home and who has to leave.</div>"
            # a projector (1920x1080) has room for a larger chart column beside the board
            # ipywidgets' unselected tab labels are pale grey: too faint to read (axe contrast)
            "<style>.hl-nb-lab .lm-TabBar-tab .lm-TabBar-tabLabel{color:#1f2933;opacity:1}"
            ".hl-nb-lab .lm-TabBar-tab{background:#e4e7eb;opacity:1}"
            ".hl-nb-lab .lm-TabBar-tab.lm-mod-current{background:#fff}</style>"
            "<style>@media (min-width: 1700px) and (min-height: 1000px) {"
            ".hl-nb-lab .hl-nb-side{width:600px!important;flex-basis:600px!important}"
            ".hl-nb-lab .hl-nb-side .hl-outcome-chart{width:590px!important;height:410px!important}"
            ".hl-nb-lab .hl-last-change div{font-size:16px!important}}</style>"
        )
        right = ipywidgets.VBox(
            [self.change_line, self.model_line, self.outcome_chart],
            layout=ipywidgets.Layout(width="430px", flex="0 0 430px", margin="0 0 0 14px"),
        )
        right.add_class("hl-nb-side")
        self.board.layout = ipywidgets.Layout(flex="0 1 auto", min_width="0")
        main = ipywidgets.HBox(  # on a narrow page the chart column goes under the board
            [self.board, right],
            layout=ipywidgets.Layout(align_items="flex-start", flex_flow="row wrap"),
        )
        main.add_class("hl-nb-main")
        explained = ipywidgets.HTML(
            "<dl style='font-size:14px;max-width:900px'>"
            + "".join(
                f"<dt><b>{html.escape(POLICY_NAMES[p])}</b></dt>"
                f"<dd style='margin:0 0 8px 16px'>{html.escape(POLICY_TEXT[p])}</dd>"
                for p in POLICIES
            )
            + "</dl>"
        )
        self._homes_box = ipywidgets.VBox([])  # filled when first shown (bqplot needs a size)
        self.tabs = ipywidgets.Tab(
            [
                ipywidgets.VBox([self.coach_panel, self.scoreboard]),
                self._homes_box,
                self.compare,
                explained,
                self.toolbar,
                self._assumptions.box,
            ],
            titles=TABS,
        )
        self.tabs.observe(self._tab_shown, names="selected_index")
        return [title, self.policy_panel, main, self.tabs]

    def __repr__(self) -> str:
        return f"NorthBerkeleyLab(seed={self._scenario.seed}, tiles={len(self._scenario.tiles)})"

    # --- what lessons and tests read -------------------------------------------------------
    @property
    def _scenario(self) -> Scenario:
        return self._board.scenario

    @property
    def _result(self) -> ScenarioResult:
        return self._board.result()

    @property
    def scenario(self) -> dict[str, Any]:
        """The board in the RULES.md input format (existing residents included)."""
        return self._scenario.to_dict()

    @property
    def result(self) -> dict[str, Any]:
        """The engine's RULES.md output for `scenario`."""
        return self._result.to_dict()

    @property
    def seed(self) -> int:
        return self._scenario.seed

    @property
    def model(self) -> Model:
        """The assumptions the board is scored under (the rulebook's unless changed)."""
        return self._scenario.assumptions

    # --- changes (each an action on the engine's board, refused in its words) -------------
    def place(self, square: str, tile: str) -> None:
        played = self._play({"action": "place", "square": square, "tile": tile})
        if played is not None:
            name = self._tile_names[tile]
            old = played[0].tiles.get(square)
            done = (
                f"Placed the {name} on {square}."
                if old is None
                else f"Replaced the {self._tile_names[old]} on {square} with the {name}."
            )
            self._changed(done, played[1], square)

    def clear(self, square: str) -> None:
        played = self._play({"action": "clear", "square": square})
        if played is not None:
            name = self._tile_names[played[0].tiles[square]]
            self._changed(f"Cleared {square} (took away the {name}).", played[1])

    def set_policy(self, policy: str, enabled: bool = True) -> None:
        played = self._play({"action": "set_policy", "policy": policy, "enacted": enabled})
        if played is not None:
            verb = "Enacted" if enabled else "Repealed"
            self._changed(f"{verb} {POLICY_NAMES[policy]}.", played[1])

    def reshuffle(self, seed: int | None = None) -> None:
        """New existing residents: the given seed, or the next one."""
        with self._shown_on_board():
            seed = self._scenario.seed + 1 if seed is None else check_seed(seed)
        self._try(existing=None, seed=seed, done=f"Existing residents shuffled with seed {seed}.")

    def set_model(self, model: Model | Mapping[str, Any] | None) -> None:
        """Score the board under other assumptions (a `Model`, its JSON object, or None for
        the rulebook). Refused in words, nothing changed, if a switch is bad or the board
        spends more than the new budget."""
        with self._shown_on_board():
            checked = check_model(model)
        if checked == self.model:
            self._show_assumptions()
            return
        done = (
            "Back to the rulebook's assumptions."
            if checked.is_rulebook
            else f"Assumptions changed: {checked.changes()}."
        )
        self._try(model=_kept_model(checked), done=done)

    def reset(self) -> None:
        """An empty board with no policy (the residents stay)."""
        self._try(tiles={}, policies=set(), done="Board reset.")

    def load_scenario(self, scenario: JsonSource) -> None:
        """Load a RULES.md scenario: a dict, a JSON string or a file path (all or nothing)."""
        with self._shown_on_board():
            loaded = read_scenario(scenario, self.site, self.catalogue)
        self._set_board(loaded, "Board loaded.")

    def save(self, path: str | pathlib.Path | None = None) -> dict[str, Any]:
        """The scenario as a dict; also written as JSON to `path` when given."""
        _check_instance(path, (str, os.PathLike), "path must be a file path or None")
        return save_json(self.scenario, path)

    def keep_snapshot(self, label: str | None = None) -> None:
        """Remember the current board to compare with what comes next."""
        _check_instance(label, str, "a snapshot label must be text")
        self.compare.keep_snapshot(label or describe(self._scenario), self._result)
        self.tabs.selected_index = COMPARE_TAB  # its charts need a visible tab to draw in
        self._show_compare()

    def clear_snapshot(self) -> None:
        self.compare.clear_snapshot()
        self._show_compare()

    # --- the coach (docs/coach.md) and undo ------------------------------------------------
    def coach(self, card: str | Sequence[str], goal: str = "win") -> CoachAnswer | HandAdvice:
        """Ask the coach about this board: for a card id, the fewest changes after which it
        meets `goal` ("win" or "no-loss"); for a list of card ids (a hand), the one change that
        raises their total most. Shown in the scoreboard tab; `apply_coach` applies it."""
        with self._shown_on_board():
            goal = check_goal(goal)
            if isinstance(card, str):
                answer: CoachAnswer | HandAdvice = coach_for(
                    self._scenario, card, goal, options=self.options
                )
                text = coach_sentence(answer, self.catalogue)
                can_apply = bool(answer.changes)
            elif isinstance(card, Sequence) and not isinstance(card, bytes):
                hand = _check_hand(list(card)) or []
                answer = best_change_for_hand(self._scenario, hand, options=self.options)
                text = hand_sentence(answer, self.catalogue)
                can_apply = answer.change is not None
            else:
                raise HousingLabError(
                    f"the coach needs a card id or a list of card ids, got {shown(card)}"
                )
        self.coach_answer, self.coach_text = answer, text
        self.coach_panel.show_answer(text, can_apply)
        return answer

    def apply_coach(self, answer: CoachAnswer | HandAdvice | None = None) -> None:
        """Make the coach's changes (default: the last answer shown) as one lab action, so the
        change sentence, the chart's ghost bars and the board's highlights show what it did.
        `undo` takes it back. Refused, with the board unchanged, if the answer has nothing to
        apply or was given for another board."""
        with self._shown_on_board():
            answer = self.coach_answer if answer is None else answer
            if answer is None:
                raise HousingLabError("nothing to apply: ask the coach first")
            if not isinstance(answer, (CoachAnswer, HandAdvice)):
                raise HousingLabError(f"apply_coach needs the coach's answer, got {shown(answer)}")
            if isinstance(answer, CoachAnswer):
                if answer.changes is None:
                    raise HousingLabError(f"nothing to apply: {answer.reason}")
                changes = answer.changes
            else:
                if answer.change is None:
                    raise HousingLabError(f"nothing to apply: {answer.reason}")
                changes = (answer.change,)
            if not changes:
                raise HousingLabError("nothing to apply: the card already meets the goal")
            after = apply_changes(self._scenario, changes)
            if answer.scenario_after is None or (
                _board_only(after) != _board_only(answer.scenario_after)
            ):
                raise HousingLabError(
                    "this advice was for another board (it changed since): ask the coach again"
                )
            after = replaced(after, model=self._scenario.model)  # the advice keeps the model
        words = changes_words(changes, self.catalogue)
        words = f"{words[:1].lower()}{words[1:]}"
        self._set_board(after, f"Applied the coach's advice: {words}.")
        scores = self._result_dict["constituents"]
        if isinstance(answer, CoachAnswer):
            now = f"{self._card_names[answer.card]} now {score_word(scores[answer.card]['score'])}"
        else:
            now = f"this hand's total is now {sum(scores[c]['score'] for c in answer.cards)}"
        self.coach_panel.show_answer(
            f"Applied: {words}; {now}. Undo takes it back.", can_apply=False
        )
        # Apply is disabled now: without this, focus fell to <body> (issue 27)
        self.coach_panel.undo_button.focus()

    def undo(self) -> None:
        """Put the board back exactly as it was before the last change (any action: a tile, a
        policy, a reshuffle, a load, the coach's advice)."""
        before = self._result
        with self._shown_on_board():
            self._board.pop()
        self._changed("Undid the last change.", before)

    # --- internals ------------------------------------------------------------------------
    @contextlib.contextmanager
    def _shown_on_board(self) -> Iterator[None]:
        """A refused change: show the engine's message as it is (the rules' refusal, bad
        input or a file's error: each says its tiles, policies and cards by name), put the
        controls back."""
        try:
            yield
        except HousingLabError as error:
            self.board.say(str(error), "error")
            self.policy_panel.show(self._scenario.policies)
            self._show_assumptions()
            raise

    def _play(
        self, action: dict[str, Any], say_no_change: bool = True
    ) -> tuple[Scenario, ScenarioResult] | None:
        """Push `action` on the board: the board and result before it when played; None when
        it would change nothing (the engine's words said on the board). Malformed (an unknown
        id, a wrong type) or refused: the one line shown on the board and raised, nothing
        changed."""
        with self._shown_on_board():
            reason = self._board.refusal(action)
        if reason is not None and reason.rule == RULE_NO_CHANGE:
            if say_no_change:
                self.board.say(reason.words)
            self.policy_panel.show(self._scenario.policies)
            return None
        before = (self._scenario, self._result)
        with self._shown_on_board():
            self._board.push(action)
        return before

    def _try(self, done: str, select: str | None = None, **changes: Any) -> None:
        """Keep the board with `changes` (scenario JSON fields), if the engine accepts it
        whole (under the same assumptions unless `model` is among them)."""
        data = self._board.to_dict()
        model = changes.pop("model", self._scenario.model)
        data["model"] = None if model is None else model.to_dict()
        data.update({k: sorted(v) if isinstance(v, set) else v for k, v in changes.items()})
        self._set_board(data, done, select)

    def _set_board(
        self, board: Scenario | Mapping[str, Any], done: str, select: str | None = None
    ) -> None:
        """Replace the whole board (a load, a reshuffle, a reset, a model, the coach's
        changes) as one action, so `undo` takes it back at once."""
        data = board.to_dict() if isinstance(board, Scenario) else board
        played = self._play({"action": "set_board", "board": data}, say_no_change=False)
        # the same board again (a reset of an empty board): said as done, nothing to undo
        self._changed(done, self._result if played is None else played[1], select)

    def _changed(self, done: str, before: ScenarioResult, select: str | None = None) -> None:
        """Show what the last change did (`before`: the result before it)."""
        previous = before.to_dict()
        self._previous = before
        self._result_dict = self._result.to_dict()
        hand = self.scoreboard.hand
        change = describe_change(previous, self._result_dict, self._card_names, hand)
        self.last_change = f"{done} {change}"
        phrases = change_phrases(previous, self._result_dict, self._card_names, hand)
        self.last_change_shown = short_change(done, phrases) if phrases else self.last_change
        if self.coach_answer is not None:  # its advice was for the board before
            self.coach_answer = None
            self.coach_panel.show_answer("The board changed: ask the coach again.", False)
        self._refresh(previous, done, select)

    def _refresh(
        self,
        previous: dict[str, Any] | None = None,
        done: str | None = None,
        select: str | None = None,
    ) -> None:
        """Show the result: the chart first (what the student watches), then the board in one
        message (tiles, residents, changes, palette, message line and selection)."""
        result = self._result_dict
        self.outcome_chart.update(result, previous=previous)
        self.model_line.value = model_line(self.model)
        self.model_line.layout.display = "none" if self.model.is_rulebook else None  # no gap
        self._show_assumptions(changed_only=True)
        self.change_line.value = (
            "<div style='font-size:14px;line-height:1.3;min-height:2.6em;padding:4px 8px;"
            "background:#fff8e1;border-left:4px solid #d55e00;border-radius:4px' "
            f"title='{html.escape(self.last_change, quote=True)}'>"
            f"<b>What changed:</b> {html.escape(self.last_change_shown)}</div>"
        )
        with self.board.hold_sync():
            self.board.show_result(self._result)
            self.board.changed = self._changed_places()
            self._show_palette()
            if done is not None:
                self.board.say(done)
                self.board.announce(self.last_change)  # the whole sentence, read out
            if select is not None:
                self.board.selected = select
            self.board.screen_summary = screen_summary(
                result,
                self._scenario.tiles,
                self._tile_names,
                sorted(self._scenario.policies),
                self.last_change,
            ) + ("" if self.model.is_rulebook else f" {self.model.describe()}.")
        controls = (self._scenario.seed, self._scenario.policies, self._board.can_pop)
        if controls != self._shown_controls:  # most clicks on the board change none of them
            self._shown_controls = controls
            self.policy_panel.show(self._scenario.policies)
            self.toolbar.show_seed(self._scenario.seed)
            self.coach_panel.show_undo(self._board.can_pop)
        if self._homes_chart is not None:
            self._homes_chart.update(result)
        self.scoreboard.update(score_as_is(self._scenario), self._result.cards)
        if self.tabs.selected_index == COMPARE_TAB:  # else drawn when its tab is shown
            self._show_compare()

    def _changed_places(self) -> list[str]:
        """Squares whose tile changed and homes whose resident changed in the last change."""
        if self._previous is None:
            return []
        before, after = self._previous, self._result
        squares = changed_keys(before.scenario.tiles, after.scenario.tiles)
        homes = changed_keys(before.move_in.incomes_after(), after.move_in.incomes_after())
        return squares + homes

    def _show_palette(self) -> None:
        """The engine's palette of each square (`Board.palette`): the tiles it accepts (and the
        one standing there, which a click says is already there), why not the others, and
        what each costs now."""
        palettes = {
            square: [  # the tile already there stays lit: a click says it is there
                e._replace(legal=True) if e.refusal and e.refusal.rule == RULE_NO_CHANGE else e
                for e in self._board.palette(square)
            ]
            for square in self.site.squares
        }
        allowed, refused = palette_traits(palettes, self._tile_names, self.model.city_budget())
        self.board.allowed = allowed
        self.board.refused = refused
        self.board.costs = {tile: float(cost) for tile, cost in self._board.tile_costs().items()}
        note = ""
        if MATCHING_FUNDS in self._scenario.policies:
            note = (
                f"{POLICY_NAMES[MATCHING_FUNDS]} in effect: housing costs half."
                if self._board.matching_funds_in_effect
                else f"{POLICY_NAMES[MATCHING_FUNDS]} enacted, not in effect yet. "
                f"{POLICY_TEXT[MATCHING_FUNDS]}"
            )
        self.board.cost_note = note

    @property
    def homes_chart(self) -> HomesChart:
        """The New homes tab's chart, made when the tab is first shown (or asked for), from
        the board as it stands: until then no click redraws a chart nobody sees."""
        if self._homes_chart is None:
            self._homes_chart = HomesChart()
            self._homes_chart.update(self._result_dict)
        return self._homes_chart

    @property
    def assumptions(self) -> AssumptionsPanel:
        """The Assumptions tab's controls, made when the tab is first opened (or asked for):
        a quarter of the lab's widgets (45 of 183), which most visits never open; the lab
        builds in about 24 ms instead of 30."""
        return self._assumptions.get()

    def _make_assumptions(self) -> AssumptionsPanel:
        panel = AssumptionsPanel()
        panel.on_change = self._on_assumptions
        return panel

    def _show_assumptions(self, changed_only: bool = False) -> None:
        panel = self._assumptions.made
        if panel is None:
            return  # nothing shown yet: the panel shows the model as it stands when made
        spending = float(self._result_dict["spending"])
        panel.show(self.model, spending, changed_only=changed_only)

    def _show_compare(self) -> None:
        self.compare.show(self._result_dict, describe(self._scenario))

    def _tab_shown(self, change: dict[str, Any]) -> None:
        if change["new"] == HOMES_TAB and not self._homes_box.children:
            self._homes_box.children = (self.homes_chart,)
        if change["new"] == ASSUMPTIONS_TAB:
            self._assumptions.get()
        if change["new"] == COMPARE_TAB:
            self._show_compare()

    def _on_board_action(self, action: dict[str, Any]) -> None:
        """Clicks from the browser: refused ones only show the message."""
        try:
            if action.get("action") == "place":
                self.place(str(action.get("square")), str(action.get("tile")))
            elif action.get("action") == "clear":
                self.clear(str(action.get("square")))
        except HousingLabError:
            pass  # already shown on the board

    def _on_assumptions(self, model: dict[str, Any]) -> None:
        with contextlib.suppress(HousingLabError):  # shown on the board already
            self.set_model(model)

    def _on_replay_step(self, change: dict[str, Any]) -> None:
        """While the board steps through move-in, the chart shows that step (the engine's
        `outcomes_after`), not the end; after move-in it shows the result again."""
        index = change["new"]
        move_in = self._result.move_in
        if index < 0 or index > len(move_in.events):
            self.outcome_chart.update(self._result_dict, previous=self._previous_dict())
            return
        self.outcome_chart.show_step(
            move_in.outcomes_after(index), step_title(index, len(move_in.events))
        )

    def _previous_dict(self) -> dict[str, Any] | None:
        return None if self._previous is None else self._previous.to_dict()

    def _on_policy_toggle(self, policy: str, enabled: bool) -> None:
        with contextlib.suppress(HousingLabError):
            self.set_policy(policy, enabled)

    def _on_coach_ask(self, target: str | list[str], goal: str) -> None:
        with contextlib.suppress(HousingLabError):  # shown on the board already
            self.coach(target, goal)

    def _on_coach_apply(self) -> None:
        with contextlib.suppress(HousingLabError):
            self.apply_coach()

    def _on_undo(self) -> None:
        with contextlib.suppress(HousingLabError):
            self.undo()

    def _on_upload_text(self, text: str) -> None:
        with contextlib.suppress(HousingLabError):  # shown on the board already
            with self._shown_on_board():
                loaded = scenario_from_json(text, self.site, self.catalogue)
            self._set_board(loaded, "Board loaded.")

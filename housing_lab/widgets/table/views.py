"""What the game table shows, as plain JSON-able data built from the engine's state.

The front end only draws these dicts, and tests read them, so every number and sentence on the
projector comes from here. Nothing here decides a rule: it reads `Game` and the scoring module.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from housing_lab.north_berkeley import rules
from housing_lab.north_berkeley.card_standing import CardStanding, card_standing
from housing_lab.north_berkeley.constituents import CardScore, cards, score_all
from housing_lab.north_berkeley.engine.hands import score_hand
from housing_lab.north_berkeley.engine.movein import DISPLACED_WAITING, WAVES, MoveEvent
from housing_lab.north_berkeley.engine.scoring import ScenarioResult, facts_as_is
from housing_lab.north_berkeley.play.game import Game
from housing_lab.north_berkeley.policies import (
    EXISTING_PER_INCOME,
    INCOMES,
    POLICY_NAMES,
    POLICY_TEXT,
    RESIDENTS_PER_INCOME,
    RuleOptions,
)
from housing_lab.widgets.common import signed
from housing_lab.widgets.lab.board import palette_traits

STAGES = ("setup", "phase1", "extra_draw", "draft", "policies", "phase2", "movein", "scoring")
STAGE_LABELS = {
    "setup": "Setup",
    "phase1": "Phase 1",
    "extra_draw": "Extra card",
    "draft": "Draft",
    "policies": "Policies",
    "phase2": "Phase 2",
    "movein": "Move-in",
    "scoring": "Scores",
}
INCOME_NAMES = {"high": "High income", "middle": "Middle income", "low": "Low income"}
SCORE_MODE_TEXT = {
    "as_is": "the cards scored on the board as it stands (only the "
    f"{EXISTING_PER_INCOME * len(INCOMES)} existing residents "
    "live there; nobody has moved in yet)",
    "projected": "the cards scored as if move-in happened now on the board as it stands",
}
# Where each move-in step of the engine's event log puts people, for the narrative.
STEP_PLACES = {
    "new_market": "New market-rate homes",
    "new_middle": "New middle-income homes",
    "new_homes": "Vacant new homes",
    "adu": "ADUs (accessory dwelling units)",
    "displace_houses": "Existing houses",
    "displace_apartments": "Existing apartments",
}


NUMBER_WORDS = ("No", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine")


def number_word(count: int) -> str:
    """A small count spelled out at the start of a sentence ("Seven cards ..."), else digits."""
    return NUMBER_WORDS[count] if 0 <= count < len(NUMBER_WORDS) else str(count)


def teams_with_extra_draw() -> str:
    """Which team counts have the extra draw, in words: "2 or 3" (from the rules module)."""
    counts = [str(n) for n in range(rules.MIN_PLAYERS, rules.EXTRA_DRAW_MAX_PLAYERS + 1)]
    return " or ".join([", ".join(counts[:-1]), counts[-1]] if len(counts) > 1 else counts)


def card_state(score: CardScore | None) -> dict[str, Any] | None:
    return None if score is None else score.to_dict()


def card_view(
    card_id: str,
    secret: bool = False,
    now: CardScore | None = None,
    projected: CardScore | None = None,
    standing: CardStanding | None = None,
) -> dict[str, Any]:
    """One card as the panel draws it; `standing`: where the board stands on it, in the
    engine's words ("+1 now: ...", "−1 if ... (now 3)"), for the hands in play."""
    card = cards()[card_id]
    return {
        "id": card_id,
        "name": card.name,
        "plus_text": card.plus_text,
        "minus_text": card.minus_text,
        "secret": secret,
        "now": card_state(now),
        "projected": card_state(projected),
        "standing": None if standing is None else standing.to_dict(),
    }


def steps(stage: str, teams: int) -> list[dict[str, str]]:
    """The strip of steps across the top: done, current, to do, or skipped (4+ teams)."""
    current = STAGES.index(stage)
    strip = []
    for index, name in enumerate(STAGES):
        status = "done" if index < current else "current" if index == current else "todo"
        if name == "extra_draw" and not rules.has_extra_draw(teams):
            status = "skipped"
        strip.append({"stage": name, "label": STAGE_LABELS[name], "status": status})
    return strip


# --- teams ------------------------------------------------------------------------------------
def team_views(
    game: Game, stage: str, hidden: bool, revealed: str | None, result: ScenarioResult
) -> list[dict[str, Any]]:
    """Each team's cards. Hidden hands: starting cards only for the revealed team; open hands
    (and revealed cards) carry their state now and if move-in happened now, and where the
    board stands on each now, in words (the board as it stands, as the "now" score)."""
    dealt = rules.cards_dealt(len(game.players))
    show_scores = stage not in ("movein", "scoring")
    facts = facts_as_is(game.scenario()) if show_scores else None  # the "now" chip's board
    now = score_all(facts) if facts is not None else {}
    projected = result.cards if show_scores else {}
    turn = game.draft_turn()
    teams = []
    for team in game.players:
        hand = game.state.hands[team]
        visible = not hidden or revealed == team
        shown = [
            card_view(
                card,
                index < dealt,
                now.get(card),
                projected.get(card),
                None if facts is None else card_standing(card, facts),
            )
            for index, card in enumerate(hand)
            if visible or index >= dealt
        ]
        view: dict[str, Any] = {
            "name": team,
            "turn": team == turn,
            "cards": shown,
            "secret_count": 0 if visible else min(dealt, len(hand)),
            "revealed": hidden and revealed == team,
            "can_reveal": hidden,
            "score": None,
        }
        if show_scores and not hidden:
            view["score"] = {
                "now": score_hand(team, hand, now).total,
                "projected": score_hand(team, hand, projected).total,
            }
        teams.append(view)
    return teams


def palette(game: Game) -> tuple[dict[str, list[str]], dict[str, Any]]:
    """The board's `allowed` and `refused` traits: square -> the tiles the engine's `place`
    accepts there now (none outside its phase, none over the city budget) and, for the
    others, the engine's words (`Game.palettes`); a greyed tile still reaches the engine,
    which says why. Outside the building phases nothing is explained (no palette is shown)."""
    building = game.phase in ("phase1", "phase2")
    palettes = game.palettes()
    names = {tile_id: tile.name for tile_id, tile in game.catalogue.items()}
    allowed, refused = palette_traits(palettes, names, game.model.city_budget())
    return allowed, refused if building else {}


# --- the decision of each stage ---------------------------------------------------------------
def build_view(
    game: Game, catalogue_names: Mapping[str, str], tie_order: Sequence[str]
) -> dict[str, Any]:
    phase = 1 if game.phase == "phase1" else 2
    squares = list(game.phase_squares())
    minutes = game.state.options.negotiation_minutes
    view: dict[str, Any] = {
        "kind": "build",
        "phase": phase,
        "squares": squares,
        "empty": game.empty_squares(),
        "minutes": minutes,
        "heading": f"Phase {phase}: agree on the {len(squares)} phase-{phase} squares",
        "text": (
            f"Negotiate which tile goes on {', '.join(squares)}. Click a square, then a "
            f"tile. After {minutes:g} minutes anyone may call the state: every empty "
            "square gets a random tile."
        ),
        "affordable_only": None,
        "tie_order": None,
        "next_label": f"Finish phase {phase} ▸",
    }
    allowed = set(game.allowed_tiles(squares[-1])) if squares else set(catalogue_names)
    if set(catalogue_names) - allowed:
        view["affordable_only"] = [n for tile, n in catalogue_names.items() if tile in allowed]
    if phase == 1 and not rules.has_extra_draw(len(game.players)):
        view["tie_order"] = list(tie_order)
    return view


def extra_view(game: Game, tie_order: Sequence[str]) -> dict[str, Any]:
    scores = game.current_card_scores()
    legal = game.legal_actions()
    rows = []
    for team in game.players:
        card = game.state.extra[team]
        can = {"action": "redraw", "player": team} in legal
        if can:
            why = "scores −1 on the board now: the team may discard it and draw again"
        elif scores[card].minus:
            kept = rules.DRAFT_SIZE
            why = f"scores −1, but no card can be spared: {kept} stay in the deck for the draft"
        else:
            why = "does not score −1 now: the team keeps it"
        rows.append(
            {
                "team": team,
                "card": card_view(card, False, scores[card]),
                "can_redraw": can,
                "why": why,
            }
        )
    return {
        "kind": "extra",
        "heading": "Extra card: each team draws one more, face up",
        "text": (
            f"With {teams_with_extra_draw()} teams each team gets one more constituent, "
            "face up. A card "
            "that already scores −1 may be discarded for a new one, again and again."
        ),
        "rows": rows,
        "deck_left": len(game.state.deck),
        "kept_for_draft": rules.DRAFT_SIZE,
        "tie_order": list(tie_order),
        "next_label": "Start the draft ▸",
    }


def draft_explanation(game: Game) -> list[str]:
    """Why the teams pick in this order: scores at the start of the draft, then tie-breaks."""
    entry = next((e for e in reversed(game.state.log) if e.get("action") == "draft_order"), None)
    order = game.state.draft_order
    if entry is None:
        return []
    scores: dict[str, int] = entry["scores"]
    mode = game.state.options.current_score
    lines = [
        f"Current score = {SCORE_MODE_TEXT[mode]}. The lowest score picks first.",
        "Order: "
        + ", ".join(
            f"{i}. {team} ({signed(scores[team], plus=True)})"
            for i, team in enumerate(order, start=1)
        )
        + ".",
    ]
    seating = game.players
    for value in sorted(set(scores.values())):
        tied = [team for team in order if scores[team] == value]
        if len(tied) < 2:
            continue
        how = (
            "seating order"
            if tied == sorted(tied, key=seating.index)
            else "the order the table gave (whoever last took part in a political activity)"
        )
        lines.append(f"{' and '.join(tied)} tie on {signed(value, plus=True)}: {how} decides.")
    return lines


def draft_view(game: Game) -> dict[str, Any]:
    scores = game.current_card_scores()
    turn = game.draft_turn()
    picked = {e["player"]: e["card"] for e in game.state.log if e.get("action") == "pick"}
    order = [
        {
            "team": team,
            "turn": team == turn,
            "picked": cards()[picked[team]].name if team in picked else None,
        }
        for team in game.state.draft_order
    ]
    return {
        "kind": "draft",
        "heading": f"Draft: {turn} picks a constituent",
        "text": (
            f"{number_word(rules.DRAFT_SIZE)} cards lie face up. "
            "In turn, each team takes one, face up."
        ),
        "turn": turn,
        "order": order,
        "explanation": draft_explanation(game),
        "pool": [card_view(card, False, scores[card]) for card in game.state.draft_pool],
    }


def policies_view(game: Game) -> dict[str, Any]:
    """The choices are the engine's legal `enact` actions: each drawn card alone, then both."""
    drawn = game.state.policies_drawn
    policy = [{"id": p, "name": POLICY_NAMES[p], "text": POLICY_TEXT[p]} for p in drawn]
    enactable = [a["policies"] for a in game.legal_actions() if a["action"] == "enact"]
    choices = [
        {
            "label": f"Enact {POLICY_NAMES[chosen[0]]} only" if len(chosen) == 1 else "Enact both",
            "policies": list(chosen),
        }
        for chosen in enactable
    ]
    return {
        "kind": "policies",
        "heading": "Policies: enact one or both",
        "text": (
            f"{number_word(rules.POLICIES_DRAWN)} policy cards are drawn. "
            "The table must agree to enact at least one."
        ),
        "drawn": policy,
        "choices": choices,
    }


# --- move-in ----------------------------------------------------------------------------------
def group_lines(events: Sequence[MoveEvent], income: str) -> list[str]:
    """What one income group did, step by step, in counts a class can follow."""
    mine = [e for e in events if e.wave == income]
    lines = []
    for step in dict.fromkeys(e.step.split(":", 1)[1] for e in mine):
        here = [e for e in mine if e.step == f"{income}:{step}"]
        if step == "left":
            lines.append(f"No home found: {len(here)} left the neighbourhood.")
            continue
        moved = sum(e.kind == "placed" for e in here)
        text = f"{STEP_PLACES.get(step, step)}: {moved} moved in"
        victims = [e for e in here if e.kind == "displaced"]
        if victims:
            counts = [
                f"{sum(e.income == i for e in victims)} {i}"
                for i in reversed(INCOMES)
                if any(e.income == i for e in victims)
            ]
            noun = "resident" if len(victims) == 1 else "residents"
            text += f", displacing {' and '.join(counts)} income {noun}"
        lines.append(text + ".")
    return lines


def movein_view(game: Game, result: ScenarioResult, step: int) -> dict[str, Any]:
    move_in = result.move_in
    events, bounds, newcomers = move_in.events, move_in.wave_bounds(), move_in.newcomers()
    groups = []
    for number, income in enumerate(WAVES, start=1):
        waiting = move_in.outcomes_after(bounds[number - 1])[income][DISPLACED_WAITING]
        header = f"{INCOME_NAMES[income]}: {newcomers[income]} newcomers"
        if waiting and number - 1 <= step:  # known once the waves before it have moved in
            header += f" + {waiting} displaced"
        groups.append(
            {
                "income": income,
                "label": INCOME_NAMES[income],
                "header": header,
                "done": number <= step,
                "lines": group_lines(events, income) if number <= step else [],
            }
        )
    labels = [f"{INCOME_NAMES[i]} moves in ▸" for i in WAVES] + ["Show the final scores ▸"]
    notes = []
    if "vacancy_control" in result.scenario.policies:
        notes.append("Vacancy control is in force: nobody can be displaced.")
    if "adu" in result.scenario.policies:
        notes.append("ADUs: each existing house can take one more resident.")
    return {
        "kind": "movein",
        "step": step,
        "heading": "Move-in" if step == 0 else f"Move-in: {WAVES[step - 1]} income has moved in",
        "text": (
            f"Newcomers arrive in {number_word(len(WAVES)).lower()} waves: high income first, "
            "then middle, then low. "
            "Watch who finds a home and who is displaced."
        ),
        "groups": groups,
        "notes": notes,
        "next_label": labels[step],
    }


def result_summary(result: ScenarioResult) -> dict[str, Any]:
    data = result.to_dict()
    return {
        "spending": data["spending"],
        "new_homes": data["new_homes"],
        "housed": data["housed"],
        "displaced": data["displaced"],
        "residents_per_income": RESIDENTS_PER_INCOME,
    }


def scoring_view(game: Game) -> dict[str, Any]:
    scores = game.final_scores()
    won = game.winners()
    teams = []
    for team in game.players:
        score = scores[team]
        teams.append(
            {
                "team": team,
                "total": score.total,
                "minus_cards": score.minus_cards,
                "winner": team in won,
                "cards": [
                    dict(
                        card_view(card, False),
                        **score.cards[card].to_dict(),
                        label=signed(score.cards[card].score, plus=True),
                    )
                    for card in game.state.hands[team]
                ],
            }
        )
    return {
        "kind": "scoring",
        "heading": "Final scores",
        "teams": teams,
        "winners": won,
        "tie_break": game.tie_break_explanation(),
        "summary": result_summary(game.result()),
        "text": "All cards are revealed. Each card scores +1, −1, both (0) or neither.",
    }


def setup_defaults(
    teams: Sequence[str], seed: int, options: RuleOptions, hidden: bool
) -> dict[str, Any]:
    return {
        "teams": list(teams),
        "seed": seed,
        "negotiation_minutes": options.negotiation_minutes,
        "current_score": options.current_score,
        "hidden_hands": hidden,
        "score_modes": dict(SCORE_MODE_TEXT),
        "min_teams": rules.MIN_PLAYERS,
        "max_teams": rules.MAX_PLAYERS,
    }

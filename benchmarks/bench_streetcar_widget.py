"""Streetcar widget speed: the Python side of a move and of a bot move (a benchmark, not a test).

    python benchmarks/bench_streetcar_widget.py [--quick]

Every figure is a median over whole games (standard board), measured in this same run next to
a baseline, the engine's `push` of the same move alone, so the ratios hold from machine to
machine. Widget messages are serialised to JSON as a kernel would (the comm is a stand-in that
only does that), so the figures include building and encoding every trait update.
- turn via the Python API: `draw_lines` + `remove_house`, each checked by the engine, then the
  board traits (legal edges, removable houses...) and the score panel (bqplot + table);
- turn via clicks: the three browser messages (first edge, second edge, house);
- turn against the bot: the student's finishing call (`remove_house`), which also makes the
  greedy bot choose and push its reply, then refreshes once.
Quality bars: a move under 20 ms median, a bot move under 1 s.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

import ipywidgets.widgets.widget as widget_module

from housing_lab.streetcar import Game, Move, RandomBot
from housing_lab.widgets.streetcar.board import edge_key, hex_key
from housing_lab.widgets.streetcar.lab import StreetcarLab


class JsonComm:
    """Stands in for the kernel's comm: encodes every message as JSON, like the real one."""

    comm_id = "bench"
    kernel = "bench"

    def __init__(self, **kwargs: Any) -> None:
        self.sent = 0

    def open(self, *args: Any, **kwargs: Any) -> None: ...

    def on_msg(self, *args: Any, **kwargs: Any) -> None: ...

    def close(self, *args: Any, **kwargs: Any) -> None: ...

    def send(self, data: Any = None, metadata: Any = None, buffers: Any = None) -> None:
        self.sent += len(json.dumps(data, default=str))


class Clock:
    """Collects the seconds spent inside `with clock:` blocks."""

    def __init__(self) -> None:
        self.times: list[float] = []

    def __enter__(self) -> None:
        self.start = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        self.times.append(time.perf_counter() - self.start)


def median_ms(values: list[float]) -> float:
    return round(statistics.median(values) * 1e3, 3)


def games(count: int) -> list[list[Move]]:
    """Whole random games (their moves), the same in every run."""
    played = []
    for seed in range(count):
        game = Game(seed=seed)
        bots = [RandomBot(seed), RandomBot(seed + 1)]
        while not game.is_over():
            game.push(bots[(game.turn - 1) % 2].choose(game))
        played.append(game.move_stack)
    return played


def engine_push(moves_of: list[list[Move]]) -> list[float]:
    clock = Clock()
    for seed, moves in enumerate(moves_of):
        game = Game(seed=seed)
        for move in moves:
            with clock:
                game.push(move)
    return clock.times


def api_turns(moves_of: list[list[Move]]) -> list[float]:
    clock = Clock()
    for seed, moves in enumerate(moves_of):
        lab = StreetcarLab(seed=seed, opponent=None, bot_delay=0)
        for move in moves:
            with clock:
                lab.draw_lines(list(move.lines))
                if move.remove is not None:
                    lab.remove_house(move.remove)
    return clock.times


def click_turns(moves_of: list[list[Move]]) -> list[float]:
    clock = Clock()
    for seed, moves in enumerate(moves_of):
        lab = StreetcarLab(seed=seed, opponent=None, bot_delay=0)
        board = lab.board
        for move in moves:
            if len(move.lines) != 2:  # a lone edge or a pass: played through the API
                lab.play(list(move.lines), move.remove)
                continue
            with clock:
                for edge in move.lines:
                    board._handle_message(board, {"action": "edge", "edge": edge_key(edge)}, [])
                if move.remove is not None:
                    board._handle_message(
                        board, {"action": "house", "hex": hex_key(move.remove)}, []
                    )
            assert lab.game.peek() == move, "the clicks did not play the move"
    return clock.times


def bot_turns(count: int) -> list[float]:
    """A student's finishing call against the greedy bot: the student's move, the bot's
    choice and push, and one refresh of board and score panel (what the kernel does)."""
    clock = Clock()
    for seed in range(count):
        lab = StreetcarLab(seed=seed, opponent="greedy", bot_delay=0)
        student = RandomBot(seed)
        while lab.phase != "over":
            move = student.choose(lab.game)
            if move.remove is None:
                with clock:
                    lab.draw_lines(list(move.lines))
                continue
            lab.draw_lines(list(move.lines))
            with clock:
                lab.remove_house(move.remove)
    return clock.times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games (a smoke run)")
    args = parser.parse_args()
    widget_module.comm.create_comm = JsonComm  # type: ignore[attr-defined]
    count = 3 if args.quick else 12

    moves_of = games(count)
    baseline = engine_push(moves_of)
    api = api_turns(moves_of)
    clicks = click_turns(moves_of)
    bot = bot_turns(max(2, count // 3))
    base = statistics.median(baseline)
    figures = {
        "games": count,
        "turns": len(baseline),
        "baseline_engine_push_us": round(base * 1e6, 1),
        "api_turn_median_ms": median_ms(api),
        "api_turn_p90_ms": round(sorted(api)[int(0.9 * len(api))] * 1e3, 3),
        "api_turn_over_baseline": round(statistics.median(api) / base),
        "click_turn_median_ms": median_ms(clicks),
        "click_turn_over_baseline": round(statistics.median(clicks) / base),
        "turn_with_bot_reply_median_ms": median_ms(bot),
        "turn_with_bot_reply_max_ms": round(max(bot) * 1e3, 3),
        "turn_with_bot_reply_over_baseline": round(statistics.median(bot) / base),
        "bars": {"move_median_ms": 20, "bot_move_ms": 1000},
    }
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()

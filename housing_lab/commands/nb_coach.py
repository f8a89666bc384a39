"""`housing-lab nb coach SCENARIO.json --card CARD [--goal win|no-loss]`: the fewest changes.

Prints one JSON object: {"card", "goal", "now", "changes", "after", "spending_after",
"seconds"}, with `"changes": null` and a `"reason"` when no set of changes reaches the goal (see
docs/coach.md). Every mistake is a `HousingLabError`: one line on stderr, exit 2, nothing on
stdout.
"""

from __future__ import annotations

import argparse
import json

from housing_lab.commands import arguments, nb_arguments
from housing_lab.jsonio import JsonInputError, load_path
from housing_lab.north_berkeley.constituents import check_card
from housing_lab.north_berkeley.errors import ScenarioFormatError
from housing_lab.north_berkeley.layout import load_layout
from housing_lab.north_berkeley.scenario import scenario_from_dict


def register_coach(commands: argparse._SubParsersAction) -> None:
    """Add `coach` to the `nb` sub-commands."""
    parser = commands.add_parser(
        "coach",
        help="the fewest changes to a scenario that make a constituent card win (or not lose)",
    )
    nb_arguments.add_scenario_file(parser)
    parser.add_argument(
        "--card", type=arguments.text, required=True, help="the constituent card's id"
    )
    parser.add_argument(
        "--goal",
        type=arguments.text,
        default="win",
        help="win or no-loss: +1, or at least 0 (default win)",
    )
    nb_arguments.add_rule_options(parser, newcomers_first=False)
    parser.set_defaults(func=run_coach)


def run_coach(args: argparse.Namespace) -> int:
    from housing_lab.north_berkeley.coaching.exact import (  # heavy: only when asked
        check_goal,
        coach,
    )

    card, goal = check_card(args.card), check_goal(args.goal)  # before reading the file
    layout = load_layout(args.layout)
    try:
        data = load_path(args.file)
    except JsonInputError as error:  # a scenario file's problem is a scenario error
        raise ScenarioFormatError(str(error)) from None
    scenario = scenario_from_dict(data, layout)
    answer = coach(scenario, card, goal, options=nb_arguments.rule_options(args))
    print(json.dumps(answer.to_dict()))
    return 0

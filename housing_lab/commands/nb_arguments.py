"""The options North Berkeley's `score`, `coach`, `sample` and `solve` share, declared once so
that each reads and means the same in every command."""

from __future__ import annotations

import argparse

from housing_lab.commands import arguments
from housing_lab.north_berkeley.policies import RuleOptions


def add_scenario_file(parser: argparse.ArgumentParser) -> None:
    """The scenario file (or stdin) and `--layout`."""
    parser.add_argument(
        "file",
        type=arguments.text,
        help="scenario file in the RULES.md JSON format, or - for stdin",
    )
    parser.add_argument(
        "--layout",
        type=arguments.text,
        help="a custom layout TOML file (default: the printed board)",
    )


def add_rule_options(parser: argparse.ArgumentParser, newcomers_first: bool = True) -> None:
    """The rule options of the move-in (`--newcomers-first` where the command offers it)."""
    parser.add_argument(
        "--low-income-in-adus",
        action="store_true",
        help="rule option: low income residents may take vacant ADU slots",
    )
    if newcomers_first:
        parser.add_argument(
            "--newcomers-first",
            action="store_true",
            help="rule option: newcomers look for homes before displaced residents",
        )


def rule_options(args: argparse.Namespace) -> RuleOptions:
    """The `RuleOptions` of the options `add_rule_options` added."""
    return RuleOptions(
        low_income_in_adus=args.low_income_in_adus,
        displaced_first=not getattr(args, "newcomers_first", False),
    )

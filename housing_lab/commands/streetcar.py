"""`housing-lab streetcar ...` (placeholder until the Streetcar engine lands)."""

from __future__ import annotations

import argparse


def register(groups: argparse._SubParsersAction) -> None:
    parser = groups.add_parser("streetcar", help="the Streetcar game")
    parser.add_subparsers(dest="command", required=True)

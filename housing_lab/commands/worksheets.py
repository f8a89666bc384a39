"""`housing-lab worksheets OUT_DIR`: write the printable worksheets and the answer key.

A thin wrapper over `python -m housing_lab.worksheets` so that a teacher finds it beside the
other commands (`housing-lab --help`). It prints each page written, one path a line. A folder
that cannot be written is refused with one line (exit 2) before the answer key is computed.
"""

from __future__ import annotations

import argparse
import pathlib

from housing_lab.errors import WriteError, quote_path


def register(groups: argparse._SubParsersAction) -> None:
    sheets = groups.add_parser(
        "worksheets",
        help="write the printable worksheets (lesson-1.html ...) and answer-key.html",
    )
    sheets.add_argument("out_dir", metavar="OUT_DIR", help="the folder to write (made if missing)")
    sheets.add_argument(
        "--force", action="store_true", help="replace worksheets already in OUT_DIR"
    )
    sheets.set_defaults(func=run_worksheets)


def run_worksheets(args: argparse.Namespace) -> int:
    from housing_lab.worksheets import write_worksheets

    target = pathlib.Path(args.out_dir)
    blocker = next((p for p in (target, *target.parents) if p.exists()), None)
    if args.out_dir == "" or (blocker is not None and not blocker.is_dir()):
        raise WriteError(
            f"cannot write worksheets to {quote_path(args.out_dir)}: "
            f"{quote_path(blocker) if blocker is not None else 'it'} is not a folder"
        )
    for page in write_worksheets(target, overwrite=args.force):
        print(page)
    return 0

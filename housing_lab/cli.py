"""The `housing-lab` command: one entry point, one sub-command group per game.

Each group lives in `housing_lab/commands/<game>.py` and exposes `register(subparsers)`, which adds
its parser and sets `func` on it. Every user mistake is a `HousingLabError` (or a bad file):
it becomes one line on stderr and exit status 2, with nothing on stdout. Ctrl-C (or SIGTERM)
is one line too, "housing-lab: stopped; nothing written to 'x.jsonl'" (what the command left
written), and exit status 130 (143), whatever moment the signal comes (`outputs.stop_signals`
says why that needs care); no file is left half-written.
"""

from __future__ import annotations

import argparse
import functools
import os
import signal
import sys
from collections.abc import Sequence

from housing_lab.errors import HousingLabError, one_line, quote_path
from housing_lab.outputs import Stopped, stop_signals

EXIT_USAGE = 2
EXIT_STOPPED = 128  # plus the signal's number, as a shell reports it: 130 for Ctrl-C


REQUIRED = "the following arguments are required: "


class _ArgumentParser(argparse.ArgumentParser):
    """argparse prints a usage block on errors; we want the one-line contract instead. A
    command given without its sub-command (`housing-lab`, `housing-lab nb`) is the exception:
    it lists the commands, as `--help` does, on stderr, then the one line (exit 2)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        if self._no_command(message):
            sys.stderr.write(self.format_help())
            _say(f"choose a command: {self.prog} COMMAND (the commands are listed above)")
            raise SystemExit(EXIT_USAGE)
        _say(message)
        raise SystemExit(EXIT_USAGE)

    def _no_command(self, message: str) -> bool:
        """Whether argparse refused this parser's line only for want of its sub-command."""
        if not message.startswith(REQUIRED):
            return False
        missing = message.removeprefix(REQUIRED).split(", ")
        commands = [a.dest for a in self._actions if isinstance(a, argparse._SubParsersAction)]
        return missing == commands[:1] and bool(commands)


def _say(message: str) -> None:
    """The one stderr line of a refusal (a value with a newline or 100 MB stays one line)."""
    print(f"housing-lab: error: {one_line(message)}", file=sys.stderr)


def _with_ids(error: HousingLabError) -> str:
    """An error's line, and for an unknown id the ids one could type instead: the sentence names
    things as printed (a screen shows it too), while a command line is written in ids."""
    from housing_lab.north_berkeley.errors import UnknownIdError

    ids = getattr(error, "ids", ())
    if isinstance(error, UnknownIdError) and ids:
        return f"{error}; the ids: {', '.join(ids)}"
    return str(error)


@functools.cache
def build_parser() -> argparse.ArgumentParser:
    """The whole command's parser, built once per process (parsing never changes it; the
    tests run the command hundreds of times in one process)."""
    from housing_lab.commands import (
        class_poll,
        classroom,
        lessons,
        north_berkeley,
        rooms,
        streetcar,
        worksheets,
    )

    parser = _ArgumentParser(
        prog="housing-lab",
        description="Housing-policy board games as engines, widgets and lessons.",
    )
    groups = parser.add_subparsers(dest="group", required=True, parser_class=_ArgumentParser)
    lessons.register(groups)
    classroom.register(groups)
    class_poll.register(groups)
    north_berkeley.register(groups)
    streetcar.register(groups)
    rooms.register(groups)
    worksheets.register(groups)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        with stop_signals() as stop:  # from the start: a stop during the imports is one too
            try:
                code = _run(argv)
                stop.check()  # a stop whose exception some library swallowed still ends it
            except Exception:
                stop.check()  # whatever a stop's exception became on its way is the stop
                raise
        if sys.stdout is not None:  # None: started with stdout closed, said by `_run`
            sys.stdout.flush()  # a full disk or closed pipe is reported here, not at exit
        return code
    except KeyboardInterrupt as stopped:  # Ctrl-C or SIGTERM (`stop_signals`): one line
        report = stopped.report if isinstance(stopped, Stopped) else ""
        print(f"housing-lab: stopped{'; ' if report else ''}{one_line(report)}", file=sys.stderr)
        return EXIT_STOPPED + (stopped.signum if isinstance(stopped, Stopped) else signal.SIGINT)
    except HousingLabError as error:
        _say(_with_ids(error))
        return EXIT_USAGE
    except BrokenPipeError:  # `housing-lab ... | head`: the reader has all it wanted
        _drop_stdout()
        return 0
    except OSError as error:  # commands word their own file errors; this is the safety net
        _drop_stdout()
        if error.filename is None:  # reading errors are worded where the input is read
            _say(f"cannot write the output: {error.strerror or error}")
        else:
            _say(f"cannot use {quote_path(error.filename)}: {error.strerror or error}")
        return EXIT_USAGE


def _run(argv: Sequence[str] | None) -> int:
    """Parse the command line and run the command (argparse's refusals exit 2)."""
    args = build_parser().parse_args(argv)
    if sys.stdout is None:  # started with stdout closed (`>&-`): nowhere to write a result
        _say("cannot write the output: standard output is closed")
        return EXIT_USAGE
    return int(args.func(args) or 0)


def _drop_stdout() -> None:
    """Point stdout at /dev/null so that the exit's flush cannot fail a second time."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real file behind stdout (tests)
        pass


if __name__ == "__main__":
    raise SystemExit(main())

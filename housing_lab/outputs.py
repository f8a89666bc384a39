"""Writing output files without losing anything: a teacher's edited file is never overwritten
unless asked (`overwrite=True`, the CLI's `--force`), a symlink never carries a write out of
the output folder, and every file is written atomically (a temporary file beside it, then
`os.replace`), so a failure leaves the old file whole and no half-written new one.

Every file the project writes goes through `write_all` (`write_atomic` for one file,
`write_files` for a folder of pages): a failure (a full disk is `WriteError`, never a silent
success), Ctrl-C or a stop signal removes its temporary files, and several files are written
all or nothing. A stop while writing becomes `Stopped`, which says what was (not) written.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import stat
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from housing_lab.errors import WriteError, quote_path

Writer = Callable[[IO[Any]], None]  # writes one file's content into the handle it is given

PIPE = "a named pipe (FIFO)"
_KINDS = {
    stat.S_ISFIFO: PIPE,
    stat.S_ISCHR: "a device",
    stat.S_ISBLK: "a block device",
    stat.S_ISSOCK: "a socket",
}


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Stopped(KeyboardInterrupt):
    """Ctrl-C (SIGINT) or SIGTERM while a command ran; `report` says what it left written
    ("nothing written to 'x.jsonl'"), `signum` which signal stopped it."""

    def __init__(self, report: str = "", signum: int = signal.SIGINT) -> None:
        super().__init__(report)
        self.report, self.signum = report, signum


class StopRequest:
    """Which stop signal reached a command (`stop_signals`), noted apart from the exception
    that carries it: code a signal's exception passes through may swallow it (C code that
    runs Python code and clears its errors: seen while pandas was being imported) or turn it
    into another error (an extension module failing to import), so the exception alone
    cannot tell whether the command was stopped."""

    def __init__(self) -> None:
        self.signum: int | None = None

    def check(self) -> None:
        """Raise `Stopped` if a stop signal came: a stop whose exception was lost resumes
        here."""
        if self.signum is not None:
            raise Stopped(signum=self.signum)


_request = StopRequest()  # the running `stop_signals` block's (none outside a block)


def check_stop() -> None:
    """A checkpoint in a long loop or before a file is placed: raise `Stopped` if a stop
    signal came while the command ran, even if its exception was lost on the way."""
    _request.check()


def not_a_file(path: str | os.PathLike[str]) -> str | None:
    """What `path` is when it exists and is neither a regular file nor a folder (a FIFO, a
    device, a socket: opening one can hang or never end); None otherwise. Looked up with
    `os.stat`, which never opens it."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None  # missing or unnamable: the caller's open says why
    return next((kind for test, kind in _KINDS.items() if test(mode)), None)


def check_new(path: Path, overwrite: bool, folder: Path | None = None) -> None:
    """Refuse, before anything is written, a path that is a symlink, leads out of `folder`, is
    a folder, a FIFO or a device, or exists while `overwrite` is False."""
    if path.is_symlink():
        raise WriteError(f"cannot write {quote_path(path)}: it is a symbolic link")
    if folder is not None and path.resolve().parent != folder.resolve():
        raise WriteError(f"cannot write {quote_path(path)}: it leads out of {quote_path(folder)}")
    _check_target(path)
    if path.exists() and not overwrite:
        raise WriteError(
            f"{quote_path(path)} already exists: nothing was written (--force or "
            "overwrite=True replaces it)"
        )


def _check_target(path: Path) -> None:
    """A folder, FIFO or device cannot be replaced by a file (and must never be: a rename
    over /dev/full would remove the device)."""
    if path.is_dir():
        raise WriteError(f"cannot write {quote_path(path)}: it is a folder")
    kind = not_a_file(path)
    if kind is not None:
        raise WriteError(f"cannot write {quote_path(path)}: it is {kind}, not a file")


def write_atomic(
    path: str | os.PathLike[str], write: Writer, private: bool = False, binary: bool = False
) -> None:
    """Call `write` on a temporary file beside `path`, then move it into place (`write_all`
    for one file)."""
    write_all([(Path(path), write)], private=private, binary=binary)


def write_text(path: str | os.PathLike[str], text: str, private: bool = False) -> None:
    """Write `text` to `path` whole or not at all."""
    write_atomic(path, lambda handle: handle.write(text), private=private)


def write_all(
    files: Sequence[tuple[Path, Writer]], private: bool = False, binary: bool = False
) -> None:
    """Write every file, all or nothing: each to a temporary file beside it (flushed to the
    disk, so a full disk is found here), then all renamed into place.

    The temporary files are readable by this user only; unless `private` (a room's secret
    links), a finished file gets the mode any new file would (0666 less the umask), so
    worksheets and handouts a teacher shares are readable as usual. On any failure, Ctrl-C or
    a stop signal turned into an exception (`stop_signals`), every temporary file is removed;
    if it comes between two renames, the files already renamed are put back as they were (an
    old file replaced is kept as a hard link until all are in place)."""
    for path, _ in files:
        _check_target(path)
    # Each name is noted before its file is made or renamed, so that a stop at any moment
    # (a signal's exception comes between any two steps) finds everything to undo.
    staged: list[tuple[Path, Path]] = []  # (temporary file, target)
    done: list[tuple[Path, Path, Path | None, bool]] = []  # and the old file's link, existed
    current = files[0][0] if files else Path()
    try:
        for path, write in files:
            current = path
            temporary = _hidden(path, "tmp")
            staged.append((temporary, path))
            try:
                handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:  # another file by that name (1 in 2**64): not ours
                staged.pop()
                raise
            _fill(handle, write, private, binary)
        check_stop()  # never place a file once stopped, even if the stop's exception was lost
        for temporary, path in staged:
            current = path
            existed = path.exists()
            old = _hidden(path, "old") if existed else None
            done.append((temporary, path, old, existed))
            if old is not None:
                _link(path, old)
            os.replace(temporary, path)
    except BaseException as error:
        _undo(staged, done)
        stop = _stop_of(error)
        if stop is not None:  # whatever a stop's exception became on its way, it is the stop
            report = stop.report or f"nothing written to {quote_path(current)}"
            raise Stopped(report, stop.signum) from None
        if isinstance(error, OSError):
            raise WriteError(
                f"cannot write {quote_path(current)}: {error.strerror or error}"
            ) from None
        raise
    links = [old for _, _, old, _ in done if old is not None]
    try:
        for link in links:
            link.unlink(missing_ok=True)
    except BaseException:  # all files are in place: still leave no link behind
        for link in links:
            with contextlib.suppress(OSError):
                link.unlink(missing_ok=True)
        raise


def _stop_of(error: BaseException) -> Stopped | None:
    """The stop that `error` is, or that came before it (`StopRequest`); None if neither
    (nor for an exit or a generator's close, which are not failures)."""
    if isinstance(error, Stopped):
        return error
    if not isinstance(error, (Exception, KeyboardInterrupt)):
        return None
    if _request.signum is not None:
        return Stopped(signum=_request.signum)
    if isinstance(error, KeyboardInterrupt):  # raised by Python's own Ctrl-C handler
        return Stopped()
    return None


def _hidden(path: Path, kind: str) -> Path:
    """A new hidden name beside `path`: `.name.<16 hex digits>.tmp` (or `.old`)."""
    return path.with_name(f".{path.name}.{secrets.token_hex(8)}.{kind}")


def _link(path: Path, link: Path) -> None:
    """Keep the old file at `path` as `link` (a hard link: no space, no copy), so that it can
    be put back; where the file system has no hard links it is not kept."""
    with contextlib.suppress(OSError):
        os.link(path, link)


def _undo(
    staged: list[tuple[Path, Path]], done: list[tuple[Path, Path, Path | None, bool]]
) -> None:
    """Remove every temporary file, and undo the renames made: the old files back in place,
    the new ones removed."""
    for temporary, path, old, existed in reversed(done):
        with contextlib.suppress(OSError):
            if temporary.exists():  # not renamed yet
                if old is not None:
                    old.unlink(missing_ok=True)
            elif old is not None and old.exists():
                os.replace(old, path)
            elif not existed:
                path.unlink(missing_ok=True)
    for temporary, _ in staged:
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)


def _fill(handle: int, write: Writer, private: bool, binary: bool) -> None:
    """Write the temporary file open as `handle` with `write`, and flush it to the disk."""
    mode, encoding = ("wb", None) if binary else ("w", "utf-8")
    try:
        if not private:
            os.fchmod(handle, 0o666 & ~_umask())
    except BaseException:
        os.close(handle)
        raise
    with os.fdopen(handle, mode, encoding=encoding) as file:
        write(file)
        file.flush()
        os.fsync(file.fileno())  # some file systems report a full disk only here


def _umask() -> int:
    """The process's umask (read by setting it, so set it straight back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_files(folder: Path, pages: Mapping[str, str], overwrite: bool) -> list[Path]:
    """Write every page into `folder` (made if missing), all checked before the first write,
    all written or none (a folder made here is removed again on failure)."""
    made = not folder.exists()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise WriteError(
            f"cannot write to {quote_path(folder)}: {error.strerror or error}"
        ) from None
    paths = [folder / name for name in pages]
    try:
        for path in paths:
            check_new(path, overwrite, folder)
        write_all(
            [
                (path, lambda file, text=text: file.write(text))  # type: ignore[misc]
                for path, text in zip(paths, pages.values(), strict=True)
            ]
        )
    except BaseException:
        if made:
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise
    return paths


@contextlib.contextmanager
def stop_signals() -> Iterator[StopRequest]:
    """While the block runs, Ctrl-C (SIGINT) and SIGTERM raise `Stopped`, carrying the
    signal's number, so the writes under way remove their temporary files; the request
    yielded notes the signal (for `check_stop`, and for the command's end even if the
    exception was lost). A `Stopped` that Python would print instead of raising (raised in
    a callback, such as the import system's weak-reference ones, or by C code that prints
    the error it clears) is not printed: the stop it carried is noted and resumes at the
    next checkpoint. The old handlers and hooks are back afterwards. Only the main thread
    can set handlers: elsewhere this notes nothing.

    Ctrl-C raises `Stopped` rather than Python's own KeyboardInterrupt: CPython 3.11 notes
    a KeyboardInterrupt of exactly that class leaving any `eval` or `exec` of a string
    (`namedtuple` and `dataclass` use them; importing pandas runs hundreds) as "the program
    died of Ctrl-C", even when it is caught later, and a `python -m` process then kills
    itself with SIGINT when it exits, whatever exit status the command returned."""
    global _request
    request = StopRequest()
    if threading.current_thread() is not threading.main_thread():
        yield request
        return

    def stop(signum: int, frame: object) -> None:
        if request.signum is None:
            request.signum = signum
        raise Stopped(signum=signum)

    unraisable, excepthook = sys.unraisablehook, sys.excepthook

    def unraisable_unless_stop(report: Any) -> None:
        if not isinstance(report.exc_value, Stopped):
            unraisable(report)

    def excepthook_unless_stop(kind: type[BaseException], error: BaseException, trace: Any) -> None:
        if not isinstance(error, Stopped):
            excepthook(kind, error, trace)

    outer, _request = _request, request
    sys.unraisablehook, sys.excepthook = unraisable_unless_stop, excepthook_unless_stop
    previous = [(signum, signal.signal(signum, stop)) for signum in STOP_SIGNALS]
    try:
        yield request
    finally:
        for signum, handler in previous:
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)
        sys.unraisablehook, sys.excepthook = unraisable, excepthook
        _request = outer


@contextlib.contextmanager
def report_stop(report: Callable[[], str]) -> Iterator[None]:
    """A stop inside the block reports `report()` (what the command left written), in place
    of what the write under way said; so does a stop whose exception was lost, at the end
    of the block."""
    try:
        yield
        check_stop()
    except BaseException as error:
        stop = _stop_of(error)
        if stop is None:
            raise
        raise Stopped(report(), stop.signum) from None


class CountedLines:
    """A text stream (stdout) that counts the lines written through it, for the report of a
    stop ("stopped; 1024 results printed"). Each `write` should be whole lines, so that what
    is printed before a stop is whole lines."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream, self.lines = stream, 0

    def write(self, text: str) -> int:
        check_stop()  # a checkpoint of every streaming command
        written = self.stream.write(text)
        self.lines += text.count("\n")
        return written

    def flush(self) -> None:
        self.stream.flush()

    def report(self, one: str, many: str) -> str:
        """What was printed: "1024 results printed, each line whole", "nothing printed"."""
        if self.lines == 0:
            return "nothing printed"
        return f"{self.lines} {one if self.lines == 1 else many} printed, each line whole"

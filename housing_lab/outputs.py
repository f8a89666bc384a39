"""Writing output files without losing anything: a teacher's edited file is never overwritten
unless asked (`overwrite=True`, the CLI's `--force`), a symlink never carries a write out of
the output folder, and every file is written atomically (a temporary file beside it, then
`os.replace`), so a failure leaves the old file whole and no half-written new one.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TextIO

from housing_lab.errors import WriteError, quote_path


def check_new(path: Path, overwrite: bool, folder: Path | None = None) -> None:
    """Refuse, before anything is written, a path that is a symlink, leads out of `folder`, is
    a folder, or exists while `overwrite` is False."""
    if path.is_symlink():
        raise WriteError(f"cannot write {quote_path(path)}: it is a symbolic link")
    if folder is not None and path.resolve().parent != folder.resolve():
        raise WriteError(f"cannot write {quote_path(path)}: it leads out of {quote_path(folder)}")
    if path.is_dir():
        raise WriteError(f"cannot write {quote_path(path)}: it is a folder")
    if path.exists() and not overwrite:
        raise WriteError(
            f"{quote_path(path)} already exists: nothing was written (--force or "
            "overwrite=True replaces it)"
        )


def write_atomic(path: Path, write: Callable[[TextIO], None], private: bool = False) -> None:
    """Call `write` on a temporary file beside `path`, then move it into place.

    The temporary file is made readable by this user only; unless `private` (a room's secret
    links), the finished file gets the mode any new file would (0666 less the umask), so
    worksheets and handouts a teacher shares are readable as usual."""
    try:
        handle, temporary = tempfile.mkstemp(
            dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"
        )
    except OSError as error:
        raise WriteError(f"cannot write {quote_path(path)}: {error.strerror or error}") from None
    try:
        if not private:
            os.fchmod(handle, 0o666 & ~_umask())
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            write(file)
        os.replace(temporary, path)
    except BaseException as error:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise WriteError(
                f"cannot write {quote_path(path)}: {error.strerror or error}"
            ) from None
        raise


def _umask() -> int:
    """The process's umask (read by setting it, so set it straight back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_files(folder: Path, pages: Mapping[str, str], overwrite: bool) -> list[Path]:
    """Write every page into `folder` (made if missing), all checked before the first write."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise WriteError(
            f"cannot write to {quote_path(folder)}: {error.strerror or error}"
        ) from None
    paths = [folder / name for name in pages]
    for path in paths:
        check_new(path, overwrite, folder)
    for path, text in zip(paths, pages.values(), strict=True):
        write_atomic(path, lambda file, text=text: file.write(text))  # type: ignore[misc]
    return paths

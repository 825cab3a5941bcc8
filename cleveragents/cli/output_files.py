"""The files commands write (``--out``): never one of their inputs, ``-`` for standard output.

Every command that takes ``--out`` checks it with `check_output` before it reads anything, and
writes with `write_output`, handing it what `check_output` returned. An output that is an input by
any name (the same path, a hard link, a symbolic link to it, a path through ``..``) is refused
with one line: writing it would replace the input (a read-only one too: the atomic rename needs
only the folder to be writable). The check is made again where the file is written, against the
inputs' identities (device and inode) taken before anything was read, so that a link to an input
swapped in meanwhile is refused too, never written through.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Iterable, Iterator

import typer

STDOUT = "-"
"""``--out -`` writes to standard output (the report, if any, goes to standard error)."""


InputIdentities = frozenset[tuple[int, int]]
"""The inputs a write must never replace, by device and inode (`check_output` gives them)."""


def check_output(out: str, inputs: Iterable[str], option: str = "--out") -> InputIdentities:
    """Refuse `out` when it is a directory, has no folder, or is one of `inputs` (``-``,
    standard input, is never one): one line naming it, before anything is read or done.
    Returns the identities of the inputs that are regular files, for `write_output`."""
    inputs = list(inputs)
    if out == STDOUT:
        return frozenset()
    if os.path.isdir(out):
        raise typer.BadParameter(f"{out} is a directory, not a file", param_hint=option)
    folder = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(folder):
        raise typer.BadParameter(f"no folder {folder} for {out}", param_hint=option)
    for source in inputs:
        if source != STDOUT and _same_file(out, source):
            raise typer.BadParameter(
                f"{out} is the input {source}; no input is ever overwritten: write to another file",
                param_hint=option,
            )
    return frozenset(_regular_file_identities(inputs))


def _regular_file_identities(inputs: list[str]) -> Iterator[tuple[int, int]]:
    for source in inputs:
        try:
            status = os.stat(source)
        except (OSError, ValueError):
            continue
        if stat.S_ISREG(status.st_mode):
            yield status.st_dev, status.st_ino


def _same_file(out: str, source: str) -> bool:
    """Whether writing `out` would write `source`: the same path once links and ``..`` are
    resolved, or the same file (device and inode, links followed). A character device (a
    terminal, /dev/null) is read and written without replacing anything: never refused."""
    if os.path.realpath(out) == os.path.realpath(source):
        return not _is_character_device(source)
    try:
        written, read = os.stat(out), os.stat(source)
    except (OSError, ValueError):
        return False  # one of them is not there (or unnameable): they are not the same file
    same = (written.st_dev, written.st_ino) == (read.st_dev, read.st_ino)
    return same and not stat.S_ISCHR(read.st_mode)


def _is_character_device(path: str) -> bool:
    try:
        return stat.S_ISCHR(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def write_output(out: str, data: bytes, inputs: InputIdentities = frozenset()) -> None:
    """Write `data` to `out`: standard output for ``-``, else the file whole or not at all
    (`write_file`: only a regular file is replaced; a device or FIFO is written in place; none
    of `inputs` is ever replaced, whatever name reaches it by the time it is written)."""
    if out == STDOUT:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    # Here, not at the top: the file adapters: ~22 ms of CPU on `agents --help`.
    from cleveragents.container.files import write_file

    write_file(out, data, never_replace=inputs)


@contextlib.contextmanager
def report_stream(out: str | None) -> Iterator[None]:
    """What a command prints goes to standard error while `out` is standard output, so that
    the data written there is all that standard output holds."""
    if out != STDOUT:
        yield
        return
    with contextlib.redirect_stdout(sys.stderr):
        yield

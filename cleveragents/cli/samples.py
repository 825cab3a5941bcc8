"""`agents samples`: the real sample files shipped in the package, listed or copied out.

The docs' examples run on them (`agents samples --copy .`), wherever the package is installed;
`cleveragents.samples.path(name)` gives the same files to Python.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Annotated

import typer

from cleveragents.cli.output import JsonFlag, emit_json, print_table
from cleveragents.samples import SAMPLES, path


def samples(
    copy_to: Annotated[
        str | None,
        typer.Option(
            "--copy",
            metavar="DIR",
            help="Write the samples into DIR (made if missing). An existing file of the same "
            "name is never overwritten: then nothing is written.",
        ),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """List the sample files shipped with the package, or copy them into a folder.

    Small real public data (a Hadoop log, a click diff, a GitHub API response, a Claude Code
    session, a Rust RFC as a markdown plan, click's types.py), with their sources and licences
    in the package's samples/README.md: the data `agents demo` and the docs' examples use.

    Example: agents samples --copy . && agents artifact compress hadoop-mapreduce.log --budget 500
    """
    if copy_to is None:
        rows = [(name, path(name).stat().st_size, what) for name, what in SAMPLES.items()]
        if as_json:
            emit_json([{"name": n, "bytes": b, "description": w} for n, b, w in rows])
        else:
            print_table("Samples (agents samples --copy DIR writes them out)", _COLUMNS, rows)
        return
    written = _copy(list(SAMPLES), Path(copy_to))
    if as_json:
        emit_json(
            [{"name": target.name, "path": str(target), "bytes": size} for target, size in written]
        )
    else:
        for target, _ in written:
            typer.echo(str(target))


_COLUMNS = ("name", "bytes", "what")


def _copy(names: list[str], folder: Path) -> list[tuple[Path, int]]:
    """Each sample written into `folder` as a new file, or none: a name already taken there
    (a file, a folder, a symbolic link, even a dangling one) refuses the whole copy."""
    if folder.exists() and not folder.is_dir():
        raise typer.BadParameter(f"{folder} is not a folder", param_hint="--copy")
    taken = [folder / name for name in names if os.path.lexists(folder / name)]
    if taken:
        more = f" (and {len(taken) - 1} more)" if len(taken) > 1 else ""
        raise typer.BadParameter(
            f"{taken[0]} already exists{more}; nothing was written (choose another folder)",
            param_hint="--copy",
        )
    written: list[tuple[Path, int]] = []
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name in names:
            data = path(name).read_bytes()
            target = folder / name
            # "x": created here or refused, even if a file or link appeared since the check.
            with target.open("xb") as out:
                out.write(data)
            written.append((target, len(data)))
    except OSError as error:
        for target, _ in written:  # all or nothing
            with contextlib.suppress(OSError):
                target.unlink()
        reason = error.strerror or type(error).__name__
        where = error.filename or folder
        raise typer.BadParameter(
            f"cannot write {where}: {reason}; nothing was written", param_hint="--copy"
        ) from None
    return written

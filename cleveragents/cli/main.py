"""Entry point: runs the Typer app and turns every expected error into one line and an exit code.

Exit codes: 0 success, 2 bad input (usage errors, bad values, unknown ids, missing files),
1 operational failure (the database cannot be reached, a vocabulary cannot be loaded): the
domain's `OperationalError`, or an `OSError` (a full disk). The errors are told apart by their
base class only; this module imports no adapter.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import typer

from cleveragents.cli.app import app
from cleveragents.domain.errors import CleverAgentsError, OperationalError

EXIT_USAGE = 2
EXIT_FAILURE = 1


def main(argv: Sequence[str] | None = None) -> None:
    command = typer.main.get_command(app)
    try:
        result = command.main(
            args=list(argv) if argv is not None else None,
            prog_name="agents",
            standalone_mode=False,
        )
    except typer.Abort:
        _fail("aborted", EXIT_FAILURE)
    except Exception as error:
        _fail(*_classify(error))
    sys.exit(result if isinstance(result, int) else 0)


def _classify(error: Exception) -> tuple[str, int]:
    # Usage errors (bad option, bad value, missing argument). Typer 0.29 vendors its own copy
    # of click, so its exceptions are not click's: recognise them by their interface.
    format_message = getattr(error, "format_message", None)
    exit_code = getattr(error, "exit_code", None)
    if callable(format_message) and isinstance(exit_code, int):
        return str(format_message()), exit_code
    # By base class alone: adapters translate their libraries' errors into the domain's.
    if isinstance(error, OperationalError):
        return str(error), EXIT_FAILURE
    if isinstance(error, CleverAgentsError):
        return str(error), EXIT_USAGE
    if isinstance(error, OSError):  # disk full, I/O error: the machine, not the input
        return f"{error.strerror or error}: {error.filename or ''}".rstrip(": "), EXIT_FAILURE
    raise error  # a bug: let the traceback show


def _fail(message: str, code: int) -> None:
    first_line = " ".join(message.split())  # one line, whatever the library wrote
    if first_line:  # `agents plan` alone prints its help and has nothing more to say
        print(f"error: {first_line}", file=sys.stderr)
    sys.exit(code)

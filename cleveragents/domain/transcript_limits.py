"""How large a transcript file may be, for every driver that reads one.

Reading a Claude Code session takes about ten times its size in memory (its text, its lines,
the parsed messages), so a session at the limit peaks near 2.5 GB, and one made of thousands
of tiny records near 5 GB; above it a file is refused before anything is read.
"""

from __future__ import annotations

from collections.abc import Mapping

from cleveragents.domain.errors import InvalidInputError

MAX_TRANSCRIPT_BYTES = 256 * 1024 * 1024
"""The largest transcript read (256 MiB), unless `MAX_TRANSCRIPT_ENV` says otherwise."""

MAX_TRANSCRIPT_ENV = "CLEVERAGENTS_MAX_TRANSCRIPT_BYTES"
"""The environment variable that overrides `MAX_TRANSCRIPT_BYTES` (a number of bytes)."""


def max_transcript_bytes(environ: Mapping[str, str]) -> int:
    """`MAX_TRANSCRIPT_BYTES`, or `environ`'s override: a positive whole number of bytes,
    anything else an `InvalidInputError` (a limit silently ignored would read what the user
    meant to refuse). An empty or blank variable counts as unset."""
    configured = environ.get(MAX_TRANSCRIPT_ENV, "").strip()
    if not configured:
        return MAX_TRANSCRIPT_BYTES
    try:
        limit = int(configured)
    except ValueError:
        limit = 0
    if limit <= 0:
        raise InvalidInputError(
            f"{MAX_TRANSCRIPT_ENV} must be a positive number of bytes, got {configured!r}"
        )
    return limit

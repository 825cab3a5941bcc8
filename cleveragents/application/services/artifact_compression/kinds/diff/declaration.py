"""The diff kind: unified diffs (``.diff``, ``.patch``, or told by their ``---``/``+++``/``@@``
lines or a name such as ``git_diff``)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from cleveragents.application.services.artifact_compression.kinds.diff.compressor import (
    DiffCompressor,
)
from cleveragents.application.services.artifact_compression.kinds.kind_declaration import (
    KindDeclaration,
    Sniffed,
)

_HUNK_LINE = re.compile(r"^(diff --git |--- |\+\+\+ |@@ -\d+(,\d+)? \+\d+(,\d+)? @@)")


def looks_like_diff(sniffed: Sniffed) -> bool:
    """A name that says diff or patch, a ``diff --git`` line, or ``---`` and ``+++`` lines with
    a hunk header."""
    return bool(sniffed.name_words & {"diff", "patch"}) or _has_diff_lines(sniffed.lines)


def _has_diff_lines(lines: Sequence[str]) -> bool:
    if any(line.startswith("diff --git ") for line in lines):
        return True
    has = {prefix: any(line.startswith(prefix) for line in lines) for prefix in ("--- ", "+++ ")}
    return all(has.values()) and any(_HUNK_LINE.match(line) for line in lines if line[:2] == "@@")


DIFF_KIND = KindDeclaration(DiffCompressor, recognises=looks_like_diff)

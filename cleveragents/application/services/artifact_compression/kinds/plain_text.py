"""Plain text, the fallback kind: the design has no compressor for it, so Tier 2 only removes
whitespace that carries no meaning. That is rarely enough to fit a budget; the design then falls
back to Tier 3, and smart mode packs the lines by the ranks below.

Smart mode's ranks (lower is kept first):

* 1: lines with an error, exception, fail, fatal or warning word (what a judge looks for);
* 2: lines naming a term of the task;
* 3: the first and the last 20 lines (how the text starts and ends);
* 4: every other non-blank line;
* 5: blank lines (they only space the text out).

A line longer than 2,000 characters (minified code, a data dump) also gets a short form, its
first 300 characters and `` …``, at its rank, and the whole line drops two ranks: one such line
could otherwise take the whole budget before anything else of the text is kept.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    KindCompressor,
    LinePlan,
    Priority,
    ShortForm,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.artifact import ArtifactKind

__all__ = ["LONG_LINE_CHARS", "PlainTextCompressor", "plan_with_short_long_lines"]

_INDENT = re.compile(r"[ \t]*")
_RUN = re.compile(r"[ \t]+")
_TROUBLE = re.compile(r"error|exception|fail|fatal|warning", re.IGNORECASE)
_EDGE_LINES = 20
_BLANK = Priority.CONTEXT + 1

LONG_LINE_CHARS = 2_000
"""A line longer than this gets a short form (its head) when smart mode packs it."""
_HEAD_CHARS = 300
_LONG_LINE_DEMOTION = 2  # ranks the whole of a long line falls behind its head


def plan_with_short_long_lines(lines: Sequence[str], priorities: list[int]) -> LinePlan:
    """The plan of `lines` ranked by `priorities`, with every line over `LONG_LINE_CHARS`
    given its first 300 characters (and `` …``) at its rank and the whole line two ranks
    later. Changes `priorities` in place."""
    short_forms: dict[int, ShortForm] = {}
    for index, line in enumerate(lines):
        if len(line) > LONG_LINE_CHARS:
            rank = priorities[index]
            short_forms[index] = ShortForm(line[:_HEAD_CHARS] + " …", rank)
            priorities[index] = rank + _LONG_LINE_DEMOTION
    return LinePlan(priorities, short_forms)


class PlainTextCompressor(KindCompressor):
    """Whitespace normalisation for Tier 2; errors, task lines and both ends kept first."""

    kind = ArtifactKind.TEXT
    streams = False
    rewrites_text = False

    def tier2(self, text: str, terms: TaskTerms) -> str:
        """Trailing whitespace stripped (so CRLF becomes LF), runs of blank lines cut to one,
        runs of spaces and tabs inside a line cut to one space; leading indentation is kept
        because it often carries structure. Idempotent."""
        lines = text.split("\n")
        if text.endswith("\n"):
            lines.pop()
        out: list[str] = []
        for raw in lines:
            line = raw.rstrip()
            if not line and out and not out[-1]:
                continue
            indent = _INDENT.match(line)
            cut = indent.end() if indent else 0
            out.append(line[:cut] + _RUN.sub(" ", line[cut:]))
        return "\n".join(out) + ("\n" if text.endswith("\n") else "")

    def line_plan(self, lines: list[str], terms: TaskTerms) -> LinePlan:
        """Errors and warnings first, then task lines, both ends, the rest, blank lines; see
        the module docstring."""
        last_edge = len(lines) - _EDGE_LINES
        priorities = [
            _rank(line, index < _EDGE_LINES or index >= last_edge, terms)
            for index, line in enumerate(lines)
        ]
        return plan_with_short_long_lines(lines, priorities)


def _rank(line: str, at_an_edge: bool, terms: TaskTerms) -> int:
    """One line's rank (module docstring)."""
    if _TROUBLE.search(line):
        return Priority.CRITICAL
    if terms.matches(line):
        return Priority.IMPORTANT
    if at_an_edge:
        return Priority.USEFUL
    return Priority.CONTEXT if line.strip() else _BLANK

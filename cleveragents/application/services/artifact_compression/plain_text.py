"""Plain text, the fallback kind: the seed has no strategy for it, so Tier 2 only removes
whitespace that carries no meaning. That is rarely enough to fit a budget; the seed then falls
back to Tier 3, and smart mode packs lines by the priorities below."""

from __future__ import annotations

import re

from cleveragents.application.services.artifact_compression.strategy import (
    ArtifactStrategy,
    Priority,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.artifact import ArtifactKind

_INDENT = re.compile(r"[ \t]*")
_RUN = re.compile(r"[ \t]+")
_TROUBLE = re.compile(r"error|exception|fail|fatal|warning", re.IGNORECASE)
_EDGE_LINES = 20


class PlainTextStrategy(ArtifactStrategy):
    """Whitespace normalisation for Tier 2; errors, task lines and both ends kept first."""

    kind = ArtifactKind.TEXT

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

    def priorities(self, lines: list[str], terms: TaskTerms) -> list[Priority]:
        """Errors and warnings are what a judge looks for; both ends frame the text."""
        last_edge = len(lines) - _EDGE_LINES
        result: list[Priority] = []
        for index, line in enumerate(lines):
            if _TROUBLE.search(line):
                result.append(Priority.CRITICAL)
            elif terms.matches(line):
                result.append(Priority.IMPORTANT)
            elif index < _EDGE_LINES or index >= last_edge:
                result.append(Priority.USEFUL)
            else:
                result.append(Priority.CONTEXT)
        return result

    def gap_marker(self, omitted_lines: int) -> str:
        return f"[... {omitted_lines} lines omitted ...]"

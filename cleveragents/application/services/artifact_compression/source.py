"""Whole source files: a language-aware skeleton through the `SourceSkeletonizer` port."""

from __future__ import annotations

import re

from cleveragents.application.ports.source_skeleton import SourceSkeletonizer
from cleveragents.application.services.artifact_compression.plain_text import PlainTextStrategy
from cleveragents.application.services.artifact_compression.strategy import (
    ArtifactStrategy,
    Priority,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.artifact import ArtifactKind
from cleveragents.domain.languages import IMPLEMENTATION_OMITTED, line_comment

_DECLARATION = re.compile(
    r"^\s*(@|(export\s+)?(default\s+)?(pub(\(\w+\))?\s+)?(public|private|protected|static|"
    r"abstract|final|async|override|virtual|inline|extern|const|unsafe)?\s*"
    r"(def|class|struct|interface|enum|trait|impl|fn|func|function|type|namespace|module|"
    r"package|import|from|use|#include|template)\b)"
)
_CALLABLE_HEAD = re.compile(r"^\s*[\w:<>,*&\[\]\s]+\([^;]*\)\s*(const)?\s*(->\s*[^{]+)?[{:]?\s*$")
_ERROR = re.compile(
    r"\b(raise|throw|panic!?|unreachable!|bail!|abort|perror|errors\.New|fmt\.Errorf|Err\()"
    r"|\.expect\(|fprintf\(stderr"
)


MAX_MATCHED_CHARS = 400


class SourceStrategy(ArtifactStrategy):
    """Tier 2 for a whole source file is its skeleton: signatures, declarations and error
    messages kept, bodies elided. When the language has no grammar or the file does not parse,
    the plain-text strategy stands in, so a parse failure never crashes."""

    kind = ArtifactKind.SOURCE

    def __init__(self, skeletonizer: SourceSkeletonizer, language: str) -> None:
        self._skeletonizer = skeletonizer
        self._language = language
        self._comment = line_comment(language)

    def tier2(self, text: str, terms: TaskTerms) -> str:
        skeleton = self._skeletonizer.skeleton(text, self._language)
        if skeleton is None:
            return PlainTextStrategy().tier2(text, terms)
        return skeleton

    def priorities(self, lines: list[str], terms: TaskTerms) -> list[Priority]:
        return [self._priority(line, terms) for line in lines]

    def _priority(self, line: str, terms: TaskTerms) -> Priority:
        if IMPLEMENTATION_OMITTED in line:
            return Priority.CONTEXT
        if _ERROR.search(line):
            return Priority.CRITICAL
        # Matched on the stripped line, capped: leading whitespace would make the patterns'
        # optional-space prefixes backtrack quadratically.
        head = line.lstrip()[:MAX_MATCHED_CHARS]
        if _DECLARATION.match(head) or _CALLABLE_HEAD.match(head):
            return Priority.ESSENTIAL
        if terms.matches(line):
            return Priority.IMPORTANT
        if line.strip() in ("}", "};", ")", "]"):
            return Priority.USEFUL  # closing braces keep the outline balanced when they fit
        return Priority.CONTEXT

    def gap_marker(self, omitted_lines: int) -> str:
        return f"{self._comment} ... ({omitted_lines} lines omitted)"

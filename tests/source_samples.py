"""The ranks of the source compressor's plan, a skeletonizer that knows the roles it is given, and
the ranks of a text from the patterns alone, for the unit and property tests."""

from __future__ import annotations

from cleveragents.application.ports.source_skeleton import SourceLines, SourceSkeletonizer
from cleveragents.application.services.artifact_compression.kinds.source import SourceCompressor
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

NAME, SIGNATURE, ERROR_OR_DOC, TASK, OUTLINE, BODY, QUIET = range(7)


class FixedRoles(SourceSkeletonizer):
    """A skeletonizer that knows the roles it was given (None: no tree, as for Ruby)."""

    def __init__(self, roles: SourceLines | None = None) -> None:
        self.roles = roles
        self.asked: list[tuple[str, str]] = []

    @property
    def languages(self) -> frozenset[str]:
        return frozenset()

    def skeleton(self, source: str, language: str) -> str | None:
        return None

    def signature_lines(self, source: str, language: str) -> SourceLines | None:
        self.asked.append((source, language))
        return self.roles


def ranks(source: str, language: str, task: str | None = None) -> list[int]:
    """The ranks of `source`'s lines from the patterns (no tree)."""
    compressor = SourceCompressor(FixedRoles(), language)
    return list(compressor.line_plan(source.split("\n"), TaskTerms.from_task(task)).priorities)

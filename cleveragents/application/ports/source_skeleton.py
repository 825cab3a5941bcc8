"""The source-skeleton port: language-aware outlines of whole source files."""

from __future__ import annotations

from abc import ABC, abstractmethod


class SourceSkeletonizer(ABC):
    """Outlines a source file: signatures, class/struct/interface declarations and error
    messages kept, function bodies elided with the language's comment and
    ``... (implementation omitted for brevity)``."""

    @property
    @abstractmethod
    def languages(self) -> frozenset[str]:
        """The languages this adapter can outline (names as in `domain.languages`)."""

    @abstractmethod
    def skeleton(self, source: str, language: str) -> str | None:
        """The outline, or None when the language is not supported or the source does not
        parse cleanly (callers then fall back to text). Never raises for bad input."""

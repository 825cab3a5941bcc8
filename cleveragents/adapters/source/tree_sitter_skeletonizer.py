"""The tree-sitter adapter of the `SourceSkeletonizer` port."""

from __future__ import annotations

from cleveragents.adapters.source.grammars import GRAMMAR_LANGUAGES
from cleveragents.adapters.source.source_outline import outline
from cleveragents.application.ports.source_skeleton import SourceSkeletonizer


class TreeSitterSkeletonizer(SourceSkeletonizer):
    """Outlines Python, JavaScript, TypeScript, TSX, Go, Rust, Java, C and C++ with the grammar
    wheels: declarations and signatures kept, bodies elided, error statements kept."""

    @property
    def languages(self) -> frozenset[str]:
        return GRAMMAR_LANGUAGES

    def skeleton(self, source: str, language: str) -> str | None:
        if language not in GRAMMAR_LANGUAGES:
            return None
        try:
            return outline(source, language)
        except Exception:
            # The port promises never to raise on bad input: any surprise from a grammar or an
            # odd tree means "no outline", and the caller falls back to plain text.
            return None

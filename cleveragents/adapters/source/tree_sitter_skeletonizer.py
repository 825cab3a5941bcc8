"""The tree-sitter adapter of the `SourceSkeletonizer` port."""

from __future__ import annotations

from cleveragents.adapters.source.grammars import GRAMMAR_LANGUAGES
from cleveragents.adapters.source.line_roles import signature_lines
from cleveragents.adapters.source.source_outline import outline
from cleveragents.application.ports.source_skeleton import SourceLines, SourceSkeletonizer


class TreeSitterSkeletonizer(SourceSkeletonizer):
    """Outlines Python, JavaScript, TypeScript, TSX, Go, Rust, Java, C and C++ with the grammar
    wheels: declarations and signatures kept, bodies elided, error statements kept; and tells
    smart mode the role of each original line."""

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

    def signature_lines(self, source: str, language: str) -> SourceLines | None:
        if language not in GRAMMAR_LANGUAGES:
            return None
        try:
            return signature_lines(source, language)
        except Exception:
            # As for `skeleton`: a surprise from a grammar means "no answer", and the caller
            # finds the lines its own way.
            return None

"""Which tree-sitter grammar wheel parses each language, loaded once on first use.

The grammar modules are imported lazily so that importing this adapter (and starting the CLI)
does not pay for nine native libraries that a run may never need.
"""

from __future__ import annotations

import importlib
import threading
from dataclasses import dataclass

from tree_sitter import Language, Query

from cleveragents.adapters.source.language_rules import RULES, LanguageRules

# language -> (grammar module, function returning the TSLanguage pointer)
_GRAMMAR_ENTRY_POINTS: dict[str, tuple[str, str]] = {
    "python": ("tree_sitter_python", "language"),
    "javascript": ("tree_sitter_javascript", "language"),
    "typescript": ("tree_sitter_typescript", "language_typescript"),
    "tsx": ("tree_sitter_typescript", "language_tsx"),
    "go": ("tree_sitter_go", "language"),
    "rust": ("tree_sitter_rust", "language"),
    "java": ("tree_sitter_java", "language"),
    "c": ("tree_sitter_c", "language"),
    "cpp": ("tree_sitter_cpp", "language"),
}

GRAMMAR_LANGUAGES: frozenset[str] = frozenset(_GRAMMAR_ENTRY_POINTS)

# Capture names of the outline query; the error queries' own helper captures (`@function`,
# `@macro`, ...) must not collide with them.
OUTLINE_FUNCTION = "outline_function"
OUTLINE_COMMENT = "outline_comment"
OUTLINE_ERROR = "error"

# Capture names of the line-roles query (`line_query`); its errors are captured as `@error` too.
LINE_FUNCTION = "line_function"
LINE_DECLARATION = "line_declaration"
LINE_SIGNATURE = "line_signature"
LINE_IMPORT = "line_import"
LINE_GROUP = "line_group"
LINE_COMMENT = "line_comment"

_loaded: dict[str, Language] = {}
_lock = threading.Lock()


def load_grammar(language: str) -> Language:
    """The tree-sitter `Language` for a name in `GRAMMAR_LANGUAGES`; KeyError for any other."""
    cached = _loaded.get(language)
    if cached is not None:
        return cached
    module_name, entry_point = _GRAMMAR_ENTRY_POINTS[language]
    with _lock:
        if language not in _loaded:
            module = importlib.import_module(module_name)
            _loaded[language] = Language(getattr(module, entry_point)())
        return _loaded[language]


@dataclass(frozen=True, slots=True)
class CompiledGrammar:
    """A grammar with its rules and the outline's query, compiled once.

    One query captures functions (`OUTLINE_FUNCTION`), comments (`OUTLINE_COMMENT`) and error
    statements (`@error`): a query cursor walks the whole tree once per query, so one combined
    query costs a third of three separate ones."""

    language: Language
    rules: LanguageRules
    outline: Query


_compiled: dict[str, CompiledGrammar] = {}


def compiled_grammar(language: str) -> CompiledGrammar:
    """The grammar and compiled queries for a name in `GRAMMAR_LANGUAGES`."""
    cached = _compiled.get(language)
    if cached is not None:
        return cached
    grammar = load_grammar(language)
    rules = RULES[language]
    compiled = CompiledGrammar(
        language=grammar,
        rules=rules,
        outline=Query(
            grammar,
            "\n".join(
                (
                    _any_of(rules.function_types, OUTLINE_FUNCTION),
                    _any_of(rules.comment_types, OUTLINE_COMMENT),
                    rules.error_query,
                )
            ),
        ),
    )
    with _lock:
        return _compiled.setdefault(language, compiled)


_line_queries: dict[str, Query] = {}


def line_query(language: str) -> Query:
    """The query of `signature_lines` for a name in `GRAMMAR_LANGUAGES`, compiled on first use
    (the outline does not need it): one walk of the tree captures functions, declarations,
    bodiless signatures, imports, member groups, comments and error statements."""
    cached = _line_queries.get(language)
    if cached is not None:
        return cached
    rules = RULES[language]
    lines = rules.lines
    patterns = [
        _any_of(rules.function_types, LINE_FUNCTION),
        _any_of(lines.declaration_types, LINE_DECLARATION),
        _any_of(lines.import_types, LINE_IMPORT),
        _any_of(lines.member_group_types, LINE_GROUP),
        _any_of(rules.comment_types, LINE_COMMENT),
        rules.error_query,
        lines.signature_query,
    ]
    query = Query(load_grammar(language), "\n".join(pattern for pattern in patterns if pattern))
    with _lock:
        return _line_queries.setdefault(language, query)


def _any_of(node_types: frozenset[str], capture: str) -> str:
    """A pattern capturing any of `node_types`; empty when there are none."""
    if not node_types:
        return ""
    alternatives = " ".join(f"({node_type})" for node_type in sorted(node_types))
    return f"[{alternatives}] @{capture}"

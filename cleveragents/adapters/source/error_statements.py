"""The error statements an elided body keeps: what a judge needs to see of a hidden body."""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

from tree_sitter import Node

from cleveragents.adapters.source.language_rules import LanguageRules

# A line break just inside a bracket, or before a closing one, joins without a space: ``f(\n x)``
# reads ``f(x)``, not ``f( x)``.
_BREAK_AFTER_OPENING = re.compile(rb"([(\[{])[ \t\r]*\n\s*")
_BREAK_BEFORE_CLOSING = re.compile(rb"\s*\n\s*([)\]}])")


class CommentRanges:
    """Sorted byte ranges of every comment, to cut them out of kept statements (a Python
    ``# comment`` inside a multi-line ``raise`` would swallow the rest once joined on one line)."""

    def __init__(self, comments: Sequence[Node]) -> None:
        ranges = sorted((comment.start_byte, comment.end_byte) for comment in comments)
        self._starts = [start for start, _ in ranges]
        self._ranges = ranges

    def inside(self, start: int, end: int) -> list[tuple[int, int]]:
        """The comment ranges that lie within ``start:end``, in order."""
        first = bisect.bisect_left(self._starts, start)
        last = bisect.bisect_right(self._starts, end)
        return [(s, e) for s, e in self._ranges[first:last] if e <= end]


def kept_error_lines(
    errors: Sequence[Node],
    body: Node,
    rules: LanguageRules,
    source: bytes,
    comments: CommentRanges,
) -> list[str]:
    """One line per error statement under ``body``, in source order, without duplicates."""
    statements = {enclosing_statement(error, body, rules) for error in errors}
    lines: list[str] = []
    for statement in sorted(statements, key=lambda node: node.start_byte):
        line = _one_line(source, statement.start_byte, statement.end_byte, comments)
        is_bare_expression = statement.type not in rules.statement_types
        if is_bare_expression and rules.statements_end_with_semicolon and not line.endswith(";"):
            line += ";"
        if line and line not in lines:
            lines.append(line)
    return lines


def enclosing_statement(node: Node, body: Node, rules: LanguageRules) -> Node:
    """The statement holding ``node`` (``return fmt.Errorf(...)``, not just the call), but never
    a compound one: the climb stops below the nearest block, case or match arm."""
    current = node
    while current.type not in rules.statement_types:
        parent = current.parent
        if parent is None or parent == body or parent.type in rules.container_types:
            break
        current = parent
    return current


def _one_line(source: bytes, start: int, end: int, comments: CommentRanges) -> str:
    pieces: list[bytes] = []
    cursor = start
    for comment_start, comment_end in comments.inside(start, end):
        pieces.append(source[cursor:comment_start])
        cursor = comment_end
    pieces.append(source[cursor:end])
    # A backslash-newline continues the line; joined on one line it must go, or it escapes a space.
    text = b" ".join(pieces).replace(b"\\\r\n", b" ").replace(b"\\\n", b" ")
    text = _BREAK_BEFORE_CLOSING.sub(rb"\1", _BREAK_AFTER_OPENING.sub(rb"\1", text))
    return " ".join(text.decode("utf-8", "replace").split())

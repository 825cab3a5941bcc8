"""The outline algorithm: parse, find the outermost function bodies, rewrite them and drop
comments, all in one pass over the captures of one compiled query (linear in the source)."""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from tree_sitter import Node, Parser, QueryCursor

from cleveragents.adapters.source.body_placeholders import brace_body, python_block
from cleveragents.adapters.source.error_statements import CommentRanges, kept_error_lines
from cleveragents.adapters.source.grammars import (
    OUTLINE_COMMENT,
    OUTLINE_ERROR,
    OUTLINE_FUNCTION,
    compiled_grammar,
)
from cleveragents.adapters.source.language_rules import LanguageRules
from cleveragents.adapters.source.text_edits import Edit, apply_edits, comment_removal, tidy_lines


def outline(source: str, language: str) -> str | None:
    """The outline of ``source``, or None when it does not parse cleanly."""
    grammar = compiled_grammar(language)
    rules = grammar.rules
    data = source.encode("utf-8", "surrogatepass")
    root = Parser(grammar.language).parse(data).root_node
    if root.has_error:
        return None
    captures = QueryCursor(grammar.outline).captures(root)
    comments = _in_order(captures.get(OUTLINE_COMMENT, []))
    functions = _outermost_bodies(_in_order(captures.get(OUTLINE_FUNCTION, [])), rules)
    bodies = _BodyIndex([body for _, body in functions])
    errors_by_body = bodies.group(_in_order(captures.get(OUTLINE_ERROR, [])))
    comment_ranges = CommentRanges(comments)

    edits: list[Edit] = []
    for index, (function, body) in enumerate(functions):
        kept = kept_error_lines(errors_by_body.get(index, []), body, rules, data, comment_ranges)
        if rules.indents_with_blocks:
            edits.append(python_block(data, function, body, kept))
        else:
            edits.append(brace_body(data, body, kept, language, rules.comment_types))
    for comment in comments:
        if bodies.holding(comment) is None:
            edits.append(comment_removal(data, comment.start_byte, comment.end_byte))
    return tidy_lines(apply_edits(data, edits).decode("utf-8", "replace"))


def _in_order(nodes: list[Node]) -> list[Node]:
    return sorted(nodes, key=lambda node: node.start_byte)


def _outermost_bodies(functions: Sequence[Node], rules: LanguageRules) -> list[tuple[Node, Node]]:
    """(function, body) for each body with a block that is not inside another such body; a
    closure in a parameter default comes before its function's body, so order by body."""
    candidates: list[tuple[Node, Node]] = []
    for function in functions:
        body = function.child_by_field_name("body")
        if body is not None and body.type in rules.body_types and not _is_stub(body, rules):
            candidates.append((function, body))
    candidates.sort(key=lambda pair: pair[1].start_byte)
    outermost: list[tuple[Node, Node]] = []
    for function, body in candidates:
        if outermost and body.start_byte < outermost[-1][1].end_byte:
            continue
        outermost.append((function, body))
    return outermost


def _is_stub(body: Node, rules: LanguageRules) -> bool:
    """An empty body, or Python's ``...`` or ``pass``: nothing to omit, and saying otherwise
    would mislead (and lengthen an overload stub)."""
    for statement in body.named_children:
        if statement.type in rules.comment_types or statement.type == "pass_statement":
            continue
        is_ellipsis = (
            statement.type == "expression_statement"
            and statement.named_child_count == 1
            and statement.named_children[0].type == "ellipsis"
        )
        if not is_ellipsis:
            return False
    return True


class _BodyIndex:
    """Finds which of the sorted, disjoint elided bodies holds a node."""

    def __init__(self, bodies: Sequence[Node]) -> None:
        self._starts = [body.start_byte for body in bodies]
        self._ends = [body.end_byte for body in bodies]

    def holding(self, node: Node) -> int | None:
        index = bisect.bisect_right(self._starts, node.start_byte) - 1
        if index >= 0 and node.end_byte <= self._ends[index]:
            return index
        return None

    def group(self, nodes: Sequence[Node]) -> dict[int, list[Node]]:
        groups: dict[int, list[Node]] = {}
        for node in nodes:
            index = self.holding(node)
            if index is not None:
                groups.setdefault(index, []).append(node)
        return groups

"""Smart mode's view of a source file: which of its ORIGINAL lines are signatures, docs, error
statements, closers, members and comments. One query walks the tree once; every function and
declaration is seen at any depth (nested functions, closures, methods of nested classes), not
only the outermost ones the outline elides."""

from __future__ import annotations

from collections.abc import Iterable

from tree_sitter import Node, Parser, QueryCursor

from cleveragents.adapters.source.error_statements import enclosing_statement
from cleveragents.adapters.source.grammars import (
    LINE_COMMENT,
    LINE_DECLARATION,
    LINE_FUNCTION,
    LINE_GROUP,
    LINE_IMPORT,
    LINE_SIGNATURE,
    OUTLINE_ERROR,
    compiled_grammar,
    line_query,
)
from cleveragents.adapters.source.language_rules import LanguageRules
from cleveragents.application.ports.source_skeleton import SourceLines

# A bodiless declaration or signature (a prototype, a type alias) is a signature up to this many
# lines: a 200-line union type is data, not a header.
_MAX_BODILESS_LINES = 12
# An error statement is kept up to this many lines (a long builder chain ending in `.expect(`).
_MAX_ERROR_LINES = 6
_CLOSING = b"})]"
_QUOTES = b"\"'"


def signature_lines(source: str, language: str) -> SourceLines | None:
    """The roles of the lines of `source`, or None when it does not parse cleanly."""
    grammar = compiled_grammar(language)
    data = source.encode("utf-8", "surrogatepass")
    root = Parser(grammar.language).parse(data).root_node
    if root.has_error:
        return None
    captures = QueryCursor(line_query(language)).captures(root)
    roles = _Roles(data.split(b"\n"), grammar.rules, root)
    roles.comments_of(captures.get(LINE_COMMENT, []))
    roles.module_docstring()
    # In document order: whether a declaration or group stands among members depends on the
    # containers around it, which start before it.
    groups = set(captures.get(LINE_GROUP, []))
    for node in _in_order([*captures.get(LINE_DECLARATION, []), *groups]):
        if node in groups:
            roles.group(node)
        else:
            roles.declaration(node)
    for function in captures.get(LINE_FUNCTION, []):
        roles.function(function)
    for signature in captures.get(LINE_SIGNATURE, []):
        roles.signature(signature)
    for node in captures.get(LINE_IMPORT, []):
        roles.signatures.update(range(node.start_point.row, _last_row(node) + 1))
    for error in captures.get(OUTLINE_ERROR, []):
        roles.error(error)
    roles.members_of_containers()
    return roles.result()


def _in_order(nodes: list[Node]) -> list[Node]:
    return sorted(nodes, key=lambda node: node.start_byte)


def _last_row(node: Node) -> int:
    """The last line `node` is on: a node that ends with its line break (a Rust line comment)
    ends at column 0 of the next line, which it does not occupy."""
    end = node.end_point
    if end.column == 0 and end.row > node.start_point.row:
        return end.row - 1
    return end.row


class _Roles:
    """The sets of `SourceLines`, filled node by node."""

    def __init__(self, lines: list[bytes], rules: LanguageRules, root: Node) -> None:
        self._lines = lines
        self._rules = rules
        self._root = root
        self._containers: list[Node] = [root]  # nodes whose children are members
        self._container_set: set[Node] = {root}
        self._wrappers = rules.lines.wrapper_types
        self.names: set[int] = set()
        self.signatures: set[int] = set()
        self.docstrings: set[int] = set()
        self.errors: set[int] = set()
        self.closers: set[int] = set()
        self.members: set[int] = set()
        self.comments: set[int] = set()

    def result(self) -> SourceLines:
        return SourceLines(
            names=frozenset(self.names),
            signatures=frozenset(self.signatures),
            docstrings=frozenset(self.docstrings),
            errors=frozenset(self.errors),
            closers=frozenset(self.closers),
            members=frozenset(self.members),
            comments=frozenset(self.comments),
        )

    # --- what each captured node contributes --------------------------------------------------

    def declaration(self, node: Node) -> None:
        """A class-like declaration: its header, its doc, its closer; its body holds members.
        Without a body it counts only among members (a C `struct s *p` is a type, not one)."""
        body = self._declaration_body(node)
        if body is None:
            if self._outermost(node).parent in self._container_set:
                self._bodiless(node, is_function=False)
            return
        self._header(node, body, is_function=False)
        self._containers.append(body)
        self._container_set.add(body)

    def group(self, node: Node) -> None:
        """A group of members (a Go `const ( ... )` block, a C `#ifdef`) among members."""
        if node.parent in self._container_set:
            self._containers.append(node)
            self._container_set.add(node)

    def function(self, node: Node) -> None:
        """A function at any depth. One with a block body is a header; one without a body is a
        bodiless signature (an interface method); one with an expression body is a signature
        only when something names it (`const double = (x) => x * 2`)."""
        body = node.child_by_field_name("body")
        if body is None:
            self._bodiless(node, is_function=True)
        elif body.type in self._rules.body_types:
            self._header(node, body, is_function=True)
        elif node.parent is not None and node.parent.type in self._rules.lines.wrapper_types:
            self.names.add(self._name_row(node, is_function=True))
            self.signatures.update(range(self._header_start(node), body.start_point.row + 1))

    def signature(self, node: Node) -> None:
        self._bodiless(node, is_function=True)

    def error(self, node: Node) -> None:
        statement = enclosing_statement(node, self._root, self._rules)
        first = statement.start_point.row
        last = min(_last_row(statement), first + _MAX_ERROR_LINES - 1)
        self.errors.update(range(first, last + 1))

    def comments_of(self, comments: Iterable[Node]) -> None:
        """The lines that hold nothing but (parts of) comments."""
        for comment in comments:
            first, last = comment.start_point.row, _last_row(comment)
            alone_before = not self._lines[first][: comment.start_point.column].strip()
            alone_after = comment.end_point.row != last or not self._after(comment).strip()
            if alone_before and (first < last or alone_after):
                self.comments.add(first)
            self.comments.update(range(first + 1, last))
            if last > first and alone_after:
                self.comments.add(last)

    def module_docstring(self) -> None:
        """Python: the first line of the module's docstring is a signature of the module."""
        if not self._rules.lines.doc_comments_precede:
            self.signatures.update(self._docstring_rows(self._root))

    def members_of_containers(self) -> None:
        """The first line of every statement at module level or in a class-like body."""
        comment_types = self._rules.comment_types
        for container in self._containers:
            for child in container.named_children:
                if child.type not in comment_types:
                    self.members.add(child.start_point.row)

    # --- headers ------------------------------------------------------------------------------

    def _header(self, node: Node, body: Node, *, is_function: bool) -> None:
        """Every line from the first decorator to the one that opens the body, the line that
        names it among them; the doc and the line that closes the body."""
        start = self._header_start(node)
        self.names.add(self._name_row(node, is_function=is_function))
        self.signatures.update(range(start, self._header_end(node, body) + 1))
        if self._rules.lines.doc_comments_precede:
            self._doc_comment_above(start)
        else:
            self.docstrings.update(self._docstring_rows(body))
        last = _last_row(body)
        closes = self._lines[last].lstrip()[:1]
        if not self._rules.indents_with_blocks and last > start and closes and closes in _CLOSING:
            self.closers.add(last)

    def _bodiless(self, node: Node, *, is_function: bool) -> None:
        start = self._header_start(node)
        self.names.add(self._name_row(node, is_function=is_function))
        last = min(_last_row(node), node.start_point.row + _MAX_BODILESS_LINES - 1)
        self.signatures.update(range(start, last + 1))
        if self._rules.lines.doc_comments_precede:
            self._doc_comment_above(start)

    def _name_row(self, node: Node, *, is_function: bool) -> int:
        """The line that names a declaration: its ``name``; a C function's declarator; the
        variable an anonymous function is assigned to; else the line it starts on. (A
        declaration's own ``declarator`` is no name: a typedef's comes after its body.)"""
        named = node.child_by_field_name("name")
        if named is None and is_function:
            named = node.child_by_field_name("declarator")
            parent = node.parent
            if named is None and parent is not None and parent.type in self._wrappers:
                named = parent.child_by_field_name("name")
        return (named or node).start_point.row

    def _outermost(self, node: Node) -> Node:
        """`node` with the parents that only wrap it (`export`, `template <...>`, `@decorated`,
        the declaration a function is assigned to)."""
        wrappers = self._rules.lines.wrapper_types
        while node.parent is not None and node.parent.type in wrappers:
            node = node.parent
        return node

    def _header_start(self, node: Node) -> int:
        top = self._outermost(node)
        row = top.start_point.row
        decorators = self._rules.lines.decorator_types
        sibling = top.prev_named_sibling
        while sibling is not None and sibling.type in decorators:
            row = sibling.start_point.row
            sibling = sibling.prev_named_sibling
        return row

    def _header_end(self, node: Node, body: Node) -> int:
        """The line that opens the body: the one with ``{``, or Python's ``:`` (a block starts
        at its first statement, maybe lines below)."""
        if not self._rules.indents_with_blocks:
            return body.start_point.row
        before = body.prev_sibling  # the last child before the body (the `:`, a comment)
        return node.start_point.row if before is None else _last_row(before)

    def _declaration_body(self, node: Node) -> Node | None:
        body = node.child_by_field_name("body")
        if body is not None:
            return body
        member_bodies = self._rules.lines.member_body_types
        level = list(node.named_children)
        for _ in range(3):  # Go: type_declaration > type_spec > struct_type > field list
            for child in level:
                if child.type in member_bodies:
                    return child
            level = [grandchild for child in level for grandchild in child.named_children]
        return None

    # --- docs ---------------------------------------------------------------------------------

    def _docstring_rows(self, body: Node) -> range:
        """The first line of the docstring that opens `body` (Python), when there is one: the
        line with its first words, and the line above it when that holds only the quotes."""
        # The first child that is no comment, found without building the list of them all (a
        # body may have hundreds of statements).
        comment_types = self._rules.comment_types
        count = body.named_child_count
        index = 0
        first = body.named_child(0) if count else None
        while first is not None and first.type in comment_types:
            index += 1
            first = body.named_child(index) if index < count else None
        if first is None or first.type != "expression_statement" or first.named_child_count != 1:
            return range(0)
        string = first.named_children[0]
        if string.type != "string":
            return range(0)
        row = string.start_point.row
        opening = self._lines[row][string.start_point.column :].lstrip(b"rRuUbBfF").strip(_QUOTES)
        if not opening.strip() and row < _last_row(string):
            return range(row, row + 2)
        return range(row, row + 1)

    def _doc_comment_above(self, start: int) -> None:
        """The first worded line of the comment block right above a header."""
        row = start - 1
        while row >= 0 and row in self.comments:
            row -= 1
        for candidate in range(row + 1, start):
            if any(byte in _WORD_BYTES for byte in self._lines[candidate]):
                self.docstrings.add(candidate)
                return

    def _after(self, node: Node) -> bytes:
        return self._lines[node.end_point.row][node.end_point.column :]


_WORD_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")

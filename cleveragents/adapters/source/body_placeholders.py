"""What an elided function body becomes: the placeholder comment plus the kept error lines."""

from __future__ import annotations

from tree_sitter import Node

from cleveragents.adapters.source.text_edits import Edit, line_indent
from cleveragents.domain.languages import IMPLEMENTATION_OMITTED, line_comment

_PYTHON_INDENT_STEP = b"    "


def brace_body(
    source: bytes, body: Node, kept: list[str], language: str, comment_types: frozenset[str]
) -> Edit:
    """``{ ... }`` becomes the placeholder and kept lines, one per line, at the body's indent."""
    statements = [child for child in body.named_children if child.type not in comment_types]
    closing_indent = line_indent(source, body.start_byte)
    indent = _statement_indent(source, body, statements, closing_indent, language)
    lines = [_placeholder(language), *kept]
    inner = b"".join(indent + line.encode("utf-8") + b"\n" for line in lines)
    return Edit(body.start_byte, body.end_byte, b"{\n" + inner + closing_indent + b"}")


def python_block(source: bytes, function: Node, body: Node, kept: list[str]) -> Edit:
    """Everything after the ``:`` becomes an indented block: the docstring's first line, the
    placeholder comment and the kept ``raise`` lines."""
    colon = _colon_before(function, body)
    same_line = body.start_point.row == colon.end_point.row or body.start_byte == body.end_byte
    if same_line:
        indent = line_indent(source, function.start_byte) + _PYTHON_INDENT_STEP
    else:
        indent = line_indent(source, body.start_byte)
    lines = [_placeholder("python").encode("utf-8"), *(line.encode("utf-8") for line in kept)]
    summary = _docstring_summary(source, body)
    if summary is not None:
        lines.insert(0, summary)
    replacement = b"".join(b"\n" + indent + line for line in lines)
    return Edit(colon.end_byte, max(colon.end_byte, body.end_byte), replacement)


def _placeholder(language: str) -> str:
    return f"{line_comment(language)} {IMPLEMENTATION_OMITTED}"


def _statement_indent(
    source: bytes, body: Node, statements: list[Node], closing_indent: bytes, language: str
) -> bytes:
    """The indent the body's own statements use, or one step deeper than the closing brace."""
    if statements and statements[0].start_point.row > body.start_point.row:
        indent = line_indent(source, statements[0].start_byte)
        if len(indent) > len(closing_indent) and indent.startswith(closing_indent):
            return indent
    step = b"\t" if language == "go" or b"\t" in closing_indent else b"    "
    return closing_indent + step


def _colon_before(function: Node, body: Node) -> Node:
    colon: Node | None = None
    for child in function.children:
        if child == body:
            break
        if child.type == ":":
            colon = child
    if colon is None:
        raise ValueError("a Python function without ':' before its body")
    return colon


def _docstring_summary(source: bytes, body: Node) -> bytes | None:
    """The first line of the function's docstring as a one-line docstring: the judge learns what
    the function is for at the cost of one line."""
    first = body.named_children[0] if body.named_child_count else None
    if first is None or first.type != "expression_statement" or first.named_child_count != 1:
        return None
    string = first.named_children[0]
    if string.type != "string" or string.child_count < 2:
        return None
    opening, closing = string.children[0], string.children[-1]
    prefix = (opening.text or b"").rstrip(b"'\"").lower()
    if b"f" in prefix or b"b" in prefix:
        return None  # an f-string or bytes literal is not a docstring
    content = source[opening.end_byte : closing.start_byte]
    summary = next((line.strip() for line in content.splitlines() if line.strip()), b"")
    # Nothing may close or escape the new triple quotes early.
    summary = summary.replace(b'"""', b"'''").rstrip(b'"\\')
    if not summary:
        return None
    return (b"r" if b"r" in prefix else b"") + b'"""' + summary + b'"""'

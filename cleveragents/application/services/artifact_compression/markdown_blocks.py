"""The block parser of Plan/PRD markdown, shared by Tier 2's condensation and smart mode's ranks.

A small subset of CommonMark chosen to never rewrite anything verbatim by mistake: fenced code
(any indentation, unclosed fences run to the end), indented code after a blank line, ATX and
setext headings, tables (lines starting with `|`, and pipe-less tables with an alignment row),
front matter, HTML, link reference definitions and thematic breaks are blocks of their own;
everything else is prose. Lines are split on "\\n" only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from enum import Enum, auto
from typing import NamedTuple

_ATX = re.compile(r" {0,3}#{1,6}(?:[ \t]|$)")
_SETEXT = re.compile(r" {0,3}(?:=+|-+)[ \t]*$")
_FENCE = re.compile(r"\s*(`{3,}|~{3,})(.*)$")
_THEMATIC = re.compile(r" {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
ALIGNMENT = re.compile(r"\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)+\|?\s*$|\s*\|\s*:?-+:?\s*\|\s*$")
_HTML = re.compile(r"\s*</?[A-Za-z][A-Za-z0-9-]*(?:[\s/>]|$)")
_LINK_DEF = re.compile(r" {0,3}\[[^\]]+\]:\s*\S")
_LIST_ITEM = re.compile(r"(\s*(?:[-*+]|\d{1,9}[.)]))(?:[ \t]+|$)")
_QUOTE = re.compile(r"\s*>[ \t]?")
_INDENTS = ("    ", "\t")  # what starts a line of indented code


class Kind(Enum):
    BLANK = auto()
    HEADING = auto()
    TABLE = auto()
    FENCED = auto()
    INDENTED = auto()
    FRONT_MATTER = auto()
    VERBATIM = auto()  # HTML, link definitions, thematic breaks
    PROSE = auto()


class Block(NamedTuple):
    """A parsed block. A named tuple: a document has thousands, and a frozen dataclass takes
    several times longer to build."""

    kind: Kind
    lines: tuple[str, ...]
    closed: bool = True  # fenced code only: whether the closing fence is present
    prefix: str = ""  # prose only: indentation plus list marker or `>`
    text: str = ""  # prose only: the lines joined without their markers


def split_lines(text: str) -> list[str]:
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return lines


def _is_blank(line: str) -> bool:
    return not line.strip()


def _fence_closes(line: str, fence: str) -> bool:
    stripped = line.strip()
    return stripped.startswith(fence) and not stripped.strip(fence[0])


def _is_table_start(lines: list[str], index: int) -> bool:
    line = lines[index]
    if line.lstrip().startswith("|"):
        return True
    return "|" in line and index + 1 < len(lines) and bool(ALIGNMENT.match(lines[index + 1]))


def _opens_fence(line: str) -> str | None:
    if not line.lstrip().startswith(("```", "~~~")):
        return None  # the pattern could not match: spare most lines its cost
    match = _FENCE.match(line)
    if match is None or (match.group(1)[0] == "`" and "`" in match.group(2)):
        return None
    return match.group(1)


def _starts_block(lines: list[str], index: int) -> bool:
    """Whether `lines[index]` interrupts a paragraph (CommonMark-like, plus tables)."""
    line = lines[index]
    if _plain(line):
        return False
    head = line.lstrip()[:1]  # each pattern below is tried only where it can match
    if not head:
        return True  # a blank line
    return (
        head == ">"  # a block quote
        or (head == "#" and _ATX.match(line) is not None)
        or (head in "`~" and _opens_fence(line) is not None)
        or (head in "-*_" and _THEMATIC.match(line) is not None)
        or ((head in "-*+" or head.isdigit()) and _LIST_ITEM.match(line) is not None)
        or (head == "<" and _HTML.match(line) is not None)
        or ("|" in line and _is_table_start(lines, index))
    )


def _plain(line: str) -> bool:
    """A line that can only be prose: it starts with a letter (every block marker starts with
    a space, a digit or punctuation) and has no `|` (no table). Most lines of a document are
    such lines, and this spares them a dozen pattern matches.

    The other tests screen a line by its first non-blank character, the `head`: each pattern
    of a block starts with optional whitespace and then one of a few characters."""
    return line[:1].isalpha() and "|" not in line


def looks_like_block(text: str) -> bool:
    """Whether a sentence written at the start of a line would be parsed as something else."""
    if _plain(text):
        return False
    return bool(_starts_block([text, ""], 0) or _SETEXT.match(text) or _LINK_DEF.match(text))


def _front_matter(lines: list[str]) -> int:
    """How many lines the front matter (`---` ... `---` or `...` at the start) takes."""
    if lines and lines[0].rstrip() == "---":
        for end in range(1, len(lines)):
            if lines[end].rstrip() in ("---", "..."):
                return end + 1
    return 0


def _code(lines: list[str], start: int, indented_ok: bool) -> tuple[Block, int] | None:
    """A fenced code block (unclosed: to the end) or, where allowed, an indented one."""
    fence = _opens_fence(lines[start])
    index = start + 1
    if fence is not None:
        while index < len(lines) and not _fence_closes(lines[index], fence):
            index += 1
        closed = index < len(lines)
        index += closed
        return Block(Kind.FENCED, tuple(lines[start:index]), closed=closed), index
    if not (indented_ok and lines[start].startswith(_INDENTS)):
        return None
    while index < len(lines) and (lines[index].startswith(_INDENTS) or _is_blank(lines[index])):
        index += 1
    while _is_blank(lines[index - 1]):
        index -= 1
    return Block(Kind.INDENTED, tuple(lines[start:index])), index


def _structure(lines: list[str], start: int) -> tuple[Block, int] | None:
    """A heading, table, HTML comment or other line kept verbatim; None for prose."""
    line = lines[start]
    index = start + 1
    stripped = line.lstrip()
    head = stripped[:1]  # each pattern is tried only where it can match (see `_plain`)
    if head == "#" and _ATX.match(line):
        return Block(Kind.HEADING, (line,)), index
    if "|" in line and _is_table_start(lines, start):
        while index < len(lines) and "|" in lines[index] and not _is_blank(lines[index]):
            index += 1
        return Block(Kind.TABLE, tuple(lines[start:index])), index
    if stripped.startswith("<!--"):
        while "-->" not in lines[index - 1] and index < len(lines):
            index += 1
        return Block(Kind.VERBATIM, tuple(lines[start:index])), index
    if (
        (head in "-*_" and _THEMATIC.match(line))
        or (head == "<" and _HTML.match(line))
        or (head == "[" and _LINK_DEF.match(line))
    ):
        return Block(Kind.VERBATIM, (line,)), index
    return None


def parse(lines: list[str]) -> Iterator[Block]:
    """Blocks in order; every input line belongs to exactly one block. Linear: each line is
    looked at a bounded number of times.

    Indented code needs a blank line before it and no list item above it, since indented
    lines after a list item continue the item."""
    index = _front_matter(lines)
    if index:
        yield Block(Kind.FRONT_MATTER, tuple(lines[:index]))
    after_blank = True
    in_list = False
    while index < len(lines):
        if _is_blank(lines[index]):
            after_blank = True
            yield Block(Kind.BLANK, (lines[index],))
            index += 1
            continue
        found = None
        if not _plain(lines[index]):
            found = _code(lines, index, after_blank and not in_list) or _structure(lines, index)
        if found is None:
            found = _prose(lines, index)
            in_list = bool(_LIST_ITEM.match(found[0].prefix)) or (
                in_list and not found[0].prefix.strip() and bool(found[0].prefix)
            )
        else:
            in_list = False
        block, index = found
        after_blank = False
        yield block


def _prose(lines: list[str], start: int) -> tuple[Block, int]:
    """A paragraph, list item or block-quote paragraph starting at `start` (lazy continuation
    lines included), or a setext heading when a plain paragraph is underlined."""
    first = lines[start]
    quote = marker = None
    if not first[:1].isalpha():  # a letter starts neither a quote nor a list item
        quote = _QUOTE.match(first)
        marker = quote or _LIST_ITEM.match(first)
    prefix = marker.group(0) if marker else first[: len(first) - len(first.lstrip())]
    parts = [first[marker.end() if marker else 0 :].strip()]
    index = start + 1
    while index < len(lines):
        line = lines[index]
        if _plain(line):  # can neither end the paragraph nor be quoted or underlined
            parts.append(line.strip())
            index += 1
            continue
        quoted = _QUOTE.match(line) if quote else None
        if quoted is not None:
            if _is_blank(line[quoted.end() :]):
                break  # an empty `>` line ends the quoted paragraph
            parts.append(line[quoted.end() :].strip())
        elif marker is None and _SETEXT.match(line):
            return Block(Kind.HEADING, tuple(lines[start : index + 1])), index + 1
        elif _starts_block(lines, index) or _LINK_DEF.match(line):
            break
        else:
            parts.append(line.strip())
        index += 1
    if marker is not None and not prefix.endswith((" ", "\t")):
        prefix += " "  # an empty item (`-`) or `>` without a space
    text = " ".join(part for part in parts if part)
    return Block(Kind.PROSE, tuple(lines[start:index]), prefix=prefix, text=text), index


def prose_content_start(block: Block, position: int) -> int:
    """Where the text of line `position` of a prose block begins: after its indentation, list
    marker or `>` (the parts `_prose` joins into `block.text`)."""
    line = block.lines[position]
    if line[:1].isalpha():  # no indentation, marker nor `>`: most lines
        return 0
    marker: re.Match[str] | None = None
    if position == 0:
        marker = _QUOTE.match(line) or _LIST_ITEM.match(line)
    elif _QUOTE.match(block.lines[0]):
        marker = _QUOTE.match(line)
    start = marker.end() if marker else 0
    return start + len(line[start:]) - len(line[start:].lstrip())

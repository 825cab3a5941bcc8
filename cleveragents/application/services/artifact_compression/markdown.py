"""Plan/PRD markdown: the seed's Tier 2 keeps every heading, table and code block and condenses
the prose ("preserving key nouns and action verbs", "remove redundant examples").

The condensation is deterministic, with no model: a paragraph or list item keeps its first
sentence, and later sentences only when they carry something a judge checks (a task term, inline
code, a number, a requirement keyword); kept sentences lose filler words from a fixed list.
Kept sentences are written one per line, so smart mode's packer can rank each on its own; a
markdown renderer still joins them into one paragraph.

The block parser is a small subset of CommonMark chosen to never rewrite anything verbatim by
mistake: fenced code (any indentation, unclosed fences run to the end), indented code after a
blank line, ATX and setext headings, tables (lines starting with `|`, and pipe-less tables with an
alignment row), front matter, HTML, link reference definitions and thematic breaks are copied
as they are; everything else is prose. Lines are split on "\\n" only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum, auto
from functools import lru_cache
from typing import NamedTuple

from cleveragents.application.services.artifact_compression.strategy import (
    ArtifactStrategy,
    Priority,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.artifact import ArtifactKind

_ATX = re.compile(r" {0,3}#{1,6}(?:[ \t]|$)")
_SETEXT = re.compile(r" {0,3}(?:=+|-+)[ \t]*$")
_FENCE = re.compile(r"\s*(`{3,}|~{3,})(.*)$")
_THEMATIC = re.compile(r" {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_ALIGNMENT = re.compile(r"\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)+\|?\s*$|\s*\|\s*:?-+:?\s*\|\s*$")
_HTML = re.compile(r"\s*</?[A-Za-z][A-Za-z0-9-]*(?:[\s/>]|$)")
_LINK_DEF = re.compile(r" {0,3}\[[^\]]+\]:\s*\S")
_LIST_ITEM = re.compile(r"(\s*(?:[-*+]|\d{1,9}[.)]))(?:[ \t]+|$)")
_QUOTE = re.compile(r"\s*>[ \t]?")
_INDENTED = re.compile(r"(?: {4}|\t)")

# RFC 2119 keywords in capitals, plus the plain-prose obligations "must" and "shall".
_REQUIREMENT = re.compile(
    r"\b(?:MUST|SHALL|SHOULD|REQUIRED|RECOMMENDED)\b|\b(?:[Mm]ust|[Ss]hall)\b"
)
_REQUIREMENT_PARTS = ("ust", "UST", "hall", "HALL", "SHOULD", "REQUIRED", "RECOMMENDED")


def _has_requirement(text: str) -> bool:
    """`_REQUIREMENT` found in `text`; substring tests first, which are several times faster
    than the pattern and rule out most prose."""
    return any(part in text for part in _REQUIREMENT_PARTS) and bool(_REQUIREMENT.search(text))


_NUMBER = re.compile(r"\d")
_EXAMPLE = re.compile(r"(?:for example|for instance|e\.g\.|example:)", re.IGNORECASE)

# Sentence ends: terminal punctuation, optional closing quotes/brackets, whitespace, then a
# character that can start a sentence. Backtick runs are matched too, to skip inline code.
_BOUNDARY = re.compile(r"`+|[.!?]+[\"')\]]*[ \t]+(?=[^a-z\s])")
_ABBREVIATIONS = frozenset({"e.g", "i.e", "etc", "vs", "cf", "mr", "mrs", "dr", "no", "fig"})

# Spans the filler deletion must never touch: inline code, link targets, autolinks, bare URLs.
_PROTECTED = re.compile(r"(`+[^`]*`+|\]\([^)]*\)|<[^<>\s]+>|https?://\S+)")
_PHRASE_REPLACEMENTS = {
    "it is important to note that": "",
    "it should be noted that": "",
    "it is worth noting that": "",
    "due to the fact that": "because ",
    "in the event that": "if ",
    "for the purpose of": "for ",
    "in order to": "to ",
    "is able to": "can ",
    "are able to": "can ",
}
# One pattern for every wordy phrase (one pass per span of prose, not one per phrase).
_PHRASES = re.compile(
    r"(?<![\w-])(" + "|".join(re.escape(p) for p in _PHRASE_REPLACEMENTS) + r")(?![\w-])[ \t]*",
    re.IGNORECASE,
)


def _replace_phrase(match: re.Match[str]) -> str:
    return _PHRASE_REPLACEMENTS[" ".join(match.group(1).lower().split())]


# Articles and hedges, lower case anywhere or capitalised at the start of a sentence; "rather"
# stays in "rather than", whose meaning depends on it.
_FILLER_WORDS = "the|a|an|really|very|just|basically|actually|simply|quite|somewhat|rather"
_FILLER = re.compile(rf"(?<![^\s([])(?:{_FILLER_WORDS})(?<!rather(?=[ \t]+than\b))[ \t]+")
_FILLER_START = re.compile(rf"^(?:{_FILLER_WORDS.title()})(?<!Rather(?=[ \t]+than\b))[ \t]+")
_SPACE_BEFORE_PUNCT = re.compile(r"[ \t]+(?=[,;:.!?)])")
_SPACES = re.compile(r"[ \t]{2,}")

_CODE_KEEP_LINES = 10
_CODE_MAX_LINES = 15
_FIRST_SENTENCE_WORDS = 20
_MAX_SHRINK_LEVEL = 2


class _Kind(Enum):
    BLANK = auto()
    HEADING = auto()
    TABLE = auto()
    FENCED = auto()
    INDENTED = auto()
    VERBATIM = auto()  # front matter, HTML, link definitions, thematic breaks
    PROSE = auto()


class _Block(NamedTuple):
    """A parsed block. A named tuple: a document has thousands, and a frozen dataclass takes
    several times longer to build."""

    kind: _Kind
    lines: tuple[str, ...]
    closed: bool = True  # fenced code only: whether the closing fence is present
    prefix: str = ""  # prose only: indentation plus list marker or `>`
    text: str = ""  # prose only: the lines joined without their markers


@dataclass(frozen=True, slots=True)
class _Settings:
    """What a pass keeps of the prose and code (tier2 and the shrink levels)."""

    keep_details: bool = True  # later sentences with inline code or numbers
    keep_requirements: bool = True
    first_sentence_words: int | None = None
    code_limit: bool = False


_LEVELS = {
    0: _Settings(),
    1: _Settings(keep_details=False, code_limit=True),
    2: _Settings(
        keep_details=False,
        keep_requirements=False,
        first_sentence_words=_FIRST_SENTENCE_WORDS,
        code_limit=True,
    ),
}


def _split_lines(text: str) -> list[str]:
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
    return "|" in line and index + 1 < len(lines) and bool(_ALIGNMENT.match(lines[index + 1]))


def _opens_fence(line: str) -> str | None:
    match = _FENCE.match(line)
    if match is None or (match.group(1)[0] == "`" and "`" in match.group(2)):
        return None
    return match.group(1)


def _starts_block(lines: list[str], index: int) -> bool:
    """Whether `lines[index]` interrupts a paragraph (CommonMark-like, plus tables)."""
    line = lines[index]
    if _plain(line):
        return False
    return bool(
        _is_blank(line)
        or _ATX.match(line)
        or _opens_fence(line)
        or _THEMATIC.match(line)
        or _LIST_ITEM.match(line)
        or _QUOTE.match(line)
        or _HTML.match(line)
        or _is_table_start(lines, index)
    )


def _plain(line: str) -> bool:
    """A line that can only be prose: it starts with a letter (every block marker starts with
    a space, a digit or punctuation) and has no `|` (no table). Most lines of a document are
    such lines, and this spares them a dozen pattern matches."""
    return line[:1].isalpha() and "|" not in line


def _front_matter(lines: list[str]) -> int:
    """How many lines the front matter (`---` ... `---` or `...` at the start) takes."""
    if lines and lines[0].rstrip() == "---":
        for end in range(1, len(lines)):
            if lines[end].rstrip() in ("---", "..."):
                return end + 1
    return 0


def _code(lines: list[str], start: int, indented_ok: bool) -> tuple[_Block, int] | None:
    """A fenced code block (unclosed: to the end) or, where allowed, an indented one."""
    fence = _opens_fence(lines[start])
    index = start + 1
    if fence is not None:
        while index < len(lines) and not _fence_closes(lines[index], fence):
            index += 1
        closed = index < len(lines)
        index += closed
        return _Block(_Kind.FENCED, tuple(lines[start:index]), closed=closed), index
    if not (indented_ok and _INDENTED.match(lines[start])):
        return None
    while index < len(lines) and (_INDENTED.match(lines[index]) or _is_blank(lines[index])):
        index += 1
    while _is_blank(lines[index - 1]):
        index -= 1
    return _Block(_Kind.INDENTED, tuple(lines[start:index])), index


def _structure(lines: list[str], start: int) -> tuple[_Block, int] | None:
    """A heading, table, HTML comment or other line kept verbatim; None for prose."""
    line = lines[start]
    index = start + 1
    if _ATX.match(line):
        return _Block(_Kind.HEADING, (line,)), index
    if _is_table_start(lines, start):
        while index < len(lines) and "|" in lines[index] and not _is_blank(lines[index]):
            index += 1
        return _Block(_Kind.TABLE, tuple(lines[start:index])), index
    if line.lstrip().startswith("<!--"):
        while "-->" not in lines[index - 1] and index < len(lines):
            index += 1
        return _Block(_Kind.VERBATIM, tuple(lines[start:index])), index
    if _THEMATIC.match(line) or _HTML.match(line) or _LINK_DEF.match(line):
        return _Block(_Kind.VERBATIM, (line,)), index
    return None


def _parse(lines: list[str]) -> Iterator[_Block]:
    """Blocks in order; every input line belongs to exactly one block. Linear: each line is
    looked at a bounded number of times.

    Indented code needs a blank line before it and no list item above it, since indented
    lines after a list item continue the item."""
    index = _front_matter(lines)
    if index:
        yield _Block(_Kind.VERBATIM, tuple(lines[:index]))
    after_blank = True
    in_list = False
    while index < len(lines):
        if _is_blank(lines[index]):
            after_blank = True
            yield _Block(_Kind.BLANK, (lines[index],))
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


def _prose(lines: list[str], start: int) -> tuple[_Block, int]:
    """A paragraph, list item or block-quote paragraph starting at `start` (lazy continuation
    lines included), or a setext heading when a plain paragraph is underlined."""
    first = lines[start]
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
            return _Block(_Kind.HEADING, tuple(lines[start : index + 1])), index + 1
        elif _starts_block(lines, index) or _LINK_DEF.match(line):
            break
        else:
            parts.append(line.strip())
        index += 1
    if marker is not None and not prefix.endswith((" ", "\t")):
        prefix += " "  # an empty item (`-`) or `>` without a space
    text = " ".join(part for part in parts if part)
    return _Block(_Kind.PROSE, tuple(lines[start:index]), prefix=prefix, text=text), index


_BLANK_LINE = _Block(_Kind.BLANK, ("",))


@lru_cache(maxsize=8192)
def _sentences(text: str) -> tuple[str, ...]:
    """Cached: smart mode renders the same prose at several levels."""
    return tuple(_split_sentences(text))


def _split_sentences(text: str) -> list[str]:
    """Split prose into sentences, never inside inline code nor after a common abbreviation."""
    result: list[str] = []
    start = 0
    open_ticks = 0
    for match in _BOUNDARY.finditer(text):
        token = match.group(0)
        if token.startswith("`"):
            if open_ticks == 0:
                open_ticks = len(token)
            elif len(token) == open_ticks:
                open_ticks = 0
            continue
        if open_ticks:
            continue
        if token.startswith("."):
            word = text[text.rfind(" ", 0, match.start()) + 1 : match.start()].lstrip("(\"'[")
            if len(word) == 1 or word.lower() in _ABBREVIATIONS:
                continue  # an initial or an abbreviation, not the end of a sentence
        end = match.start() + len(token.rstrip())
        result.append(text[start:end])
        start = match.end()
    if text[start:].strip():
        result.append(text[start:])
    return result


@lru_cache(maxsize=65536)
def _telegraph(sentence: str) -> str:
    """Delete filler words and phrases outside code and links; keep a capital at the start."""
    parts = _PROTECTED.split(sentence)
    for position in range(0, len(parts), 2):  # even positions are plain prose
        part = parts[position]
        part = _PHRASES.sub(_replace_phrase, part)
        if position == 0:
            part = _FILLER_START.sub("", part.lstrip())
        part = _FILLER.sub("", part)
        parts[position] = _SPACES.sub(" ", _SPACE_BEFORE_PUNCT.sub("", part))
    result = "".join(parts).strip()
    if sentence[:1].isupper() and result[:1].islower():
        result = result[0].upper() + result[1:]
    return result


def _looks_like_block(text: str) -> bool:
    """Whether a sentence written at the start of a line would be parsed as something else."""
    if _plain(text):
        return False
    return bool(_starts_block([text, ""], 0) or _SETEXT.match(text) or _LINK_DEF.match(text))


def _keep_sentence(sentence: str, terms: TaskTerms, settings: _Settings) -> bool:
    if terms.matches(sentence):
        return True
    if settings.keep_requirements and _has_requirement(sentence):
        return True
    return settings.keep_details and ("`" in sentence or bool(_NUMBER.search(sentence)))


def _shorten(sentence: str, words: int | None) -> str:
    split = sentence.split()
    if words is None or len(split) <= words:
        return sentence
    return " ".join(split[:words]) + "…"


def _condense(block: _Block, terms: TaskTerms, settings: _Settings) -> list[str]:
    """A prose block as its kept, telegraphic sentences, one per line."""
    if not block.text:
        return list(block.lines)
    if _EXAMPLE.match(block.text) and not terms.matches(block.text):
        return []  # the seed's "remove redundant examples"
    sentences = _sentences(block.text)
    first = _telegraph(sentences[0])
    if _looks_like_block(first):
        first = sentences[0]  # e.g. "The # sign" must not turn into a heading
    lines = [block.prefix + _shorten(first, settings.first_sentence_words)]
    continuation = block.prefix if block.prefix.lstrip().startswith(">") else ""
    continuation = continuation or re.sub(r"\S", " ", block.prefix)
    for sentence in sentences[1:]:
        if not _keep_sentence(sentence, terms, settings):
            continue
        short = _telegraph(sentence)
        if not short:
            continue
        if _looks_like_block(short):
            lines[-1] += " " + short  # on a line of its own it would start another block
        else:
            lines.append(continuation + short)
    return lines


def _limit_code(block: _Block, settings: _Settings) -> list[str]:
    """Long code blocks keep their first lines and say how many they lost, inside the block."""
    lines = list(block.lines)
    if not settings.code_limit:
        return lines
    if block.kind is _Kind.INDENTED:
        head, body, tail = [], lines, []
        indent = "    "
    else:
        head, body, tail = lines[:1], lines[1 : len(lines) - block.closed], lines[1:][-1:]
        tail = tail if block.closed else []
        indent = lines[0][: len(lines[0]) - len(lines[0].lstrip())]
    if len(body) <= _CODE_MAX_LINES:
        return lines
    omitted = len(body) - _CODE_KEEP_LINES
    marker = f"{indent}... ({omitted} code lines omitted)"
    if len(marker) >= sum(len(line) + 1 for line in body[_CODE_KEEP_LINES:]):
        # The marker would be longer than the lines it stands for; a stronger level must never
        # be longer than a gentler one (`strongest_level`).
        return lines
    return [*head, *body[:_CODE_KEEP_LINES], marker, *tail]


@lru_cache(maxsize=2)
def _blocks(text: str) -> tuple[_Block, ...]:
    """Cached: smart mode renders the same document at several levels."""
    return tuple(_parse(_split_lines(text)))


def _compress(text: str, terms: TaskTerms, settings: _Settings) -> tuple[str, list[_Block]]:
    """Render every block; blank lines only between kept blocks, one at most. Also the blocks
    of the rendering, known here without parsing it again."""
    out: list[str] = []
    shown_blocks: list[_Block] = []
    pending_blank = False
    for block in _blocks(text):
        if block.kind is _Kind.BLANK:
            pending_blank = True
            continue
        if block.kind is _Kind.PROSE:
            rendered = _condense(block, terms, settings)
            shown = _Block(_Kind.PROSE, tuple(rendered))
        elif block.kind in (_Kind.FENCED, _Kind.INDENTED):
            rendered = _limit_code(block, settings)
            shown = _Block(block.kind, tuple(rendered), closed=block.closed)
        else:
            rendered = list(block.lines)
            shown = block
        if not rendered:
            continue
        if pending_blank and out:
            out.append("")
            shown_blocks.append(_BLANK_LINE)
        pending_blank = False
        out.extend(rendered)
        shown_blocks.append(shown)
    body = "\n".join(out)
    return body + ("\n" if text.endswith("\n") else ""), shown_blocks


def _block_priorities(block: _Block, terms: TaskTerms) -> list[Priority]:
    """Headings are essential; a requirement in prose is critical; a line naming a task term
    is important; tables, fences and the first line of prose are useful; the rest is context.
    Built per block, not per line: a rendering has thousands of lines to rank."""
    count = len(block.lines)
    if block.kind is _Kind.HEADING:
        return [Priority.ESSENTIAL] * count
    if block.kind is _Kind.TABLE:
        result = [Priority.USEFUL] * count
    elif block.kind is _Kind.FENCED:
        result = [Priority.USEFUL] + [Priority.CONTEXT] * (count - 1)
        if block.closed:
            result[-1] = Priority.USEFUL
    elif block.kind is _Kind.PROSE:
        result = [Priority.USEFUL] + [Priority.CONTEXT] * (count - 1)
    else:
        result = [Priority.CONTEXT] * count
    requirements = block.kind is _Kind.PROSE and _has_requirement("\n".join(block.lines))
    if requirements or terms:
        for position, line in enumerate(block.lines):
            if requirements and _has_requirement(line):
                result[position] = Priority.CRITICAL
            elif terms.matches(line):
                result[position] = min(result[position], Priority.IMPORTANT)
    return result


class MarkdownStrategy(ArtifactStrategy):
    """The seed's Plan/PRD markdown strategy: structure verbatim, prose condensed."""

    kind = ArtifactKind.MARKDOWN
    strongest_level = _MAX_SHRINK_LEVEL  # each level keeps a subset of the gentler one

    def __init__(self) -> None:
        # One strategy serves one compression: its levels share parsing and sentence work
        # through the caches, and a new compression starts them cold (memory stays bounded,
        # and benchmarks measure real work).
        _blocks.cache_clear()
        _sentences.cache_clear()
        _telegraph.cache_clear()
        # Each rendering's blocks, keyed by its lines joined with "\n": smart mode packs a
        # rendering, and need not parse it again to rank its lines.
        self._rendered: dict[str, list[_Block]] = {}

    def tier2(self, text: str, terms: TaskTerms) -> str:
        return self._render(text, terms, _LEVELS[0])

    def _render(self, text: str, terms: TaskTerms, settings: _Settings) -> str:
        rendered, blocks = _compress(text, terms, settings)
        self._rendered[rendered.removesuffix("\n")] = blocks
        return rendered

    def shrink(self, text: str, terms: TaskTerms, level: int) -> str | None:
        """Level 1: first sentences (plus task and requirement sentences), long code blocks cut
        to 10 lines. Level 2: also the first sentence cut to 20 words; task sentences stay,
        because `--task` says what the reader came for. No level 3: packing takes over."""
        if level < 1:
            raise ValueError(f"shrink level starts at 1, got {level}")
        if level > _MAX_SHRINK_LEVEL:
            return None
        return self._render(text, terms, _LEVELS[level])

    def priorities(self, lines: list[str], terms: TaskTerms) -> list[Priority]:
        """Headings first, then requirements, task lines, tables, fences and first lines."""
        blocks = self._rendered.get("\n".join(lines))
        if blocks is not None and sum(len(block.lines) for block in blocks) != len(lines):
            blocks = None  # e.g. an empty rendering, split into one empty line
        result: list[Priority] = []
        for block in _parse(lines) if blocks is None else blocks:
            result.extend(_block_priorities(block, terms))
        return result

    def gap_marker(self, omitted_lines: int) -> str:
        return f"[... {omitted_lines} lines omitted ...]"

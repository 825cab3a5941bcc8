"""Plan/PRD markdown: Tier 2 keeps every heading, table and code block and condenses
the prose ("preserving key nouns and action verbs", "remove redundant examples"); smart mode
ranks the original lines (`line_plan`).

The condensation is deterministic, with no model: a paragraph or list item keeps its first
sentence, and later sentences only when they carry something a judge checks (a task term, inline
code, a number, a requirement keyword); kept sentences lose filler words from a fixed list.
Kept sentences are written one per line; a markdown renderer still joins them into one
paragraph. The blocks come from `blocks`: everything but prose is copied as it is.
"""

from __future__ import annotations

import re

from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    KindCompressor,
    LinePlan,
)
from cleveragents.application.services.artifact_compression.kinds.markdown.blocks import (
    Block,
    Kind,
    looks_like_block,
    parse,
    split_lines,
)
from cleveragents.application.services.artifact_compression.kinds.markdown.line_plan import (
    markdown_line_plan,
)
from cleveragents.application.services.artifact_compression.kinds.markdown.sentences import (
    split_sentences,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.artifact import ArtifactKind

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


# Every phrase holds one of these, in letters that case-insensitive matching ties to no other
# character (unlike i, k and s): text without any of them, lowered, holds no phrase, and skips
# the pattern.
_PHRASE_PARTS = ("note", "worth", "fact", "event", "purpo", "order", "able to")


def _replace_phrase(match: re.Match[str]) -> str:
    return _PHRASE_REPLACEMENTS[" ".join(match.group(1).lower().split())]


# Articles and hedges, lower case anywhere or capitalised at the start of a sentence; "rather"
# stays in "rather than", whose meaning depends on it.
_FILLER_WORDS = "the|a|an|really|very|just|basically|actually|simply|quite|somewhat|rather"
_FILLER = re.compile(rf"(?<![^\s([])(?:{_FILLER_WORDS})(?<!rather(?=[ \t]+than\b))[ \t]+")
_FILLER_START = re.compile(rf"^(?:{_FILLER_WORDS.title()})(?<!Rather(?=[ \t]+than\b))[ \t]+")
_SPACE_BEFORE_PUNCT = re.compile(r"[ \t]+(?=[,;:.!?)])")
_SPACES = re.compile(r"[ \t]{2,}")
_SPACE_BEFORE_PUNCT_PARTS = tuple(f" {mark}" for mark in ",;:.!?)")
_PROTECTED_PARTS = ("`", "](", "<", "http")  # what every `_PROTECTED` span holds


def _telegraph(sentence: str) -> str:
    """Delete filler words and phrases outside code and links; keep a capital at the start."""
    # Each pattern runs only on text that holds what it needs (substring tests are several
    # times faster than a pattern that finds nothing).
    protected = any(part in sentence for part in _PROTECTED_PARTS)
    parts = _PROTECTED.split(sentence) if protected else [sentence]
    for position in range(0, len(parts), 2):  # even positions are plain prose
        part = parts[position]
        lowered = part.lower()
        if any(word in lowered for word in _PHRASE_PARTS):
            part = _PHRASES.sub(_replace_phrase, part)
        if position == 0:
            part = _FILLER_START.sub("", part.lstrip())
        part = _FILLER.sub("", part)
        if "\t" in part or any(blank in part for blank in _SPACE_BEFORE_PUNCT_PARTS):
            part = _SPACE_BEFORE_PUNCT.sub("", part)
        if "\t" in part or "  " in part:
            part = _SPACES.sub(" ", part)
        parts[position] = part
    result = "".join(parts).strip()
    if sentence[:1].isupper() and result[:1].islower():
        result = result[0].upper() + result[1:]
    return result


def _keep_sentence(sentence: str, terms: TaskTerms) -> bool:
    if terms.matches(sentence):
        return True
    if _has_requirement(sentence):
        return True
    return "`" in sentence or bool(_NUMBER.search(sentence))


def _condense(block: Block, terms: TaskTerms) -> list[str]:
    """A prose block as its kept, telegraphic sentences, one per line."""
    if not block.text:
        return list(block.lines)
    if _EXAMPLE.match(block.text) and not terms.matches(block.text):
        return []  # the design's "remove redundant examples"
    sentences = split_sentences(block.text)
    first = _telegraph(sentences[0])
    if looks_like_block(first):
        first = sentences[0]  # e.g. "The # sign" must not turn into a heading
    lines = [block.prefix + first]
    continuation = block.prefix if block.prefix.lstrip().startswith(">") else ""
    continuation = continuation or re.sub(r"\S", " ", block.prefix)
    for sentence in sentences[1:]:
        if not _keep_sentence(sentence, terms):
            continue
        short = _telegraph(sentence)
        if not short:
            continue
        if looks_like_block(short):
            lines[-1] += " " + short  # on a line of its own it would start another block
        else:
            lines.append(continuation + short)
    return lines


def _compress(text: str, terms: TaskTerms) -> str:
    """Render every block; blank lines only between kept blocks, one at most."""
    out: list[str] = []
    pending_blank = False
    for block in parse(split_lines(text)):
        if block.kind is Kind.BLANK:
            pending_blank = True
            continue
        rendered = _condense(block, terms) if block.kind is Kind.PROSE else list(block.lines)
        if not rendered:
            continue
        if pending_blank and out:
            out.append("")
        pending_blank = False
        out.extend(rendered)
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")


class MarkdownCompressor(KindCompressor):
    """The design's Plan/PRD markdown compressor: structure verbatim, prose condensed. Smart mode
    keeps headings first, then requirement sentences, then first sentences."""

    kind = ArtifactKind.MARKDOWN

    def tier2(self, text: str, terms: TaskTerms) -> str:
        return _compress(text, terms)

    def line_plan(self, lines: list[str], terms: TaskTerms) -> LinePlan:
        return markdown_line_plan(lines, terms)

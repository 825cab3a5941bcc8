"""Text helpers shared by the summary extractors.

Every item a summary holds is a piece of the conversation, trimmed and capped: a summary
replaces messages to save tokens, so one long paragraph must not fill it, and the cap keeps the
start of the piece, which is where a request or an error says what it is about.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

ITEM_LIMIT = 300
ELLIPSIS = "…"

_PARAGRAPH_START = re.compile(r"^\s*(?:[-*+•]|\d+[.)]|#{1,6})\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_FENCE = "```"
_ENDINGS = (".", "!", "?", ":", ";")


def collapse(text: str) -> str:
    """`text` on one line, runs of whitespace as one space, trimmed."""
    return " ".join(text.split())


def clip(text: str, limit: int = ITEM_LIMIT) -> str:
    """`text` collapsed and cut to `limit` characters, the cut marked with an ellipsis."""
    collapsed = collapse(text)
    if len(collapsed) <= limit:
        return collapsed
    return collapsed[: limit - len(ELLIPSIS)].rstrip() + ELLIPSIS


def unique(items: Iterable[str]) -> tuple[str, ...]:
    """The non-empty items once each, in order of first occurrence."""
    return tuple(dict.fromkeys(item for item in items if item))


def sentences(text: str) -> list[str]:
    """The sentences of prose `text`, each collapsed.

    A line is a unit of its own (chat input and model output are not hard-wrapped, so a new
    line starts a new thought), except a line that starts in lower case after one that did not
    end a sentence: that is wrapped prose, joined back. A list item or heading loses its marker;
    fenced code is skipped, as code states no decision or constraint.
    """
    units: list[str] = []
    fenced = False
    for raw in text.split("\n"):
        if raw.lstrip().startswith(_FENCE):
            fenced = not fenced
            continue
        if fenced or not raw.strip():
            continue
        marked = _PARAGRAPH_START.match(raw) is not None
        line = _PARAGRAPH_START.sub("", raw, count=1).strip()
        if units and not marked and line[:1].islower() and not units[-1].endswith(_ENDINGS):
            units[-1] += " " + line
        else:
            units.append(line)
    return [
        collapse(sentence)
        for unit in units
        for sentence in _SENTENCE_END.split(unit)
        if sentence.strip()
    ]

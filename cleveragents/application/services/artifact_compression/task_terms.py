"""`--task` guidance: the words and identifiers of the task, and which lines mention them.

The documented effect: a line (a log line, a diff line, a markdown sentence, a JSON array item)
that contains a term of the task is kept verbatim by the Tier 2 compressors and ranks right
after the structural essentials (headers, errors, signatures) when smart mode has to drop lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Words too common to say anything about what a task is after.
_STOPWORDS = frozenset(
    (
        "a",
        "about",
        "above",
        "after",
        "again",
        "all",
        "also",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "him",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "keep",
        "let",
        "me",
        "more",
        "most",
        "my",
        "no",
        "nor",
        "not",
        "now",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "out",
        "over",
        "own",
        "please",
        "preserve",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "focus",
        "show",
        "make",
        "sure",
        "check",
        "review",
        "look",
        "find",
        "judge",
        "evaluate",
    )
)
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_.:/-]*[A-Za-z0-9_]|[A-Za-z0-9_]{3,}")
_MIN_WORD = 3


@dataclass(frozen=True, slots=True)
class TaskTerms:
    """Terms extracted from a task description; empty when there is no task."""

    terms: tuple[str, ...] = ()

    @classmethod
    def from_task(cls, task: str | None) -> TaskTerms:
        if not task:
            return cls()
        found: dict[str, None] = {}
        for match in _TOKEN.finditer(task):
            word = match.group(0).strip(".:/-")
            if len(word) >= _MIN_WORD and word.lower() not in _STOPWORDS:
                found[word.lower()] = None
        return cls(tuple(sorted(found)))

    def __bool__(self) -> bool:
        return bool(self.terms)

    def matches(self, text: str) -> bool:
        """Whether `text` mentions a term (case-insensitive; identifiers as substrings, so
        `parse_args` matches `self.parse_args(`)."""
        if not self.terms:
            return False
        lowered = text.lower()
        return any(term in lowered for term in self.terms)

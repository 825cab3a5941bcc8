"""Credentials redacted from what a summary copies out of a conversation.

A summary quotes commands, errors, file names and requests; a ``GITHUB_TOKEN=ghp_...`` in a
Bash command would otherwise travel into every later request. Every text goes through the
secret scanner. The scanner reports lines, not offsets, so on a flagged line each word is
masked in turn: a word whose masking makes a finding disappear is (part of) the credential and
is replaced by ``[REDACTED:<kind>]``; what precedes an ``=`` or ``:`` in it (the variable's
name) stays readable. If the line still holds a finding after that, the whole line goes.
The kind is named; the value, or any part of it, never.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from cleveragents.application.ports.secret_scanner import SecretScanner
from cleveragents.domain.compaction_summary import CompactionSummary
from cleveragents.domain.secrets import SecretKind

_WORD = re.compile(r"\S+")
_NAME_PREFIX = re.compile(r"^[^=:]*[=:]")
MAX_WORDS_MASKED = 200
"""A flagged line longer than this many words is replaced whole: masking word by word would
scan it once per word."""
MIN_VALUE_CHARS = 8
"""A shorter word is a keyword around a credential, not the credential: it stays."""


@dataclass(slots=True)
class Redactions:
    """How many credentials were redacted, by kind."""

    kinds: Counter[SecretKind] = field(default_factory=Counter)

    @property
    def count(self) -> int:
        return sum(self.kinds.values())


def placeholder(kind: SecretKind) -> str:
    return f"[REDACTED:{kind.value}]"


def redact_summary(
    summary: CompactionSummary, scanner: SecretScanner
) -> tuple[CompactionSummary, Redactions]:
    """`summary` with every credential in its request and items redacted."""
    texts = [
        summary.latest_request or "",
        *(i for _, items in summary.sections.items() for i in items),
    ]
    redactions = Redactions()
    cleaned = redact_texts(texts, scanner, redactions)
    if not redactions.count:
        return summary, redactions
    latest = cleaned[0] if summary.latest_request is not None else None
    rest = iter(cleaned[1:])
    sections = {
        section: tuple(next(rest) for _ in items) for section, items in summary.sections.items()
    }
    return (
        CompactionSummary(
            latest_request=latest,
            workspace=summary.workspace,
            sections=sections,
            omitted=summary.omitted,
        ),
        redactions,
    )


def redact_texts(texts: list[str], scanner: SecretScanner, redactions: Redactions) -> list[str]:
    """`texts` redacted, scanned as one document (one scan, whatever their number)."""
    lines: list[str] = []
    owner: list[int] = []  # for each line, the index of its text
    for index, text in enumerate(texts):
        for line in text.split("\n"):
            lines.append(line)
            owner.append(index)
    flagged = sorted({finding.line for finding in scanner.scan_text("\n".join(lines))})
    if not flagged:
        return texts
    for number in flagged:
        lines[number - 1] = redact_line(lines[number - 1], scanner, redactions)
    rebuilt: list[list[str]] = [[] for _ in texts]
    for line, index in zip(lines, owner, strict=True):
        rebuilt[index].append(line)
    return ["\n".join(parts) for parts in rebuilt]


def redact_line(line: str, scanner: SecretScanner, redactions: Redactions) -> str:
    """One line with its credentials masked (see the module docstring)."""
    found = _kinds(line, scanner)
    if not found:
        return line
    words = list(_WORD.finditer(line))
    replacements: dict[int, str] = {}
    kinds: dict[int, SecretKind] = {}
    if len(words) <= MAX_WORDS_MASKED:
        for index, word in enumerate(words):
            name = _NAME_PREFIX.match(word.group())
            prefix = name.group() if name else ""
            if len(word.group()) - len(prefix) < MIN_VALUE_CHARS:
                continue  # a keyword ("Bearer", "password:"), not a value
            masked = line[: word.start()] + "x" + line[word.end() :]
            gone = found - _kinds(masked, scanner)
            if gone:
                kinds[index] = min(gone, key=_specific_first)
                replacements[index] = prefix + placeholder(kinds[index])
    redacted = line
    for index in sorted(replacements, reverse=True):
        word = words[index]
        redacted = redacted[: word.start()] + replacements[index] + redacted[word.end() :]
    if not replacements or _kinds(redacted, scanner):
        redactions.kinds.update(found)
        return " ".join(placeholder(kind) for kind in sorted(found, key=_specific_first))
    redactions.kinds.update(kinds.values())
    return redacted


def _specific_first(kind: SecretKind) -> tuple[bool, str]:
    return (kind in (SecretKind.GENERIC_SECRET, SecretKind.OTHER), kind.value)


def _kinds(text: str, scanner: SecretScanner) -> set[SecretKind]:
    return {finding.kind for finding in scanner.scan_text(text)}

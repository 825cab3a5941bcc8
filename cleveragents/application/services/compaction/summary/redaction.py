"""Credentials redacted from everything a summary copies out of a conversation.

A summary quotes commands, errors, file names and requests; a ``GITHUB_TOKEN=ghp_...`` in a
Bash command would otherwise travel into every later request. The folded messages are
redacted before they are summarised (so no cut item can keep the start of a credential), and
the summary once more after (a merged earlier summary). Every text goes through the secret
scanner. The scanner reports lines, not offsets, so on a flagged line each word is masked in
turn: a word whose masking makes a finding disappear is (part of) the credential and is
replaced by ``[REDACTED:<kind>]``; what precedes an ``=`` or ``:`` in it (the variable's name)
stays readable. If the line still holds a finding after that, the whole line goes. A private
key goes whole, from its BEGIN line through its END line. The kind is named; the value, or any
part of it, never.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from cleveragents.application.ports.secret_scanner import SecretScanner
from cleveragents.domain.compaction_summary import CompactionSummary
from cleveragents.domain.secrets import SecretKind, redaction_placeholder
from cleveragents.domain.transcript import Message, TextBlock, ToolCall, ToolResult

_WORD = re.compile(r"\S+")
_NAME_PREFIX = re.compile(r"^[^=:]*[=:]")
_KEY_END = re.compile(r"-----END [A-Z0-9 ]*PRIVATE KEY")
MAX_WORDS_MASKED = 200
"""On a flagged line longer than this many words, only credentials found on their own are
masked (masking each word in its context would scan the whole line once per word); if the
line still holds a finding, it is replaced whole."""
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
    return redaction_placeholder(kind.value)


def redact_messages(
    messages: Sequence[Message], scanner: SecretScanner, redactions: Redactions
) -> list[Message]:
    """`messages` with every credential in their text, tool-call arguments and tool results
    redacted (thinking and other blocks are not summarised, and are left as they are). An
    argument is scanned with its name before it (``token=...``): some credentials are known
    by their name alone. The texts of one message are one document, so a private key split
    across two of its blocks goes whole."""
    texts: list[str] = []
    prefixes: list[str] = []
    groups: list[int] = []
    for index, message in enumerate(messages):
        for block in message.content:
            for prefix, text in _visit(block):
                prefixes.append(prefix)
                texts.append(prefix + text)
                groups.append(index)
    cleaned = redact_texts(texts, scanner, redactions, groups)
    if cleaned is texts:
        return list(messages)
    values = iter(
        text[len(prefix) :] if text.startswith(prefix) else text
        for prefix, text in zip(prefixes, cleaned, strict=True)
    )
    result: list[Message] = []
    for message in messages:
        blocks = [_rebuilt(block, values) for block in message.content]
        result.append(message.model_copy(update={"content": tuple(blocks)}))
    return result


def _visit(block: object) -> list[tuple[str, str]]:
    """(name prefix, text) of each text a block holds, in a fixed order."""
    if isinstance(block, TextBlock):
        return [("", block.text)]
    if isinstance(block, ToolResult):
        return [("", block.content)]
    if isinstance(block, ToolCall):
        found: list[tuple[str, str]] = []
        _strings(block.input, "", found)
        return found
    return []


def _strings(value: Any, name: str, found: list[tuple[str, str]]) -> None:
    if isinstance(value, str):
        found.append((f"{name}=" if name else "", value))
    elif isinstance(value, dict):
        for key, item in value.items():
            _strings(item, str(key), found)
    elif isinstance(value, list):
        for item in value:
            _strings(item, name, found)


def _rebuilt(block: Any, values: Iterator[str]) -> Any:
    if isinstance(block, TextBlock):
        return block.model_copy(update={"text": next(values)})
    if isinstance(block, ToolResult):
        return block.model_copy(update={"content": next(values)})
    if isinstance(block, ToolCall):
        return block.model_copy(update={"input": _replaced(block.input, values)})
    return block


def _replaced(value: Any, values: Iterator[str]) -> Any:
    if isinstance(value, str):
        return next(values)
    if isinstance(value, dict):
        return {key: _replaced(item, values) for key, item in value.items()}
    if isinstance(value, list):
        return [_replaced(item, values) for item in value]
    return value


def redact_summary(
    summary: CompactionSummary, scanner: SecretScanner, redactions: Redactions | None = None
) -> tuple[CompactionSummary, Redactions]:
    """`summary` with every credential in its request and items redacted."""
    redactions = Redactions() if redactions is None else redactions
    before = redactions.count
    items = [i for _, section_items in summary.sections.items() for i in section_items]
    texts = [summary.latest_request or "", *items]
    cleaned = redact_texts(texts, scanner, redactions)
    if redactions.count == before:
        return summary, redactions
    latest = cleaned[0] if summary.latest_request is not None else None
    rest = iter(cleaned[1:])
    sections = {s: tuple(next(rest) for _ in section) for s, section in summary.sections.items()}
    return (
        CompactionSummary(
            latest_request=latest,
            workspace=summary.workspace,
            sections=sections,
            omitted=summary.omitted,
        ),
        redactions,
    )


def redact_texts(
    texts: list[str],
    scanner: SecretScanner,
    redactions: Redactions,
    groups: Sequence[int] | None = None,
) -> list[str]:
    """`texts` redacted, scanned as one document (one scan, whatever their number); `texts`
    itself when nothing was found. A private key runs on through the following texts of its
    group (`groups`: one id per text; by default each text is its own)."""
    group_of = list(range(len(texts))) if groups is None else list(groups)
    lines: list[str | None] = []
    owner: list[int] = []  # for each line, the index of its text
    for index, text in enumerate(texts):
        for part in text.split("\n"):
            lines.append(part)
            owner.append(index)
    group = [group_of[index] for index in owner]
    findings = scanner.scan_text("\n".join(line or "" for line in lines))
    if not findings:
        return texts
    keys = {f.line - 1 for f in findings if f.kind is SecretKind.PRIVATE_KEY}
    for number in sorted({finding.line - 1 for finding in findings}):
        flagged = lines[number]
        if flagged is None:
            continue  # inside a private key already removed
        if number in keys:
            _remove_key(lines, group, number, redactions)
        else:
            lines[number] = redact_line(flagged, scanner, redactions)
    rebuilt: list[list[str]] = [[] for _ in texts]
    for kept, index in zip(lines, owner, strict=True):
        if kept is not None:
            rebuilt[index].append(kept)
    return ["\n".join(parts) for parts in rebuilt]


def _remove_key(
    lines: list[str | None], group: list[int], start: int, redactions: Redactions
) -> None:
    """A private key from its BEGIN line through its END line (or its group's end), as one
    placeholder line."""
    lines[start] = placeholder(SecretKind.PRIVATE_KEY)
    redactions.kinds[SecretKind.PRIVATE_KEY] += 1
    number = start + 1
    while number < len(lines) and group[number] == group[start]:
        line = lines[number]
        lines[number] = None
        if line is not None and _KEY_END.search(line):
            break
        number += 1


def redact_line(line: str, scanner: SecretScanner, redactions: Redactions) -> str:
    """One line with its credentials masked (see the module docstring)."""
    found = _kinds(line, scanner)
    if not found:
        return line
    words = list(_WORD.finditer(line))
    replacements: dict[int, str] = {}
    kinds: dict[int, SecretKind] = {}
    in_context = len(words) <= MAX_WORDS_MASKED
    for index, word in enumerate(words):
        name = _NAME_PREFIX.match(word.group())
        prefix = name.group() if name else ""
        if len(word.group()) - len(prefix) < MIN_VALUE_CHARS:
            continue  # a keyword ("Bearer", "password:"), not a value
        # A credential on its own is found alone; one that needs its context (a password
        # after its keyword) is what the line no longer shows once the word is masked.
        gone = _kinds(word.group(), scanner)
        if not gone and in_context:
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


def _kinds(text: str, scanner: SecretScanner) -> Counter[SecretKind]:
    """The kinds found in `text`, with how many findings of each (two tokens of one kind on
    a line are two findings)."""
    return Counter(finding.kind for finding in scanner.scan_text(text))

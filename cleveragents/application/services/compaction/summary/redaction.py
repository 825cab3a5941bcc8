"""Credentials redacted from everything a summary copies out of a conversation.

A summary quotes commands, errors, file names and requests; a ``GITHUB_TOKEN=ghp_...`` in a
Bash command would otherwise travel into every later request. The folded messages are
redacted before they are summarised (so no cut item can keep the start of a credential), and
the summary once more after (a merged earlier summary). Every text goes through the secret
scanner. All the texts are scanned as one document, once, and each credential loses its whole value
(`governance.text_redaction`: the scanner's span widened to the end of the value) to
``[REDACTED:<kind>]``; what precedes it (a variable's name before ``=``, the words of a command)
stays readable. A private key goes from its BEGIN line through its END line, its body lines
left empty. The result is scanned once more, and a line that still holds a finding goes whole.
Linear in the texts' length, whatever the number of credentials. The kind is named; the value,
or any part of it, never.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from cleveragents.application.ports.secret_scanner import SecretScanner
from cleveragents.application.services.governance.text_redaction import redact_document
from cleveragents.domain.compaction_summary import CompactionSummary
from cleveragents.domain.secrets import SecretKind, redaction_placeholder
from cleveragents.domain.transcript import Message, TextBlock, ToolCall, ToolResult

_GROUP_BREAK = "\x00"
"""A line between two groups' texts: no credential pattern takes a NUL, so no span crosses it."""


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
    itself when nothing was found. A credential that spans lines (a private key) runs on
    through the following texts of its group (`groups`: one id per text; by default each text
    is its own), never into another group's."""
    if not texts:
        return texts
    group_of = list(range(len(texts))) if groups is None else list(groups)
    parts: list[str] = []
    for index, text in enumerate(texts):
        if index and group_of[index] != group_of[index - 1]:
            parts.append(_GROUP_BREAK)
        parts.append(text)
    redacted = redact_document("\n".join(parts), scanner)
    if not redacted.kinds:
        return texts
    redactions.kinds.update(redacted.kinds)
    lines = iter(redacted.text.split("\n"))
    cleaned: list[str] = []
    for index, text in enumerate(texts):
        if index and group_of[index] != group_of[index - 1]:
            next(lines)  # the group break, never part of a span: it holds no value byte
        cleaned.append("\n".join(next(lines) for _ in range(text.count("\n") + 1)))
    return cleaned


def redact_line(line: str, scanner: SecretScanner, redactions: Redactions) -> str:
    """One line (or any one text) with its credentials redacted whole."""
    return redact_texts([line], scanner, redactions)[0]

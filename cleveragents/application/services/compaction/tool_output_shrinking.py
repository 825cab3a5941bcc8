"""Oversized tool results in the kept part of a compaction, shrunk without losing them.

The kept part of a compaction is verbatim, but one tool result (a 40k-token test log, a file
dump) can be larger than everything else together. Such a result is compressed for its kind
with the artifact compressor in smart mode (a log keeps its ERROR lines and its end, JSON its
structure, a diff its hunks), and the complete output is imported into the artifact store. The
marker at the end of the shrunk result says how large it was and how to read it back, by its
SHA-256 (the same every run); the output is stored only once the compaction succeeds. An
output holding a credential is not kept anywhere; the marker says so, and the shrunk text is
redacted.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from cleveragents.application.ports.secret_scanner import SecretScanner
from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.artifact_compression.artifact_compressor import (
    ArtifactCompressorService,
)
from cleveragents.application.services.artifact_store.artifact_store import ArtifactStore
from cleveragents.application.services.compaction.message_tokens import message_tokens
from cleveragents.application.services.compaction.summary.redaction import (
    Redactions,
    redact_texts,
)
from cleveragents.domain.artifact import CompressionMode
from cleveragents.domain.transcript import RESULTS_SHORTENED, Message, ToolCall, ToolResult

MIN_SHRUNK_TOKENS = 400
"""A result is never shrunk below this: under it a compressed log or JSON says too little."""

ANALYSED_CHARS = 1 << 20
"""Of a longer output, only its first and last `ANALYSED_CHARS` characters are compressed:
the shrunk text holds a few thousand tokens at most, the whole output is in the store, and the
compressor's analysis of a 250 MB log would take several times its size in memory."""


@dataclass(frozen=True, slots=True)
class PendingOutput:
    """A full output to store when the compaction that shrank it succeeds."""

    data: bytes
    label: str
    project: str | None


@dataclass(frozen=True, slots=True)
class ShrunkResult:
    """One tool result that was shrunk: its call, sizes, and where its full output is (the
    artifact id once stored; `pending` until then)."""

    call_id: str
    tokens_before: int
    tokens_after: int
    artifact_id: str | None
    pending: PendingOutput | None = field(default=None, repr=False, compare=False)
    full_output: str | None = field(default=None, repr=False, compare=False)
    """The full output when no store keeps it, as the compaction was given it (its
    credentials redacted, unless the caller kept them): the caller's to keep."""

    def as_dict(self) -> dict[str, object]:
        return {
            "call_id": self.call_id,
            "tokens_before": self.tokens_before,
            "tokens_after": self.tokens_after,
            "artifact_id": self.artifact_id,
        }


ShrinkCache = dict[tuple[str, int], tuple[ToolResult, "ShrunkResult"]]


class ToolOutputShrinker:
    """Shrinks tool results; see the module docstring. `store` None keeps no full output
    (the marker then says the output was shortened and is not kept)."""

    def __init__(
        self,
        compressor: ArtifactCompressorService,
        counter: TokenCounter,
        scanner: SecretScanner,
        store: ArtifactStore | None = None,
    ) -> None:
        self._compressor = compressor
        self._counter = counter
        self._scanner = scanner
        self._store = store

    def shrink_messages(
        self,
        messages: Sequence[Message],
        target_tokens: int,
        *,
        costs: Sequence[int] | None = None,
        project: str | None = None,
        done: ShrinkCache | None = None,
    ) -> tuple[list[Message], list[ShrunkResult]]:
        """`messages` with their largest tool results shrunk until they cost at most
        `target_tokens` in all (or until no result can shrink further). `costs` are the
        messages' token counts when the caller has them (else they are counted). `done`
        remembers what one compaction already shrank: trying several cuts may ask for the
        same result again, and it is compressed and stored once."""
        done = {} if done is None else done
        costs = message_tokens(messages, self._counter) if costs is None else costs
        excess = sum(costs) - target_tokens
        if excess <= 0:
            return list(messages), []
        calls = {call.id: call for m in messages for call in m.tool_calls}
        sizes = sorted(
            (
                (self._counter.count(block.content), index, position)
                for index, message in enumerate(messages)
                # A result costs less than its message: a small message holds none to shrink.
                if costs[index] > MIN_SHRUNK_TOKENS
                for position, block in enumerate(message.content)
                if isinstance(block, ToolResult)
            ),
            reverse=True,
        )
        shrunk: list[ShrunkResult] = []
        updated = list(messages)
        for tokens, index, position in sizes:
            if excess <= 0 or tokens <= MIN_SHRUNK_TOKENS:
                break
            block = updated[index].content[position]
            assert isinstance(block, ToolResult)
            budget = max(MIN_SHRUNK_TOKENS, tokens - excess)
            key = (block.call_id, budget)
            if key not in done:
                done[key] = self._shrunk(block, calls.get(block.call_id), tokens, budget, project)
            replacement, record = done[key]
            if record.tokens_after >= tokens:
                continue
            content = list(updated[index].content)
            content[position] = replacement
            extra = dict(updated[index].extra)
            extra[RESULTS_SHORTENED] = [*extra.get(RESULTS_SHORTENED, []), block.call_id]
            updated[index] = updated[index].model_copy(
                update={"content": tuple(content), "extra": extra}
            )
            excess -= tokens - record.tokens_after
            shrunk.append(record)
        return updated, shrunk

    def _shrunk(
        self,
        result: ToolResult,
        call: ToolCall | None,
        tokens: int,
        budget: int,
        project: str | None,
    ) -> tuple[ToolResult, ShrunkResult]:
        data = result.content.encode("utf-8", "surrogatepass")
        label = f"{call.name if call else 'tool'}/{result.call_id}"
        pending, marker = self._planned_storage(data, label, project)
        marker_tokens = self._counter.count(marker)
        compressed = self._compressor.compress_text(
            f"{call.name if call else 'tool'}-output",
            _bounded(result.content),
            max(1, budget - marker_tokens),
            mode=CompressionMode.SMART,
        )
        text = compressed.content
        if pending is None:  # not kept: what is shown must not carry a credential either
            text = redact_texts([text], self._scanner, Redactions())[0]
        shrunk = result.model_copy(update={"content": f"{text}\n{marker}"})
        record = ShrunkResult(
            result.call_id,
            tokens,
            self._counter.count(shrunk.content),
            None,
            pending,
            full_output=result.content if pending is None else None,
        )
        return shrunk, record

    def _planned_storage(
        self, data: bytes, label: str, project: str | None
    ) -> tuple[PendingOutput | None, str]:
        """What will be stored once the compaction succeeds, and the marker naming it by its
        SHA-256 (the same every run; a failed compaction stores nothing)."""
        size = f"{len(data):,} bytes"
        if self._store is None:
            return (
                None,
                f"[output shortened to fit the context window; the full {size} are not kept]",
            )
        findings = self._scanner.scan_bytes(data)
        if findings:
            kinds = ", ".join(sorted({finding.kind.value for finding in findings}))
            return None, (
                f"[output shortened to fit the context window; the full {size} were not kept: "
                f"they hold credentials ({kinds})]"
            )
        reference = f"sha256:{hashlib.sha256(data).hexdigest()}"
        marker = (
            f"[output shortened to fit the context window; the full {size} are stored as "
            f"{reference}: agents artifact read {reference} --length {len(data)}]"
        )
        return PendingOutput(data, label, project), marker

    def store(self, shrunk: Sequence[ShrunkResult]) -> tuple[ShrunkResult, ...]:
        """Store the full outputs of a successful compaction's shrunk results; each record
        then names its artifact."""
        stored: list[ShrunkResult] = []
        for record in shrunk:
            pending = record.pending
            if pending is None or self._store is None:
                stored.append(record)
                continue
            imported = self._store.import_output(
                pending.data, pending.label, project=pending.project
            )
            artifact_id = None if imported.blocked else imported.artifact.id
            # Refused by the store: the caller keeps the output the compaction was given.
            full_output = (
                pending.data.decode("utf-8", "surrogatepass") if artifact_id is None else None
            )
            stored.append(
                ShrunkResult(
                    record.call_id,
                    record.tokens_before,
                    record.tokens_after,
                    artifact_id,
                    full_output=full_output,
                )
            )
        return tuple(stored)


def _bounded(text: str) -> str:
    """`text`, or its head and tail with the size of the middle left out named between them."""
    if len(text) <= 2 * ANALYSED_CHARS:
        return text
    left_out = len(text) - 2 * ANALYSED_CHARS
    head, tail = text[:ANALYSED_CHARS], text[-ANALYSED_CHARS:]
    return f"{head}\n[... {left_out:,} characters not analysed here ...]\n{tail}"

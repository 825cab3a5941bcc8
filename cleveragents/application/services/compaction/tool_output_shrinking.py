"""Oversized tool results in the kept part of a compaction, shrunk without losing them.

The kept part of a compaction is verbatim, but one tool result (a 40k-token test log, a file
dump) can be larger than everything else together. Such a result is compressed for its kind
with the artifact compressor in smart mode (a log keeps its ERROR lines and its end, JSON its
structure, a diff its hunks), and the complete output is imported into the artifact store. The
marker at the end of the shrunk result says how large it was and how to read it back. An
output the store refuses (it holds a credential) is not kept anywhere; the marker says so, and
the shrunk text is redacted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cleveragents.application.ports.secret_scanner import SecretScanner
from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.artifact_compressor import ArtifactCompressorService
from cleveragents.application.services.artifact_store import ArtifactStore
from cleveragents.application.services.compaction.message_tokens import message_tokens
from cleveragents.application.services.compaction.summary_redaction import (
    Redactions,
    redact_texts,
)
from cleveragents.domain.artifact import CompressionMode
from cleveragents.domain.transcript import Message, ToolCall, ToolResult

MIN_SHRUNK_TOKENS = 400
"""A result is never shrunk below this: under it a compressed log or JSON says too little."""


@dataclass(frozen=True, slots=True)
class ShrunkResult:
    """One tool result that was shrunk: its call, sizes, and where its full output is."""

    call_id: str
    tokens_before: int
    tokens_after: int
    artifact_id: str | None


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
        project: str | None = None,
        done: ShrinkCache | None = None,
    ) -> tuple[list[Message], list[ShrunkResult]]:
        """`messages` with their largest tool results shrunk until they cost at most
        `target_tokens` in all (or until no result can shrink further). `done` remembers
        what one compaction already shrank: trying several cuts may ask for the same result
        again, and it is compressed and stored once."""
        done = {} if done is None else done
        costs = message_tokens(messages, self._counter)
        excess = sum(costs) - target_tokens
        if excess <= 0:
            return list(messages), []
        calls = {call.id: call for m in messages for call in m.tool_calls}
        sizes = sorted(
            (
                (self._counter.count(block.content), index, position)
                for index, message in enumerate(messages)
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
            updated[index] = updated[index].model_copy(update={"content": tuple(content)})
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
        artifact_id, marker = self._keep_full_output(data, result, call, project)
        marker_tokens = self._counter.count(marker)
        name = f"{call.name if call else 'tool'}-output"
        compressed = self._compressor.compress_text(
            name, result.content, max(1, budget - marker_tokens), mode=CompressionMode.SMART
        )
        text = compressed.content
        if artifact_id is None:
            text = redact_texts([text], self._scanner, Redactions())[0]
        shrunk = result.model_copy(update={"content": f"{text}\n{marker}"})
        record = ShrunkResult(
            result.call_id, tokens, self._counter.count(shrunk.content), artifact_id
        )
        return shrunk, record

    def _keep_full_output(
        self, data: bytes, result: ToolResult, call: ToolCall | None, project: str | None
    ) -> tuple[str | None, str]:
        size = f"{len(data):,} bytes"
        if self._store is None:
            return (
                None,
                f"[output shortened to fit the context window; the full {size} are not kept]",
            )
        label = f"{call.name if call else 'tool'}/{result.call_id}"
        imported = self._store.import_output(data, label, project=project)
        if imported.blocked:
            kinds = ", ".join(sorted({f.kind.value for f in imported.artifact.findings}))
            return None, (
                f"[output shortened to fit the context window; the full {size} were not kept: "
                f"they hold credentials ({kinds})]"
            )
        artifact_id = imported.artifact.id
        return artifact_id, (
            f"[output shortened to fit the context window; the full {size} are artifact "
            f"{artifact_id}: agents artifact read {artifact_id} --length {len(data)}]"
        )

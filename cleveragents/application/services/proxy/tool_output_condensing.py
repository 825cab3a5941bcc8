"""A large tool output, kept whole in the artifact store and forwarded as a bounded view.

An output over the threshold is redacted (the store never holds a credential), imported into
the artifact store (content-addressed: the same output is stored once, whatever the process),
and replaced by its smart-compressed view within the tool budget. The view's first line names
the output by its SHA-256 and the command that reads any omitted range back; each omission
marker inside it names the same handle and its line range.

The view depends only on the output's text and the two settings, so the same output gives
the byte-identical view in every request: the provider's prompt cache keeps matching.
"""

from __future__ import annotations

from dataclasses import dataclass

from cleveragents.application.ports.secret_scanner import SecretScanner
from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.artifact_compression.artifact_compressor import (
    ArtifactCompressorService,
)
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import Handles
from cleveragents.application.services.artifact_store.artifact_store import ArtifactStore
from cleveragents.application.services.artifact_store.results import SecretHandling
from cleveragents.application.services.governance.text_redaction import redact_document
from cleveragents.domain.artifact import CompressionMode
from cleveragents.domain.errors import OperationalError

MAX_UTF8_BYTES_PER_CHARACTER = 4
"""A token holds at least one byte: a text of at most this many bytes per character under the
threshold cannot be over it, and is not counted."""


class ToolOutputNotStoredError(OperationalError):
    """The artifact store refused or could not take a tool output: it is not forwarded
    shortened with a handle that would not read back."""


@dataclass(frozen=True, slots=True)
class CondensedOutput:
    """A tool output's forwarded view and what it stood for."""

    view: str
    reference: str
    """``sha256:<hex>`` of the stored output (its handle)."""
    tokens_before: int
    tokens_after: int
    credentials: int
    """Credentials redacted from the output before it was stored."""


class ToolOutputCondenser:
    """Tool outputs over `compress_over` tokens stored (for `project`, else the default
    project) and replaced by a view within `tool_budget` tokens (see the module docstring)."""

    def __init__(
        self,
        store: ArtifactStore,
        compressor: ArtifactCompressorService,
        counter: TokenCounter,
        scanner: SecretScanner,
        *,
        compress_over: int,
        tool_budget: int,
        project: str | None = None,
    ) -> None:
        self._store = store
        self._compressor = compressor
        self._counter = counter
        self._scanner = scanner
        self.compress_over = compress_over
        self.tool_budget = tool_budget
        self._project = project

    def condensed(self, text: str, label: str) -> CondensedOutput | None:
        """The view of `text` when it is over the threshold, else None (forwarded as it is,
        redacted with the rest of its message)."""
        if len(text) * MAX_UTF8_BYTES_PER_CHARACTER <= self.compress_over:
            return None
        tokens = self._counter.count(text)
        if tokens <= self.compress_over:
            return None
        redacted = redact_document(text, self._scanner)
        imported = self._store.import_output(
            redacted.text.encode("utf-8", "surrogatepass"),
            f"proxy/{label}",
            project=self._project,
            secrets=SecretHandling.REDACT,
        )
        digest = imported.artifact.sha256
        if imported.blocked or digest is None:
            raise ToolOutputNotStoredError(f"the artifact store refused a tool output ({label})")
        reference = f"sha256:{digest}"
        stored_text = redacted.text
        if imported.redacted:  # the store's own scan found more: show what it holds
            stored = self._store.read(imported.artifact.id, 0, imported.artifact.byte_count)
            stored_text = stored.decode("utf-8", "surrogatepass")
        line_count = stored_text.count("\n") + (0 if stored_text.endswith("\n") else 1)
        header = (
            f"[tool output of {tokens:,} tokens, {line_count:,} lines, stored as {reference}; "
            f"shown compressed; read any omitted range with: "
            f"agents artifact read {reference} --lines A-B]"
        )
        budget = max(1, self.tool_budget - self._counter.count(header + "\n"))
        compressed = self._compressor.compress_text(
            "tool-output",
            stored_text,
            budget,
            mode=CompressionMode.SMART,
            handles=Handles(reference),
        )
        view = f"{header}\n{compressed.content}"
        return CondensedOutput(
            view=view,
            reference=reference,
            tokens_before=tokens,
            tokens_after=self._counter.count(view),
            credentials=len(redacted.kinds),
        )

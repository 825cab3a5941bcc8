"""A rewritten document (JSON written again, by Tier 2 or a smart fit) is scanned for
credentials as it is made; the compression does not scan the same clean text a second time
before it returns it, and a fit whose rendering revealed a credential still comes out
redacted."""

from __future__ import annotations

import json

from cleveragents.adapters.secrets.pattern_scanner import PatternSecretScanner
from cleveragents.adapters.source.tree_sitter_skeletonizer import TreeSitterSkeletonizer
from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.adapters.workspace.contained_files import FdContainedFiles
from cleveragents.application.ports.secret_scanner import SecretMatch, SecretScan, SecretScanner
from cleveragents.application.services.artifact_compression.artifact_compressor import (
    ArtifactCompressorService,
)
from cleveragents.domain.artifact import CompressionMode
from cleveragents.domain.secrets import SecretFinding

REAL = PatternSecretScanner()


class _RecordedScan(SecretScan):
    def __init__(self, scan: SecretScan, texts: list[bytes]) -> None:
        self._scan = scan
        self._texts = texts
        self._fed = bytearray()

    def feed(self, data: bytes) -> None:
        self._fed += data
        self._scan.feed(data)

    def finish(self) -> list[SecretFinding]:
        self._texts.append(bytes(self._fed))
        return self._scan.finish()

    def finish_matches(self) -> list[SecretMatch]:
        self._texts.append(bytes(self._fed))
        return self._scan.finish_matches()


class RecordingScanner(SecretScanner):
    """The real scanner, keeping every text it scans."""

    def __init__(self) -> None:
        self.texts: list[bytes] = []

    @property
    def name(self) -> str:
        return REAL.name

    def start(self, *, honour_allow_markers: bool = False) -> SecretScan:
        return _RecordedScan(REAL.start(honour_allow_markers=honour_allow_markers), self.texts)


def _service(scanner: SecretScanner) -> ArtifactCompressorService:
    return ArtifactCompressorService(
        FdContainedFiles(), TiktokenCounter("cl100k_base"), TreeSitterSkeletonizer(), scanner
    )


def _document(extra: dict[str, str] | None = None) -> str:
    items = [
        {"id": n, "name": f"package-{n}", "note": " ".join(f"word{n}x{m}" for m in range(30))}
        for n in range(300)
    ]
    root: dict[str, object] = {"items": items, **(extra or {})}
    return json.dumps(root, indent=2)


def test_a_clean_smart_fit_is_scanned_once() -> None:
    scanner = RecordingScanner()
    text = _document()
    outcome = _service(scanner).compress_text_outcome(
        "doc.json", text, 2000, mode=CompressionMode.SMART
    )
    content = outcome.result.content.encode()
    assert content != text.encode()
    assert outcome.result.compacted_tokens <= 2000
    assert scanner.texts.count(content) == 1


def test_a_credential_the_fit_reveals_is_still_redacted() -> None:
    # Written with an escape, the key is recognisable only once the document is written again.
    key = "AKIA" + "Q" * 4 + "7LJ2XVWE3MHN"
    escaped = "AKIA\\u0051" + "Q" * 3 + "7LJ2XVWE3MHN"
    text = _document().replace('"items"', f'"aws_access_key_id": "{escaped}",\n  "items"', 1)
    assert key not in text
    outcome = _service(RecordingScanner()).compress_text_outcome(
        "doc.json", text, 2000, mode=CompressionMode.SMART
    )
    assert key not in outcome.result.content
    assert "[REDACTED:aws-access-key-id]" in outcome.result.content
    assert outcome.result.compacted_tokens <= 2000


def test_a_clean_tier2_rewrite_is_scanned_once() -> None:
    scanner = RecordingScanner()
    text = _document()
    budget = TiktokenCounter("cl100k_base").count(text) * 4 // 5
    outcome = _service(scanner).compress_text_outcome(
        "doc.json", text, budget, mode=CompressionMode.TIERED
    )
    content = outcome.result.content.encode()
    assert content != text.encode()
    assert "[TRUNCATED" not in outcome.result.content  # Tier 2, not a cut
    assert scanner.texts.count(content) == 1

"""What a kind declares decides what the generic pipeline does for it, with no branch on the
kind itself: `streams` (smart mode packs an artifact too large to hold from the kind's
candidate lines) and `rewrites_text` (Tier 2's output is redacted again). Test-only kinds,
the real tokenizer and the real scanner."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import partial

import pytest

from cleveragents.adapters.secrets.pattern_scanner import PatternSecretScanner
from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.application.services.artifact_compression.artifact_reading import (
    artifact_from_bytes,
)
from cleveragents.application.services.artifact_compression.compression_run import (
    CompressionRun,
)
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    Handles,
    KindCompressor,
    LinePlan,
    ShortForm,
)
from cleveragents.application.services.artifact_compression.packing.request import Line
from cleveragents.application.services.artifact_compression.raw_counts import (
    count_raw,
    count_streamed,
)
from cleveragents.application.services.artifact_compression.redaction import redact_artifact
from cleveragents.application.services.artifact_compression.streamed_artifacts import (
    compress_streamed,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.application.services.artifact_compression.tiers import compress_within
from cleveragents.domain.artifact import ArtifactKind
from tests.secret_samples import fake_aws_access_key_id

COUNTER = TiktokenCounter()
SCANNER = PatternSecretScanner()
REDACT = partial(redact_artifact, scanner=SCANNER)


@dataclass(frozen=True, slots=True)
class _Candidates:
    lines: list[Line]
    total_lines: int
    short_forms: dict[int, ShortForm] = field(default_factory=dict)
    run_ends: dict[int, int] = field(default_factory=dict)
    heads_only: frozenset[int] = frozenset()


class _TestKind(KindCompressor):
    """Keeps the lines that say `keep` when streamed; Tier 2 writes `rewritten`."""

    kind = ArtifactKind.TEXT

    def __init__(self, *, streams: bool, rewrites_text: bool, rewritten: str = "") -> None:
        self.streams = streams
        self.rewrites_text = rewrites_text
        self.rewritten = rewritten
        self.streamed = False

    def tier2(self, text: str, terms: TaskTerms) -> str:
        return self.rewritten

    def line_plan(self, lines: list[str], terms: TaskTerms) -> LinePlan:
        return LinePlan([0] * len(lines))

    def stream_candidates(self, lines: Iterable[str], terms: TaskTerms, budget: int) -> _Candidates:
        self.streamed = True
        kept: list[Line] = []
        total = 0
        for position, line in enumerate(lines):
            total += 1
            if "keep" in line:
                kept.append(Line(position, line.rstrip("\n"), 0))
        return _Candidates(kept, total)


def _streamed(kind: _TestKind, data: bytes, budget: int) -> str:
    artifact = artifact_from_bytes(data)
    counted = count_streamed(COUNTER, artifact.iter_text)
    body = compress_streamed(
        artifact, kind, TaskTerms(), budget, counted, smart=True, handles=None, redact=REDACT
    )
    assert body.tokens <= budget
    return body.content


def _log(lines: int) -> bytes:
    rows = [f"routine line {n} of the service" for n in range(lines)]
    rows[lines // 2] = "keep: the one line that matters"
    return ("\n".join(rows) + "\n").encode()


def test_a_kind_that_streams_is_packed_from_its_candidates() -> None:
    kind = _TestKind(streams=True, rewrites_text=False)
    content = _streamed(kind, _log(2000), 60)
    assert kind.streamed
    assert "keep: the one line that matters" in content
    assert "routine line 0 " not in content  # not a head: only the candidates were packed
    assert "[… lines 1-1000]" in content


def test_a_kind_that_does_not_stream_is_cut_from_its_head() -> None:
    kind = _TestKind(streams=False, rewrites_text=False)
    content = _streamed(kind, _log(2000), 60)
    assert not kind.streamed
    assert content.startswith("routine line 0 of the service")
    assert "[TRUNCATED" in content
    assert "keep:" not in content


def _tier2_output(rewrites_text: bool, rewritten: str) -> str:
    text = "\n".join(f"field {n}: a value of the document" for n in range(12))
    counted = count_raw(COUNTER, text, with_starts=True)
    budget = counted.tokens * 3 // 4  # over the budget, under 1.5 times it: Tier 2's range
    kind = _TestKind(streams=False, rewrites_text=rewrites_text, rewritten=rewritten)
    run = CompressionRun(text, kind, TaskTerms(), Handles(), False, REDACT)
    body = compress_within(run, budget, counted)
    assert not body.truncated  # Tier 2 answered
    return body.content


@pytest.mark.parametrize("rewrites_text", [True, False])
def test_only_a_kind_that_rewrites_text_is_redacted_again_after_tier2(rewrites_text: bool) -> None:
    # A rewritten text can show a credential its input held only in an escaped form.
    key = fake_aws_access_key_id(31)
    content = _tier2_output(rewrites_text, f'{{"key": "{key}"}}')
    if rewrites_text:
        assert key not in content
        assert "[REDACTED:" in content
    else:  # left to the service's last scan of everything it prints
        assert key in content

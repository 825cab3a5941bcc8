"""`cleveragents.compact` returns no credential in any message, in every format and shape,
whatever the status (compacted, not-needed, failed), unless `keep_credentials=True`; the
caller's lists and dicts are never changed; the token figures count what is returned."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import cleveragents
from cleveragents.adapters.secrets.combined_scanner import make_secret_scanner
from cleveragents.application.services.compaction.message_tokens import message_tokens
from cleveragents.container import build_token_counter
from cleveragents.domain.transcript import TranscriptFormat
from tests.credential_transcripts import KEEP_RECENT_TOKENS, Planted, planted
from tests.secret_recall_set import credentials

SCANNER = make_secret_scanner(name="builtin")
FORMATS = list(TranscriptFormat)


def strings(value: object) -> list[str]:
    """Every string in a parsed document (or the text itself)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in strings(item)]
    if isinstance(value, list | tuple):
        return [s for item in value for s in strings(item)]
    return []


def assert_clean(returned: object, transcript: Planted) -> None:
    every = strings(returned)
    for place, secret in transcript.secrets().items():
        assert not any(secret in s for s in every), f"the {place} credential survived"
    for value in every:
        assert SCANNER.scan_text(value) == [], value[:200]


def surviving(returned: object, transcript: Planted) -> set[str]:
    every = strings(returned)
    return {p for p, secret in transcript.secrets().items() if any(secret in s for s in every)}


@pytest.mark.parametrize("transcript_format", FORMATS, ids=lambda f: f.value)
@pytest.mark.parametrize("force", [True, False], ids=["compacted", "not-needed"])
def test_no_credential_comes_back_from_a_native_document_and_it_is_not_changed(
    transcript_format: TranscriptFormat, force: bool
) -> None:
    transcript = planted(transcript_format)
    given = copy.deepcopy(transcript.document)
    result = cleveragents.compact(given, force=force, keep_recent_tokens=KEEP_RECENT_TOKENS)
    assert result.status == ("compacted" if force else "not-needed"), result.reason
    assert given == transcript.document  # the caller's lists and dicts, as they were
    assert_clean(result.messages, transcript)
    assert_clean(result.report(), transcript)
    places = {p: n for p, n in result.redacted_in.items() if n}
    assert result.redacted_secrets == sum(places.values()) >= len(transcript.credentials) - 1
    assert "kept" in places
    assert ("folded" in places) == force
    if transcript_format is not TranscriptFormat.CLAUDE_CODE:
        assert places["system"] == 1
        assert places["request"] == 1
    assert not result.keep_credentials


@pytest.mark.parametrize("transcript_format", FORMATS, ids=lambda f: f.value)
@pytest.mark.parametrize("force", [True, False], ids=["compacted", "not-needed"])
def test_no_credential_comes_back_from_a_transcript_given_as_text(
    transcript_format: TranscriptFormat, force: bool
) -> None:
    transcript = planted(transcript_format)
    text = transcript.text
    result = cleveragents.compact(text, force=force, keep_recent_tokens=KEEP_RECENT_TOKENS)
    assert result.status == ("compacted" if force else "not-needed"), result.reason
    assert isinstance(result.messages, str)
    assert_clean(result.messages, transcript)
    assert SCANNER.scan_text(result.messages) == []  # the whole file, as it would be written
    assert text == transcript.text


@pytest.mark.parametrize("transcript_format", FORMATS, ids=lambda f: f.value)
def test_keep_credentials_keeps_the_verbatim_messages_as_they_are(
    transcript_format: TranscriptFormat,
) -> None:
    transcript = planted(transcript_format)
    compacted = cleveragents.compact(
        transcript.document,
        force=True,
        keep_recent_tokens=KEEP_RECENT_TOKENS,
        keep_credentials=True,
    )
    assert compacted.status == "compacted", compacted.reason
    assert compacted.keep_credentials
    assert surviving(compacted.messages, transcript) == set(transcript.verbatim)
    # The summary is redacted all the same.
    assert set(compacted.redacted_in) == {"system", "folded", "kept", "request"}
    assert compacted.redacted_in["folded"] == compacted.redacted_secrets >= 1
    unchanged = cleveragents.compact(transcript.document, keep_credentials=True)
    assert unchanged.status == "not-needed"
    assert unchanged.messages == transcript.document
    assert unchanged.redacted_secrets == 0


def test_a_failed_compaction_returns_the_originals_redacted() -> None:
    transcript = planted(TranscriptFormat.OPENAI)
    document = copy.deepcopy(transcript.document)
    # An instruction given mid-conversation: a summary would drop it, so nothing is folded.
    document["messages"].insert(3, {"role": "system", "content": "Answer in French."})
    result = cleveragents.compact(document, force=True, keep_recent_tokens=KEEP_RECENT_TOKENS)
    assert result.status == "failed", result.reason
    assert_clean(result.messages, transcript)
    assert result.redacted_in["folded"] == 0
    assert result.redacted_secrets >= len(transcript.credentials)
    # The originals otherwise: as many messages, the same requests.
    assert len(result.messages["messages"]) == len(document["messages"])
    assert result.messages["messages"][1] == document["messages"][1]


@pytest.mark.parametrize("transcript_format", FORMATS, ids=lambda f: f.value)
@pytest.mark.parametrize("force", [True, False], ids=["compacted", "not-needed"])
def test_the_token_figures_count_the_messages_returned(
    transcript_format: TranscriptFormat, force: bool
) -> None:
    from cleveragents.api.engines import storeless_container

    transcript = planted(transcript_format)
    container = storeless_container("cl100k_base")
    overrides = cleveragents.ContextPolicy(keep_recent_tokens=KEEP_RECENT_TOKENS)
    compaction = container.storeless_transcript_compactor().compact(
        transcript.text, policy=overrides, force=force
    )
    outcome = compaction.outcome
    counted = sum(message_tokens(outcome.messages, build_token_counter("cl100k_base")))
    assert outcome.tokens_after == counted
    if not force:
        assert outcome.tokens_before == counted
    assert outcome.tokens_after <= compaction.settings.threshold


def test_a_shrunk_output_that_no_store_keeps_comes_back_redacted() -> None:
    secret_line = next(c for c in credentials(5) if c.name == "github-classic")
    log = "\n".join(
        [f"step {i}: fetched package {i} in {i % 7}ms" for i in range(4_000)]
        + [secret_line.text, "ERROR: upload failed"]
    )
    document: list[dict[str, Any]] = [
        {"role": "user", "content": "publish the package"},
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"c": "x"}}],
        },
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": log}]},
        {"role": "assistant", "content": "It failed at the upload."},
    ]
    settings: dict[str, Any] = {
        "context_window": 12_000,
        "reserve_tokens": 1_000,
        "keep_recent_tokens": 4_000,
    }
    result = cleveragents.compact(document, format="anthropic", force=True, **settings)
    assert result.status == "compacted", result.reason
    [shrunk] = result.shrunk_tool_results
    assert shrunk.full_output is not None
    assert "ERROR: upload failed" in shrunk.full_output
    assert secret_line.secret not in shrunk.full_output
    assert secret_line.secret not in json.dumps(result.messages)
    kept = cleveragents.compact(
        document, format="anthropic", force=True, keep_credentials=True, **settings
    )
    [raw] = kept.shrunk_tool_results
    assert raw.full_output == log

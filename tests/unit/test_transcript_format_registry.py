"""The transcript formats are one list of declarations: each format of the vocabulary is
declared once, detection and the codec walk the list, and each declares a usage provider the
usage normalizer knows."""

from __future__ import annotations

from cleveragents.adapters.transcripts.json_transcript_codec import JsonTranscriptCodec
from cleveragents.adapters.transcripts.transcript_formats import (
    DOCUMENT_FORMATS,
    PLAIN_MESSAGES,
    TRANSCRIPT_FORMATS,
    codec_of,
)
from cleveragents.domain.usage import UsageFormat
from cleveragents.domain.vocabulary import TranscriptFormat

CODEC = JsonTranscriptCodec()


def test_each_format_of_the_vocabulary_is_declared_once() -> None:
    declared = [codec.format for codec in TRANSCRIPT_FORMATS]
    assert sorted(declared) == sorted(TranscriptFormat)
    assert len(set(declared)) == len(declared)
    assert all(codec_of(codec.format) is codec for codec in TRANSCRIPT_FORMATS)


def test_a_format_is_told_by_its_text_or_by_its_signs_never_both() -> None:
    for codec in TRANSCRIPT_FORMATS:
        by_text = codec.recognises_text is not None
        by_signs = codec.sign is not None and codec.structural_sign is not None
        assert by_text != by_signs, codec.format
    assert PLAIN_MESSAGES in DOCUMENT_FORMATS


def test_each_declared_provider_is_one_the_usage_normalizer_reads() -> None:
    known = {usage_format.provider for usage_format in UsageFormat}
    for codec in TRANSCRIPT_FORMATS:
        assert codec.provider in known
        assert CODEC.provider(codec.format) == codec.provider
        assert CODEC.provider(codec.format.value) == codec.provider  # type: ignore[arg-type]


def test_plain_messages_read_as_the_declared_format() -> None:
    assert CODEC.detect('[{"role": "user", "content": "hi"}]') is PLAIN_MESSAGES.format

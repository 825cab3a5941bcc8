"""An in-memory fake of the transcript codec port, for unit tests of services that take one.

`FakeTranscriptCodec` does not know the real formats. It writes a transcript as one JSON
document that names the format it was written in and holds the transcript's own fields; it reads
back only such documents, so reading what it wrote gives an equal transcript, as the port says.
Anything else (another text, a document of another format than the one asked for, a value that
is not JSON) is refused with a one-line `InvalidInputError`, as the real codec refuses malformed
input. A test builds the transcript it needs in Python and hands the service
``codec.write(transcript, format)``. `reads` counts the texts and documents it parsed.
"""

from __future__ import annotations

import copy
import json
import math
from typing import Any

from pydantic import ValidationError

from cleveragents.adapters.transcripts.transcript_formats import codec_of
from cleveragents.application.ports.transcript_codec import TranscriptCodec
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.transcript import Transcript, TranscriptFormat

_FORMAT_KEY = "fake_transcript_format"
_TRANSCRIPT_KEY = "transcript"


class FakeTranscriptCodec(TranscriptCodec):
    def __init__(self) -> None:
        self.reads = 0

    def detect(self, text: str) -> TranscriptFormat:
        return self.detect_native(_parsed(text))

    def read(self, text: str, transcript_format: TranscriptFormat | None = None) -> Transcript:
        return self.read_native(_parsed(text), transcript_format)

    def write(self, transcript: Transcript, transcript_format: TranscriptFormat) -> str:
        # ASCII escapes keep a lone surrogate writable: `write_bytes` is then plain UTF-8.
        return json.dumps(self.write_native(transcript, transcript_format), sort_keys=True)

    def write_bytes(self, transcript: Transcript, transcript_format: TranscriptFormat) -> bytes:
        return self.write(transcript, transcript_format).encode("utf-8")

    def provider(self, transcript_format: TranscriptFormat) -> str:
        return codec_of(transcript_format).provider  # the real formats' providers

    def detect_native(self, document: object) -> TranscriptFormat:
        if not isinstance(document, dict) or _FORMAT_KEY not in document:
            raise InvalidInputError("transcript: not a transcript the fake codec wrote")
        try:
            return TranscriptFormat(document[_FORMAT_KEY])
        except ValueError:
            raise InvalidInputError(
                f"transcript: unknown format {document[_FORMAT_KEY]!r}"
            ) from None

    def read_native(
        self, document: object, transcript_format: TranscriptFormat | None = None
    ) -> Transcript:
        written_in = self.detect_native(document)
        if transcript_format is not None and transcript_format is not written_in:
            raise InvalidInputError(
                f"transcript: a {written_in.value} transcript, not {transcript_format.value}"
            )
        assert isinstance(document, dict)
        _check_json(document, "transcript")
        self.reads += 1
        try:
            # A deep copy first: the transcript shares no object with the caller's document.
            return Transcript.model_validate(copy.deepcopy(document[_TRANSCRIPT_KEY]))
        except (KeyError, ValidationError) as error:
            raise InvalidInputError(f"transcript: malformed ({type(error).__name__})") from None

    def write_native(self, transcript: Transcript, transcript_format: TranscriptFormat) -> object:
        return {
            _FORMAT_KEY: transcript_format.value,
            _TRANSCRIPT_KEY: transcript.model_dump(mode="json"),
        }


def _parsed(text: str) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidInputError(f"transcript: line {error.lineno}: {error.msg}") from None


def _check_json(value: Any, place: str) -> None:
    """Only JSON values, as `read_native` promises: else an error naming where."""
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise InvalidInputError(f"{place}: a key that is not a string ({key!r})")
            _check_json(item, f"{place}.{key}")
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            _check_json(item, f"{place}[{index}]")
    elif isinstance(value, float) and not math.isfinite(value):
        raise InvalidInputError(f"{place}: {value!r} is not a JSON number")
    elif value is not None and not isinstance(value, str | int | float | bool):
        raise InvalidInputError(f"{place}: {type(value).__name__} is not a JSON value")

"""The MCP tool `compact_transcript`, called through the SDK's own client over stdio, returns
no credential in the transcript it gives back, for every format, given as text or parsed,
compacted or not needed; `keep_credentials` keeps the verbatim messages as they are."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp.client.session import ClientSession

from cleveragents.adapters.secrets.combined_scanner import make_secret_scanner
from cleveragents.domain.transcript import TranscriptFormat
from tests.credential_transcripts import KEEP_RECENT_TOKENS, SUFFIX, planted
from tests.e2e.test_mcp_server import call, serve

pytestmark = pytest.mark.slow

SCANNER = make_secret_scanner(name="builtin")


def strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in strings(item)]
    if isinstance(value, list):
        return [s for item in value for s in strings(item)]
    return []


def test_the_tool_returns_no_credential_unless_asked_to_keep_them(tmp_path: Path) -> None:
    home = tmp_path / "home"
    answers: dict[tuple[str, str, bool], dict[str, Any]] = {}
    kept: dict[str, dict[str, Any]] = {}
    transcripts = {f: planted(f) for f in TranscriptFormat}
    inputs: dict[TranscriptFormat, Path] = {}
    for transcript_format, transcript in transcripts.items():
        path = tmp_path / f"session{SUFFIX[transcript_format]}"
        path.write_text(transcript.text)
        inputs[transcript_format] = path
    before = {f: path.read_bytes() for f, path in inputs.items()}

    async def scenario(client: ClientSession) -> None:
        for transcript_format, transcript in transcripts.items():
            shapes = {"text": transcript.text, "parsed": transcript.document}
            for shape, given in shapes.items():
                for force in (True, False):
                    answers[transcript_format.value, shape, force] = await call(
                        client,
                        "compact_transcript",
                        transcript=given,
                        force=force,
                        keep_recent_tokens=KEEP_RECENT_TOKENS,
                    )
            answers[transcript_format.value, "path", True] = await call(
                client,
                "compact_transcript",
                path=str(inputs[transcript_format]),
                force=True,
                keep_recent_tokens=KEEP_RECENT_TOKENS,
            )
            kept[transcript_format.value] = await call(
                client,
                "compact_transcript",
                transcript=transcript.text,
                force=True,
                keep_recent_tokens=KEEP_RECENT_TOKENS,
                keep_credentials=True,
            )

    serve(home, scenario)
    for (name, shape, force), answer in answers.items():
        transcript = transcripts[TranscriptFormat(name)]
        report = answer["report"]
        assert report["status"] == ("compacted" if force else "not-needed"), (name, shape)
        every = strings(answer)
        for place, secret in transcript.secrets().items():
            assert not any(secret in s for s in every), f"{name}, {shape}: the {place} credential"
        returned = answer["transcript"]
        assert (
            SCANNER.scan_text(returned if isinstance(returned, str) else json.dumps(returned)) == []
        )
        assert report["redacted_secrets"] == sum(report["redacted_in"].values()) > 0
        assert (report["redacted_in"]["folded"] > 0) == force
        assert report["keep_credentials"] is False
    for name, answer in kept.items():
        transcript = transcripts[TranscriptFormat(name)]
        returned = strings(answer["transcript"])  # text, or parsed when it looked like JSON
        survived = {
            p for p, secret in transcript.secrets().items() if any(secret in s for s in returned)
        }
        assert survived == set(transcript.verbatim), name
        assert answer["report"]["keep_credentials"] is True
    assert {f: path.read_bytes() for f, path in inputs.items()} == before

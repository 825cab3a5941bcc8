"""`agents context compact` writes no credential with `--out`, in any format, whether it
compacted or found nothing to do, says where it redacted them, keeps them with
`--keep-credentials`, and never changes or overwrites the input file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cleveragents.adapters.secrets.combined_scanner import make_secret_scanner
from cleveragents.adapters.transcripts.claude_code_jsonl import resume_problems
from cleveragents.domain.transcript import TranscriptFormat
from tests.credential_transcripts import KEEP_RECENT_TOKENS, SUFFIX, Planted, planted
from tests.e2e.cli_runner import Result, run

SCANNER = make_secret_scanner(name="builtin")
FORMATS = list(TranscriptFormat)


def written(tmp_path: Path, transcript: Planted) -> Path:
    path = tmp_path / f"session{SUFFIX[transcript.format]}"
    path.write_text(transcript.text)
    return path


def compact(capsys: pytest.CaptureFixture[str], source: Path, out: Path, *flags: str) -> Result:
    return run(
        capsys,
        "context",
        "compact",
        str(source),
        "--out",
        str(out),
        "--keep-recent-tokens",
        str(KEEP_RECENT_TOKENS),
        *flags,
    )


@pytest.mark.parametrize("transcript_format", FORMATS, ids=lambda f: f.value)
@pytest.mark.parametrize("force", [True, False], ids=["compacted", "not-needed"])
def test_no_credential_is_written_and_the_input_is_untouched(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    tmp_path: Path,
    transcript_format: TranscriptFormat,
    force: bool,
) -> None:
    transcript = planted(transcript_format)
    source = written(tmp_path, transcript)
    before = source.read_bytes()
    out = tmp_path / f"out{SUFFIX[transcript_format]}"
    result = compact(capsys, source, out, "--json", *(["--force"] if force else []))
    assert result.exit_code == 0, result.stderr
    report = result.json()
    assert report["status"] == ("compacted" if force else "not-needed")
    text = out.read_text()
    for place, secret in transcript.secrets().items():
        assert secret not in text, f"the {place} credential was written"
        assert secret not in result.stdout
    assert SCANNER.scan_text(text) == []
    assert source.read_bytes() == before
    assert report["keep_credentials"] is False
    assert report["redacted_secrets"] == sum(report["redacted_in"].values())
    assert report["redacted_in"]["kept"] >= 3
    assert (report["redacted_in"]["folded"] > 0) == force
    if transcript_format is TranscriptFormat.CLAUDE_CODE:
        assert resume_problems(text) == []
    else:
        assert report["redacted_in"]["system"] == 1
        assert report["redacted_in"]["request"] == 1
        json.loads(text)


@pytest.mark.parametrize("transcript_format", FORMATS, ids=lambda f: f.value)
def test_keep_credentials_writes_the_verbatim_messages_as_they_are(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    tmp_path: Path,
    transcript_format: TranscriptFormat,
) -> None:
    transcript = planted(transcript_format)
    source = written(tmp_path, transcript)
    out = tmp_path / f"out{SUFFIX[transcript_format]}"
    result = compact(capsys, source, out, "--force", "--keep-credentials")
    assert result.exit_code == 0, result.stderr
    text = out.read_text()
    kept = {place for place, secret in transcript.secrets().items() if secret in text}
    assert kept == set(transcript.verbatim)
    assert "credentials kept as they are (--keep-credentials)" in result.stdout


def test_the_report_says_where_credentials_were_redacted(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path
) -> None:
    transcript = planted(TranscriptFormat.ANTHROPIC)
    source = written(tmp_path, transcript)
    forced = compact(capsys, source, tmp_path / "a.json", "--force")
    assert forced.exit_code == 0, forced.stderr
    line = next(x for x in forced.stdout.splitlines() if x.startswith("credentials redacted"))
    assert "system prompt 1" in line
    assert "folded into the summary" in line
    assert "messages kept verbatim" in line
    assert "request fields 1" in line
    as_is = compact(capsys, source, tmp_path / "b.json")
    assert as_is.exit_code == 0, as_is.stderr
    line = next(x for x in as_is.stdout.splitlines() if x.startswith("credentials redacted"))
    assert "folded" not in line
    assert "system prompt 1" in line


def test_a_failed_compaction_writes_nothing(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path
) -> None:
    transcript = planted(TranscriptFormat.OPENAI)
    document = transcript.document
    document["messages"].insert(3, {"role": "system", "content": "Answer in French."})
    source = tmp_path / "late-system.json"
    source.write_text(json.dumps(document))
    out = tmp_path / "out.json"
    result = compact(capsys, source, out, "--force", "--json")
    assert result.exit_code == 1
    assert result.json()["status"] == "failed"
    assert not out.exists()
    for secret in transcript.secrets().values():
        assert secret not in result.stdout

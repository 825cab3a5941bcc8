"""Every driver trusts the inline allow marker only in a workspace file imported by path: the
CLI's `artifact import PATH` stores it; `--ref` (a temporary output, its reference also read
from stdin), `artifact compress -` and `context compact -` on stdin, and the MCP server's
store_output, compress and compact_transcript (the SDK's own client) keep the credential
blocked or redacted."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from mcp.client.session import ClientSession

from tests.allow_marker_samples import MARKED_OUTPUT, SECRET, marked_conversation
from tests.e2e.cli_runner import run
from tests.e2e.test_mcp_server import call, refused, serve


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "fixture.env").write_text(MARKED_OUTPUT)
    return root


def _stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))


def test_import_by_path_is_allowed(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path
) -> None:
    result = run(
        capsys, "artifact", "import", "fixture.env", "--workspace", str(workspace), "--json"
    )
    assert result.exit_code == 0, result.stderr
    assert result.json()["status"] == "stored"
    assert result.json()["artifact"]["findings"] == []


@pytest.mark.parametrize("from_stdin", [False, True], ids=["ref", "ref-from-stdin"])
def test_a_temporary_output_is_blocked(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    monkeypatch: pytest.MonkeyPatch,
    from_stdin: bool,
) -> None:
    grant = run(capsys, "artifact", "temp-output", "--tool", "deploy", "--json").json()
    Path(grant["path"]).write_text(MARKED_OUTPUT)
    reference = grant["reference"]
    if from_stdin:
        _stdin(monkeypatch, reference + "\n")
        reference = "-"
    result = run(capsys, "artifact", "import", "--ref", reference, "--json")
    assert result.exit_code == 2
    assert result.json()["status"] == "blocked"
    assert "aws-access-key-id" in result.stderr
    assert SECRET not in result.stdout + result.stderr


def test_compress_from_stdin_redacts(
    capsys: pytest.CaptureFixture[str], home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _stdin(monkeypatch, MARKED_OUTPUT)
    result = run(capsys, "artifact", "compress", "-", "--budget", "200")
    assert result.exit_code == 0, result.stderr
    content = result.json()["content"]
    assert "[REDACTED" in content
    assert SECRET not in result.stdout + result.stderr


def test_compact_from_stdin_redacts(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    _stdin(monkeypatch, json.dumps(marked_conversation()))
    out = tmp_path / "compacted.json"
    result = run(
        capsys,
        "context",
        "compact",
        "-",
        "--force",
        "--keep-recent-tokens",
        "100",
        "--out",
        str(out),
    )
    assert result.exit_code == 0, result.stderr
    assert "deploy" in out.read_text().lower()
    assert SECRET not in out.read_text() + result.stdout + result.stderr


@pytest.mark.slow
def test_the_mcp_tools_do_not_trust_the_marker(tmp_path: Path) -> None:
    async def scenario(client: ClientSession) -> None:
        message = await refused(client, "store_output", text=MARKED_OUTPUT, label="deploy")
        assert "blocked" in message
        assert "on line(s) 2" in message
        assert SECRET not in message
        stored = await call(
            client, "store_output", text=MARKED_OUTPUT, label="deploy", secrets="redact"
        )
        assert SECRET not in json.dumps(stored)
        kept = await call(client, "read_artifact", artifact_id=stored["artifact_id"])
        assert SECRET not in kept["text"]
        assert "[REDACTED:" in kept["text"]
        compressed = await call(client, "compress", text=MARKED_OUTPUT, budget=200)
        assert "[REDACTED" in compressed["result"]["content"]
        assert SECRET not in json.dumps(compressed)
        compacted = await call(
            client,
            "compact_transcript",
            transcript=json.dumps(marked_conversation()),
            force=True,
            keep_recent_tokens=100,
        )
        assert compacted["report"]["status"] == "compacted"
        assert SECRET not in json.dumps(compacted)

    serve(tmp_path / "home", scenario)

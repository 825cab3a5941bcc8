"""Credentials on import, on a real SQLite file, real blobs and the real scanner: block (the
default), redact, the allowlist file, the inline marker, and credentials in file names."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cleveragents.application.ports.secret_scanner import ALLOW_MARKER
from cleveragents.application.services.artifact_store.artifact_store import (
    ArtifactStore,
    SecretHandling,
)
from cleveragents.application.services.artifact_store.results import NAME_LINE
from cleveragents.container import Container, build_container
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.stored_artifact import ArtifactStatus
from tests.fakes import FixedClock
from tests.secret_recall_set import credentials

CREDENTIALS = {credential.name: credential for credential in credentials()}
NPM = CREDENTIALS["npm-token"]
PASSWORD = CREDENTIALS["password-letters"]
GITHUB = CREDENTIALS["github-classic"]


@pytest.fixture
def store_container(database_url: str, home: Path) -> Iterator[Container]:
    built = build_container(database_url, home=home)
    with built.clock.override(FixedClock()):
        yield built
    built.store().dispose()


@pytest.fixture
def store(store_container: Container) -> ArtifactStore:
    built: ArtifactStore = store_container.artifact_store()
    return built


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    return root


def _blob_bytes(artifacts_root: Path) -> bytes:
    return b"".join(
        p.read_bytes() for p in sorted((artifacts_root / "blobs").rglob("*")) if p.is_file()
    )


def _output(workspace: Path, name: str = "env.log") -> bytes:
    data = (
        "\n".join(["starting", NPM.text, "progress 50%", PASSWORD.text, "FAILED: boom"]) + "\n"
    ).encode()
    (workspace / name).write_bytes(data)
    return data


def test_block_stores_nothing_and_names_the_fingerprints(
    store: ArtifactStore, workspace: Path, artifacts_root: Path
) -> None:
    _output(workspace)
    result = store.import_file(str(workspace), "env.log")
    assert result.blocked
    assert result.preview is None
    assert result.artifact.sha256 is None
    assert [f.line for f in result.artifact.findings] == [2, 4]
    assert _blob_bytes(artifacts_root) == b""
    assert len(result.fingerprints) == 2
    assert all(fp in result.notice for fp in result.fingerprints)
    assert "npm-token" in result.notice
    for secret in (NPM.secret, PASSWORD.secret):
        assert secret not in result.notice
        assert secret not in repr(result.artifact)


def test_redact_stores_the_output_with_the_credentials_replaced(
    store: ArtifactStore, workspace: Path, artifacts_root: Path
) -> None:
    original = _output(workspace)
    result = store.import_file(str(workspace), "env.log", secrets=SecretHandling.REDACT)
    artifact = result.artifact
    assert artifact.status is ArtifactStatus.STORED
    assert result.redacted
    assert not result.blocked
    assert [(f.line, f.kind.value) for f in artifact.findings] == [
        (2, "npm-token"),
        (4, "generic-secret"),
    ]
    stored = store.read(artifact.id, 0, 1 << 20)
    assert stored == (
        b"starting\nNPM_TOKEN=[REDACTED:npm-token]\nprogress 50%\n"
        b"password=[REDACTED:password]\nFAILED: boom\n"
    )
    assert artifact.byte_count == len(stored) != len(original)
    assert result.preview is not None
    assert "[REDACTED:npm-token]" in result.preview.head
    assert result.preview.withheld_lines == 0
    for secret in (NPM.secret, PASSWORD.secret):
        assert secret.encode() not in _blob_bytes(artifacts_root)
        assert secret not in result.notice
    # The row, read back from the database, keeps the findings next to the hash.
    assert store.get(artifact.id).findings == artifact.findings


def test_redact_of_a_clean_output_is_a_plain_import(store: ArtifactStore, workspace: Path) -> None:
    (workspace / "ok.log").write_bytes(b"all green\n")
    result = store.import_file(str(workspace), "ok.log", secrets=SecretHandling.REDACT)
    assert not result.redacted
    assert result.artifact.findings == ()
    assert result.notice == f"stored artifact {result.artifact.id}"


def test_the_workspace_allowlist_allows_by_fingerprint(
    store: ArtifactStore, workspace: Path
) -> None:
    original = _output(workspace)
    blocked = store.import_file(str(workspace), "env.log")
    npm_fingerprint = next(fp for fp in blocked.fingerprints if fp.startswith("npm-token:"))
    (workspace / ".cleveragents").mkdir()
    (workspace / ".cleveragents" / "secrets-allow.toml").write_text(
        f'fingerprints = ["{npm_fingerprint}"]\n'
    )
    still = store.import_file(str(workspace), "env.log")
    assert still.blocked
    assert [f.line for f in still.artifact.findings] == [4]
    (workspace / ".cleveragents" / "secrets-allow.toml").write_text(
        f'fingerprints = ["{npm_fingerprint}"]\n[[rules]]\nkinds = ["password"]\n'
        'paths = ["env.*"]\n'
    )
    allowed = store.import_file(str(workspace), "env.log")
    assert not allowed.blocked
    assert allowed.artifact.findings == ()
    assert store.read(allowed.artifact.id, 0, 1 << 20) == original


def test_an_allowlist_named_explicitly(
    store: ArtifactStore, workspace: Path, tmp_path: Path
) -> None:
    _output(workspace)
    elsewhere = tmp_path / "allow.toml"
    elsewhere.write_text('[[rules]]\nkinds = ["npm-token", "generic-secret"]\n')
    result = store.import_file(str(workspace), "env.log", allowlist=str(elsewhere))
    assert not result.blocked
    with pytest.raises(InvalidInputError, match="no allowlist file at"):
        store.import_file(str(workspace), "env.log", allowlist=str(tmp_path / "missing.toml"))
    in_no_folder = tmp_path / "no-such-folder" / "allow.toml"
    with pytest.raises(InvalidInputError, match=f"no allowlist file at {in_no_folder}"):
        store.import_file(str(workspace), "env.log", allowlist=str(in_no_folder))
    elsewhere.write_text("kinds = ['jwt']\n")
    with pytest.raises(InvalidInputError, match="unknown key 'kinds'"):
        store.import_file(str(workspace), "env.log", allowlist=str(elsewhere))


def test_the_inline_marker_allows_a_line(store: ArtifactStore, workspace: Path) -> None:
    (workspace / "fixture.env").write_text(f"{NPM.text}  # {ALLOW_MARKER}\n")
    assert not store.import_file(str(workspace), "fixture.env").blocked


def test_a_credential_in_a_file_name(store: ArtifactStore, workspace: Path) -> None:
    name = f"{GITHUB.secret}.log"
    (workspace / name).write_bytes(b"nothing secret inside\n")
    blocked = store.import_file(str(workspace), name)
    assert blocked.blocked
    assert [f.line for f in blocked.artifact.findings] == [NAME_LINE]
    assert "in its file name" in blocked.notice
    assert GITHUB.secret not in blocked.notice
    assert blocked.artifact.workspace_path == "[REDACTED:github-token].log"
    redacted = store.import_file(str(workspace), name, secrets=SecretHandling.REDACT)
    assert redacted.redacted
    assert redacted.artifact.workspace_path == "[REDACTED:github-token].log"
    assert store.read(redacted.artifact.id, 0, 100) == b"nothing secret inside\n"
    assert redacted.preview is not None
    assert GITHUB.secret not in redacted.preview.workspace_path


def test_a_file_that_changes_between_the_passes_is_blocked(
    store: ArtifactStore, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The redacted copy is made from a second read; if those bytes are not the ones scanned,
    nothing is stored (what was written in between was never scanned)."""
    from cleveragents.application.services.artifact_store import importing as module

    _output(workspace)
    real_stream = module._stream
    calls = []

    def stream_then_change(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) == 1:
            passed = real_stream(*args, **kwargs)  # type: ignore[arg-type]
            (workspace / "env.log").write_bytes(b"other bytes, " + GITHUB.text.encode())
            return passed
        return real_stream(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(module, "_stream", stream_then_change)
    result = store.import_file(str(workspace), "env.log", secrets=SecretHandling.REDACT)
    assert len(calls) == 2
    assert result.blocked

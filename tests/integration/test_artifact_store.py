"""The governed artifact store on a real SQLite file, real blobs and the real scanner."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from cleveragents.application.services.artifact_store.artifact_store import (
    ArtifactNotStoredError,
    ArtifactStore,
    ReferenceRefusedError,
)
from cleveragents.container import Container, build_container
from cleveragents.domain.errors import WorkspaceEscapeError
from cleveragents.domain.policy import ContextPolicyChanges
from cleveragents.domain.stored_artifact import ArtifactStatus, RetentionClass
from tests.fakes import FixedClock
from tests.secret_samples import fake_aws_access_key_id


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock()


@pytest.fixture
def store_container(database_url: str, home: Path, clock: FixedClock) -> Iterator[Container]:
    built = build_container(database_url, home=home)
    with built.clock.override(clock):
        yield built
    built.store().dispose()


@pytest.fixture
def store(store_container: Container) -> ArtifactStore:
    built: ArtifactStore = store_container.artifact_store()
    return built


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "out").mkdir(parents=True)
    return root


def _blobs(root: Path) -> list[Path]:
    return sorted(p for p in (root / "blobs").rglob("*") if p.is_file())


def test_import_stores_a_content_addressed_blob_and_a_preview(
    store: ArtifactStore, workspace: Path, home: Path, artifacts_root: Path
) -> None:
    data = "".join(f"line {i}: step ok\n" for i in range(5000)).encode()
    (workspace / "out" / "build.log").write_bytes(data)
    result = store.import_file(str(workspace), "out/build.log")
    artifact = result.artifact
    assert artifact.status is ArtifactStatus.STORED
    assert artifact.sha256 == hashlib.sha256(data).hexdigest()
    assert artifact.byte_count == len(data)
    assert artifact.workspace_path == "out/build.log"
    assert artifact.media_type == "text/plain"
    [blob] = _blobs(artifacts_root)
    assert blob.read_bytes() == data
    assert blob.parent.name + blob.name == artifact.sha256
    preview = result.preview
    assert preview is not None
    assert preview.head.startswith("line 0: step ok")
    assert preview.tail.endswith("line 4999: step ok\n")
    assert len(preview.head.encode()) <= 4096
    assert len(preview.tail.encode()) <= 4096
    assert preview.omitted_bytes == len(data) - 8192
    assert store.preview(artifact.id) == preview
    assert store.read(artifact.id, 0, 10) == data[:10]


def test_the_same_content_twice_is_one_blob(
    store: ArtifactStore, workspace: Path, home: Path, artifacts_root: Path
) -> None:
    (workspace / "a.txt").write_text("same bytes\n")
    (workspace / "b.txt").write_text("same bytes\n")
    first = store.import_file(str(workspace), "a.txt").artifact
    second = store.import_file(str(workspace), "b.txt").artifact
    assert first.id != second.id
    assert first.sha256 == second.sha256
    assert len(_blobs(artifacts_root)) == 1


def test_a_credential_blocks_the_import_and_leaves_only_an_audit_row(
    store: ArtifactStore, workspace: Path, home: Path, artifacts_root: Path
) -> None:
    key = fake_aws_access_key_id()
    lines = [f"step {i}" for i in range(10)]
    lines[6] = f"export AWS_ACCESS_KEY_ID={key}"
    (workspace / "env.log").write_text("\n".join(lines) + "\n")
    result = store.import_file(str(workspace), "env.log")
    assert result.blocked
    assert result.preview is None
    artifact = result.artifact
    assert artifact.status is ArtifactStatus.BLOCKED
    assert artifact.sha256 is None
    assert [(f.line, f.kind.value) for f in artifact.findings] == [(7, "aws-access-key-id")]
    assert key not in result.notice
    assert "line(s) 7" in result.notice
    assert _blobs(artifacts_root) == []
    assert list((artifacts_root / "staging").iterdir()) == []
    assert store.get(artifact.id).findings == artifact.findings
    with pytest.raises(ArtifactNotStoredError):
        store.preview(artifact.id)


def test_escapes_are_refused(store: ArtifactStore, workspace: Path, tmp_path: Path) -> None:
    (tmp_path / "secret.txt").write_text("outside\n")
    (workspace / "link").symlink_to(tmp_path / "secret.txt")
    for path in ("../secret.txt", "link", str(tmp_path / "secret.txt")):
        with pytest.raises(WorkspaceEscapeError):
            store.import_file(str(workspace), path)


def test_temp_output_references_are_single_use_and_unforgeable(
    store: ArtifactStore, clock: FixedClock
) -> None:
    grant = store.create_temp_output("pytest")
    Path(grant.path).write_text("5 passed, 1 failed\n")
    result = store.import_temp_output(grant.reference)
    assert result.artifact.source == "temp-output:pytest"
    assert result.artifact.workspace_path == "temp-output/pytest"
    assert not Path(grant.path).exists()
    with pytest.raises(ReferenceRefusedError):
        store.import_temp_output(grant.reference)  # reused

    other = store.create_temp_output("pytest")
    selector, _, verifier = other.reference.partition(".")
    forged = f"{selector}.{verifier[:-1]}{'A' if verifier[-1] != 'A' else 'B'}"
    for bad in (forged, "tmpref_0000.x", "not-a-reference", ""):
        with pytest.raises(ReferenceRefusedError):
            store.import_temp_output(bad)
    Path(other.path).write_text("ok\n")
    assert not store.import_temp_output(other.reference).blocked  # forgeries did not burn it

    late = store.create_temp_output("pytest")
    Path(late.path).write_text("late\n")
    clock.advance(timedelta(days=2))
    with pytest.raises(ReferenceRefusedError):
        store.import_temp_output(late.reference)


def test_cleanup_expires_by_age_and_size_keeping_audit_rows_and_holds(
    store_container: Container,
    store: ArtifactStore,
    workspace: Path,
    clock: FixedClock,
    home: Path,
    artifacts_root: Path,
) -> None:
    store_container.project_service().create("p")
    store_container.project_service().set_context(
        "p", ContextPolicyChanges(artifact_retention_days=7, artifact_retention_bytes=10_000)
    )
    paths = []
    for index in range(4):
        path = workspace / f"o{index}.log"
        path.write_bytes(bytes([65 + index]) * 3000)
        paths.append(path.name)
    old = store.import_file(str(workspace), paths[0], project="p").artifact
    held = store.import_file(str(workspace), paths[1], project="p").artifact
    store.set_retention(held.id, RetentionClass.HOLD)
    clock.advance(timedelta(days=10))
    middle = store.import_file(str(workspace), paths[2], project="p").artifact
    newest = store.import_file(str(workspace), paths[3], project="p").artifact

    preview = store.cleanup(dry_run=True)
    assert [a.id for a in preview.expired] == [old.id]
    assert store.get(old.id).status is ArtifactStatus.STORED  # dry run changed nothing

    report = store.cleanup()
    assert [a.id for a in report.expired] == [old.id]
    expired = store.get(old.id)
    assert expired.status is ArtifactStatus.EXPIRED
    assert expired.sha256 == old.sha256  # the audit row keeps the evidence
    assert expired.expired_at == clock.now()
    assert old.sha256 is not None
    assert not (artifacts_root / "blobs" / old.sha256[:2] / old.sha256[2:]).exists()
    for kept in (held, middle, newest):
        assert store.get(kept.id).status is ArtifactStatus.STORED
    assert store.read(held.id, 0, 1) == b"B"


def test_startup_sweeps_staging_left_by_dead_importers(
    store_container: Container, home: Path, artifacts_root: Path
) -> None:
    staging = artifacts_root / "staging"
    staging.mkdir(parents=True, exist_ok=True)
    dead = staging / "999999999.deadbeef.part"  # no such pid
    dead.write_bytes(b"torn")
    mine = staging / f"{os.getpid()}.cafe.part"
    mine.write_bytes(b"in progress")
    store_container.artifact_store()
    assert not dead.exists()
    assert mine.exists()


@pytest.mark.parametrize("scanner", ["builtin", "detect-secrets", "both"])
def test_the_scanner_is_chosen_by_the_environment(
    scanner: str,
    monkeypatch: pytest.MonkeyPatch,
    database_url: str,
    home: Path,
    workspace: Path,
) -> None:
    monkeypatch.setenv("CLEVERAGENTS_SECRET_SCANNER", scanner)
    container = build_container(database_url, home=home)
    assert container.secret_scanner().name == scanner.replace("both", "builtin+detect-secrets")
    (workspace / "key.txt").write_text(f"AWS_ACCESS_KEY_ID={fake_aws_access_key_id()}\n")
    assert container.artifact_store().import_file(str(workspace), "key.txt").blocked
    container.store().dispose()


def test_an_unknown_scanner_is_a_usage_error(
    monkeypatch: pytest.MonkeyPatch, database_url: str, home: Path
) -> None:
    from cleveragents.domain.errors import InvalidInputError

    monkeypatch.setenv("CLEVERAGENTS_SECRET_SCANNER", "nope")
    with pytest.raises(InvalidInputError, match="unknown secret scanner 'nope'"):
        build_container(database_url, home=home).secret_scanner()


def test_cleanup_removes_expired_temp_outputs_and_spares_recent_blobs(
    store: ArtifactStore, clock: FixedClock, workspace: Path, home: Path
) -> None:
    grant = store.create_temp_output("never-used")
    Path(grant.path).write_text("forgotten\n")
    (workspace / "a.txt").write_text("recent\n")
    stored = store.import_file(str(workspace), "a.txt").artifact
    clock.advance(timedelta(days=2))
    report = store.cleanup()
    assert report.stale_temp_outputs == 1
    assert not Path(grant.path).exists()
    with pytest.raises(ReferenceRefusedError):
        store.import_temp_output(grant.reference)
    assert store.read(stored.id, 0, 6) == b"recent"  # a stored row's blob is never removed


def test_retention_counts_a_shared_blob_once(
    store_container: Container, store: ArtifactStore, workspace: Path
) -> None:
    store_container.project_service().create("shared")
    store_container.project_service().set_context(
        "shared", ContextPolicyChanges(artifact_retention_bytes=4000)
    )
    for name in ("one.log", "two.log"):
        (workspace / name).write_bytes(b"x" * 3000)
        store.import_file(str(workspace), name, project="shared")
    assert store.cleanup(dry_run=True).expired == ()  # 3000 bytes on disk, not 6000

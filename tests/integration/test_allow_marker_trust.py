"""The inline allow marker is trusted only in a file of the user's workspace imported by path.

The same bytes reaching the store or the model any other way (tool output handed over in
memory, a temporary output, a file's name, a compaction's summary or shrunk output, a
compression) keep their credential blocked or redacted. Real store (SQLite file), real scanner.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cleveragents
from cleveragents.application.services.artifact_store.artifact_store import (
    ArtifactStore,
    SecretHandling,
)
from cleveragents.application.services.artifact_store.results import NAME_LINE
from cleveragents.container import Container, build_container
from cleveragents.domain.stored_artifact import ArtifactStatus
from tests.allow_marker_samples import (
    MARKED_LINE,
    MARKED_OUTPUT,
    SECRET,
    marked_conversation,
)
from tests.fakes import FixedClock


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
    (root / "fixture.env").write_text(MARKED_OUTPUT)
    return root


def _stored_bytes(store: ArtifactStore) -> bytes:
    return b"".join(
        store.read(a.id, 0, a.byte_count)
        for a in store.list(status=ArtifactStatus.STORED)
        if a.byte_count
    )


def test_a_workspace_file_imported_by_path_is_allowed(
    store: ArtifactStore, workspace: Path
) -> None:
    imported = store.import_file(str(workspace), "fixture.env")
    assert not imported.blocked
    assert imported.artifact.findings == ()
    assert store.read(imported.artifact.id, 0, imported.artifact.byte_count) == (
        MARKED_OUTPUT.encode()
    )
    # A preview goes to a model and cannot tell where its bytes came from: it never trusts
    # the marker, so the line is withheld there.
    assert imported.preview is not None
    assert SECRET not in imported.preview.head + imported.preview.tail
    assert imported.preview.withheld_lines == 1


def test_the_same_bytes_as_tool_output_are_blocked_or_redacted(store: ArtifactStore) -> None:
    blocked = store.import_output(MARKED_OUTPUT.encode(), "deploy")
    assert blocked.blocked
    assert [(f.line, f.kind.value) for f in blocked.artifact.findings] == [(2, "aws-access-key-id")]
    redacted = store.import_output(MARKED_OUTPUT.encode(), "deploy", secrets=SecretHandling.REDACT)
    assert redacted.redacted
    kept = store.read(redacted.artifact.id, 0, redacted.artifact.byte_count).decode()
    assert SECRET not in kept
    assert "[REDACTED:" in kept
    assert SECRET.encode() not in _stored_bytes(store)


@pytest.mark.parametrize("secrets", [SecretHandling.BLOCK, SecretHandling.REDACT])
def test_a_temporary_output_does_not_trust_the_marker(
    store: ArtifactStore, secrets: SecretHandling
) -> None:
    grant = store.create_temp_output("deploy")
    Path(grant.path).write_text(MARKED_OUTPUT)
    result = store.import_temp_output(grant.reference, secrets=secrets)
    assert [f.line for f in result.artifact.findings] == [2]
    assert result.blocked is (secrets is SecretHandling.BLOCK)
    assert SECRET.encode() not in _stored_bytes(store)


def test_a_file_name_does_not_trust_the_marker(store: ArtifactStore, workspace: Path) -> None:
    # A tool can name a file as easily as it prints a line.
    name = f"{SECRET} cleveragents:allow-secret.log"
    (workspace / name).write_text("nothing secret inside\n")
    blocked = store.import_file(str(workspace), name)
    assert blocked.blocked
    assert [f.line for f in blocked.artifact.findings] == [NAME_LINE]


def test_the_python_api_trusts_the_marker_only_in_a_file(tmp_path: Path, workspace: Path) -> None:
    with cleveragents.open_store(tmp_path / "agents.db", home=tmp_path / "home") as store:
        # Output first: once the file is stored, the same bytes handed over again reuse it.
        assert store.import_output(MARKED_OUTPUT, "deploy").blocked
        kept = store.import_output(MARKED_OUTPUT, "deploy", secrets="redact")
        assert SECRET.encode() not in store.read(kept.artifact.id)
        assert not store.import_file("fixture.env", workspace=workspace).blocked


def test_compression_redacts_a_marked_credential(tmp_path: Path, workspace: Path) -> None:
    as_text = cleveragents.compress(MARKED_OUTPUT, 200, name="deploy.log")
    assert SECRET not in as_text.text
    assert "[REDACTED" in as_text.text
    with cleveragents.open_store(tmp_path / "agents.db", home=tmp_path / "home") as store:
        # A workspace file compressed by path: stored as an import by path would store it,
        # and still redacted in what the compression returns.
        from_file = cleveragents.compress(workspace / "fixture.env", 200, store=store)
        assert SECRET not in from_file.text
        assert [a.status for a in store.list_artifacts()] == [ArtifactStatus.STORED]


def test_a_compaction_summary_redacts_a_marked_credential() -> None:
    result = cleveragents.compact(marked_conversation(), force=True, keep_recent_tokens=100)
    assert result.status == "compacted"
    written = json.dumps(result.messages)
    assert SECRET not in written
    assert "deploy" in written.lower()  # the request is still summarised


def test_a_shrunk_tool_output_with_a_marked_credential_is_not_stored(tmp_path: Path) -> None:
    steps = "\n".join(f"step {i}: compiled module_{i}.py in {i % 7} ms" for i in range(1500))
    output = f"{steps}\n{MARKED_LINE}\n{steps}\n"
    call = {"name": "build", "arguments": "{}"}
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": "Build it."},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "call_1", "type": "function", "function": call}],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": output},
    ]
    with cleveragents.open_store(tmp_path / "agents.db", home=tmp_path / "home") as store:
        result = cleveragents.compact(
            messages,
            force=True,
            context_window=8_000,
            reserve_tokens=1_000,
            keep_recent_tokens=6_000,
            store=store,
        )
        assert result.status == "compacted"
        assert len(result.shrunk_tool_results) == 1
        assert SECRET not in json.dumps(result.messages)
        stored = [a for a in store.list_artifacts() if a.status is ArtifactStatus.STORED]
        assert all(SECRET.encode() not in store.read(a.id, 0, a.byte_count) for a in stored)

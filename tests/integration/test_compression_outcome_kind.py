"""The compression's outcome says which kind the artifact was compressed as, whichever way it
was read (text, a file, a streamed file, standard input, the store), and the Python API shows
that kind instead of telling it again."""

from __future__ import annotations

from pathlib import Path

import pytest

import cleveragents
from cleveragents.adapters.secrets.pattern_scanner import PatternSecretScanner
from cleveragents.adapters.source.tree_sitter_skeletonizer import TreeSitterSkeletonizer
from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.adapters.workspace.contained_files import FdContainedFiles
from cleveragents.application.services.artifact_compression.artifact_compressor import (
    ArtifactCompressorService,
)
from cleveragents.domain.artifact import ArtifactKind
from tests.conftest import TEST_DATA

LOG = (TEST_DATA / "HDFS_head.log").read_text(encoding="utf-8")
DIFF = (TEST_DATA / "click-4ffa1ef3.diff").read_text(encoding="utf-8")


@pytest.fixture
def service() -> ArtifactCompressorService:
    return ArtifactCompressorService(
        FdContainedFiles(),
        TiktokenCounter("cl100k_base"),
        TreeSitterSkeletonizer(),
        PatternSecretScanner(),
        large_artifact_bytes=10_000,  # the log below is streamed
    )


def test_every_entry_point_says_the_kind_it_compressed_as(
    service: ArtifactCompressorService, tmp_path: Path
) -> None:
    (tmp_path / "build.out").write_text(LOG, encoding="utf-8")
    (tmp_path / "change.patch").write_text(DIFF, encoding="utf-8")
    assert len(LOG.encode()) > 10_000  # streamed: told from its head there
    assert service.compress_text_outcome("build.out", LOG, 200).kind is ArtifactKind.LOG
    streamed = service.compress("build.out", 200, workdir=str(tmp_path))
    assert streamed.kind is ArtifactKind.LOG
    assert service.compress("change.patch", 200, workdir=str(tmp_path)).kind is ArtifactKind.DIFF
    assert service.compress_input("-", DIFF.encode(), 200).kind is ArtifactKind.DIFF
    forced = service.compress_text_outcome("build.out", LOG, 200, kind=ArtifactKind.TEXT)
    assert forced.kind is ArtifactKind.TEXT
    missing = service.compress("gone.log", 200, workdir=str(tmp_path))
    assert missing.error is not None
    assert missing.kind is None  # an error response was compressed as nothing


def test_the_python_api_shows_the_kind_the_service_used(tmp_path: Path) -> None:
    path = tmp_path / "build.out"
    path.write_text(LOG, encoding="utf-8")
    assert cleveragents.compress(path, 200).kind is ArtifactKind.LOG
    assert cleveragents.compress(LOG, 200).kind is ArtifactKind.LOG
    assert cleveragents.compress(LOG, 200, kind="text").kind is ArtifactKind.TEXT
    with cleveragents.open_store(home=tmp_path / "home") as store:
        stored = store.import_output(DIFF, "change")
        assert store.compress(stored.artifact.id, 200).kind is ArtifactKind.DIFF

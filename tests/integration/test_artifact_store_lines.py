"""`ArtifactStore.read_lines`: exactly the lines asked for, byte for byte, streamed.

A real SQLite store and real blobs: a file is imported, then read back by line ranges, which
concatenated give the file again whatever the ranges and wherever the reads cut it.
"""

from __future__ import annotations

import random
import tracemalloc
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cleveragents.application.services.artifact_store import reading as artifact_store_module
from cleveragents.application.services.artifact_store.artifact_store import (
    ArtifactNotStoredError,
    ArtifactStore,
)
from cleveragents.application.services.artifact_store.lines import lines_between
from cleveragents.container import Container, build_container
from cleveragents.domain.errors import InvalidInputError, NotFoundError
from tests.secret_samples import fake_aws_access_key_id

# CRLF and LF lines, an empty line, a lone CR inside a line, invalid UTF-8, no final newline.
MIXED = b"first\r\nsecond\n\nthird\rstill third\r\ncaf\xe9 \xff\nlast line, no newline"


def _lines(data: bytes) -> list[bytes]:
    """The reference: a line is everything up to and including a newline; what follows the
    last newline, if anything, is the last line."""
    lines = [line + b"\n" for line in data.split(b"\n")]
    lines[-1] = lines[-1][:-1]
    return lines if lines[-1] else lines[:-1]


@pytest.fixture
def store_container(database_url: str, home: Path) -> Iterator[Container]:
    built = build_container(database_url, home=home)
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


def _imported(store: ArtifactStore, workspace: Path, data: bytes, name: str = "out.log") -> str:
    (workspace / name).write_bytes(data)
    result = store.import_file(str(workspace), name)
    assert not result.blocked
    return result.artifact.id


def test_a_range_is_exactly_those_lines_with_their_endings(
    store: ArtifactStore, workspace: Path
) -> None:
    artifact_id = _imported(store, workspace, MIXED)
    assert store.read_lines(artifact_id, 1, 1) == b"first\r\n"
    assert store.read_lines(artifact_id, 2, 3) == b"second\n\n"
    assert store.read_lines(artifact_id, 4, 4) == b"third\rstill third\r\n"
    assert store.read_lines(artifact_id, 5, 5) == b"caf\xe9 \xff\n"
    assert store.read_lines(artifact_id, 6, 6) == b"last line, no newline"
    assert store.read_lines(artifact_id, 1, 6) == MIXED


def test_a_range_past_the_end_is_cut_at_the_end(store: ArtifactStore, workspace: Path) -> None:
    artifact_id = _imported(store, workspace, b"a\nb\n")
    assert store.read_lines(artifact_id, 2, 10**12) == b"b\n"
    assert store.read_lines(artifact_id, 1, 10**12) == b"a\nb\n"
    assert store.read_lines(artifact_id, 3, 3) == b""  # the final newline starts no line
    assert store.read_lines(artifact_id, 50, 60) == b""


def test_an_empty_artifact_has_no_lines(store: ArtifactStore, workspace: Path) -> None:
    artifact_id = _imported(store, workspace, b"")
    assert store.read_lines(artifact_id, 1, 1) == b""


@pytest.mark.parametrize(("first", "last"), [(0, 1), (0, 0), (-1, 3), (3, 2), (1, 0)])
def test_a_range_that_is_not_one_is_invalid_input(
    store: ArtifactStore, workspace: Path, first: int, last: int
) -> None:
    artifact_id = _imported(store, workspace, MIXED)
    with pytest.raises(InvalidInputError, match="line range"):
        store.read_lines(artifact_id, first, last)


def test_every_range_reads_the_reference_lines(store: ArtifactStore, workspace: Path) -> None:
    artifact_id = _imported(store, workspace, MIXED)
    lines = _lines(MIXED)
    for first in range(1, len(lines) + 2):
        for last in range(first, len(lines) + 3):
            expected = b"".join(lines[first - 1 : last])
            assert store.read_lines(artifact_id, first, last) == expected, (first, last)


def test_consecutive_ranges_reassemble_the_file(store: ArtifactStore, workspace: Path) -> None:
    rng = random.Random(13)
    endings = [b"\n", b"\r\n", b"\n\n"]
    data = (
        b"".join(
            f"{i} {'x' * rng.randrange(0, 300)} \u00e9".encode() + rng.choice(endings)
            for i in range(600)
        )
        + b"tail without newline"
    )
    artifact_id = _imported(store, workspace, data)
    count = len(_lines(data))
    one_by_one = b"".join(store.read_lines(artifact_id, n, n) for n in range(1, count + 1))
    assert one_by_one == data
    for _ in range(20):
        cuts = sorted(rng.sample(range(2, count + 1), rng.randrange(1, 60)))
        starts = [1, *cuts]
        ends = [cut - 1 for cut in cuts] + [count]
        parts = [store.read_lines(artifact_id, a, b) for a, b in zip(starts, ends, strict=True)]
        assert b"".join(parts) == data


@pytest.mark.parametrize("chunk_bytes", [1, 2, 3, 7, 64])
def test_reads_cut_anywhere_give_the_same_lines(
    store: ArtifactStore, workspace: Path, monkeypatch: pytest.MonkeyPatch, chunk_bytes: int
) -> None:
    artifact_id = _imported(store, workspace, MIXED)
    monkeypatch.setattr(artifact_store_module, "CHUNK_BYTES", chunk_bytes)
    lines = _lines(MIXED)
    for first in range(1, len(lines) + 1):
        for last in range(first, len(lines) + 2):
            expected = b"".join(lines[first - 1 : last])
            assert store.read_lines(artifact_id, first, last) == expected


def test_a_content_reference_reads_lines_too(store: ArtifactStore, workspace: Path) -> None:
    artifact_id = _imported(store, workspace, MIXED)
    digest = store.get(artifact_id).sha256
    assert store.read_lines(f"sha256:{digest}", 2, 2) == b"second\n"


def test_only_stored_artifacts_have_lines(store: ArtifactStore, workspace: Path) -> None:
    (workspace / "env.txt").write_text(f"ok\nAWS_ACCESS_KEY_ID={fake_aws_access_key_id()}\n")
    blocked = store.import_file(str(workspace), "env.txt")
    assert blocked.blocked
    with pytest.raises(ArtifactNotStoredError):
        store.read_lines(blocked.artifact.id, 1, 1)
    with pytest.raises(NotFoundError):
        store.read_lines("01J00000000000000000000000", 1, 1)


def test_the_range_is_checked_before_anything_is_read(
    store: ArtifactStore, workspace: Path
) -> None:
    artifact_id = _imported(store, workspace, MIXED)
    with pytest.raises(InvalidInputError):
        store.stream_lines(artifact_id, 2, 1)  # raised by the call, not by the first piece
    with pytest.raises(NotFoundError):
        store.stream_lines("01J00000000000000000000000", 1, 1)


def test_a_large_artifact_is_read_in_bounded_memory(
    store: ArtifactStore, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    line = b"0123456789abcdef" * 4 + b"\n"  # 65 bytes
    count = 64_000
    artifact_id = _imported(store, workspace, line * count)  # about 4 MiB
    monkeypatch.setattr(artifact_store_module, "CHUNK_BYTES", 64 << 10)
    tracemalloc.start()
    try:
        assert store.read_lines(artifact_id, count - 1, count + 5) == line * 2
        assert store.read_lines(artifact_id, 1, 2) == line * 2
        pieces = store.stream_lines(artifact_id, 1, count)
        assert sum(len(piece) for piece in pieces) == len(line) * count
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20  # a few 64 KiB reads, never the 4 MiB whole


@given(
    data=st.binary(max_size=60).map(lambda b: b.replace(b"a", b"\n").replace(b"b", b"\r")),
    cuts=st.lists(st.integers(min_value=0, max_value=60), max_size=6),
    first=st.integers(min_value=1, max_value=20),
    extra=st.integers(min_value=0, max_value=20),
)
def test_lines_between_matches_the_reference_however_the_stream_is_cut(
    data: bytes, cuts: list[int], first: int, extra: int
) -> None:
    bounds = [0, *sorted(cut for cut in cuts if cut <= len(data)), len(data)]
    chunks = [data[a:b] for a, b in pairwise(bounds) if b > a]
    expected = b"".join(_lines(data)[first - 1 : first + extra])
    assert b"".join(lines_between(chunks, first, first + extra)) == expected

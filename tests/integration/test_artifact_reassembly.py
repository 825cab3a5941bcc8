"""Smart compression loses nothing: every omission marker names a line range of the stored
artifact, and the kept lines plus the ranges read back give the original byte for byte.

A real SQLite store, real blobs, the real tokenizer and grammars: `artifact compress --store`
(the service's `compress(..., store=True)`), then `ArtifactStore.read_lines` for each marker.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import pytest

from cleveragents.application.services.artifact_compression.artifact_compressor import (
    ArtifactCompressorService,
)
from cleveragents.application.services.artifact_compression.detection import detect
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    KindCompressor,
)
from cleveragents.application.services.artifact_compression.kinds.registry import compressor_for
from cleveragents.application.services.artifact_store.artifact_store import ArtifactStore
from cleveragents.container import Container, build_container
from cleveragents.domain.artifact import CompressionMode
from tests.conftest import corpus_file

RANGE = r"lines? (\d+)(?:-(\d+))? of ([0-9A-Z]+)"


@pytest.fixture
def store_container(database_url: str, home: Path) -> Iterator[Container]:
    built = build_container(database_url, home=home)
    yield built
    built.store().dispose()


def _generated_log(lines: int, seed: int) -> str:
    rng = random.Random(seed)
    out = []
    for index in range(lines):
        level = rng.choices(["INFO", "DEBUG", "WARN", "ERROR"], [70, 20, 7, 3])[0]
        out.append(
            f"2024-03-0{1 + index % 9} 10:{index % 60:02d}:{rng.randrange(60):02d},"
            f"{index % 997:03d} "
            f"{level} [worker-{rng.randrange(8)}] job {rng.randrange(10_000)} "
            f"{rng.choice(['started', 'finished', 'retried', 'timed out after 30s'])}"
        )
    return "\r\n".join(out[: lines // 2]) + "\r\n" + "\n".join(out[lines // 2 :])


def _reassemble(
    content: str, compressor: KindCompressor, store: ArtifactStore, artifact_id: str
) -> bytes:
    prefix, suffix = compressor.marker("\0").split("\0")
    repeats = r"(?:\u00d7\d+ like the line above: )?"
    gap = re.compile(re.escape(prefix) + repeats + RANGE + re.escape(suffix))
    cut = re.compile(" " + re.escape(prefix) + "rest of " + RANGE + re.escape(suffix) + "$")
    lines = content.split("\n")
    assert lines[-1].startswith("[TRUNCATED"), lines[-1]
    outline = re.compile(re.escape(prefix) + r"outline: [^\n]*: " + RANGE + re.escape(suffix))
    if (whole := outline.fullmatch(lines[0])) is not None:
        # An outline's one marker names the whole file; its lines are lines of it, in order.
        assert whole.group(3) == artifact_id
        original = store.read_lines(artifact_id, int(whole.group(1)), int(whole.group(2)))
        rest = iter(original.decode("utf-8").split("\n"))
        assert all(any(line == other for other in rest) for line in lines[1:-1])
        return original
    if lines[0].startswith(prefix) and not gap.fullmatch(lines[0]):
        # A note in marker syntax first (a diff's list of files) holds no text of the original.
        end = next(index for index, line in enumerate(lines) if line.endswith(suffix))
        lines = lines[end + 1 :]
    out = bytearray()
    for line in lines[:-1]:
        found = gap.fullmatch(line.lstrip(" \t")) or cut.search(line)  # source indents them
        if found is None:
            out += line.encode("utf-8") + b"\n"
            continue
        first, last, named = (
            int(found.group(1)),
            int(found.group(2) or found.group(1)),
            found.group(3),
        )
        assert named == artifact_id
        out += store.read_lines(artifact_id, first, last)
    return bytes(out)


def _corpus(relative: str) -> str:
    return corpus_file(relative).read_text()


def _notes() -> str:
    return "\n".join(f"note {i}: " + "word " * (i % 40) for i in range(800))


CASES: list[tuple[str, Callable[[], str]]] = [
    ("build.log", partial(_generated_log, 3000, 1)),
    ("HDFS_2k.log", partial(_corpus, "logs/HDFS_2k.log")),
    ("change.diff", partial(_corpus, "diffs/click-3c4cacb1.diff")),
    ("plan.md", partial(_corpus, "markdown/rfc-2394-async_await.md")),
    ("core.py", partial(_corpus, "code/click-types.py")),
    ("notes.txt", _notes),
]


@pytest.mark.parametrize(("name", "make"), CASES, ids=[case[0] for case in CASES])
@pytest.mark.parametrize("ratio", [1.2, 5, 20])
def test_kept_lines_and_read_back_ranges_reassemble_the_original(
    store_container: Container, tmp_path: Path, name: str, make: object, ratio: float
) -> None:
    text = make()  # type: ignore[operator]
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / name).write_bytes(text.encode("utf-8"))
    service: ArtifactCompressorService = store_container.artifact_compressor_service()
    raw = service.compress_text(name, text, 10**9).raw_tokens
    budget = max(int(raw / ratio), 200)
    outcome = service.compress(
        name, budget, workdir=str(workspace), mode=CompressionMode.SMART, store=True
    )
    result = outcome.result
    assert result.compacted_tokens <= budget
    store: ArtifactStore = store_container.artifact_store()
    [stored] = [a for a in store.list() if a.workspace_path == name]
    compressor = compressor_for(detect(name, text[:16_384]), store_container.source_skeletonizer())
    rebuilt = _reassemble(result.content, compressor, store, stored.id)
    if not text.endswith("\n"):  # a kept last line cannot say that it had no newline
        rebuilt = rebuilt.removesuffix(b"\n")
    assert rebuilt == text.encode("utf-8")

"""The code-diff compressor on the diffs of the shared corpus (skipped when it is absent): Tier 2
keeps the headers and Python declarations and drops comments and blank lines."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from cleveragents.application.services.artifact_compression.kinds.diff.compressor import (
    DiffCompressor,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.languages import IMPLEMENTATION_OMITTED
from tests.conftest import corpus_files
from tests.diff_samples import is_subsequence

DATA = Path(__file__).resolve().parents[1] / "data"
NO_TASK = TaskTerms()
COMPRESSOR = DiffCompressor()


def _corpus() -> list[Path]:
    by_name = {path.name: path for path in sorted(DATA.glob("click-*.diff"))}
    by_name.update({path.name: path for path in corpus_files("diffs", "*.diff")})
    return [by_name[name] for name in sorted(by_name)]


CORPUS = _corpus()
HUNK = re.compile(r"@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")
PY_DEF = re.compile(r"\s*(?:async\s+)?(?:def|class)\s")


def body_lines(text: str) -> Iterator[tuple[str, str, str]]:
    """(path, line, kind) for every line of a raw diff; kind is header, hunk, body or other.
    An independent, count-based reading of the unified format."""
    path, old, new = "", 0, 0
    for line in text.split("\n"):
        if old > 0 or new > 0:
            old -= line[:1] in (" ", "-", "")
            new -= line[:1] in (" ", "+", "")
            yield path, line, "body"
        elif line.startswith("@@"):
            match = HUNK.match(line)
            assert match is not None
            old, new = int(match.group(1) or 1), int(match.group(2) or 1)
            yield path, line, "hunk"
        elif line.startswith(("diff --git ", "--- a/", "+++ b/", "--- /dev/null", "+++ /dev/")):
            if line.startswith("+++ b/"):
                path = line[6:]
            yield path, line, "header"
        else:
            yield path, line, "other"


def output_body(text: str) -> Iterator[tuple[str, str]]:
    """(path, line) for the hunk body lines of a compressed diff (counts no longer hold)."""
    path, in_hunk = "", False
    for line in text.split("\n"):
        if line.startswith("diff --git "):
            in_hunk = False
        elif line.startswith("+++ b/") and not in_hunk:
            path = line[6:]
        elif line.startswith("@@"):
            in_hunk = True
        elif in_hunk and line[:1] in (" ", "+", "-"):
            yield path, line


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_corpus_keeps_headers_and_python_declarations(path: Path) -> None:
    text = path.read_text()
    out = COMPRESSOR.tier2(text, NO_TASK)
    out_lines = out.split("\n")
    parsed = list(body_lines(text))
    headers = [line for _, line, kind in parsed if kind in ("header", "hunk")]
    assert headers
    assert is_subsequence(headers, out_lines)
    declarations = [
        line
        for file, line, kind in parsed
        if kind == "body" and file.endswith(".py") and PY_DEF.match(line[1:])
    ]
    assert is_subsequence(declarations, out_lines)
    assert len(out) < len(text)
    assert out == COMPRESSOR.tier2(text, NO_TASK)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_corpus_drops_comments_and_blank_lines(path: Path) -> None:
    out = COMPRESSOR.tier2(path.read_text(), NO_TASK)
    placeholders = 0
    for file, line in output_body(out):
        code = line[1:].strip()
        assert code, f"blank code line kept: {line!r}"
        if file.endswith(".py"):
            if code == f"# {IMPLEMENTATION_OMITTED}":
                placeholders += 1
            else:
                assert not code.startswith("#"), f"comment kept: {line!r}"
    assert placeholders

"""Smart mode's ranks of whole source files with the real tree-sitter adapter: every signature,
nested ones included, before any body; the patterns when a file does not parse.

Real data: `tests/data/click-core.py.txt` (pallets/click, BSD-3-Clause) and the
`tests/data/source/` samples."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from cleveragents.adapters.source.tree_sitter_skeletonizer import TreeSitterSkeletonizer
from cleveragents.application.services.artifact_compression.kinds.source import SourceCompressor
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.container import build_container
from cleveragents.domain.artifact import CompressionMode

DATA = Path(__file__).resolve().parent.parent / "data"
CLICK_CORE = DATA / "click-core.py.txt"
NAME, SIGNATURE, ERROR_OR_DOC, TASK, OUTLINE, BODY, QUIET = range(7)


def plan_ranks(source: str, language: str, task: str | None = None) -> list[int]:
    compressor = SourceCompressor(TreeSitterSkeletonizer(), language)
    return list(compressor.line_plan(source.split("\n"), TaskTerms.from_task(task)).priorities)


def _headers(source: str) -> tuple[set[int], set[int]]:
    """0-based lines of every def/class, and of every whole header (decorators to the `:`),
    at any depth. A body on the line of the `:` (an overload's `...`) leaves it a header."""
    lines = source.split("\n")
    names: set[int] = set()
    headers: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.lineno - 1)
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)]) - 1
            body = node.body[0]
            on_header_line = bool(lines[body.lineno - 1][: body.col_offset].strip())
            headers.update(range(first, body.lineno - 1 + on_header_line))
    return names, headers


def test_click_core_ranks_every_def_first_and_every_header_before_any_body() -> None:
    source = CLICK_CORE.read_text(encoding="utf-8")
    names, headers = _headers(source)
    imports = {
        row
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Import | ast.ImportFrom)
        for row in range(node.lineno - 1, (node.end_lineno or node.lineno))
    }
    ranks = plan_ranks(source, "python")
    # Names rank NAME or below (new names first, the shortest first): before any other line.
    assert {index for index, rank in enumerate(ranks) if rank <= NAME} == names
    assert {index for index, rank in enumerate(ranks) if rank == SIGNATURE} == (
        headers | imports
    ) - names


NESTED = '''\
import functools


class Registry:
    class Entry:
        @functools.cache
        async def resolve(
            self,
            name: str,
        ) -> str:
            """Find a name."""
            def normalise(value):
                return value.lower()
            if not name:
                raise KeyError(name)
            return normalise(name)
'''


def test_python_nested_classes_functions_decorators_and_async_defs() -> None:
    assert plan_ranks(NESTED, "python") == [
        SIGNATURE,  # import
        QUIET,
        QUIET,
        NAME,  # class Registry
        NAME,  # class Entry
        SIGNATURE,  # decorator
        NAME,  # async def resolve(
        SIGNATURE,
        SIGNATURE,
        SIGNATURE,
        ERROR_OR_DOC,  # docstring
        NAME,  # nested def
        BODY,
        BODY,
        ERROR_OR_DOC,  # raise
        BODY,
        QUIET,
    ]


def test_a_file_that_does_not_parse_is_ranked_by_patterns() -> None:
    source = "def broken(:\n    return 1\n\nclass Store:\n    def put(self):\n        raise E()\n"
    assert TreeSitterSkeletonizer().signature_lines(source, "python") is None
    assert plan_ranks(source, "python") == [NAME, BODY, QUIET, NAME, NAME, ERROR_OR_DOC, QUIET]


@pytest.mark.parametrize(
    ("language", "fixture", "name", "body"),
    [
        ("javascript", "inventory.js", "export const double = (x) => x * 2;", "this.sku = sku;"),
        ("typescript", "inventory.ts", "get size(): number {", "this.counts.set(sku, total);"),
        ("go", "inventory.go", "remaining := func() int {", "inv.counts[sku] = remaining()"),
        ("rust", "inventory.rs", "impl Shelf for Inventory {", "inventory.add(line, 1);"),
        ("java", "Inventory.java", "IntSupplier remaining = () -> {", "counts.put("),
        ("c", "inventory.c", "int inventory_add(", "fclose(file);"),
        ("cpp", "inventory.cpp", "T clamp_quantity(T value) {", "counts_[sku] = remaining();"),
    ],
)
def test_each_language_ranks_a_nested_or_member_signature_first(
    language: str, fixture: str, name: str, body: str
) -> None:
    source = (DATA / "source" / fixture).read_text(encoding="utf-8")
    lines = source.split("\n")
    ranks = plan_ranks(source, language)
    named = [ranks[i] for i, line in enumerate(lines) if line.strip().startswith(name)]
    assert len(named) == 1
    assert named[0] <= NAME  # a file of many declarations ranks new names below NAME
    assert {ranks[i] for i, line in enumerate(lines) if line.strip().startswith(body)} == {BODY}


def test_smart_compression_keeps_every_def_of_click_core_at_half_its_size() -> None:
    source = CLICK_CORE.read_text(encoding="utf-8")
    service = build_container(encoding="cl100k_base").artifact_compressor_service()
    raw = service.compress_text("core.py", source, 10**6).raw_tokens
    result = service.compress_text("core.py", source, raw // 2, mode=CompressionMode.SMART)
    assert result.truncated
    assert result.compacted_tokens <= raw // 2
    kept = {line.strip() for line in result.content.split("\n")}
    names, _ = _headers(source)
    lines = source.split("\n")
    assert {lines[index].strip() for index in names} <= kept
    markers = [line for line in result.content.split("\n") if "# … line" in line]
    assert markers
    assert all(re.fullmatch(r" *# … lines? \d+(-\d+)?", m) for m in markers)
    assert any(marker.startswith("        # …") for marker in markers)  # method bodies


def test_many_declarations_rank_new_and_short_names_first() -> None:
    methods = [f"    def {'m' * (n + 1)}(self) -> None:\n        pass\n" for n in range(8)]
    repeated = "    def __init__(self) -> None:\n        pass\n"
    source = "class A:\n" + repeated + "".join(methods) + "class B:\n" + repeated
    lines = source.split("\n")
    ranks = plan_ranks(source, "python")
    by_line = {line.strip(): rank for line, rank in zip(lines, ranks, strict=True)}
    inits = [rank for line, rank in zip(lines, ranks, strict=True) if "__init__" in line]
    assert inits[1] == NAME  # the same text again: after every new name
    assert inits[0] < NAME
    assert by_line["def m(self) -> None:"] == NAME - 4  # the shortest quarter first
    assert by_line["def mmmmmmmm(self) -> None:"] == NAME - 1
    assert (
        max(ranks[i] for i, line in enumerate(lines) if "def " in line or "class " in line) == NAME
    )
    assert min(rank for line, rank in zip(lines, ranks, strict=True) if "pass" in line) == BODY

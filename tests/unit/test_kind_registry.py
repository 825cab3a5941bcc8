"""The kinds' registry is the one list: detection by name reads the vocabulary's suffix map (the
budget planner's too), detection by content walks the declarations, and a kind registered at
run time (the test-only CSV kind) is detected, compressed and named like a shipped one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cleveragents.adapters.source.tree_sitter_skeletonizer import TreeSitterSkeletonizer
from cleveragents.application.services.artifact_compression.detection import detect, detect_as
from cleveragents.application.services.artifact_compression.kinds.kind_declaration import (
    Detected,
    KindDeclaration,
)
from cleveragents.application.services.artifact_compression.kinds.plain_text import (
    PlainTextCompressor,
)
from cleveragents.application.services.artifact_compression.kinds.registry import (
    SHIPPED_KINDS,
    compressor_for,
    declared_kinds,
    register_kind,
    unregister_kind,
)
from cleveragents.domain.context_budget import BudgetKind, changed_file_kind
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.vocabulary import ArtifactKind, artifact_kind_names, kind_named_by
from tests.csv_kind import CSV, CSV_KIND, CsvCompressor

SKELETONIZER = TreeSitterSkeletonizer()


def test_the_registry_declares_each_shipped_kind_once_in_the_vocabularys_order() -> None:
    assert [declaration.name for declaration in SHIPPED_KINDS] == list(ArtifactKind)
    assert declared_kinds() == SHIPPED_KINDS


@pytest.mark.parametrize(
    ("name", "kind", "planned"),
    [
        ("fix.diff", ArtifactKind.DIFF, BudgetKind.DIFF),
        ("fix.PATCH", ArtifactKind.DIFF, BudgetKind.DIFF),
        ("page.json", ArtifactKind.JSON, BudgetKind.JSON),
        ("build.log", ArtifactKind.LOG, BudgetKind.LOG),
        ("events.jsonl", ArtifactKind.LOG, BudgetKind.LOG),
        ("events.ndjson", ArtifactKind.LOG, BudgetKind.LOG),
        ("guide.md", ArtifactKind.MARKDOWN, BudgetKind.DOC),
        ("guide.mdx", ArtifactKind.MARKDOWN, BudgetKind.DOC),
        ("src/app.py", ArtifactKind.SOURCE, BudgetKind.SOURCE),
    ],
)
def test_the_compressor_and_the_budget_planner_read_one_suffix_map(
    name: str, kind: ArtifactKind, planned: BudgetKind
) -> None:
    assert kind_named_by(name) is kind
    assert detect(name, "# a heading that content detection would take for markdown\n").kind is kind
    assert changed_file_kind(name) is planned


def test_names_without_a_suffix_are_told_by_content_in_the_registrys_order() -> None:
    assert detect("git_diff", "anything\n").kind is ArtifactKind.DIFF
    assert detect("response", '{"a": 1}\n').kind is ArtifactKind.JSON
    assert detect("outcomes.log.1", "plain words\n").kind is ArtifactKind.LOG
    assert detect("notes", "# Title\nbody\n").kind is ArtifactKind.MARKDOWN
    assert detect("notes.txt", "just words\n").kind is ArtifactKind.TEXT
    assert detect("empty", "").kind is ArtifactKind.TEXT
    assert detect("app.py", "").language == "python"


def test_a_source_kind_without_a_language_is_compressed_as_text() -> None:
    compressor = compressor_for(Detected(ArtifactKind.SOURCE), SKELETONIZER)
    assert isinstance(compressor, PlainTextCompressor)


@pytest.fixture
def csv_registered() -> Iterator[None]:
    register_kind(CSV_KIND)
    try:
        yield
    finally:
        unregister_kind(CSV)


@pytest.mark.usefixtures("csv_registered")
def test_a_registered_kind_is_named_detected_and_compressed_like_a_shipped_one() -> None:
    assert artifact_kind_names() == (*ArtifactKind, CSV)
    assert detect("people.CSV", "").kind == CSV
    assert detect("people", "name,team\nada,core\n").kind == CSV
    assert detect("people", "just one line, of prose\n").kind is ArtifactKind.TEXT
    assert detect_as("notes.txt", "words\n", CSV).kind == CSV  # type: ignore[arg-type]
    assert isinstance(compressor_for(Detected(CSV), SKELETONIZER), CsvCompressor)  # type: ignore[arg-type]
    # A shipped kind's suffix still names the shipped kind.
    assert detect("people.json", "name,team\nada,core\n").kind is ArtifactKind.JSON


def test_a_registered_kind_leaves_no_trace_once_removed(csv_registered: None) -> None:
    unregister_kind(CSV)
    assert artifact_kind_names() == tuple(ArtifactKind)
    assert kind_named_by("people.csv") is None
    assert declared_kinds() == SHIPPED_KINDS


@pytest.mark.usefixtures("csv_registered")
@pytest.mark.parametrize(
    ("declaration", "refusal"),
    [
        (CSV_KIND, "the artifact kind 'csv' exists already"),
        (KindDeclaration(PlainTextCompressor), "the artifact kind 'text' exists already"),
    ],
)
def test_a_name_is_one_kind(declaration: KindDeclaration, refusal: str) -> None:
    with pytest.raises(InvalidInputError, match=refusal):
        register_kind(declaration)


@pytest.mark.parametrize(
    ("suffixes", "refusal"),
    [
        ((".log",), "the suffix '.log' names the kind 'log' already"),
        ((".py",), "the suffix '.py' names the kind 'source' already"),
        (("csv",), "a kind's suffix is like '.csv'"),
        ((".CSV",), "a kind's suffix is like '.csv'"),
    ],
)
def test_a_suffix_is_one_kind(suffixes: tuple[str, ...], refusal: str) -> None:
    declaration = KindDeclaration(CsvCompressor, suffixes=suffixes)
    with pytest.raises(InvalidInputError, match=refusal):
        register_kind(declaration)
    assert artifact_kind_names() == tuple(ArtifactKind)

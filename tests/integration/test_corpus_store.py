"""The store `make verify` checks: what `tests.corpus_store` builds holds what it says.

Built from the tests' copy of the corpus (always there, and what CI falls back to), read back
through the CLI like any other store.
"""

from __future__ import annotations

import hashlib
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from tests.corpus_store import (
    COMPACTED_NAME,
    CORPUS,
    DECISIONS,
    PROJECT,
    SHARED_LAYOUT,
    TEST_DATA,
    TEST_DATA_LAYOUT,
    CorpusStore,
    agents_json,
    build_corpus_store,
    corpus_source,
    main,
    verify,
    verify_unavailable,
)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> CorpusStore:
    return build_corpus_store(tmp_path_factory.mktemp("corpus-store"), corpus_source(TEST_DATA))


def _read(store: CorpusStore, *args: str) -> object:
    return agents_json(store.database_url, store.environment(), *args)


def test_the_plan_holds_its_decisions(store: CorpusStore) -> None:
    status = _read(store, "plan", "status", store.plan_id)
    assert isinstance(status, dict)
    assert status["project"] == PROJECT
    assert status["decisions"] == len(DECISIONS) == len(set(store.decision_ids))


def test_every_log_diff_and_json_document_is_an_artifact_of_the_plan(store: CorpusStore) -> None:
    files = store.source.artifact_files()
    assert {path.suffix for path in files} == {".log", ".diff", ".json"}
    listed = _read(store, "artifact", "list", "--project", PROJECT)
    assert isinstance(listed, list)
    by_path = {artifact["workspace_path"]: artifact for artifact in listed}
    session = by_path.pop(COMPACTED_NAME)
    assert session["id"] == store.compacted_session_id
    assert sorted(by_path) == sorted(str(path.relative_to(TEST_DATA)) for path in files)
    assert sorted(by_path) == sorted(store.artifact_ids)
    for path in files:
        artifact = by_path[str(path.relative_to(TEST_DATA))]
        assert artifact["id"] == store.artifact_ids[artifact["workspace_path"]]
        assert artifact["plan_id"] == store.plan_id
        assert artifact["status"] == "stored"
        assert artifact["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_compaction_and_the_session_usage_are_recorded(store: CorpusStore) -> None:
    shown = _read(store, "metrics", "show", "--project", PROJECT)
    assert isinstance(shown, dict)
    assert shown["compaction"]["count"] >= 1
    assert store.summary_sha256 in shown["compaction"]["summary_fingerprints"]
    # claude-code-short.jsonl: one API message, repeated over five records.
    assert store.metered_requests == 1
    assert shown["usage"]["totals"]["requests"] == 1


def test_the_compacted_session_is_stored_as_a_transcript(store: CorpusStore) -> None:
    artifact = _read(store, "artifact", "show", store.compacted_session_id)
    assert isinstance(artifact, dict)
    assert artifact["media_type"] == "application/jsonl"  # what agents verify reads as one
    assert artifact["plan_id"] == store.plan_id


def test_the_store_and_its_blobs_stay_in_its_directory(store: CorpusStore) -> None:
    database = Path(store.database_url.removeprefix("sqlite:///"))
    assert database.parent == store.home.parent
    assert database.is_file()
    assert any(path.is_file() for path in (store.home / "artifacts").rglob("*"))


def test_agents_verify_is_silent_on_the_store(store: CorpusStore) -> None:
    unavailable = verify_unavailable(store)
    if unavailable is not None:
        pytest.skip(f"no agents verify in this checkout: {unavailable}")
    completed = verify(store)
    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_agents_verify_fails_on_the_store_once_a_row_is_tampered_with(
    store: CorpusStore,
) -> None:
    if verify_unavailable(store) is not None:
        pytest.skip("no agents verify in this checkout")
    database = store.database_url.removeprefix("sqlite:///")
    path, artifact_id = next(iter(store.artifact_ids.items()))
    escape = "UPDATE artifacts SET workspace_path = ? WHERE id = ?"
    # In place (the store's blobs are found through its URL), put back for the other tests.
    with closing(sqlite3.connect(database)) as connection, connection:
        connection.execute(escape, ("../../etc/passwd", artifact_id))
    try:
        completed = verify(store)
    finally:
        with closing(sqlite3.connect(database)) as connection, connection:
            connection.execute(escape, (path, artifact_id))
    assert completed.returncode != 0
    assert artifact_id in completed.stdout + completed.stderr
    assert verify(store).returncode == 0


def test_the_shared_corpus_is_preferred_and_its_layout_recognised() -> None:
    chosen = corpus_source()
    if CORPUS.is_dir():
        assert (chosen.root, chosen.layout) == (CORPUS, SHARED_LAYOUT)
        assert corpus_source(CORPUS).layout == SHARED_LAYOUT
        for name in (SHARED_LAYOUT.compacted, SHARED_LAYOUT.metered):
            assert (CORPUS / name).is_file()
    else:
        assert (chosen.root, chosen.layout) == (TEST_DATA, TEST_DATA_LAYOUT)
    assert corpus_source(TEST_DATA).layout == TEST_DATA_LAYOUT


def test_a_missing_corpus_or_a_stray_option_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(tmp_path / "absent")]) == 2
    assert capsys.readouterr().err == f"error: no corpus at {tmp_path / 'absent'}\n"
    assert main(["--fast"]) == 2
    assert capsys.readouterr().err.count("\n") == 1

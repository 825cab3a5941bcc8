"""`StoreVerifier`: each stop condition fires on bad state planted in the real store (rows
tampered with in SQL included) and is silent on good state; SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from cleveragents.application.services.delivery_gates import StopCondition, StoreVerification
from cleveragents.container import Container
from cleveragents.domain.compaction_summary import (
    CompactionSummary,
    SummarySection,
    render_summary,
)
from cleveragents.domain.errors import ProjectNotFoundError
from cleveragents.domain.event import CONTEXT_COMPACTED
from cleveragents.domain.policy import ContextPolicyChanges
from cleveragents.domain.usage import TokenUsage, UsageFormat, UsageRecord
from tests.secret_samples import fake_aws_access_key_id

LOG = "".join(f"2024-05-01 12:00:{i % 60:02d} INFO step {i} done\n" for i in range(1000))
LOG += "1 failed, 999 passed\n"
SET_PATH = "UPDATE artifacts SET workspace_path = :p WHERE id = :i"
TODO = "migrate the billing schema to the ledger tables"


def verify(container: Container, project: str | None = None) -> StoreVerification:
    report: StoreVerification = container.store_verifier().verify(project)
    return report


def conditions(report: StoreVerification) -> set[StopCondition]:
    return {violation.condition for violation in report.violations}


def sql(container: Container, statement: str, **values: Any) -> None:
    with container.store().sessions.begin() as session:
        session.execute(text(statement), values)


def imported(container: Container, tmp_path: Path, name: str = "run.log", data: str = LOG) -> str:
    workspace = tmp_path / "ws"
    workspace.mkdir(exist_ok=True)
    (workspace / name).write_text(data, encoding="utf-8")
    result = container.artifact_store().import_file(str(workspace), name)
    assert not result.blocked
    artifact_id: str = result.artifact.id
    return artifact_id


def test_a_clean_store_passes_every_gate(container: Container, tmp_path: Path) -> None:
    imported(container, tmp_path)
    container.artifact_store().import_output(LOG.encode() + b"exit 1\n", "pytest")
    report = verify(container)
    assert report.passed, [v.line for v in report.violations]
    assert (report.artifacts, report.previews) == (2, 2)


# -- workspace escape ------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["../../etc/passwd", "/etc/passwd", "logs/../../x", "a/../b"])
def test_a_row_whose_path_escapes_its_workspace_fires(
    container: Container, tmp_path: Path, path: str
) -> None:
    artifact_id = imported(container, tmp_path)
    sql(container, SET_PATH, p=path, i=artifact_id)
    report = verify(container)
    [violation] = report.violations
    assert violation.condition is StopCondition.WORKSPACE_ESCAPE
    assert violation.subject == f"artifact {artifact_id}"
    assert repr(path) in violation.line


def test_workspace_relative_paths_are_silent(container: Container, tmp_path: Path) -> None:
    imported(container, tmp_path, "nested.log")
    container.artifact_store().import_output(b"tool output\n", "tests")  # tool-output/tests
    assert StopCondition.WORKSPACE_ESCAPE not in conditions(verify(container))


# -- credentials -----------------------------------------------------------------------------


def test_a_credential_in_a_preview_fires(container: Container, tmp_path: Path) -> None:
    artifact_id = imported(container, tmp_path)
    tampered = f"deploy-{fake_aws_access_key_id()}.log"  # the name a preview's header shows
    sql(
        container,
        "UPDATE artifacts SET workspace_path = :p WHERE id = :i",
        p=tampered,
        i=artifact_id,
    )
    [violation] = verify(container).violations
    assert violation.condition is StopCondition.SECRET
    assert "aws-access-key-id" in violation.line
    assert "preview's path" in violation.line
    assert fake_aws_access_key_id() not in violation.line  # never the value


def test_a_credential_in_a_compaction_event_fires(container: Container) -> None:
    event = container.event_sink().emit(
        CONTEXT_COMPACTED, {"summary_sha256": "0" * 64, "note": fake_aws_access_key_id()}
    )
    [violation] = verify(container).violations
    assert violation.condition is StopCondition.SECRET
    assert violation.subject == f"compaction event {event.id}"


def test_a_credential_in_a_stored_transcripts_summary_fires(container: Container) -> None:
    summary = render_summary(
        CompactionSummary(
            latest_request="deploy it",
            sections={SummarySection.COMMANDS: (f"export KEY={fake_aws_access_key_id()} ok",)},
        )
    )
    document = [{"role": "user", "content": summary}, {"role": "assistant", "content": "done"}]
    # A clean transcript is stored, then its row is pointed at a blob holding the key: what
    # a replaced blob or a tampered row looks like (the import itself would block it).
    clean = json.dumps(document).replace("AKIA", "AKIX").encode()
    stored = container.artifact_store().import_output(clean, "session.json")
    assert not stored.blocked
    data = json.dumps(document).encode()
    digest = hashlib.sha256(data).hexdigest()
    writer = container.blob_storage().begin()
    writer.write(data)
    writer.commit(digest)
    sql(
        container,
        "UPDATE artifacts SET sha256 = :s, byte_count = :n WHERE id = :i",
        s=digest,
        n=len(data),
        i=stored.artifact.id,
    )
    report = verify(container)
    secrets = [v for v in report.violations if v.condition is StopCondition.SECRET]
    assert any("compaction summary in message 0" in v.line for v in secrets)
    assert report.transcripts == 1


def test_clean_previews_and_events_are_silent(container: Container, tmp_path: Path) -> None:
    imported(container, tmp_path)
    container.event_sink().emit(CONTEXT_COMPACTED, {"summary_sha256": "0" * 64})
    assert StopCondition.SECRET not in conditions(verify(container))


# -- missing tails ---------------------------------------------------------------------------


def test_a_row_whose_byte_count_was_changed_fires(container: Container, tmp_path: Path) -> None:
    artifact_id = imported(container, tmp_path)
    sql(
        container, "UPDATE artifacts SET byte_count = byte_count - 100 WHERE id = :i", i=artifact_id
    )
    [violation] = verify(container).violations
    assert violation.condition is StopCondition.MISSING_TAIL
    assert "the preview's tail is not the output's end" in violation.line


def test_a_row_claiming_more_bytes_than_its_blob_fires(
    container: Container, tmp_path: Path
) -> None:
    # The store's preview then reads its tail from before the real end (or nothing).
    artifact_id = imported(container, tmp_path)
    longer = "UPDATE artifacts SET byte_count = byte_count + 5000 WHERE id = :i"
    sql(container, longer, i=artifact_id)
    [violation] = verify(container).violations
    assert violation.condition is StopCondition.MISSING_TAIL
    assert f"its row records {len(LOG) + 5000} bytes but its blob holds {len(LOG)}" in (
        violation.line
    )


def test_a_missing_blob_fires(container: Container, tmp_path: Path) -> None:
    artifact_id = imported(container, tmp_path)
    sql(container, "UPDATE artifacts SET sha256 = :s WHERE id = :i", s="e" * 64, i=artifact_id)
    [violation] = verify(container).violations
    assert violation.condition is StopCondition.MISSING_TAIL
    assert "blob is missing" in violation.line


def test_previews_with_their_tails_are_silent(container: Container, tmp_path: Path) -> None:
    imported(container, tmp_path)  # 40 KB: head, omission, tail
    imported(container, tmp_path, "small.log", "one line\n")  # whole in the head
    container.project_service().set_context("default", ContextPolicyChanges(preview_tail_bytes=17))
    report = verify(container)
    assert report.passed, [v.line for v in report.violations]


# -- unfinished work -------------------------------------------------------------------------


def session(summary_items: tuple[str, ...]) -> bytes:
    """An Anthropic transcript: a todo list with one pending item, then a summary."""
    todos = [
        {"content": "read the schema", "status": "completed", "activeForm": "reading"},
        {"content": TODO, "status": "pending", "activeForm": "migrating"},
    ]
    summary = render_summary(
        CompactionSummary(
            latest_request="move billing to the ledger",
            sections={SummarySection.UNFINISHED: summary_items} if summary_items else {},
        )
    )
    messages = [
        {"role": "user", "content": "move billing to the ledger"},
        {
            "role": "assistant",
            "content": [
                {
                    "type": "tool_use",
                    "id": "toolu_1",
                    "name": "TodoWrite",
                    "input": {"todos": todos},
                }
            ],
        },
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}],
        },
        {"role": "assistant", "content": "Planned."},
        {"role": "user", "content": summary},
        {"role": "assistant", "content": "Continuing."},
    ]
    return json.dumps({"model": "claude-sonnet-4-5", "messages": messages}).encode()


def test_a_stored_summary_that_omits_a_pending_todo_fires(container: Container) -> None:
    stored = container.artifact_store().import_output(session(()), "session.json")
    [violation] = verify(container).violations
    assert violation.condition is StopCondition.UNFINISHED_WORK
    assert violation.subject == f"artifact {stored.artifact.id}, the summary in message 4"
    assert "migrate the billing schema" in violation.line


def test_an_event_tampered_to_record_left_out_unfinished_items_fires(
    container: Container,
) -> None:
    event = container.event_sink().emit(
        CONTEXT_COMPACTED, {"summary_sha256": "0" * 64, "summary_omitted": {}}
    )
    payload = json.dumps({"summary_sha256": "0" * 64, "summary_omitted": {"unfinished": 2}})
    sql(container, "UPDATE events SET payload = :p WHERE id = :i", p=payload, i=event.id)
    [violation] = verify(container).violations
    assert violation.condition is StopCondition.UNFINISHED_WORK
    assert violation.line == (
        f"unfinished-work: compaction event {event.id}: "
        "its summary's budget left out 2 unfinished item(s)"
    )


def test_summaries_that_keep_unfinished_work_are_silent(container: Container) -> None:
    container.artifact_store().import_output(session((TODO,)), "session.json")
    container.event_sink().emit(
        CONTEXT_COMPACTED, {"summary_sha256": "0" * 64, "summary_omitted": {"commands": 3}}
    )
    report = verify(container)
    assert report.passed, [v.line for v in report.violations]
    assert (report.transcripts, report.compaction_events) == (1, 1)


# -- cache metrics ---------------------------------------------------------------------------


def record(container: Container, model: str, usage: TokenUsage, key: str) -> UsageRecord:
    with container.unit_of_work() as uow:
        owner = uow.projects.get_by_name("default")
    assert owner is not None
    entry = UsageRecord(
        project_id=owner.id,
        model=model,
        usage=usage,
        request_key=key,
        recorded_at=datetime(2026, 1, 10, tzinfo=UTC),
        source="test",
    )
    [recorded] = container.usage_ledger().record([entry])
    assert isinstance(recorded, UsageRecord)
    return recorded


def openai(cached: int) -> TokenUsage:
    return TokenUsage(
        usage_format=UsageFormat.OPENAI_CHAT,
        input_tokens=100 - cached,
        cache_read_tokens=cached,
        total_input_tokens=100,
        output_tokens=5,
    )


def test_a_cache_figure_for_a_model_without_cache_price_fires(
    container: Container, tmp_path: Path
) -> None:
    imported(container, tmp_path)  # makes the default project
    fabricated = record(container, "gpt-4", openai(40), "r1")
    tampered = record(container, "gpt-4", openai(0), "r2")
    sql(
        container,
        "UPDATE usage_records SET cache_read_tokens = 60, input_tokens = 40 WHERE id = :i",
        i=tampered.id,
    )
    violations = verify(container).violations
    assert [v.subject for v in violations] == [
        f"usage record {fabricated.id}",
        f"usage record {tampered.id}",
    ]
    assert all(v.condition is StopCondition.CACHE_METRIC for v in violations)
    assert "no price for that cache for gpt-4" in violations[0].line


def test_cache_figures_the_catalog_prices_are_silent(container: Container, tmp_path: Path) -> None:
    imported(container, tmp_path)
    record(container, "gpt-4", openai(0), "r1")  # a reported zero claims no cache traffic
    record(container, "gpt-4o", openai(40), "r2")  # gpt-4o has a cache-read price
    report = verify(container)
    assert report.passed, [v.line for v in report.violations]
    assert report.usage_records == 2


# -- scope -----------------------------------------------------------------------------------


def test_a_project_scope_checks_only_that_project(container: Container, tmp_path: Path) -> None:
    artifact_id = imported(container, tmp_path)
    sql(
        container,
        "UPDATE artifacts SET workspace_path = '/etc/passwd' WHERE id = :i",
        i=artifact_id,
    )
    container.project_service().create("clean")
    assert verify(container, "clean").passed
    assert not verify(container, "default").passed
    with pytest.raises(ProjectNotFoundError):
        verify(container, "nope")

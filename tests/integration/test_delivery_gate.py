"""`cleveragents.gate`: context in flight refused, with reasons, on each stop condition, and
allowed when none holds; the real scanner, codec and locked catalog."""

from __future__ import annotations

import json
from typing import Any

import pytest

import cleveragents
from cleveragents.domain.compaction_summary import (
    CompactionSummary,
    SummarySection,
    render_summary,
)
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.transcript import TranscriptFormat
from tests.secret_samples import fake_aws_access_key_id

ID = "01M8S3TP32YGTW80EQ7QPCH4HV"
SHA = "7c967000980c086ed55fa6544ba4f05fe66d44622795e890c68caf8bbb635035"
TODO = "migrate the billing schema to the ledger tables"


def preview(path: str = "logs/run.log", tail: str = "1 failed, 399 passed\n") -> str:
    """A preview as `agents artifact import` prints it: 9000 bytes, 4096 + tail shown."""
    omitted = 9000 - 4096 - len(tail.encode())
    return (
        f"artifact {ID}: {path} (text/plain, 9000 bytes, sha256 {SHA})\n"
        "tests/test_orders.py::test_quantity[1] PASSED\n"
        f"[... {omitted} bytes omitted: agents artifact read {ID} --offset 4096 "
        f"--length {omitted} ...]\n" + tail
    )


def conversation(*extra: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {"role": "user", "content": "run the tests"},
        {"role": "assistant", "content": "They ran."},
        *extra,
    ]


def conditions(result: cleveragents.GateResult) -> list[str]:
    return [reason.split(":", 1)[0] for reason in result.reasons]


def test_clean_context_is_allowed() -> None:
    for context in ("the tests pass", preview(), conversation()):
        result = cleveragents.gate(context)
        assert result.allowed, result.reasons
        assert result.reasons == []
    assert cleveragents.gate(conversation()).format is TranscriptFormat.ANTHROPIC
    assert cleveragents.gate("plain words").format is None


# -- credentials -----------------------------------------------------------------------------


def test_a_credential_anywhere_is_refused_without_its_value() -> None:
    key = fake_aws_access_key_id()
    in_text = cleveragents.gate(f"deploying\nexport AWS_ACCESS_KEY_ID={key}\n")
    assert in_text.reasons == ["secret: content: a credential (aws-access-key-id) on line(s) 2"]
    call = {
        "role": "assistant",
        "content": [
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": f"K={key} x"}}
        ],
    }
    answer = {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}],
    }
    in_call = cleveragents.gate(conversation(call, answer))
    assert in_call.reasons == [
        "secret: message 2 (assistant): a credential (aws-access-key-id) on line(s) 1"
    ]
    assert all(key not in reason for reason in in_text.reasons + in_call.reasons)


# -- missing tails ---------------------------------------------------------------------------


def test_a_preview_whose_tail_is_missing_is_refused() -> None:
    cut = preview(tail="")
    result = cleveragents.gate(cut)
    assert result.reasons == [
        f"missing-tail: content: the preview of artifact {ID}: "
        "an omission marker claims a tail but none follows"
    ]
    # The same inside a tool result, and a JSON preview with an empty tail.
    as_json = json.dumps(
        {"artifact_id": ID, "head": "x", "tail": "", "omitted_bytes": 10, "byte_count": 20}
    )
    answer = {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "t1", "content": as_json}],
    }
    call = {
        "role": "assistant",
        "content": [{"type": "tool_use", "id": "t1", "name": "store_output", "input": {}}],
    }
    assert conditions(cleveragents.gate(conversation(call, answer))) == ["missing-tail"]


def test_a_marker_whose_range_runs_to_the_end_is_refused() -> None:
    header = f"artifact {ID}: run.log (text/plain, 9000 bytes, sha256 {SHA})\nhead\n"
    marker = (
        f"[... 4904 bytes omitted: agents artifact read {ID} --offset 4096 --length 4904 ...]\n"
    )
    result = cleveragents.gate(header + marker + "[1 line(s) withheld as possible credentials]\n")
    assert conditions(result) == ["missing-tail"]


def test_previews_with_their_tails_are_allowed() -> None:
    as_json = json.dumps(
        {"artifact_id": ID, "head": "x", "tail": "end\n", "omitted_bytes": 10, "byte_count": 20}
    )
    assert cleveragents.gate(as_json).allowed
    assert cleveragents.gate(preview() + "\n" + preview(path="other.log")).allowed


# -- unfinished work -------------------------------------------------------------------------


def todo_session(summary_items: tuple[str, ...], omitted: int = 0) -> list[dict[str, Any]]:
    todos = [
        {"content": "read the schema", "status": "completed", "activeForm": "reading"},
        {"content": TODO, "status": "in_progress", "activeForm": "migrating"},
    ]
    summary = render_summary(
        CompactionSummary(
            latest_request="move billing to the ledger",
            sections={SummarySection.UNFINISHED: summary_items} if summary_items else {},
            omitted={SummarySection.UNFINISHED: omitted} if omitted else {},
        )
    )
    return [
        {"role": "user", "content": "move billing to the ledger"},
        {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": "t1", "name": "TodoWrite", "input": {"todos": todos}}
            ],
        },
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}],
        },
        {"role": "assistant", "content": "Planned."},
        {"role": "user", "content": summary},
        {"role": "assistant", "content": "Continuing."},
    ]


def test_a_summary_that_omits_unfinished_work_of_its_source_is_refused() -> None:
    result = cleveragents.gate(todo_session(()))
    assert result.reasons == [
        "unfinished-work: the summary in message 4: it omits 1 unfinished item(s) of the "
        f"messages it summarises: {TODO!r}"
    ]


def test_a_summary_whose_budget_left_out_unfinished_items_is_refused() -> None:
    alone = render_summary(
        CompactionSummary(latest_request="go", omitted={SummarySection.UNFINISHED: 2})
    )
    assert cleveragents.gate(alone).reasons == [
        "unfinished-work: content: the summary in message 0: "
        "its budget left out 2 unfinished item(s)"
    ]


def test_summaries_that_keep_unfinished_work_are_allowed() -> None:
    assert cleveragents.gate(todo_session((TODO,))).allowed
    # Paraphrased, by most of its key terms, as the recovery measurement counts it.
    assert cleveragents.gate(todo_session(("billing schema migration to ledger tables",))).allowed


# -- workspace escape ------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["../secrets.log", "/etc/passwd", "a/../../b.log"])
def test_a_preview_of_a_path_outside_the_workspace_is_refused(path: str) -> None:
    assert conditions(cleveragents.gate(preview(path=path))) == ["workspace-escape"]


def test_an_absolute_path_is_checked_against_the_workspace_given() -> None:
    inside = cleveragents.gate(preview(path="/work/ws/logs/run.log"), workspace="/work/ws")
    assert inside.allowed, inside.reasons
    sibling = cleveragents.gate(preview(path="/work/ws-evil/run.log"), workspace="/work/ws")
    assert conditions(sibling) == ["workspace-escape"]
    assert cleveragents.gate(preview(path="logs/run.log"), workspace="/work/ws").allowed


# -- cache metrics ---------------------------------------------------------------------------


def openai_usage(cached: int) -> dict[str, Any]:
    return {
        "prompt_tokens": 100,
        "completion_tokens": 5,
        "prompt_tokens_details": {"cached_tokens": cached},
    }


def test_cache_figures_for_a_model_without_cache_price_are_refused() -> None:
    given = cleveragents.gate("hello", usage=openai_usage(40), model="gpt-4")
    assert given.reasons == [
        "cache-metric: the usage given: 40 cache-read tokens claimed, but the locked catalog "
        "declares no price for that cache for gpt-4: cache support unavailable"
    ]
    anthropic: list[dict[str, Any]] = [
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "model": "claude-2.1",
            "content": "hello",
            "usage": {
                "input_tokens": 10,
                "output_tokens": 2,
                "cache_read_input_tokens": 30,
                "cache_creation_input_tokens": 0,
            },
        },
    ]
    assert conditions(cleveragents.gate(anthropic)) == ["cache-metric"]


def test_priced_or_zero_cache_figures_are_allowed() -> None:
    assert cleveragents.gate("hello", usage=openai_usage(40), model="gpt-4o").allowed
    assert cleveragents.gate("hello", usage=openai_usage(0), model="gpt-4").allowed


# -- input -----------------------------------------------------------------------------------


def test_bad_input_is_refused_in_one_line() -> None:
    with pytest.raises(InvalidInputError, match="model"):
        cleveragents.gate("x", usage=openai_usage(1))
    with pytest.raises(InvalidInputError, match="absolute"):
        cleveragents.gate("x", workspace="relative/dir")
    with pytest.raises(InvalidInputError):
        cleveragents.gate([{"role": "wizard", "content": "x"}])
    with pytest.raises(InvalidInputError, match="format"):
        cleveragents.gate("x", format="yaml")
    # Named as a transcript, text must be one; as text, a transcript's JSON is only text.
    with pytest.raises(InvalidInputError):
        cleveragents.gate("not json", format="anthropic")
    as_text = cleveragents.gate(json.dumps(conversation()), format="text")
    assert as_text.format is None
    assert as_text.allowed

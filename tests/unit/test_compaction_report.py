"""One compaction report, rendered by every driver: the CLI's JSON, the MCP tool's report, the
Python API's result and the ``context_compacted`` event are all made of `CompactionReport`,
so a field added there reaches each of them (or a test here says which one lacks it)."""

from __future__ import annotations

from dataclasses import fields

from cleveragents.api.compaction import CompactResult, ShrunkToolResult
from cleveragents.application.services.compaction.outcome import CompactionReport
from cleveragents.application.services.compaction.tool_output_shrinking import ShrunkResult
from cleveragents.domain.transcript import TranscriptFormat
from cleveragents.mcp.transcript_tools import CompactionReport as McpCompactionReport

REPORT = CompactionReport(
    status="compacted",
    reason=None,
    tokens_before=9_000,
    tokens_after=2_000,
    threshold=3_000,
    folded_messages=7,
    kept_messages=4,
    summary_sha256="ab" * 32,
    summary_tokens=300,
    summary_budget=4_000,
    split_turn=True,
    redacted_secrets=2,
    redacted_in={"system": 1, "folded": 0, "kept": 1, "request": 0},
    keep_credentials=False,
    shrunk_tool_results=(ShrunkResult("t1", 5_000, 400, None, full_output="the whole log"),),
    summary_omitted={},
    summary_sections={"goals": 1, "errors": 2},
)
NAMES = [field.name for field in fields(CompactionReport)]


def test_the_json_has_every_field_in_order_and_no_full_output() -> None:
    values = REPORT.as_json()
    assert list(values) == NAMES
    assert values["shrunk_tool_results"] == [
        {"call_id": "t1", "tokens_before": 5_000, "tokens_after": 400, "artifact_id": None}
    ]
    assert values["summary_omitted"] == {}


def test_the_mcp_report_has_the_same_fields_but_the_reason() -> None:
    # A failed compaction is a tool error there: the reason is its message. (Its schema has
    # always listed the summary's sections before what was omitted from them.)
    assert set(McpCompactionReport.model_fields) == set(NAMES) - {"reason"}
    shown = McpCompactionReport.model_validate(REPORT.as_json()).model_dump()
    assert shown == {n: v for n, v in REPORT.as_json().items() if n != "reason"}


def test_the_python_api_result_is_the_report_with_the_messages() -> None:
    figures = {name: getattr(REPORT, name) for name in NAMES}
    result: CompactResult[list[object]] = CompactResult(
        **figures, messages=[], format=TranscriptFormat.OPENAI, warnings=("w",)
    )
    assert isinstance(result, CompactionReport)
    assert ShrunkToolResult is ShrunkResult
    assert result.shrunk_tool_results[0].full_output == "the whole log"  # kept for the caller
    report = result.report()
    assert list(report) == ["format", *NAMES, "estimated", "count_method", "warnings"]
    assert report["estimated"] is False  # no model named: counts in the encoding, exact
    assert report["summary_omitted"] is None  # the API has always said null for none
    assert report["summary_sections"] == {"goals": 1, "errors": 2}
    assert report["warnings"] == ["w"]


def test_the_event_records_the_report_figures_and_whether_it_was_forced() -> None:
    payload = REPORT.event_payload(forced=True)
    assert payload["forced"] is True
    assert set(payload) - {"forced"} <= set(NAMES)
    for name, value in payload.items():
        if name != "forced":
            assert value == REPORT.as_json()[name], name
    assert list(REPORT.failure_payload()) == [
        "reason",
        "tokens_before",
        "tokens_after",
        "threshold",
    ]

"""An orchestrator's use of the Python API: every function once, on real data.

`tests/e2e/test_python_api_consumer.py` runs it (``python python_api_consumer.py WORKDIR``)
and type-checks it with ``mypy --strict`` as a user's project would, outside the repository:
each `assert_type` fails the check if the API gave `Any` (or a wrong type) instead.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, assert_type

import cleveragents
from cleveragents import (
    ArtifactKind,
    ArtifactPreview,
    CompactResult,
    CompressResult,
    ContextFragment,
    ContextPolicy,
    GateResult,
    ImportResult,
    InvalidInputError,
    Plan,
    PlanStatusReport,
    ShrunkToolResult,
    SkeletonResult,
    Store,
    TranscriptFormat,
)


def conversation(log: str) -> list[dict[str, Any]]:
    return [
        {"role": "user", "content": "Why did the nightly job fail? Fix it."},
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "t1", "name": "read_log", "input": {}}],
        },
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": log}]},
        {"role": "assistant", "content": "The log ends in an ERROR; I will fix the config."},
        {"role": "user", "content": "Go on, then run the tests."},
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "t2", "name": "run_tests", "input": {}}],
        },
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t2", "content": log}]},
    ]


POLICY = ContextPolicy(context_window=12_000, reserve_tokens=2_000, keep_recent_tokens=4_000)


def without_a_store(workdir: Path, log: str) -> CompactResult[list[dict[str, Any]]]:
    """Compaction and compression in memory: no database is opened."""
    policy = POLICY
    compacted = cleveragents.compact(conversation(log), policy=policy)
    assert_type(compacted, CompactResult[list[dict[str, Any]]])
    assert compacted.status == "compacted", compacted.reason
    assert compacted.format is TranscriptFormat.ANTHROPIC
    assert compacted.tokens_after <= compacted.threshold < compacted.tokens_before
    first_message: dict[str, Any] = compacted.messages[0]
    assert first_message["role"] == "user"
    shrunk: tuple[ShrunkToolResult, ...] = compacted.shrunk_tool_results
    assert all(item.full_output == log for item in shrunk)

    as_text = cleveragents.compact((workdir / "session.json").read_text(encoding="utf-8"))
    assert_type(as_text, CompactResult[str])
    request = cleveragents.compact(
        {"model": "m", "messages": conversation("ok")}, format="anthropic"
    )
    assert_type(request, CompactResult[dict[str, Any]])
    assert request.status == "not-needed"

    compressed = cleveragents.compress(workdir / "build.log", 300, task="error")
    assert_type(compressed, CompressResult)
    assert compressed.kind is ArtifactKind.LOG
    assert compressed.tokens <= 300
    from_text = cleveragents.compress(log, 300, kind="log", mode="tiered")
    assert from_text.tokens <= from_text.budget
    return compacted


def skeleton() -> list[ContextFragment]:
    """What a child would inherit of some fragments, without a store."""
    fragments: list[ContextFragment] = [
        cleveragents.make_fragment(f"decision {index}: keep the retry", relevance=index / 10)
        for index in range(6)
    ]
    kept = cleveragents.compress_skeleton(fragments, 0.5)
    assert_type(kept, SkeletonResult)
    assert kept.metadata.compressed_tokens <= kept.metadata.original_tokens
    return fragments


def with_a_store(workdir: Path, log: str, fragments: list[ContextFragment]) -> None:
    """Artifacts, plans and a compaction that records its event and keeps the outputs."""
    policy = POLICY
    with cleveragents.open_store(workdir / "agents.db", home=workdir / "home") as store:
        assert_type(store, Store)
        imported = store.import_output(log, "read_log/t1")
        assert_type(imported, ImportResult)
        assert not imported.blocked
        preview = store.preview(imported.artifact.id)
        assert_type(preview, ArtifactPreview)
        tail: bytes = store.read(imported.artifact.id, preview.omitted_offset, 100)
        assert tail
        lines = store.read_lines(imported.artifact.id, 1, 2)
        assert lines.count(b"\n") == 2
        key = "AKIA" + "QWERTYUIOPASDFGH"
        blocked = store.import_output(f"aws_access_key_id = {key}\n", "env")
        assert blocked.blocked
        assert blocked.preview is None
        stored = store.compress(imported.artifact.id, 200)
        assert stored.tokens <= 200

        store.create_project("nightly")
        parent = store.create_plan("nightly", "fix the nightly job")
        for fragment in fragments:
            store.decide(parent.id, fragment.content, relevance=fragment.relevance)
        child = store.spawn_child(parent.id, "rerun the tests", skeleton_ratio=0.5)
        assert_type(child, Plan)
        assert child.skeleton_metadata is not None
        status = store.plan_status(parent.id)
        assert_type(status, PlanStatusReport)
        assert status.children == (child.id,)

        kept = cleveragents.compact(conversation(log), policy=policy, store=store)
        assert all(item.artifact_id is not None for item in kept.shrunk_tool_results)


def before_delivery(compacted: CompactResult[list[dict[str, Any]]]) -> None:
    """The gate an orchestrator calls before each delivery."""
    verdict = cleveragents.gate(compacted.messages, workspace=str(Path.cwd().resolve()))
    assert_type(verdict, GateResult)
    assert_type(verdict.allowed, bool)
    assert_type(verdict.reasons, list[str])
    assert verdict.allowed, verdict.reasons
    leaked = cleveragents.gate("export KEY=AKIA" + "QX7MZ2VW4RT9BN3K", format="text")
    assert not leaked.allowed
    print(f"gate: {leaked.reasons[0]}")


def main(workdir: Path) -> None:
    log = (workdir / "build.log").read_text(encoding="utf-8")
    tokens = cleveragents.count_tokens(log)
    assert_type(tokens, cleveragents.TokenCount)  # an int that says how it was counted
    compacted = without_a_store(workdir, log)
    with_a_store(workdir, log, skeleton())
    before_delivery(compacted)
    try:
        cleveragents.compress("text", 0)
    except InvalidInputError as error:
        print(f"refused: {error}")
    print(f"{tokens} tokens; compacted {compacted.tokens_before} -> {compacted.tokens_after}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))

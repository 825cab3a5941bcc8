"""`agents metrics import` and `agents metrics show` through the CLI: figures by kind, costs
from the locked catalog, and "unavailable" never printed as 0."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import TEST_DATA
from tests.e2e.cli_runner import run

USAGE_DATA = TEST_DATA / "usage"
SHORT_SESSION = USAGE_DATA / "claude-code-short.jsonl"


def _openai_transcript(tmp_path: Path, *payload_names: str) -> Path:
    """An OpenAI Chat transcript whose assistant messages carry the payloads' usage."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": "Be brief."}]
    for name in payload_names:
        payload = json.loads((USAGE_DATA / name).read_text())
        messages += [
            {"role": "user", "content": f"question for {name}"},
            {
                "role": "assistant",
                "content": "answer",
                "id": payload["id"],
                "model": payload["model"],
                "created": payload["created"],
                "usage": payload["usage"],
            },
        ]
    path = tmp_path / "openai.json"
    path.write_text(json.dumps({"model": "gpt-4o", "messages": messages}))
    return path


def _zero_cache_or_cost(text: str) -> list[str]:
    """Lines that show a cache or cost figure as a bare 0."""
    return [
        line
        for line in text.splitlines()
        if re.search(r"cache|cost", line) and re.search(r"│\s*\$?0\s*│", line)
    ]


def test_import_records_once_and_prints_the_cost(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    first = run(capsys, "metrics", "import", str(SHORT_SESSION), "--json")
    assert first.exit_code == 0, first.stderr
    report = first.json()
    assert report["scope"] == {"kind": "project", "project": "default", "plan_id": None}
    assert (report["requests"], report["recorded"], report["already_recorded"]) == (1, 1, 0)
    (model,) = report["usage"]["models"]
    assert model["tokens"]["cache_write_tokens"] == 13835
    assert model["cost_usd"]["total"] == "0.1444475"
    assert model["cost_usd"]["total_excludes"] == []

    again = run(capsys, "metrics", "import", str(SHORT_SESSION))
    assert again.exit_code == 0, again.stderr
    assert "0 recorded in project 'default', 1 recorded before" in again.stdout
    assert "$0.1444475" in again.stdout


def test_show_json_marks_unavailable_figures_with_null_and_a_reason(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path
) -> None:
    transcript = _openai_transcript(
        tmp_path, "openai-chat-completion.json", "openai-chat-uncached-model.json"
    )
    imported = run(capsys, "metrics", "import", str(transcript), "--project", "default")
    assert imported.exit_code == 2  # no project 'default' yet: named projects are not created
    assert "unknown project 'default'" in imported.stderr
    assert run(capsys, "metrics", "import", str(transcript)).exit_code == 0

    shown = run(capsys, "metrics", "show", "--project", "default", "--json")
    assert shown.exit_code == 0, shown.stderr
    models = {model["model"]: model for model in shown.json()["usage"]["models"]}

    gpt4o = models["gpt-4o-2024-08-06"]
    assert gpt4o["tokens"]["cache_read_tokens"] == 1920
    assert gpt4o["tokens"]["cache_write_tokens"] is None  # OpenAI reports no cache writes
    assert "cache-write" in gpt4o["unavailable"]["tokens.cache_write_tokens"]
    assert gpt4o["cost_usd"]["cache_write"] is None
    assert gpt4o["unavailable"]["cost_usd.cache_write"]
    assert gpt4o["cost_usd"]["total_excludes"] == ["cache_write"]

    turbo = models["gpt-4-turbo-2024-04-09"]
    assert turbo["cache_support"] == "unavailable"
    assert turbo["tokens"]["cache_read_tokens"] is None  # the payload said 0; never shown
    assert "declares no cache-read price" in turbo["unavailable"]["tokens.cache_read_tokens"]
    assert turbo["cost_usd"]["cache_read_savings"] is None

    totals = shown.json()["usage"]["totals"]
    assert totals["requests"] == 2
    assert totals["tokens"]["cache_write_tokens"] is None
    assert totals["unavailable"]["tokens.cache_write_tokens"].startswith("gpt-4-turbo-2024-04-09: ")
    assert totals["cost_usd"]["total"] == "0.018815"  # 0.0132 + 0.005615: no model's drops out


def test_show_text_prints_unavailable_with_its_reason_never_zero(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path
) -> None:
    transcript = _openai_transcript(tmp_path, "openai-chat-uncached-model.json")
    assert run(capsys, "metrics", "import", str(transcript)).exit_code == 0
    shown = run(capsys, "metrics", "show")
    assert shown.exit_code == 0, shown.stderr
    flat = " ".join(shown.stdout.split())
    assert "cache support │ unavailable" in flat
    assert "cache read tokens │ unavailable (the locked catalog declares no cache-read" in flat
    assert "cache write tokens │ unavailable" in flat
    assert "cost: cache read │ unavailable" in flat
    assert "cost: total │ $0.0132 (unavailable parts left out: cache read, cache write)" in flat
    assert _zero_cache_or_cost(shown.stdout) == []
    assert "reasoning tokens │ 0 │" in flat  # a reported 0 is a 0


def test_show_counts_compactions_and_artifacts(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path
) -> None:
    from cleveragents.container import build_container
    from cleveragents.domain.event import CONTEXT_COMPACTED

    container = build_container(home=home)
    try:
        container.event_sink().emit(CONTEXT_COMPACTED, {"summary_sha256": "e" * 64})
        (tmp_path / "out.log").write_text("line\n" * 10)
        container.artifact_store().import_file(str(tmp_path), "out.log")
    finally:
        container.store().dispose()

    shown = run(capsys, "metrics", "show", "--json")
    assert shown.exit_code == 0, shown.stderr
    report = shown.json()
    assert report["compaction"] == {
        "count": 1,
        "summary_fingerprints": ["e" * 64],
        "unattributed_events": None,
    }
    assert report["stable_prefix"]["count"] == 0
    assert report["artifacts"]["stored"] == {"count": 1, "bytes": 50}
    assert report["usage"]["models"] == []
    assert report["usage"]["totals"]["cost_usd"]["total"] == "0"

    text = run(capsys, "metrics", "show", "--project", "default")
    # The event names no project: not counted for one, but said to exist.
    assert "compactions: 0 (1 more name no project or plan: not counted)" in text.stdout
    assert "no provider requests recorded in project 'default'" in text.stdout


def test_import_reads_standard_input(
    capsys: pytest.CaptureFixture[str], home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(SHORT_SESSION.read_bytes())))
    result = run(capsys, "metrics", "import", "-", "--json")
    assert result.exit_code == 0, result.stderr
    assert result.json()["source"] == "stdin"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("metrics", "show", "--project", "nope"), "unknown project 'nope'"),
        (("metrics", "show", "--plan", "not-a-ulid"), "malformed plan id"),
        (("metrics", "import", "missing.jsonl"), "file not found"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], home: Path, args: tuple[str, ...], message: str
) -> None:
    result = run(capsys, *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_malformed_log_writes_nothing(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(SHORT_SESSION.read_text().replace('"output_tokens":13', '"output_tokens":"x"'))
    result = run(capsys, "metrics", "import", str(bad))
    assert result.exit_code == 2
    assert "output_tokens must be a non-negative integer" in result.stderr
    shown = run(capsys, "metrics", "show", "--json")
    assert shown.json()["usage"]["totals"]["requests"] == 0
    assert run(capsys, "metrics", "show", "--project", "default").exit_code == 2


def _anthropic_transcript(tmp_path: Path, usage: str) -> Path:
    path = tmp_path / "anthropic.json"
    path.write_text(
        '{"model": "claude-sonnet-4-5-20250929", "messages": [{"role": "user", "content": "hi"},'
        f' {{"role": "assistant", "content": "ok", "id": "msg_1", "usage": {usage}}}]}}'
    )
    return path


@pytest.mark.parametrize(
    ("usage", "message"),
    [
        (
            f'{{"input_tokens": {2**63}, "output_tokens": 1}}',
            "usage: input_tokens is 9223372036854775808, more than the 1,000,000,000,000 tokens",
        ),
        ('{"input_tokens": 3, "output_tokens": -1}', "output_tokens must be a non-negative"),
        (
            f'{{"input_tokens": {"1" * 5000}, "output_tokens": 1}}',
            "transcript: an integer has more than 4,300 digits",
        ),
        ('{"input_tokens": Infinity, "output_tokens": 1}', "Infinity is not a JSON number"),
    ],
)
def test_absurd_usage_figures_are_refused_and_nothing_is_recorded(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path, usage: str, message: str
) -> None:
    result = run(capsys, "metrics", "import", str(_anthropic_transcript(tmp_path, usage)))
    assert result.exit_code == 2, result.stderr
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr
    assert run(capsys, "metrics", "show", "--json").json()["usage"]["totals"]["requests"] == 0


@pytest.mark.parametrize(
    ("path", "named", "looks_like"),
    [
        (TEST_DATA / "transcripts" / "anthropic-messages.json", "openai", "Anthropic Messages"),
        (TEST_DATA / "transcripts" / "openai-chat.json", "anthropic", "OpenAI Chat Completions"),
        (SHORT_SESSION, "openai", "Claude Code session JSONL"),
        (SHORT_SESSION, "anthropic", "Claude Code session JSONL"),
        (TEST_DATA / "transcripts" / "openai-chat.json", "claude-code", "OpenAI Chat Completions"),
    ],
)
def test_a_format_the_log_is_not_in_is_refused_naming_the_one_it_looks_like(
    capsys: pytest.CaptureFixture[str], home: Path, path: Path, named: str, looks_like: str
) -> None:
    result = run(capsys, "metrics", "import", str(path), "--format", named)
    assert result.exit_code == 2, result.stdout
    assert result.stderr.startswith(f"error: transcript looks like {looks_like}")
    assert len(result.stderr.strip().splitlines()) == 1
    assert run(capsys, "metrics", "show", "--json").json()["usage"]["totals"]["requests"] == 0

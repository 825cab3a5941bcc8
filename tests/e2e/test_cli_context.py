"""`agents context compact` and `agents context validate` through the CLI."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from cleveragents.container import build_container
from cleveragents.domain.event import CONTEXT_COMPACTED, CONTEXT_COMPACTION_FAILED
from tests.e2e.cli_runner import run


def anthropic_conversation(turns: int) -> dict[str, Any]:
    messages: list[dict[str, Any]] = []
    for turn in range(turns):
        call_id = f"toolu_{turn:03d}"
        messages += [
            {"role": "user", "content": f"Request {turn}: fix the bug in src/module_{turn}.py"},
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": f"I'll edit src/module_{turn}.py."},
                    {
                        "type": "tool_use",
                        "id": call_id,
                        "name": "Edit",
                        "input": {"file_path": f"src/module_{turn}.py", "old_string": "a"},
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": call_id, "content": "ok " * 200}
                ],
            },
            {"role": "assistant", "content": f"Done with request {turn}."},
        ]
    return {"model": "claude-sonnet-4-5", "system": "Be careful.", "messages": messages}


@pytest.fixture
def transcript(tmp_path: Path) -> Path:
    path = tmp_path / "conversation.json"
    path.write_text(json.dumps(anthropic_conversation(6)))
    return path


def events(home: Path, kind: str) -> list[dict[str, Any]]:
    container = build_container(home=home)
    try:
        return [event.payload for event in container.event_sink().recorded(kind)]
    finally:
        container.store().dispose()


def test_compact_force_reports_and_writes_the_same_format(
    capsys: pytest.CaptureFixture[str], home: Path, transcript: Path, tmp_path: Path
) -> None:
    out = tmp_path / "compacted.json"
    result = run(
        capsys, "context", "compact", str(transcript), "--force", "--json", "--out", str(out)
    )
    assert result.exit_code == 0, result.stderr
    report = result.json()
    assert report["status"] == "compacted"
    assert report["tokens_after"] < report["tokens_before"]
    assert report["folded_messages"] + report["kept_messages"] == 24
    assert report["summary_sections"]["files_modified"] >= 1
    assert len(report["summary_sha256"]) == 64
    written = json.loads(out.read_text())
    assert written["model"] == "claude-sonnet-4-5"  # the request's other fields are kept
    assert written["system"] == "Be careful."
    assert written["messages"][0]["content"][0]["text"].startswith(
        "[cleveragents context summary v1]"
    )
    assert written["messages"][-1] == {"role": "assistant", "content": "Done with request 5."}
    assert run(capsys, "context", "validate", str(out)).exit_code == 0
    [payload] = events(home, CONTEXT_COMPACTED)
    assert payload["summary_sha256"] == report["summary_sha256"]


def test_compact_prints_a_readable_report(
    capsys: pytest.CaptureFixture[str], home: Path, transcript: Path
) -> None:
    result = run(capsys, "context", "compact", str(transcript), "--force")
    assert result.exit_code == 0, result.stderr
    assert "compacted:" in result.stdout
    assert "files_modified" in result.stdout
    assert "summary sha256" in result.stdout


def test_under_the_threshold_nothing_is_compacted_and_out_is_the_input(
    capsys: pytest.CaptureFixture[str], home: Path, transcript: Path, tmp_path: Path
) -> None:
    out = tmp_path / "same.json"
    result = run(capsys, "context", "compact", str(transcript), "--json", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert result.json()["status"] == "not-needed"
    assert json.loads(out.read_text()) == json.loads(transcript.read_text())
    assert events(home, CONTEXT_COMPACTED) == []


def test_the_policy_flags_set_the_threshold(
    capsys: pytest.CaptureFixture[str], home: Path, transcript: Path
) -> None:
    result = run(
        capsys,
        "context",
        "compact",
        str(transcript),
        "--context-window",
        "1000",
        "--reserve-tokens",
        "200",
        "--keep-recent-tokens",
        "300",
        "--json",
    )
    assert result.exit_code == 0, result.stderr
    report = result.json()
    assert report["threshold"] == 800
    assert report["status"] == "compacted"  # the transcript is over 800 tokens


def test_a_failed_compaction_exits_1_writes_nothing_and_is_recorded(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path
) -> None:
    # The system prompt alone is over the threshold: no compaction can fit the window.
    document = anthropic_conversation(6) | {"system": "Follow every rule. " * 2_000}
    crowded = tmp_path / "crowded.json"
    crowded.write_text(json.dumps(document))
    out = tmp_path / "out.json"
    result = run(
        capsys,
        "context", "compact", str(crowded), "--force", "--json", "--out", str(out),
        "--context-window", "3000", "--reserve-tokens", "500",
        "--keep-recent-tokens", "500", "--summary-tokens", "500",
    )  # fmt: skip
    assert result.exit_code == 1
    report = result.json()
    assert report["status"] == "failed"
    assert "over the threshold of 2,500" in report["reason"]
    assert report["tokens_after"] == report["tokens_before"]  # the originals
    assert not out.exists()
    [payload] = events(home, CONTEXT_COMPACTION_FAILED)
    assert payload["reason"] == report["reason"]


def test_a_single_turn_session_compacts_within_the_window_it_is_given(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path
) -> None:
    turns = anthropic_conversation(40)["messages"]
    first, rest = turns[0], [m for m in turns[1:] if not isinstance(m["content"], str)]
    session = tmp_path / "session.json"
    session.write_text(json.dumps({"messages": [first, *rest, turns[-1]]}))
    out = tmp_path / "out.json"
    result = run(
        capsys,
        "context", "compact", str(session), "--force", "--json", "--out", str(out),
        "--context-window", "3000", "--reserve-tokens", "500",
        "--keep-recent-tokens", "1000", "--summary-tokens", "600",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    report = result.json()
    assert report["status"] == "compacted"
    assert report["split_turn"] is True
    assert report["tokens_after"] <= 1000 + 600
    assert report["summary_tokens"] <= report["summary_budget"] == 600
    written = json.loads(out.read_text())
    summary = written["messages"][0]["content"][0]["text"]
    assert first["content"] in summary  # the request, verbatim
    check = run(capsys, "context", "validate", str(out), "--json")
    assert check.exit_code == 0
    assert check.json()["valid"] is True


def test_standard_input_and_an_explicit_format(
    capsys: pytest.CaptureFixture[str], home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    openai = {
        "messages": [
            {"role": "developer", "content": "Be brief."},
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": "hello"},
        ]
    }
    stdin = io.TextIOWrapper(io.BytesIO(json.dumps(openai).encode()))
    monkeypatch.setattr("sys.stdin", stdin)
    result = run(capsys, "context", "validate", "-", "--format", "openai", "--json")
    assert result.exit_code == 0, result.stderr
    assert result.json() == {"format": "openai", "messages": 3, "valid": True, "violations": []}


def test_validate_lists_every_broken_rule_and_exits_2(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path
) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text(
        json.dumps(
            [
                {"role": "assistant", "content": "I start"},
                {
                    "role": "user",
                    "content": [{"type": "tool_result", "tool_use_id": "nope", "content": "x"}],
                },
            ]
        )
    )
    result = run(capsys, "context", "validate", str(broken), "--json")
    assert result.exit_code == 2
    rules = [v["rule"] for v in result.json()["violations"]]
    assert rules == ["user-first", "result-follows-call"]
    text = run(capsys, "context", "validate", str(broken))
    assert text.exit_code == 2
    assert "result-follows-call" in text.stdout


@pytest.mark.parametrize(
    ("content", "args", "message"),
    [
        (None, (), "file not found"),
        ("{not json", (), "not JSON"),
        ('{"messages": [{"role": "robot", "content": "x"}]}', (), "robot"),
        ('{"messages": []}', ("--format", "claude-code"), "not a Claude Code record"),
        (
            '[{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}]',
            ("--context-window", "100", "--reserve-tokens", "100"),
            "reserve_tokens",
        ),
        (
            '[{"role": "user", "content": "a"}]',
            ("--keep-recent-tokens", "0"),
            "greater than or equal to 1",
        ),
        ('[{"role": "user", "content": "a"}]', ("--format", "xml"), "xml"),
        (
            '[{"role": "user", "content": "a"}]',
            ("--context-window", "1000000000001"),
            "invalid context_window: Input should be less than or equal to 1000000000000",
        ),
        ('[{"role": "user", "content": "a"}]', ("--project", "nope"), "unknown project 'nope'"),
    ],
    ids=[
        "missing",
        "malformed-json",
        "unknown-role",
        "wrong-format",
        "reserve>=window",
        "keep-zero",
        "bad-format",
        "window-too-large",
        "unknown-project",
    ],
)
def test_bad_input_gets_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    tmp_path: Path,
    content: str | None,
    args: tuple[str, ...],
    message: str,
) -> None:
    path = tmp_path / "t.json"
    if content is not None:
        path.write_text(content)
    out = tmp_path / "never.json"
    result = run(capsys, "context", "compact", str(path), *args, "--out", str(out))
    assert result.exit_code == 2, result.stdout
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert message in result.stderr
    assert not out.exists()


@pytest.mark.parametrize(
    "content",
    ['{"system": "Be careful.", "messages": []}', '[{"role": "system", "content": "x"}]'],
    ids=["no-messages", "system-only"],
)
def test_a_transcript_without_a_conversation_is_refused_naming_its_file(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path, content: str
) -> None:
    path = tmp_path / "t.json"
    path.write_text(content)
    result = run(capsys, "context", "compact", str(path), "--force", "--json")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"error: Invalid value: {path} holds no conversation (no user or assistant message): "
        "nothing to compact\n"
    )
    assert events(home, CONTEXT_COMPACTION_FAILED) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--context-window", "100", "--reserve-tokens", "100"), "reserve_tokens (100)"),
        (("--reserve-tokens", "1000000000001"), "invalid reserve_tokens"),
        (("--project", "nope"), "unknown project 'nope'"),
    ],
    ids=["reserve>=window", "reserve-too-large", "unknown-project"],
)
def test_compare_refuses_settings_that_cannot_be_used_in_one_line(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    transcript: Path,
    args: tuple[str, ...],
    message: str,
) -> None:
    result = run(capsys, "context", "compare", str(transcript), *args)
    assert result.exit_code == 2, result.stdout
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert message in result.stderr


def test_compare_prints_every_strategy_side_by_side(
    capsys: pytest.CaptureFixture[str], home: Path, transcript: Path
) -> None:
    result = run(capsys, "context", "compare", str(transcript), "--json")
    assert result.exit_code == 0, result.stderr
    rows = result.json()["strategies"]
    assert [row["strategy"] for row in rows] == ["none", "deterministic", "observation-masking"]
    assert rows[1]["tokens_after"] < rows[0]["tokens_after"]
    assert all(row["valid"] for row in rows)
    assert rows[1]["recovery"]["files_modified"]["recovered"] == 6
    assert events(home, CONTEXT_COMPACTED) == []  # a dry run records nothing
    text = run(capsys, "context", "compare", str(transcript))
    assert text.exit_code == 0
    assert "observation-masking" in text.stdout
    assert "6/6" in text.stdout


def test_compare_draws_a_png(
    capsys: pytest.CaptureFixture[str], home: Path, transcript: Path, tmp_path: Path
) -> None:
    plot = tmp_path / "strategies.png"
    result = run(capsys, "context", "compare", str(transcript), "--plot", str(plot))
    assert result.exit_code == 0, result.stderr
    assert plot.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_compare_plot_is_written_like_every_output_file(
    capsys: pytest.CaptureFixture[str], home: Path, transcript: Path, tmp_path: Path
) -> None:
    # A FIFO named by --plot is written in place and stays a FIFO (the safe write's rule for
    # a device); a plot into a missing folder is refused before anything is compared.
    import os
    import stat
    import threading

    fifo = tmp_path / "plot.fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    result = run(capsys, "context", "compare", str(transcript), "--plot", str(fifo))
    reader.join()
    assert result.exit_code == 0, result.stderr
    assert received[0].startswith(b"\x89PNG\r\n\x1a\n")
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    missing = tmp_path / "no-such-folder" / "plot.png"
    refused = run(capsys, "context", "compare", str(transcript), "--plot", str(missing))
    assert refused.exit_code == 2
    assert "--plot" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1


def test_compare_plot_without_matplotlib_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    transcript: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name)
    )
    plot = tmp_path / "never.png"
    result = run(capsys, "context", "compare", str(transcript), "--plot", str(plot))
    assert result.exit_code == 2
    assert "pip install -e '.[plot]'" in result.stderr
    assert not plot.exists()


def test_a_project_compaction_is_counted_in_that_projects_metrics(
    capsys: pytest.CaptureFixture[str], home: Path, transcript: Path
) -> None:
    assert run(capsys, "project", "create", "shop").exit_code == 0
    assert run(capsys, "project", "create", "other").exit_code == 0
    compacted = run(capsys, "context", "compact", str(transcript), "--force", "--project", "shop")
    assert compacted.exit_code == 0, compacted.stderr
    [payload] = events(home, CONTEXT_COMPACTED)
    shop = run(capsys, "metrics", "show", "--project", "shop", "--json").json()["compaction"]
    other = run(capsys, "metrics", "show", "--project", "other", "--json").json()["compaction"]
    assert shop["count"] == 1
    assert shop["summary_fingerprints"] == [payload["summary_sha256"]]
    assert other["count"] == 0


def test_a_lone_surrogate_in_the_transcript_is_written_back_as_its_escape(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path
) -> None:
    conversation = anthropic_conversation(6)
    conversation["messages"][-1]["content"] = "Done \ud800 with it."
    source = tmp_path / "surrogate.json"
    source.write_text(json.dumps(conversation))  # ASCII: the escape "\ud800" as JSON allows
    out = tmp_path / "out.json"
    result = run(capsys, "context", "compact", str(source), "--force", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert json.loads(out.read_text(encoding="utf-8"))["messages"][-1]["content"] == (
        "Done \ud800 with it."
    )
    assert not list(tmp_path.glob(".out.json.*partial"))  # no staging file left behind


def test_an_out_that_cannot_be_written_is_refused_before_anything_is_recorded(
    capsys: pytest.CaptureFixture[str], home: Path, transcript: Path, tmp_path: Path
) -> None:
    for out in (tmp_path / "missing" / "x.json", tmp_path):
        result = run(capsys, "context", "compact", str(transcript), "--force", "--out", str(out))
        assert result.exit_code == 2
        assert len(result.stderr.strip().splitlines()) == 1
    assert events(home, CONTEXT_COMPACTED) == []

"""`agents demo` end to end: the five steps on the packaged samples, in text and in JSON."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.cli_runner import Result, run

STEP_HEAD = re.compile(r"^(\d)\. .*: (\d+) -> (\d+) tokens$")


def _ok(result: Result) -> Result:
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    return result


@pytest.fixture
def temp_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where the demo makes its temporary store: a folder of the test's, to check it is gone."""
    root = tmp_path / "tmp"
    root.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(root))
    return root


@pytest.fixture
def steps(capsys: pytest.CaptureFixture[str], home: Path, temp_root: Path) -> list[Any]:
    found: list[Any] = _ok(run(capsys, "demo", "--json")).json()
    return found


def _by_name(steps: list[Any]) -> dict[str, Any]:
    return {step["name"]: step for step in steps}


def test_the_five_steps_in_order_each_smaller_after(steps: list[Any]) -> None:
    assert [(s["number"], s["name"]) for s in steps] == [
        (1, "skeleton"),
        (2, "log"),
        (3, "imports"),
        (4, "compaction"),
        (5, "metrics"),
    ]
    for step in steps:
        assert 0 < step["tokens_after"] < step["tokens_before"], step["name"]


def test_the_child_gets_what_fits_by_rank(steps: list[Any]) -> None:
    skeleton = _by_name(steps)["skeleton"]
    assert [f["fragment_id"] for f in skeleton["fragments"]] == [
        "click-diff",
        "hadoop-log",
        "github-response",
    ]
    assert skeleton["tokens_before"] == sum(f["tokens"] for f in skeleton["fragments"])
    # The log is over the budget after the diff; the response, ranked after it, still fits.
    assert [f["kept"] for f in skeleton["fragments"]] == [True, False, True]
    assert skeleton["tokens_after"] == sum(f["tokens"] for f in skeleton["fragments"] if f["kept"])
    assert skeleton["tokens_after"] <= skeleton["budget"] == skeleton["tokens_before"] // 2
    assert len(skeleton["source_decision_ids"]) == 2


def test_the_last_error_survives_the_log_compression(steps: list[Any]) -> None:
    log = _by_name(steps)["log"]
    assert " ERROR " in log["last_error_line"]
    assert log["last_error_kept"] is True
    assert log["head_cut_keeps_last_error"] is False
    assert log["tokens_after"] <= log["budget"] < log["tokens_before"]


def test_the_credential_is_blocked_and_the_clean_output_previewed(steps: list[Any]) -> None:
    imports = _by_name(steps)["imports"]
    blocked, stored = imports["blocked"], imports["stored"]
    assert blocked["kinds"] == ["aws-access-key-id"]
    assert blocked["notice"].startswith(f"blocked: {blocked['workspace_path']} looks like")
    assert "AKIA" not in blocked["notice"]  # the kind and the line, never the secret
    assert (
        stored["head_bytes"] + stored["omitted_bytes"] + stored["tail_bytes"]
        == (stored["byte_count"])
    )
    assert stored["omitted_offset"] == stored["head_bytes"] == 1024
    assert imports["tokens_after"] == stored["preview_tokens"] < stored["tokens"]


def test_the_compaction_recovers_the_latest_request(steps: list[Any]) -> None:
    compaction = _by_name(steps)["compaction"]
    assert compaction["status"] == "compacted"
    assert compaction["tokens_before"] > compaction["threshold"] >= compaction["tokens_after"]
    assert compaction["latest_request"] == "new beads for the epic were added. tackle them"
    recovery = {entry["category"]: entry for entry in compaction["recovery"]}
    assert recovery["latest_request"]["recovered"] == recovery["latest_request"]["total"] == 1
    assert recovery["files_modified"]["recovered"] == recovery["files_modified"]["total"] > 0
    assert recovery["errors"]["total"] > 0


def test_the_metrics_count_what_the_tour_did(steps: list[Any]) -> None:
    metrics = _by_name(steps)["metrics"]
    earlier = steps[:-1]
    assert metrics["tokens_before"] == sum(s["tokens_before"] for s in earlier)
    assert metrics["tokens_after"] == sum(s["tokens_after"] for s in earlier)
    assert metrics["requests"] > 0
    assert metrics["output_tokens"] > 0
    assert metrics["compactions"] == 1
    assert metrics["artifacts_blocked"] == 1
    assert metrics["artifacts_stored"] >= 1


def test_the_text_says_what_the_json_says(
    capsys: pytest.CaptureFixture[str], home: Path, temp_root: Path, steps: list[Any]
) -> None:
    out = _ok(run(capsys, "demo")).stdout
    heads = [m.groups() for line in out.splitlines() if (m := STEP_HEAD.match(line))]
    assert heads == [
        (str(s["number"]), str(s["tokens_before"]), str(s["tokens_after"])) for s in steps
    ]
    named = _by_name(steps)
    assert named["log"]["last_error_line"].rstrip() in out
    assert "blocked: tool-output/click.diff holds a credential (aws-access-key-id" in out
    assert f"latest request: {named['compaction']['latest_request']!r}" in out
    assert "latest request 1/1" in out
    assert f"budget {named['skeleton']['tokens_before']} * (1 - 0.5) = " in out
    assert f"{named['metrics']['requests']} provider requests" in out


def test_nothing_is_left_behind(steps: list[Any], home: Path, temp_root: Path) -> None:
    assert list(temp_root.iterdir()) == []  # the temporary store is deleted
    assert not (home / "cleveragents.db").exists()  # and the user's store never touched


def test_an_unknown_option_is_a_usage_error(capsys: pytest.CaptureFixture[str], home: Path) -> None:
    result = run(capsys, "demo", "--budget", "5")
    assert result.exit_code == 2
    assert "--budget" in result.stderr
    assert result.stdout == ""

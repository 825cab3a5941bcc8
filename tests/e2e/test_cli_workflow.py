"""The issue's vertical slice through the `agents` CLI, on a real SQLite file."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import TEST_DATA
from tests.e2e.cli_runner import Result, run

ULID_LENGTH = 26


def _ok(result: Result) -> Result:
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    return result


def test_seed_example_end_to_end(capsys: pytest.CaptureFixture[str], home: Path) -> None:
    _ok(run(capsys, "project", "create", "shop"))
    _ok(run(capsys, "project", "context", "set", "shop", "--skeleton-ratio", "0.5"))
    plan_id = _ok(run(capsys, "plan", "create", "--project", "shop", "--title", "Parent")).stdout
    plan_id = plan_id.strip()
    assert len(plan_id) == ULID_LENGTH

    decisions = {}
    for name, relevance, tokens in (("A", "0.9", "400"), ("B", "0.6", "300"), ("C", "0.3", "300")):
        out = _ok(
            run(
                capsys,
                "plan",
                "decide",
                plan_id,
                "--content",
                f"decision {name}",
                "--relevance",
                relevance,
                "--tokens",
                tokens,
                "--fragment-id",
                name,
            )
        ).stdout.strip()
        decisions[name] = out

    child_id = _ok(run(capsys, "plan", "spawn", plan_id, "--title", "Child")).stdout.strip()
    status = _ok(run(capsys, "plan", "status", child_id, "--json")).json()
    assert status["skeleton"] == {
        "ratio": 0.5,
        "original_tokens": 1000,
        "compressed_tokens": 400,
        "retained_pct": 40.0,
        "source_decision_ids": [decisions["A"]],
    }
    assert status["parent_id"] == plan_id
    assert status["inherited_fragments"] == 1
    assert status["inherited_tokens"] == 400

    parent = _ok(run(capsys, "plan", "status", plan_id, "--json")).json()
    assert parent["skeleton"] is None
    assert parent["children"] == [child_id]
    assert parent["decisions"] == 3

    human = _ok(run(capsys, "plan", "status", child_id)).stdout
    assert "400 of 1000 tokens kept (40.0%)" in human
    assert decisions["A"] in human
    human_parent = _ok(run(capsys, "plan", "status", plan_id)).stdout
    assert "none (not spawned from a parent)" in human_parent


def test_spawn_ratio_option_and_plan_override(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    _ok(run(capsys, "project", "create", "p"))
    plan_id = _ok(run(capsys, "plan", "create", "--project", "p", "--title", "t")).stdout.strip()
    for name, tokens in (("A", "400"), ("B", "300"), ("C", "300")):
        _ok(
            run(
                capsys,
                "plan",
                "decide",
                plan_id,
                "--content",
                name,
                "--tokens",
                tokens,
                "--fragment-id",
                name,
                "--relevance",
                "0.5",
            )
        )
    # Default ratio 0.3: budget 700 -> A (400) + B (300).
    spawned = _ok(run(capsys, "plan", "spawn", plan_id, "--title", "c1", "--json")).json()
    assert spawned["skeleton"]["ratio"] == 0.3
    assert spawned["skeleton"]["compressed_tokens"] == 700

    _ok(run(capsys, "plan", "context", "set", plan_id, "--skeleton-ratio", "1.0"))
    spawned = _ok(run(capsys, "plan", "spawn", plan_id, "--title", "c2", "--json")).json()
    assert spawned["skeleton"]["ratio"] == 1.0
    assert spawned["skeleton"]["compressed_tokens"] == 400

    spawned = _ok(
        run(capsys, "plan", "spawn", plan_id, "--title", "c3", "--skeleton-ratio", "0", "--json")
    ).json()
    assert spawned["skeleton"]["compressed_tokens"] == 1000


def test_project_commands(capsys: pytest.CaptureFixture[str], home: Path) -> None:
    created = _ok(run(capsys, "project", "create", "alpha", "--json")).json()
    assert created["name"] == "alpha"
    assert created["policy"]["skeleton_ratio"] == {"value": 0.3, "source": "default"}
    _ok(run(capsys, "project", "create", "beta"))

    listed = _ok(run(capsys, "project", "list", "--json")).json()
    assert [p["name"] for p in listed] == ["alpha", "beta"]
    assert "alpha" in _ok(run(capsys, "project", "list")).stdout

    shown = _ok(
        run(
            capsys,
            "project",
            "context",
            "set",
            "alpha",
            "--skeleton-ratio",
            "0.7",
            "--context-window",
            "128000",
            "--reserve-tokens",
            "8000",
            "--keep-recent-tokens",
            "30000",
            "--json",
        )
    ).json()
    assert shown["policy"] == {
        "skeleton_ratio": {"value": 0.7, "source": "project"},
        "context_window": {"value": 128000, "source": "project"},
        "reserve_tokens": {"value": 8000, "source": "project"},
        "keep_recent_tokens": {"value": 30000, "source": "project"},
        "summary_tokens": {"value": 4000, "source": "default"},
        "artifact_retention_days": {"value": None, "source": "default"},
        "artifact_retention_bytes": {"value": None, "source": "default"},
        "preview_head_bytes": {"value": 4096, "source": "default"},
        "preview_tail_bytes": {"value": 4096, "source": "default"},
    }
    again = _ok(run(capsys, "project", "context", "show", "alpha", "--json")).json()
    assert again == shown
    table = _ok(run(capsys, "project", "context", "show", "alpha")).stdout
    assert "skeleton_ratio" in table
    assert "0.7" in table


def test_plan_list_and_decide_from_file(capsys: pytest.CaptureFixture[str], home: Path) -> None:
    _ok(run(capsys, "project", "create", "one"))
    _ok(run(capsys, "project", "create", "two"))
    first = _ok(run(capsys, "plan", "create", "--project", "one", "--title", "a")).stdout.strip()
    _ok(run(capsys, "plan", "create", "--project", "two", "--title", "b"))
    log = TEST_DATA / "HDFS_head.log"
    decided = _ok(
        run(capsys, "plan", "decide", first, "--file", str(log), "--relevance", "0.8", "--json")
    ).json()
    expected = _ok(run(capsys, "tokens", "count", str(log))).json()["input_tokens"]
    assert decided["token_count"] == expected
    assert decided["fragment_id"] == decided["decision_id"]

    only_one = _ok(run(capsys, "plan", "list", "--project", "one", "--json")).json()
    assert [(p["title"], p["decisions"]) for p in only_one] == [("a", 1)]
    everything = _ok(run(capsys, "plan", "list", "--json")).json()
    assert [p["project"] for p in everything] == ["one", "two"]


def test_tokens_count_contract(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path
) -> None:
    sample = tmp_path / "hello.txt"
    sample.write_text("hello world")
    assert _ok(run(capsys, "tokens", "count", str(sample))).stdout == '{\n  "input_tokens": 2\n}\n'
    o200k = _ok(run(capsys, "tokens", "count", str(sample), "--encoding", "o200k_base")).json()
    assert o200k == {"input_tokens": 2}
    source = TEST_DATA / "click-core.py.txt"
    counted = _ok(run(capsys, "tokens", "count", str(source))).json()["input_tokens"]
    assert counted > len(source.read_text()) // 10


def test_db_current_and_upgrade(capsys: pytest.CaptureFixture[str], home: Path) -> None:
    before = _ok(run(capsys, "db", "current", "--json")).json()
    assert before["current"] is None
    assert before["up_to_date"] is False
    assert not home.exists(), "db current must not create the database"
    upgraded = _ok(run(capsys, "db", "upgrade", "--json")).json()
    assert upgraded["revision"] == before["head"]
    after = _ok(run(capsys, "db", "current", "--json")).json()
    assert after["up_to_date"] is True
    assert "up to date" in _ok(run(capsys, "db", "current")).stdout


def test_db_option_overrides_the_default_location(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path
) -> None:
    other = tmp_path / "elsewhere.db"
    _ok(run(capsys, "--db", f"sqlite:///{other}", "project", "create", "x"))
    assert other.exists()
    assert not (home / "cleveragents.db").exists()
    assert _ok(run(capsys, "project", "list", "--json")).json() == []


def test_first_use_creates_the_database_at_head(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    _ok(run(capsys, "project", "list"))
    assert (home / "cleveragents.db").exists()
    assert _ok(run(capsys, "db", "current", "--json")).json()["up_to_date"] is True

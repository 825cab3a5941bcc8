"""`agents project context set --summary-tokens`: a compaction summary's own token budget."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.cli_runner import Result, run


def _ok(result: Result) -> Result:
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return result


def _refused(result: Result, *fragments: str) -> None:
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert result.stdout == ""
    for fragment in fragments:
        assert fragment in lines[0]


def _summary(capsys: pytest.CaptureFixture[str], project: str) -> dict[str, object]:
    shown = _ok(run(capsys, "project", "context", "show", project, "--json")).json()
    entry: dict[str, object] = shown["policy"]["summary_tokens"]
    return entry


def test_show_lists_the_default_summary_budget(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    _ok(run(capsys, "project", "create", "shop"))
    assert _summary(capsys, "shop") == {"value": 4000, "source": "default"}
    table = _ok(run(capsys, "project", "context", "show", "shop")).stdout
    row = next(line for line in table.splitlines() if "summary_tokens" in line)
    assert "4000" in row
    assert "default" in row


def test_set_stores_the_summary_budget_and_show_says_it_is_the_project_s(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    _ok(run(capsys, "project", "create", "shop"))
    shown = _ok(
        run(capsys, "project", "context", "set", "shop", "--summary-tokens", "2500", "--json")
    ).json()
    assert shown["policy"]["summary_tokens"] == {"value": 2500, "source": "project"}
    assert shown["policy"]["keep_recent_tokens"] == {"value": 20000, "source": "default"}
    assert _summary(capsys, "shop") == {"value": 2500, "source": "project"}
    # Setting another field leaves the summary budget as it is.
    _ok(run(capsys, "project", "context", "set", "shop", "--reserve-tokens", "8000"))
    assert _summary(capsys, "shop") == {"value": 2500, "source": "project"}
    table = _ok(run(capsys, "project", "context", "show", "shop")).stdout
    row = next(line for line in table.splitlines() if "summary_tokens" in line)
    assert "2500" in row
    assert "project" in row


@pytest.mark.parametrize("value", ["0", "-5", "abc"])
def test_a_bad_summary_budget_writes_nothing(
    capsys: pytest.CaptureFixture[str], home: Path, value: str
) -> None:
    _ok(run(capsys, "project", "create", "shop"))
    _refused(
        run(capsys, "project", "context", "set", "shop", "--summary-tokens", value),
        "--summary-tokens",
    )
    assert _summary(capsys, "shop") == {"value": 4000, "source": "default"}


def test_a_summary_budget_that_leaves_no_room_is_refused(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    _ok(run(capsys, "project", "create", "shop"))
    set_policy = ("project", "context", "set", "shop")
    budget = ("--context-window", "50000", "--reserve-tokens", "10000")
    _refused(
        run(
            capsys,
            *set_policy,
            *budget,
            "--keep-recent-tokens",
            "30000",
            "--summary-tokens",
            "10001",
        ),
        "summary_tokens (10001) + keep_recent_tokens (30000)",
        "context_window - reserve_tokens (40000)",
        "; lower summary_tokens or keep_recent_tokens",
    )
    shown = _ok(run(capsys, "project", "context", "show", "shop", "--json")).json()
    assert shown["policy"]["context_window"] == {"value": 200000, "source": "default"}
    assert shown["policy"]["summary_tokens"] == {"value": 4000, "source": "default"}
    # The default summary budget adapts: 38,000 recent tokens leave 2,000 for it.
    _ok(run(capsys, *set_policy, *budget, "--keep-recent-tokens", "38000"))
    shown = _ok(run(capsys, "project", "context", "show", "shop", "--json")).json()
    assert shown["policy"]["summary_tokens"] == {"value": 2000, "source": "default"}
    # Exactly filling what the reserve leaves is allowed.
    _ok(
        run(
            capsys,
            *set_policy,
            *budget,
            "--keep-recent-tokens",
            "30000",
            "--summary-tokens",
            "10000",
        )
    )
    assert _summary(capsys, "shop") == {"value": 10000, "source": "project"}
    # A later change that squeezes the stored summary budget out is refused as well.
    _refused(
        run(capsys, *set_policy, "--reserve-tokens", "10001"),
        "summary_tokens (10000) + keep_recent_tokens (30000)",
    )
    assert _summary(capsys, "shop") == {"value": 10000, "source": "project"}

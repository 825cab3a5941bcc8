"""`agents context budget` and `agents context budget lint` through the CLI, on real files.

The story is real public text kept in tests/data (budget-story/, its README says whence), laid
out in a temporary working directory and named by relative paths; the logs that overflow the
default window are made from the real Hadoop excerpt, repeated.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cleveragents.domain.context_budget_contract import first_violation
from tests.conftest import TEST_DATA
from tests.e2e.cli_runner import Result, run

SPEC = "rfc-2394-async_await.md"
TEST_PLAN = "rfc-3392-leadership-council.md"
MODULE_DOC = "rfc-2094-nll.md"
CORE = "click-core.py"
TYPES = "click-types.py"
JSON = "github-paginate-issues.json"
LOGS = ("hadoop-a.log", "hadoop-b.log", "hadoop-c.log")
LOG = LOGS[0]
LOG_REPEATS = 5
"""Each log is the 421-line Hadoop excerpt this many times: three of them overflow 200,000."""


@pytest.fixture(autouse=True)
def story(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The story's files in a fresh working directory (Python sources take back their suffix)."""
    folder = tmp_path / "story"
    shutil.copytree(TEST_DATA / "budget-story", folder)
    for source in folder.glob("*.py.txt"):
        source.rename(source.with_suffix(""))
    shutil.copy(TEST_DATA / "click-core.py.txt", folder / CORE)
    excerpt = (TEST_DATA / "Hadoop_lines640-1060.log").read_text(encoding="utf-8")
    for name in LOGS:
        (folder / name).write_text(excerpt * LOG_REPEATS, encoding="utf-8")
    monkeypatch.chdir(folder)
    return folder


STORY = (
    *("--spec", SPEC, "--test-plan", TEST_PLAN, "--module-doc", MODULE_DOC),
    *("--changed", CORE, "--changed", TYPES),
)


def budget(capsys: pytest.CaptureFixture[str], *args: str) -> Result:
    return run(capsys, "context", "budget", *args)


def _refused(result: Result, *fragments: str) -> None:
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    for fragment in fragments:
        assert fragment in lines[0]


def _section(stdout: str) -> list[str]:
    return stdout.split("### Recommended Compactions\n\n")[1].splitlines()


def test_a_story_from_the_corpus_prints_the_contract(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    result = budget(capsys, *STORY)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert first_violation(result.stdout) is None
    lines = result.stdout.splitlines()
    assert lines[0] == "## Context Budget"
    assert lines[2].startswith(
        "Summary: Tier: yellow — projected 116,701 of 200,000 tokens (58.4%, default window): "
        "committed 30,000 + 86,701 estimated for 5 artifacts"
    )
    assert f"| {CORE} | source | 3,799 | 8.2 | 31,152 |" in lines
    assert f"| {SPEC} | spec | 656 | 12.5 | 8,200 |" in lines
    assert "| Total |  | 8,732 |  | 86,701 |" in lines
    assert _section(result.stdout) == ["Recommended Compactions: none"]


def test_json_gives_the_same_data(capsys: pytest.CaptureFixture[str], home: Path) -> None:
    data = budget(capsys, *STORY, "--json").json()
    assert data["tier"] == "yellow"
    assert (data["available"], data["available_source"], data["committed"]) == (
        200_000,
        "default",
        30_000,
    )
    assert (data["estimated_tokens"], data["exact_tokens"], data["projected"]) == (
        86_701,
        None,
        116_701,
    )
    assert data["boundaries"] == {"yellow": 0.5, "amber": 0.7, "red": 0.85}
    assert data["weights_file"] == "default"
    assert [a["kind"] for a in data["artifacts"]] == [
        "spec",
        "test_plan",
        "module_doc",
        "source",
        "source",
    ]
    assert data["artifacts"][0] == {
        "path": SPEC,
        "kind": "spec",
        "protected": True,
        "lines": 656,
        "tokens_per_line": 12.5,
        "estimated_tokens": 8_200,
        "exact_tokens": None,
        "error": None,
    }
    assert data["compactions"] == []
    assert data["split_into_smaller_stories"] is False


def test_exact_counts_with_the_tokenizer_and_shows_the_error(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    result = budget(capsys, *STORY, "--exact")
    assert result.exit_code == 0, result.stderr
    assert first_violation(result.stdout) is None
    assert f"| {SPEC} | spec | 656 | 12.5 | 8,200 | 5,933 | +38.2% |" in result.stdout
    assert "86,050 counted with cl100k_base for 5 artifacts" in result.stdout
    data = budget(capsys, *STORY, "--exact", "--json").json()
    assert data["exact_tokens"] == 86_050
    assert data["encoding"] == "cl100k_base"
    assert data["artifacts"][0]["error"] == pytest.approx((8_200 - 5_933) / 5_933, abs=1e-4)


def test_amber_recommends_compactions_in_priority_order_never_the_spec(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    result = budget(capsys, *STORY, "--changed", JSON, "--available", "190000")
    assert result.exit_code == 0, result.stderr
    assert first_violation(result.stdout) is None
    assert "Summary: Tier: amber — projected 158,983 of 190,000 tokens (83.7%)" in result.stdout
    assert "; after the compactions: 125,158 (65.9%, yellow)" in result.stdout
    # JSON data comes first, and alone brings the budget back to yellow: it stops there.
    assert _section(result.stdout) == [
        f"1. Compress {JSON} (json) from 42,282 to 8,457 tokens with "
        f"`agents artifact compress github-paginate-issues.json --workdir {Path(JSON).parent} "
        "--budget 8457` — data: its keys and shape matter "
        "more than every value"
    ]


def test_the_recommended_command_runs_and_fits(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    import shlex

    data = budget(capsys, *STORY, "--changed", JSON, "--available", "190000", "--json").json()
    [compaction] = data["compactions"]
    words = shlex.split(compaction["command"])
    assert words[:3] == ["agents", "artifact", "compress"]
    result = run(capsys, *words[1:])
    assert result.exit_code == 0, result.stderr
    assert result.json()["compacted_tokens"] <= int(words[-1])


def test_red_after_every_compaction_asks_to_split_the_story(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    result = budget(capsys, *STORY, "--available", "60000", "--json")
    data = result.json()
    assert data["tier"] == "red"
    assert data["tier_after_compactions"] == "red"
    assert data["split_into_smaller_stories"] is True
    assert [c["kind"] for c in data["compactions"]] == [
        "module_doc",
        "test_plan",
        "source",
        "source",
    ]
    text = budget(capsys, *STORY, "--available", "60000").stdout
    assert first_violation(text) is None
    assert _section(text)[-1].startswith("5. Split the work into smaller stories — ")


def test_the_default_window_warns_when_the_estimate_alone_exceeds_it(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    logs = [option for name in LOGS for option in ("--changed", name)]
    result = budget(capsys, "--spec", SPEC, *logs)
    assert result.exit_code == 0
    assert first_violation(result.stdout) is None
    (warning,) = result.stderr.splitlines()
    estimate = budget(capsys, "--spec", SPEC, *logs, "--json").json()["estimated_tokens"]
    assert estimate > 200_000
    assert warning.startswith(
        f"warning: the estimate alone ({estimate:,} tokens) exceeds the default"
    )
    assert "--available" in warning
    # A declared window is not second-guessed.
    declared = budget(capsys, "--spec", SPEC, "--changed", LOG, "--available", "100000")
    assert declared.stderr == ""


def test_the_projects_window_is_the_available_budget(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    assert run(capsys, "project", "create", "shop").exit_code == 0
    undeclared = budget(capsys, *STORY, "--project", "shop", "--json").json()
    assert (undeclared["available"], undeclared["available_source"]) == (200_000, "default")
    set_window = ("project", "context", "set", "shop", "--context-window", "128000")
    assert run(capsys, *set_window).exit_code == 0
    result = budget(capsys, *STORY, "--project", "shop")
    assert "of 128,000 tokens (91.2%, the project's window)" in result.stdout
    assert "Summary: Tier: red" in result.stdout
    option = budget(capsys, *STORY, "--project", "shop", "--available", "1000000", "--json")
    assert (option.json()["available"], option.json()["available_source"]) == (1_000_000, "option")
    _refused(budget(capsys, *STORY, "--project", "nope"), "unknown project 'nope'")
    unknown_beside_option = budget(capsys, *STORY, "--project", "nope", "--available", "1000")
    _refused(unknown_beside_option, "unknown project 'nope'")


def test_a_weights_file_changes_weights_and_tiers(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path
) -> None:
    weights = tmp_path / "weights.toml"
    weights.write_text("[weights]\nsource = 10\n\n[tiers]\nyellow = 0.3\namber = 0.6\nred = 0.7\n")
    data = budget(capsys, *STORY, "--weights", str(weights), "--json").json()
    assert data["artifacts"][3]["tokens_per_line"] == 10.0
    assert data["tier"] == "amber"
    assert data["weights_file"] == str(weights)
    weights.write_text("[tiers]\nyellow = 0.9\n")
    _refused(budget(capsys, *STORY, "--weights", str(weights)), str(weights), "must increase")


@pytest.mark.parametrize("option", ["--spec", "--test-plan", "--module-doc", "--changed"])
def test_a_missing_input_is_named(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path, option: str
) -> None:
    missing = str(tmp_path / "nowhere.md")
    args = ["--spec", SPEC] if option != "--spec" else []
    _refused(budget(capsys, *args, option, missing), "file not found", missing)


@pytest.mark.parametrize(
    ("make", "fragment"),
    [
        (lambda p: p.write_bytes(b"\xff\xfe spec"), "is not UTF-8 text"),
        (lambda p: p.mkdir(), "is a directory"),
    ],
)
def test_an_unreadable_input_is_named(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path, make: object, fragment: str
) -> None:
    path = tmp_path / "bad.md"
    assert callable(make)
    make(path)
    _refused(budget(capsys, "--spec", str(path)), fragment, str(path))


def test_bad_usage_is_one_line(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path
) -> None:
    _refused(budget(capsys, "--changed", CORE), "missing option '--spec'")
    _refused(budget(capsys, "--spec", SPEC, "--changed", SPEC), "given twice")
    _refused(budget(capsys, "--spec", SPEC, "--available", "0"), "--available")
    _refused(budget(capsys, "--spec", SPEC, "--committed", "-1"), "--committed")
    _refused(budget(capsys, "--spec", SPEC, "--weights", str(tmp_path / "w.toml")), "w.toml")
    _refused(
        budget(capsys, "--spec", SPEC, "lint", str(tmp_path / "x.md")),
        "do not apply to `budget lint`",
    )


def test_lint_accepts_the_planners_output_and_names_the_first_violation(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path
) -> None:
    report = tmp_path / "budget.md"
    report.write_text(budget(capsys, *STORY, "--available", "60000").stdout)
    accepted = budget(capsys, "lint", str(report))
    assert accepted.exit_code == 0, accepted.stderr
    assert accepted.stdout == f"{report}: follows the context budget contract\n"
    assert budget(capsys, "lint", str(report), "--json").json() == {
        "file": str(report),
        "valid": True,
        "violation": None,
    }

    report.write_text(report.read_text().replace("### Per-Artifact Estimate", "### Estimate"))
    _refused(budget(capsys, "lint", str(report)), f"{report}: line 5: expected")
    rejected = budget(capsys, "lint", str(report), "--json")
    assert rejected.exit_code == 2
    assert rejected.json()["violation"]["line"] == 5

    _refused(budget(capsys, "lint", str(tmp_path / "none.md")), "file not found")


def test_help_shows_the_planner_and_its_lint_command(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    result = budget(capsys, "--help")
    assert result.exit_code == 0
    for fragment in ("--spec", "--exact", "--weights", "lint"):
        assert fragment in result.stdout

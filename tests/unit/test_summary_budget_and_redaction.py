"""The summary's own budget (ranked, every kind of fact before any long tail) and the
redaction of credentials from what it copies, with the real tokenizer and scanner."""

from __future__ import annotations

from cleveragents.adapters.secrets.pattern_scanner import PatternSecretScanner
from cleveragents.application.services.compaction.summary.budget import ITEM_CHARS, fit_summary
from cleveragents.application.services.compaction.summary.paths import (
    absolute_paths,
    relative_paths,
)
from cleveragents.application.services.compaction.summary.redaction import (
    Redactions,
    redact_line,
    redact_summary,
)
from cleveragents.domain.compaction_summary import (
    CompactionSummary,
    SummarySection,
    parse_summary,
    render_summary,
)
from cleveragents.domain.secrets import SecretKind
from tests.summary_samples import busy_summary, count

SCANNER = PatternSecretScanner()
GITHUB = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0" * 2
AWS = "AKIA" + "QWERTYUIOPASDFGH"


def test_a_summary_that_fits_is_kept_whole() -> None:
    summary = busy_summary()
    fitted = fit_summary(summary, 100_000, count)
    assert fitted == summary
    assert fitted.omitted == {}


def test_every_kind_of_fact_is_kept_before_the_long_tails() -> None:
    fitted = fit_summary(busy_summary(), 400, count)
    assert count(render_summary(fitted)) <= 400
    assert fitted.latest_request == "make the importer resumable"
    for section in (
        SummarySection.GOALS,
        SummarySection.FILES_MODIFIED,
        SummarySection.ERRORS,
        SummarySection.DECISIONS,
        SummarySection.NEXT_STEPS,
        SummarySection.COMMANDS,
        SummarySection.FILES_READ,
    ):
        assert fitted.items(section), section
    # The newest commands and files are the ones kept, in their original order.
    commands = fitted.items(SummarySection.COMMANDS)
    assert commands[-1] == "pytest tests/test_199.py: passed"
    assert list(commands) == sorted(commands, key=lambda c: int(c.split("_")[1].split(".")[0]))
    assert fitted.omitted[SummarySection.COMMANDS] == 200 - len(commands)
    assert parse_summary(render_summary(fitted)) == fitted  # the note reads back


def test_a_long_item_is_cut_to_its_start() -> None:
    heredoc = "cat > setup.sh <<'EOF'\n" + "echo step\n" * 500 + "EOF"
    summary = CompactionSummary(sections={SummarySection.COMMANDS: (heredoc,)})
    (item,) = fit_summary(summary, 10_000, count).items(SummarySection.COMMANDS)
    assert len(item) == ITEM_CHARS
    assert item.startswith("cat > setup.sh")
    assert item.endswith("…")


def test_the_same_summary_and_budget_give_the_same_result() -> None:
    assert fit_summary(busy_summary(), 500, count) == fit_summary(busy_summary(), 500, count)


def test_a_token_in_a_command_is_redacted_and_the_command_kept() -> None:
    redactions = Redactions()
    line = redact_line(f"GITHUB_TOKEN={GITHUB} gh pr create --fill", SCANNER, redactions)
    assert line == "GITHUB_TOKEN=[REDACTED:github-token] gh pr create --fill"
    assert redactions.kinds == {SecretKind.GITHUB_TOKEN: 1}


def test_a_line_without_a_credential_is_unchanged() -> None:
    redactions = Redactions()
    assert redact_line("pytest -q tests/unit", SCANNER, redactions) == "pytest -q tests/unit"
    assert redactions.count == 0


def test_every_part_of_a_summary_is_redacted() -> None:
    summary = CompactionSummary(
        latest_request=f"use the key {AWS} to upload",
        sections={
            SummarySection.COMMANDS: (f"curl -u bob:{GITHUB} https://api.github.com", "ls"),
            SummarySection.ERRORS: (f"push failed\nremote: token {GITHUB} revoked",),
        },
    )
    redacted, redactions = redact_summary(summary, SCANNER)
    text = render_summary(redacted)
    assert GITHUB[4:20] not in text
    assert AWS not in text
    assert redacted.items(SummarySection.COMMANDS)[1] == "ls"
    assert redacted.items(SummarySection.ERRORS)[0].startswith("push failed\n")
    assert redactions.count == 3
    assert "[REDACTED:aws-access-key-id]" in (redacted.latest_request or "")


def test_a_summary_without_credentials_is_returned_as_it_is() -> None:
    summary = busy_summary()
    redacted, redactions = redact_summary(summary, SCANNER)
    assert redacted is summary
    assert redactions.count == 0


def test_files_under_the_workspace_are_listed_relative_to_it_and_merge_back() -> None:
    summary = CompactionSummary(
        sections={
            SummarySection.FILES_READ: (
                "/ws/shop/src/a.py",
                "/etc/hosts",
                "docs/*.md",
                "src/a.py",  # the same file, named relative to the workspace already
            ),
            SummarySection.FILES_MODIFIED: ("/ws/shop/src/b.py",),
            SummarySection.COMMANDS: ("cat /ws/shop/src/a.py: ok",),  # commands stay as run
        }
    )
    relative = relative_paths(summary, "/ws/shop/")
    assert relative.workspace == "/ws/shop"
    assert relative.items(SummarySection.FILES_READ) == ("src/a.py", "/etc/hosts", "docs/*.md")
    assert relative.items(SummarySection.FILES_MODIFIED) == ("src/b.py",)
    assert relative.items(SummarySection.COMMANDS) == summary.items(SummarySection.COMMANDS)
    assert parse_summary(render_summary(relative)) == relative
    back = absolute_paths(relative)
    assert back.workspace is None
    assert back.items(SummarySection.FILES_MODIFIED) == ("/ws/shop/src/b.py",)
    assert relative_paths(summary, None) is summary


def test_a_long_line_keeps_its_words_when_its_credential_stands_alone() -> None:
    prose = " ".join(f"word{i}" for i in range(300))
    redactions = Redactions()
    line = redact_line(f"{prose} token {GITHUB} end", SCANNER, redactions)
    assert line == f"{prose} token [REDACTED:github-token] end"
    assert redactions.count == 1

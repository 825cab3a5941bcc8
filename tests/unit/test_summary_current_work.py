"""What a resumed agent acts on, on generated sessions: decisions that are decisions, the work
in progress at the cut, the open items, and uncertain effects that are uncertain."""

from __future__ import annotations

from cleveragents.application.services.compaction.summary.budget import fit_summary
from cleveragents.application.services.compaction.summary.deterministic_summarizer import (
    DeterministicSummarizer,
)
from cleveragents.domain.compaction_summary import (
    CompactionSummary,
    SummarySection,
    parse_summary,
    render_summary,
)
from tests.generated_sessions import (
    answer,
    assistant,
    bash,
    call,
    step,
    summarize,
    todo_write,
    user,
)
from tests.summary_samples import count

S = SummarySection

# --- decisions ---------------------------------------------------------------------------------


def test_narration_is_never_a_decision() -> None:
    summary = summarize(
        user("add the importer"),
        assistant(
            "Let me read the key files I'll be modifying directly. Let me implement everything. "
            "I'll work on all the files in parallel. Let me add them.\n"
            "Right, I need to add the missing private functions. Now let's run the tests. "
            "I need to check the schema first. Now I'll write the complete updated file:"
        ),
    )
    assert summary.items(S.DECISIONS) == ()


def test_a_choice_is_a_decision_written_without_its_narration() -> None:
    summary = summarize(
        user("fix the identity"),
        assistant(
            "I'll use the generated identity instead of the manual one. "
            "Let me inline the full module path to satisfy the compiler. "
            "The root cause is a stale cache. We chose SQLite over Postgres for the tests."
        ),
    )
    assert summary.items(S.DECISIONS) == (
        "Use the generated identity instead of the manual one.",
        "Inline the full module path to satisfy the compiler.",
        "The root cause is a stale cache.",
        "We chose SQLite over Postgres for the tests.",
    )


# --- current work and next step ------------------------------------------------------------------


def test_the_announced_work_is_the_current_work_not_a_decision() -> None:
    summary = summarize(
        user("continue until all are done"),
        *bash("bd close shop-a1.2", "✓ Closed shop-a1.2: Closed"),
        assistant("Now let's move to **shop-a1.3** — the tail adapter and workers."),
        *step(call("Edit", file_path="/srv/app/lib/tail.ex", old_string="a", new_string="b")),
        *bash("mix test test/tail_test.exs", "2 tests, 1 failure", failed=True),
    )
    assert summary.items(S.DECISIONS) == ()
    assert summary.items(S.CURRENT_WORK) == (
        "announced: Now let's move to **shop-a1.3** — the tail adapter and workers.",
        "last edited: /srv/app/lib/tail.ex",
        "last test run: `mix test test/tail_test.exs` -> failed: 2 tests, 1 failure",
    )
    assert summary.items(S.UNFINISHED) == (
        "failing at the cut: `mix test test/tail_test.exs` -> failed: 2 tests, 1 failure",
    )
    assert summary.items(S.COMPLETED) == ("shop-a1.2 (bd)",)


def test_the_task_in_progress_and_its_title_come_from_the_tracker() -> None:
    summary = summarize(
        user("tackle the new beads"),
        *bash(
            'bd show shop-a1.4; echo "==="; bd show shop-a1.5',
            "○ shop-a1.4 · Add the review page   [● P2 · OPEN]\n===\n"
            "○ shop-a1.5 · Close the review session   [● P2 · OPEN]",
        ),
        *bash("bd update shop-a1.4 --status in_progress 2>&1", "✓ Updated issue: shop-a1.4"),
        *bash("bd close shop-a1.4 2>&1", "✓ Closed shop-a1.4: Closed"),
        *bash("bd update shop-a1.5 --status=in_progress", "✓ Updated issue: shop-a1.5"),
        assistant("Now let me create all the files for a1.5."),
    )
    assert summary.items(S.CURRENT_WORK) == (
        "in progress: shop-a1.5 (bd): Close the review session",
    )
    assert summary.items(S.UNFINISHED) == ("shop-a1.5 (bd): Close the review session",)
    assert summary.items(S.COMPLETED) == ("shop-a1.4 (bd): Add the review page",)
    assert summary.items(S.NEXT_STEPS) == ("Now let me create all the files for a1.5.",)


def test_an_announcement_older_than_the_last_task_change_is_not_current() -> None:
    summary = summarize(
        user("go"),
        assistant("Let me start with a1.4 — it is small."),
        *bash("bd update shop-a1.4 --status in_progress"),
        *bash("bd close shop-a1.4"),
    )
    assert summary.items(S.CURRENT_WORK) == ()
    assert summary.items(S.COMPLETED) == ("shop-a1.4 (bd)",)


def test_github_and_jira_tasks_open_and_close() -> None:
    summary = summarize(
        user("triage"),
        *bash('gh issue create --title "Flaky login test"', "https://github.com/o/r/issues/41"),
        *bash("gh issue develop 12", "github.com/o/r/tree/12-fix"),
        *bash("gh issue close 7 --comment done"),
        *bash('jira issue create -tBug -s"Crash on save"', "✓ Issue created\nhttps://j/SHOP-9"),
        *bash('jira issue move SHOP-3 "In Progress"'),
        *bash('jira issue move SHOP-2 "Done"'),
        *bash("gh issue view 12", "title:\tFix the token refresh\nstate:\tOPEN"),
    )
    assert summary.items(S.UNFINISHED) == (
        "#41 (gh issue): Flaky login test",
        "#12 (gh issue): Fix the token refresh",
        "SHOP-9 (jira): Crash on save",
        "SHOP-3 (jira)",
    )
    assert summary.items(S.COMPLETED) == ("#7 (gh issue)", "SHOP-2 (jira)")
    assert summary.items(S.CURRENT_WORK)[:2] == (
        "in progress: #12 (gh issue): Fix the token refresh",
        "in progress: SHOP-3 (jira)",
    )


def test_claude_codes_task_tools_open_start_close_and_delete() -> None:
    create = [
        call("TaskCreate", subject=subject, description="d", activeForm=subject)
        for subject in ("Write parser", "Add tests", "Update docs", "Spike")
    ]
    summary = summarize(
        user("ship it"),
        *[m for n, c in enumerate(create, 1) for m in step(c, f"Task #{n} created: {c.input}")],
        *step(call("TaskUpdate", taskId="1", status="completed")),
        *step(call("TaskUpdate", taskId="2", status="in_progress")),
        *step(call("TaskUpdate", taskId="4", status="deleted")),
    )
    assert summary.items(S.COMPLETED) == ("#1 (task): Write parser",)
    assert summary.items(S.UNFINISHED) == ("#3 (task): Update docs", "#2 (task): Add tests")
    assert summary.items(S.CURRENT_WORK) == ("in progress: #2 (task): Add tests",)


def test_a_failed_tracker_command_changes_no_task() -> None:
    summary = summarize(
        user("go"),
        *bash("bd update shop-a1 --status in_progress"),
        *bash("bd close shop-a1", "Error: not found", failed=True),
    )
    assert summary.items(S.UNFINISHED) == ("shop-a1 (bd)",)
    assert summary.items(S.COMPLETED) == ()


# --- uncertain effects and errors ---------------------------------------------------------------


def test_a_push_retried_with_flags_is_resolved_and_not_uncertain() -> None:
    summary = summarize(
        user("push it"),
        *bash(
            "git push 2>&1", "fatal: The current branch feat has no upstream branch.", failed=True
        ),
        *bash("git push --set-upstream origin feat 2>&1", "* [new branch] feat -> feat"),
    )
    assert summary.items(S.UNCERTAIN_EFFECTS) == ()
    assert summary.items(S.UNFINISHED) == ()
    assert summary.items(S.ERRORS) == (
        "Bash `git push 2>&1`: fatal: The current branch feat has no upstream branch."
        " -> resolved by `git push --set-upstream origin feat 2>&1`",
    )


def test_a_check_that_passed_later_with_another_output_filter_is_resolved() -> None:
    summary = summarize(
        user("lint"),
        *bash("mix credo --strict 2>&1 | tail -10", "1 refactoring opportunity", failed=True),
        *bash("mix format"),
        *bash("mix credo --strict 2>&1 | tail -5", "no issues"),
    )
    assert summary.items(S.UNCERTAIN_EFFECTS) == ()
    assert summary.items(S.ERRORS)[0].endswith("-> resolved by a later successful Bash")


def test_unresolved_failures_with_effects_and_unanswered_calls_stay_uncertain() -> None:
    deploy = call("Bash", command="fly deploy")
    summary = summarize(
        user("release"),
        *bash(
            "git push", "! [rejected] main (non-fast-forward)\nerror: failed to push", failed=True
        ),
        *bash("pytest", "3 failed", failed=True),  # a check: an error, never uncertain
        assistant("", deploy),  # no result
    )
    assert summary.items(S.UNCERTAIN_EFFECTS) == (
        "Bash `git push`: failed — effect unknown",
        "Bash `fly deploy`: no result — effect unknown",
    )
    assert summary.items(S.UNFINISHED) == (
        "not confirmed: `git push` -> failed: error: failed to push",
        "failing at the cut: `pytest` -> failed: 3 failed",
        "not confirmed: `fly deploy` -> no result",
    )


def test_a_narrower_test_run_does_not_settle_a_failing_suite() -> None:
    summary = summarize(
        user("fix"),
        *bash("pytest", "1 failed", failed=True),
        *bash("pytest tests/test_a.py", "1 passed"),
        *bash("pytest -x tests/test_b.py", "1 passed"),
    )
    assert summary.items(S.UNFINISHED) == ("failing at the cut: `pytest` -> failed: 1 failed",)


def test_the_command_a_failure_suggested_settles_it() -> None:
    summary = summarize(
        user("push"),
        *bash("git push", "fatal: no upstream\n    git push -u origin main", failed=True),
        *bash("git push -u origin main"),
    )
    assert summary.items(S.UNCERTAIN_EFFECTS) == ()
    assert summary.items(S.ERRORS) == (
        "Bash `git push`: fatal: no upstream -> resolved by `git push -u origin main`",
    )


# --- merging and budget --------------------------------------------------------------------------


def test_the_current_work_of_the_newer_cut_replaces_the_older_and_settled_tests_close() -> None:
    summarizer = DeterministicSummarizer()
    first = summarizer.summarize(
        [
            user("go"),
            *step(todo_write(("Parser", "in_progress"), ("Docs", "pending"))),
            *bash("pytest", "1 failed", failed=True),
        ],
        None,
    )
    assert first.items(S.CURRENT_WORK)[0] == "in progress (todo list): Parser"
    assert "failing at the cut: `pytest` -> failed: 1 failed" in first.items(S.UNFINISHED)
    second = summarizer.summarize(
        [
            user(render_summary(first)),
            *step(todo_write(("Parser", "completed"), ("Docs", "in_progress"))),
            *bash("pytest", "5 passed"),
        ],
        None,
    )
    assert second.items(S.CURRENT_WORK)[0] == "in progress (todo list): Docs"
    assert "in progress (todo list): Parser" not in second.items(S.CURRENT_WORK)
    assert second.items(S.UNFINISHED) == ("Docs",)
    assert parse_summary(render_summary(second)) == second


def test_the_budget_keeps_the_work_in_progress_and_open_items_before_long_lists() -> None:
    summary = CompactionSummary(
        latest_request="continue",
        sections={
            S.FILES_READ: tuple(f"src/module_{i}.py" for i in range(300)),
            S.COMMANDS: tuple(f"`pytest tests/test_{i}.py` -> ok" for i in range(300)),
            S.CURRENT_WORK: ("in progress: shop-a1.5 (bd): Close the review session",),
            S.UNFINISHED: ("shop-a1.5 (bd): Close the review session", "shop-a1.6 (bd)"),
            S.NEXT_STEPS: ("Now let me create the files for a1.5.",),
            S.UNCERTAIN_EFFECTS: ("Bash `git push`: failed — effect unknown",),
        },
    )
    fitted = fit_summary(summary, 250, count)
    assert count(render_summary(fitted)) <= 250
    for section in (S.CURRENT_WORK, S.UNFINISHED, S.NEXT_STEPS, S.UNCERTAIN_EFFECTS):
        assert fitted.items(section) == summary.items(section), section
    assert fitted.omitted[S.FILES_READ] > 250


def test_a_plain_message_mentioning_a_tracker_is_not_a_task() -> None:
    summary = summarize(user("go"), assistant("I ran bd close shop-a1 earlier."), answer(call("x")))
    assert summary.items(S.COMPLETED) == ()


def test_a_tracker_command_inside_a_heredoc_is_text_not_a_task_change() -> None:
    summary = summarize(
        user("commit"),
        *bash("bd update shop-a1 --status in_progress"),
        *bash("git commit -F - <<'EOF'\nfix: parser\n\nbd close shop-a1\nEOF\n&& bd sync"),
    )
    assert summary.items(S.UNFINISHED) == ("shop-a1 (bd)",)
    assert summary.items(S.COMPLETED) == ()

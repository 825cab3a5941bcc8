"""The local summarizer: what it extracts from folded messages, and how it merges summaries."""

from __future__ import annotations

import itertools
from typing import Any

from cleveragents.application.ports.summarizer import Summarizer
from cleveragents.application.services.compaction.summary.deterministic_summarizer import (
    DeterministicSummarizer,
    merge_summaries,
)
from cleveragents.domain.compaction_summary import (
    CompactionSummary,
    SummarySection,
    parse_summary,
    render_summary,
)
from cleveragents.domain.transcript import (
    ContentBlock,
    Message,
    Role,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    ToolResult,
)

S = SummarySection
REJECTED = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it "
    "was a file edit, the new_string was NOT written to the file). STOP what you are doing and "
    "wait for the user to tell you how to proceed."
)
_ids = itertools.count()


def user(*texts: str) -> Message:
    return Message(role=Role.USER, content=tuple(TextBlock(text=text) for text in texts))


def assistant(text: str = "", *calls: ToolCall, thinking: str = "") -> Message:
    blocks: list[ContentBlock] = [ThinkingBlock(thinking=thinking)] if thinking else []
    blocks += [TextBlock(text=text)] if text else []
    return Message(role=Role.ASSISTANT, content=(*blocks, *calls))


def call(name: str, **arguments: Any) -> ToolCall:
    return ToolCall(id=f"call-{next(_ids)}", name=name, input=arguments)


def answer(tool_call: ToolCall, content: str = "ok", *, error: bool = False) -> Message:
    return Message(
        role=Role.USER,
        content=(ToolResult(call_id=tool_call.id, content=content, is_error=error),),
    )


def step(tool_call: ToolCall, content: str = "ok", *, error: bool = False) -> list[Message]:
    """An assistant message making one call, and its answer."""
    return [assistant("", tool_call), answer(tool_call, content, error=error)]


def summarize(*messages: Message, previous: CompactionSummary | None = None) -> CompactionSummary:
    return DeterministicSummarizer().summarize(messages, previous)


def summary_message(summary: CompactionSummary) -> Message:
    return user(render_summary(summary))


def test_it_implements_the_summarizer_port() -> None:
    assert isinstance(DeterministicSummarizer(), Summarizer)
    empty = summarize()
    assert empty == CompactionSummary()


# --- requests ----------------------------------------------------------------------------------


def test_the_latest_request_is_verbatim_and_skips_noise_tool_results_and_summaries() -> None:
    request = "Fix   the parser.\n\n  It crashes on empty input.  "
    bash = call("Bash", command="ls")
    summary = summarize(
        user("first request"),
        user(request),
        *step(bash),
        user("[Request interrupted by user for tool use]"),
        user(
            "<command-name>/mcp</command-name>\n<command-message>mcp</command-message>\n"
            "<command-args></command-args>"
        ),
        user("<local-command-stdout>Reconnected to tidewave.</local-command-stdout>"),
        user("<system-reminder>Remember the todo list.</system-reminder>"),
        summary_message(CompactionSummary(latest_request="older")),
    )
    assert summary.latest_request == request


def test_goals_are_every_request_oldest_first_once_each_and_capped() -> None:
    long_request = "word " * 100
    summary = summarize(
        user("Add a --json flag"),
        user("Add a --json flag"),
        user("Also document it", "<system-reminder>noise</system-reminder>"),
        user("Rename it <system-reminder>noise</system-reminder>"),
        user(long_request),
    )
    goals = summary.items(S.GOALS)
    assert goals[:3] == ("Add a --json flag", "Also document it", "Rename it")
    assert len(goals) == 4
    assert len(goals[3]) == 300
    assert goals[3].endswith("…")
    assert summary.latest_request == long_request  # verbatim, not capped


def test_harness_records_are_not_requests() -> None:
    summary = summarize(
        user(
            "<task-notification>\n<status>completed</status>\n</task-notification>\n"
            "Read the output file to retrieve the result: /tmp/x.output"
        ),
        user(
            "This session is being continued from a previous conversation that ran out of "
            "context. The summary below covers the earlier portion."
        ),
        Message(role=Role.USER, content=(TextBlock(text="skill text"),), extra={"isMeta": True}),
    )
    assert summary.latest_request is None
    assert summary.items(S.GOALS) == ()


def test_a_slash_command_with_arguments_is_a_request() -> None:
    summary = summarize(
        user(
            "<command-message>review</command-message>\n<command-name>/review</command-name>\n"
            "<command-args>src/app.py carefully</command-args>"
        )
    )
    assert summary.items(S.GOALS) == ("/review src/app.py carefully",)


def test_constraints_include_negative_ones_and_preferences() -> None:
    summary = summarize(
        user(
            "Fix the flaky test. Never push to main. Don't touch the fixtures. "
            "You must keep Python 3.11 support.\n"
            "- avoid new dependencies\n"
            "- I prefer small commits\n"
            "Do it without network access. No need to update the docs. It should not log "
            "secrets. Only change src/. Always run ruff."
        ),
        user("Thanks, looks good."),
    )
    assert summary.items(S.CONSTRAINTS) == (
        "Never push to main.",
        "Don't touch the fixtures.",
        "You must keep Python 3.11 support.",
        "avoid new dependencies",
        "I prefer small commits",
        "Do it without network access.",
        "No need to update the docs.",
        "It should not log secrets.",
        "Only change src/.",
        "Always run ruff.",
    )


# --- permissions -------------------------------------------------------------------------------


def test_permissions_granted_in_words_and_refused_tool_uses_in_order() -> None:
    rm = call("Bash", command="rm -rf build/")
    push = call("Bash", command="git push --force")
    summary = summarize(
        user("Clean up the build. You can delete build/ if needed."),
        *step(rm, REJECTED, error=True),
        user("Yes, go ahead and push when done. But you can't force-push."),
        *step(
            push, REJECTED + " To tell you how to proceed, the user said:\nuse a branch", error=True
        ),
        user("Feel free to reformat the file."),
    )
    assert summary.items(S.PERMISSIONS) == (
        "granted: You can delete build/ if needed.",
        "refused: Bash `rm -rf build/`",
        "granted: Yes, go ahead and push when done.",
        "refused: But you can't force-push.",
        "refused: Bash `git push --force` (user said: use a branch)",
        "granted: Feel free to reformat the file.",
    )


def test_a_refused_tool_use_is_a_refused_permission_not_an_error_nor_an_uncertain_effect() -> None:
    edit = call("Edit", file_path="src/a.py", old_string="x", new_string="y")
    summary = summarize(user("edit it"), *step(edit, REJECTED, error=True))
    assert summary.items(S.ERRORS) == ()
    assert summary.items(S.FILES_MODIFIED) == ()
    assert summary.items(S.UNCERTAIN_EFFECTS) == ()  # it never ran
    assert summary.items(S.PERMISSIONS) == ("refused: Edit src/a.py",)


# --- files -------------------------------------------------------------------------------------


def test_files_read_and_modified_from_claude_code_tools() -> None:
    summary = summarize(
        user("refactor"),
        *step(call("Read", file_path="src/app.py")),
        *step(call("Glob", pattern="**/*.py", path="src")),
        *step(call("Glob", pattern="*.toml")),
        *step(call("Grep", pattern="TODO", path="src")),
        *step(call("LS", path="docs")),
        *step(call("Write", file_path="src/new.py", content="x")),
        *step(call("Edit", file_path="src/app.py", old_string="a", new_string="b")),
        *step(call("MultiEdit", file_path="src/util.py", edits=[])),
        *step(call("NotebookEdit", notebook_path="nb/analysis.ipynb", new_source="")),
        *step(call("Edit", file_path="src/broken.py"), "String not found in file", error=True),
        *step(call("Read", file_path="missing.py"), "File does not exist.", error=True),
    )
    assert summary.items(S.FILES_READ) == (
        "src/app.py",
        "src/**/*.py",
        "*.toml",
        "src (grep: TODO)",
        "docs",
    )
    assert summary.items(S.FILES_MODIFIED) == (
        "src/new.py",
        "src/app.py",
        "src/util.py",
        "nb/analysis.ipynb",
    )


def test_files_from_generic_tool_names_editors_and_patches() -> None:
    patch = (
        "*** Begin Patch\n*** Update File: src/a.py\n@@\n-x\n+y\n*** Add File: src/b.py\n+z\n"
        "*** Delete File: src/old.py\n*** End Patch"
    )
    summary = summarize(
        user("go"),
        *step(call("read_file", path="README.md")),
        *step(call("open_file", filename="setup.cfg")),
        *step(call("str_replace_based_edit_tool", command="view", path="src/c.py")),
        *step(call("str_replace_editor", command="str_replace", path="src/c.py")),
        *step(call("str_replace_editor", command="create", path="src/d.py")),
        *step(call("mcp__fs__write_file", path="out.txt", content="")),
        *step(call("apply_patch", input=patch)),
        *step(call("shell", command=["apply_patch", patch.replace("src/a.py", "src/e.py")])),
    )
    assert summary.items(S.FILES_READ) == ("README.md", "setup.cfg", "src/c.py")
    assert summary.items(S.FILES_MODIFIED) == (
        "src/c.py",
        "src/d.py",
        "out.txt",
        "src/a.py",
        "src/b.py",
        "src/old.py",
        "src/e.py",
    )


# --- commands ----------------------------------------------------------------------------------


def test_commands_with_their_outcome() -> None:
    interrupted = call("Bash", command="npm run build")
    unanswered = call("Bash", command="make deploy")
    summary = summarize(
        user("build it"),
        *step(call("Bash", command="ls -la", description="list")),
        *step(
            call("Bash", command="git push"), "Exit code 128\nfatal: no upstream branch", error=True
        ),
        *step(
            call("bash", cmd="python run.py"),
            'Traceback (most recent call last):\n  File "run.py", line 1\nValueError: bad input',
        ),
        *step(call("run_command", command="./check.sh"), "Exit code: 3\nOutput:\nchecking"),
        *step(interrupted, "[Request interrupted by user for tool use]", error=True),
        *step(call("Bash", command="rm -rf /tmp/x"), REJECTED, error=True),
        assistant("Deploying.", unanswered),
    )
    assert summary.items(S.COMMANDS) == (
        "`ls -la` -> ok",
        "`git push` -> failed: fatal: no upstream branch",
        "`python run.py` -> failed: ValueError: bad input",
        "`./check.sh` -> failed: exit code 3",
        "`npm run build` -> interrupted",
        "`rm -rf /tmp/x` -> refused",
        "`make deploy` -> no result",
    )


def test_test_commands_carry_the_runner_summary_line() -> None:
    summary = summarize(
        user("run the tests"),
        *step(
            call("Bash", command="pytest -q"),
            "....F.\n===== 5 passed, 1 failed in 0.52s =====",
            error=True,
        ),
        *step(call("Bash", command="pytest -q"), "......\n6 passed in 0.40s"),
        *step(
            call("Bash", command="npx jest"),
            "PASS a.test.js\nTests:       3 failed, 4 passed, 7 total",
            error=True,
        ),
        *step(
            call("Bash", command="cargo test"),
            "running 2 tests\ntest result: ok. 2 passed; 0 failed",
        ),
        *step(
            call("Bash", command="go test ./..."),
            "--- FAIL: TestX\nFAIL\nFAIL\tpkg\t0.01s",
            error=True,
        ),
        *step(
            call("Bash", command="mix test 2>&1 | tail -5"),
            "Finished in 1.5 seconds\n14 doctests, 65 tests, 0 failures",
        ),
        *step(call("Bash", command="python -m unittest"), "Ran 3 tests in 0.001s\n\nOK"),
        *step(call("Bash", command="make test"), "building\nExit code 2", error=True),
    )
    assert summary.items(S.COMMANDS) == (
        "`pytest -q` -> failed: 5 passed, 1 failed in 0.52s",
        "`pytest -q` -> ok: 6 passed in 0.40s",
        "`npx jest` -> failed: Tests: 3 failed, 4 passed, 7 total",
        "`cargo test` -> ok: test result: ok. 2 passed; 0 failed",
        "`go test ./...` -> failed: FAIL pkg 0.01s",
        "`mix test 2>&1 | tail -5` -> ok: 14 doctests, 65 tests, 0 failures",
        "`python -m unittest` -> ok: OK",
        "`make test` -> failed: exit code 2",
    )


# --- decisions ---------------------------------------------------------------------------------


def test_decisions_come_from_assistant_text_not_thinking() -> None:
    summary = summarize(
        user("why does it crash?"),
        assistant(
            "The root cause is a missing None check. I'll add a guard in parse(). "
            "Reading the file now.\n```python\n# I'll not be read: code\n```\n"
            "Let's keep the public API. We decided to use ruff instead of flake8.",
            thinking="I will secretly rewrite everything.",
        ),
        assistant("Going with the smaller patch; the fix is one line."),
    )
    assert summary.items(S.DECISIONS) == (
        "The root cause is a missing None check.",
        "We decided to use ruff instead of flake8.",
        "Going with the smaller patch; the fix is one line.",
    )


# --- errors ------------------------------------------------------------------------------------


def test_errors_and_their_resolution_by_a_later_success_on_the_same_target() -> None:
    summary = summarize(
        user("make the tests pass"),
        *step(
            call("Bash", command="pytest"), "Exit code 1\nE   assert 1 == 2\n1 failed", error=True
        ),
        *step(call("Bash", command="pytest tests/b.py"), "ok"),  # a narrower run: no resolution
        *step(
            call("Edit", file_path="a.py"),
            "<tool_use_error>String not found</tool_use_error>",
            error=True,
        ),
        *step(call("Edit", file_path="b.py")),  # another file: no resolution
        *step(call("Edit", file_path="a.py")),
        *step(call("Bash", command="pytest"), "1 passed"),
        *step(call("Read", file_path="gone.py"), "File does not exist.", error=True),
        *step(
            call("Bash", command="python x.py"),
            "Traceback (most recent call last):\n"
            "  File \"x.py\", line 2, in <module>\nKeyError: 'name'",
        ),
    )
    assert summary.items(S.ERRORS) == (
        "Bash `pytest`: 1 failed -> resolved by a later successful Bash",
        "Edit a.py: String not found -> resolved by a later successful Edit",
        "Read gone.py: File does not exist.",
        "Bash `python x.py`: KeyError: 'name'",
    )


def test_the_resolution_survives_the_cap() -> None:
    command, failing = "make " + "y" * 300, "x" * 500
    summary = summarize(
        user("go"),
        *step(call("Bash", command=command), failing, error=True),
        *step(call("Bash", command=command)),
    )
    (item,) = summary.items(S.ERRORS)
    assert item.endswith("… -> resolved by a later successful Bash")
    assert len(item) == 300


# --- unfinished, completed, next steps ----------------------------------------------------------


def todo_write(*items: tuple[str, str]) -> ToolCall:
    return call(
        "TodoWrite",
        todos=[
            {"content": content, "status": status, "activeForm": content}
            for content, status in items
        ],
    )


def test_the_last_todo_list_gives_unfinished_completed_and_next_steps() -> None:
    summary = summarize(
        user("ship the feature"),
        *step(todo_write(("Write parser", "pending"), ("Add tests", "pending"))),
        *step(
            todo_write(
                ("Write parser", "completed"),
                ("Add tests", "in_progress"),
                ("Update docs", "pending"),
                ("Release", "pending"),
            )
        ),
        assistant("Parser done. Next I'll wire the CLI. Remaining: docs and release."),
    )
    assert summary.items(S.COMPLETED) == ("Write parser",)
    assert summary.items(S.UNFINISHED) == ("Add tests", "Update docs", "Release")
    assert summary.items(S.CURRENT_WORK) == (
        "in progress (todo list): Add tests",
        "announced: Next I'll wire the CLI.",
    )
    assert summary.items(S.NEXT_STEPS) == (
        "Update docs",
        "Next I'll wire the CLI.",
        "Remaining: docs and release.",
    )


def test_the_latest_request_is_quoted_never_listed_as_unfinished_work() -> None:
    bash = call("Bash", command="make")
    working = summarize(user("build it"), assistant("Building.", bash), answer(bash))
    assert working.latest_request == "build it"
    assert working.items(S.UNFINISHED) == ()
    unanswered = summarize(user("old"), assistant("done"), user("build it"))
    assert unanswered.items(S.UNFINISHED) == ()
    reported = summarize(user("build it"), *step(bash), assistant("Built without errors."))
    assert reported.items(S.UNFINISHED) == ()
    assert reported.items(S.COMPLETED) == ()  # a reply is no proof of success


def test_next_steps_are_announced_in_the_current_turn_only() -> None:
    summary = summarize(
        user("first"),
        assistant("Next I'll look at the old module."),
        user("second"),
        assistant("Then I'll run the linter."),
    )
    assert summary.items(S.NEXT_STEPS) == ("Then I'll run the linter.",)


# --- uncertain effects -------------------------------------------------------------------------


def test_uncertain_effects_are_unanswered_interrupted_or_failed_calls_with_effects() -> None:
    write = call("Write", file_path="out.txt", content="x")
    search = call("WebSearch", query="xterm scroll")
    read = call("Read", file_path="a.py")
    summary = summarize(
        user("go"),
        assistant("", write, search, read),  # no results at all
        *step(
            call("Bash", command="deploy.sh"),
            "[Request interrupted by user for tool use]",
            error=True,
        ),
        *step(call("Edit", file_path="b.py"), "String not found", error=True),  # all or nothing
        *step(call("Glob", pattern="*.py"), "boom", error=True),
        *step(call("WebFetch", url="https://example.com"), "timeout", error=True),
        *step(call("Bash", command="pytest -q"), "Exit code 1\n2 failed", error=True),  # a check
        *step(call("Bash", command="rm -rf build"), "Exit code 1\nbusy", error=True),
        *step(call("mcp__tracker__close_ticket", id=7), "server error", error=True),
        *step(call("Bash", command="echo fine")),
    )
    assert summary.items(S.UNCERTAIN_EFFECTS) == (
        "Write out.txt: no result — effect unknown",
        "Bash `deploy.sh`: interrupted — effect unknown",
        "Bash `rm -rf build`: failed — effect unknown",
        'mcp__tracker__close_ticket {"id": 7}: failed — effect unknown',
    )


def test_a_result_must_come_after_its_call() -> None:
    late = call("Bash", command="make")
    summary = summarize(user("go"), answer(late), assistant("", late))
    assert summary.items(S.UNCERTAIN_EFFECTS) == ("Bash `make`: no result — effect unknown",)


# --- merging -----------------------------------------------------------------------------------


def test_merging_keeps_previous_items_first_and_each_once() -> None:
    previous = CompactionSummary(
        latest_request="old request",
        sections={S.GOALS: ("old request",), S.FILES_READ: ("a.py", "b.py")},
    )
    summary = summarize(
        user("new request"),
        *step(call("Read", file_path="b.py")),
        *step(call("Read", file_path="c.py")),
        previous=previous,
    )
    assert summary.items(S.GOALS) == ("old request", "new request")
    assert summary.items(S.FILES_READ) == ("a.py", "b.py", "c.py")
    assert summary.latest_request == "new request"


def test_the_previous_latest_request_stays_when_no_new_one_is_folded() -> None:
    previous = CompactionSummary(latest_request="keep me")
    assert summarize(assistant("working"), previous=previous).latest_request == "keep me"


def test_completed_work_moves_out_of_unfinished_and_next_steps() -> None:
    base = CompactionSummary(
        sections={S.UNFINISHED: ("A", "B"), S.NEXT_STEPS: ("A", "look at C"), S.COMPLETED: ("Z",)}
    )
    update = CompactionSummary(sections={S.COMPLETED: ("A",), S.UNFINISHED: ("B",)})
    merged = merge_summaries(base, update)
    assert merged.items(S.UNFINISHED) == ("B",)
    assert merged.items(S.NEXT_STEPS) == ("look at C",)
    assert merged.items(S.COMPLETED) == ("Z", "A")


def test_reopened_work_is_both_completed_and_unfinished() -> None:
    merged = merge_summaries(
        CompactionSummary(sections={S.COMPLETED: ("A",)}),
        CompactionSummary(sections={S.UNFINISHED: ("A",)}),
    )
    assert merged.items(S.COMPLETED) == ("A",)
    assert merged.items(S.UNFINISHED) == ("A",)


def test_a_summary_message_among_the_folded_ones_is_merged_not_read_as_a_request() -> None:
    earlier = CompactionSummary(
        latest_request="Never deploy on Friday",
        sections={S.GOALS: ("Never deploy on Friday",), S.CONSTRAINTS: ("Never deploy on Friday",)},
    )
    summary = summarize(summary_message(earlier), user("now fix the bug"))
    assert summary.items(S.GOALS) == ("Never deploy on Friday", "now fix the bug")
    assert summary.items(S.CONSTRAINTS) == ("Never deploy on Friday",)
    assert summary.latest_request == "now fix the bug"
    both = summarize(
        summary_message(earlier), previous=CompactionSummary(sections={S.GOALS: ("g",)})
    )
    assert both.items(S.GOALS) == ("g", "Never deploy on Friday")


def test_todo_transitions_across_merges() -> None:
    first = summarize(
        user("ship it"),
        *step(todo_write(("Parser", "in_progress"), ("Tests", "pending"), ("Docs", "pending"))),
    )
    assert first.items(S.UNFINISHED) == ("Parser", "Tests", "Docs")
    assert first.items(S.CURRENT_WORK) == ("in progress (todo list): Parser",)
    assert first.items(S.NEXT_STEPS) == ("Tests",)
    second = summarize(
        summary_message(first),
        *step(todo_write(("Parser", "completed"), ("Tests", "in_progress"), ("Docs", "pending"))),
    )
    assert second.items(S.UNFINISHED) == ("Tests", "Docs")
    assert second.items(S.COMPLETED) == ("Parser",)
    assert second.items(S.CURRENT_WORK) == ("in progress (todo list): Tests",)
    assert second.items(S.NEXT_STEPS) == ("Docs",)  # the newer cut's next step replaces "Tests"
    third = summarize(
        summary_message(second),
        *step(todo_write(("Parser", "completed"), ("Tests", "completed"), ("Docs", "completed"))),
    )
    assert third.items(S.UNFINISHED) == ()
    assert third.items(S.NEXT_STEPS) == ()
    assert third.items(S.COMPLETED) == ("Parser", "Tests", "Docs")


# --- five compactions --------------------------------------------------------------------------


def _round_one() -> list[Message]:
    edit = call("Edit", file_path="src/core.py", old_string="a", new_string="b")
    deploy = call("Bash", command="./deploy.sh staging")
    return [
        user("Port the CLI to Typer. Never change the public flags. You can add dependencies."),
        assistant(
            "I'll start with the entry point.",
            todo_write(("Port CLI", "in_progress"), ("Write docs", "pending")),
        ),
        answer(todo_write(("x", "pending"))),  # an orphan result: ignored
        *step(call("Read", file_path="src/cli.py")),
        assistant("", edit),
        answer(edit),
        *step(call("Bash", command="pytest -q"), "1 failed, 3 passed", error=True),
        *step(call("Bash", command="rm -rf dist"), REJECTED, error=True),
        assistant("Deploying to staging.", deploy),
    ]


def _later_round(number: int) -> list[Message]:
    done = ("Port CLI", "completed") if number == 5 else ("Port CLI", "in_progress")
    return [
        answer(call("Bash", command="noop")),  # a result of a call folded earlier: ignored
        user(f"Round {number}: also handle option {number}."),
        *step(todo_write(done, ("Write docs", "pending"))),
        *step(call("Read", file_path=f"src/option_{number}.py")),
        assistant(f"Option {number} is handled."),
    ]


def test_facts_survive_five_successive_compactions() -> None:
    summarizer = DeterministicSummarizer()
    first = summarizer.summarize(_round_one(), None)
    summary = first
    for number in range(2, 6):
        folded = [summary_message(summary), *_later_round(number)]
        summary = summarizer.summarize(folded, None)
        assert parse_summary(render_summary(summary)) == summary
    assert first.items(S.UNFINISHED) == (
        "Port CLI",
        "Write docs",
        "failing at the cut: `pytest -q` -> failed: 1 failed, 3 passed",
        "not confirmed: `./deploy.sh staging` -> no result",
    )
    for section in SummarySection:
        for item in first.items(section):
            if section in (S.UNFINISHED, S.NEXT_STEPS) and item == "Port CLI":
                continue  # completed in round 5
            if section in (S.CURRENT_WORK, S.NEXT_STEPS):
                continue  # where the work stood at each newer cut replaces it
            assert item in summary.items(section), (section, item)
    assert "Port CLI" in summary.items(S.COMPLETED)
    assert "Port CLI" not in summary.items(S.UNFINISHED)
    # The failing test and the unconfirmed deploy were never run again: still open.
    assert summary.items(S.UNFINISHED) == ("Write docs", *first.items(S.UNFINISHED)[2:])
    assert summary.latest_request == "Round 5: also handle option 5."
    assert summary.items(S.GOALS)[0].startswith("Port the CLI to Typer.")
    assert "`./deploy.sh staging` -> no result" in summary.items(S.COMMANDS)
    assert "Bash `./deploy.sh staging`: no result — effect unknown" in summary.items(
        S.UNCERTAIN_EFFECTS
    )
    assert "refused: Bash `rm -rf dist`" in summary.items(S.PERMISSIONS)


# --- determinism (the real corpus: test_deterministic_summarizer_corpus.py) ---------------------


def test_the_same_messages_give_the_same_summary_and_text() -> None:
    messages = [*_round_one(), *_later_round(2)]
    first = DeterministicSummarizer().summarize(messages, None)
    second = DeterministicSummarizer().summarize(list(messages), None)
    assert first == second
    assert render_summary(first) == render_summary(second)
    assert first.model_dump_json() == second.model_dump_json()


def test_wrapped_prose_is_joined_back_into_sentences() -> None:
    summary = summarize(user("Please keep the\nold behaviour and never\nremove the flag.\nThanks"))
    assert summary.items(S.CONSTRAINTS) == (
        "Please keep the old behaviour and never remove the flag.",
    )


def test_a_decision_that_names_its_means_is_kept_a_look_around_is_not() -> None:
    summary = summarize(
        user("the migration fails on SQLite"),
        assistant(
            "Let me read the migration first. I need to rewrite it with a table copy. "
            "The problem is that SQLite cannot drop a column in place. "
            "We opted for batch mode rather than raw SQL."
        ),
    )
    assert summary.items(S.DECISIONS) == (
        "Rewrite it with a table copy.",
        "The problem is that SQLite cannot drop a column in place.",
        "We opted for batch mode rather than raw SQL.",
    )


def test_the_last_stated_intent_is_a_next_step() -> None:
    summary = summarize(
        user("fix the flash messages"),
        assistant("Let me check the layout. Found it."),
        assistant("The layout renders them. Let me also check the flash helpers. Done?"),
    )
    assert summary.items(S.NEXT_STEPS) == ("Let me also check the flash helpers.",)

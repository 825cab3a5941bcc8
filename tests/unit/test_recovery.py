"""Recovery correctness: fact extraction from full transcripts and presence in compacted ones."""

from __future__ import annotations

from typing import Any

from cleveragents.application.services.compaction.recall import (
    Fact,
    FactCategory,
    claude_code_compaction_cuts,
    claude_code_compaction_point,
    claude_code_workspace,
    key_terms,
    presence,
    recovery_facts,
    request_text,
    searchable_text,
    terms_recovered,
)
from cleveragents.application.services.compaction.recall.text import term_frequencies
from cleveragents.domain.transcript import (
    SUMMARY_MARKER,
    Message,
    OtherBlock,
    Role,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    ToolResult,
)
from tests.recovery_samples import needles


def user(*texts: str) -> Message:
    return Message(role=Role.USER, content=tuple(TextBlock(text=text) for text in texts))


def call(call_id: str, name: str, **arguments: Any) -> Message:
    return Message(role=Role.ASSISTANT, content=(ToolCall(id=call_id, name=name, input=arguments),))


def assistant(*texts: str) -> Message:
    return Message(role=Role.ASSISTANT, content=tuple(TextBlock(text=text) for text in texts))


def result(call_id: str, content: str = "ok", *, is_error: bool = False) -> Message:
    block = ToolResult(call_id=call_id, content=content, is_error=is_error)
    return Message(role=Role.USER, content=(block,))


def labels(facts: tuple[Fact, ...]) -> list[str]:
    return [fact.label for fact in facts]


# --- latest request -------------------------------------------------------------------------


def test_latest_request_is_the_newest_real_request_not_noise() -> None:
    messages = [
        user("Implement the  parser\n please"),
        call("c1", "Bash", command="make"),
        result("c1"),
        user("Fix the lexer"),
        user("[Request interrupted by user for tool use]"),
        user("<command-name>/clear</command-name>\n<command-args></command-args>"),
        user("<local-command-stdout>cleared</local-command-stdout>"),
        user("<system-reminder>Remember the rules</system-reminder>"),
        user("<task-notification>\n<status>completed</status>\n</task-notification>\nRead it"),
        user(f"{SUMMARY_MARKER}\nGoals: ..."),
        user("This session is being continued from a previous conversation that ran out..."),
        result("c9", "tool output only"),
    ]

    facts = recovery_facts(messages)[FactCategory.LATEST_REQUEST]

    assert needles(facts) == ["Fix the lexer"]
    assert request_text(messages[0]) == "Implement the parser please"


def test_a_reminder_inside_a_request_is_cut_out_and_the_request_kept() -> None:
    message = user("Add tests <system-reminder>be brief</system-reminder> for the cache")

    assert request_text(message) == "Add tests for the cache"


def test_no_user_text_gives_no_latest_request() -> None:
    facts = recovery_facts([call("c1", "Bash", command="ls"), result("c1")])

    assert facts[FactCategory.LATEST_REQUEST] == ()


# --- files modified -------------------------------------------------------------------------


def test_files_modified_come_from_successful_write_tools_only() -> None:
    patch = "*** Begin Patch\n*** Update File: src/a.py\n@@\n*** Add File: src/new.py\n+x\n"
    messages = [
        call("w", "Write", file_path="/ws/src/written.py", content="x"),
        result("w"),
        call("e", "Edit", file_path="/ws/src/failed.py", old_string="a", new_string="b"),
        result("e", "String to replace not found", is_error=True),
        call("m", "MultiEdit", file_path="/ws/src/multi.py", edits=[]),
        result("m"),
        call("n", "NotebookEdit", notebook_path="/ws/nb.ipynb", new_source="x"),
        result("n"),
        call("g", "write_file", path="generic.txt", content="x"),
        result("g"),
        call("v", "str_replace_based_edit_tool", command="view", path="viewed.py"),
        result("v"),
        call("s", "str_replace_editor", command="str_replace", path="replaced.py"),
        result("s"),
        call("p", "apply_patch", input=patch),
        result("p"),
        call("u", "Edit", file_path="/ws/src/unanswered.py", old_string="a", new_string="b"),
        call("r", "Read", file_path="/ws/src/read.py"),
        result("r"),
        call("w2", "Write", file_path="/ws/src/written.py", content="y"),
        result("w2"),
    ]

    facts = recovery_facts(messages)[FactCategory.FILES_MODIFIED]

    assert needles(facts) == [
        "/ws/src/written.py",
        "/ws/src/multi.py",
        "/ws/nb.ipynb",
        "generic.txt",
        "replaced.py",
        "src/a.py",
        "src/new.py",
    ]
    assert "file modified: /ws/src/written.py" in labels(facts)


def test_a_workspace_makes_the_relative_path_an_accepted_spelling() -> None:
    messages = [call("w", "Write", file_path="/ws/src/a.py", content=""), result("w")]

    (fact,) = recovery_facts(messages, workspace="/ws/")[FactCategory.FILES_MODIFIED]

    assert fact.needles == ("/ws/src/a.py", "src/a.py")
    assert presence({FactCategory.FILES_MODIFIED: (fact,)}, "- src/a.py: added a").missing == ()


# --- commands -------------------------------------------------------------------------------


def test_commands_keep_the_latest_outcome_and_need_a_failure_word_when_failed() -> None:
    messages = [
        call("t1", "Bash", command="pytest -q"),
        result("t1", "1 failed", is_error=True),
        call("t2", "Bash", command="pytest -q"),
        result("t2", "3 passed"),
        call("p", "bash", cmd="git push"),
        result("p", "rejected", is_error=True),
        call("x", "shell", command=["bash", "-lc", "make lint"]),
        result("x"),
        call("u", "Bash", command="sleep 100"),  # no result: an uncertain effect, not a command
    ]

    facts = recovery_facts(messages)[FactCategory.COMMANDS]

    assert labels(facts) == [
        "command ok: pytest -q",
        "command failed: git push",
        "command ok: bash -lc make lint",
    ]
    assert [fact.outcome_words for fact in facts] == [(), ("fail", "error"), ()]


def test_a_command_is_also_recognised_without_cd_prefix_and_output_trimming() -> None:
    messages = [
        call("t", "Bash", command="cd /ws && mix test 2>&1 | tail -5"),
        result("t"),
        call("s", "Bash", command="bd show x 2>/dev/null"),
        result("s"),
    ]

    facts = recovery_facts(messages)[FactCategory.COMMANDS]

    assert [fact.needles for fact in facts] == [
        ("cd /ws && mix test 2>&1 | tail -5", "mix test"),
        ("bd show x 2>/dev/null", "bd show x"),
    ]


def test_a_failed_command_is_recovered_only_with_its_failure_nearby() -> None:
    messages = [call("p", "Bash", command="git push"), result("p", "denied", is_error=True)]
    facts = recovery_facts(messages)

    near = "Ran `git push`: it failed (no upstream)."
    assert presence(facts, near)[FactCategory.COMMANDS].share == 1.0
    far = "Ran `git push`." + " filler" * 100 + " An unrelated error."
    assert presence(facts, far)[FactCategory.COMMANDS].share == 0.0
    # Kept verbatim, the error result itself carries the failure.
    assert presence(facts, messages)[FactCategory.COMMANDS].share == 1.0


# --- unfinished -----------------------------------------------------------------------------


def todo_write(call_id: str, *items: tuple[str, str]) -> Message:
    todos = [{"content": content, "status": status} for content, status in items]
    return call(call_id, "TodoWrite", todos=todos)


def test_only_the_last_todo_write_counts_and_only_its_open_items() -> None:
    messages = [
        todo_write("t1", ("Write the parser", "pending"), ("Old item", "pending")),
        result("t1"),
        todo_write(
            "t2",
            ("Write the parser", "completed"),
            ("Write the lexer", "in_progress"),
            ("Document it", "pending"),
        ),
        result("t2"),
        call("b", "Bash", command="ls"),
        result("b"),
    ]

    facts = recovery_facts(messages)[FactCategory.UNFINISHED]

    assert labels(facts) == [
        "unfinished (in_progress): Write the lexer",
        "unfinished (pending): Document it",
    ]


# --- uncertain effects ----------------------------------------------------------------------


def test_uncertain_effects_are_unanswered_failed_or_interrupted_calls_with_effects() -> None:
    messages = [
        call("d", "Bash", command="rm -rf build"),  # never answered
        call("w", "Write", file_path="/ws/out.txt", content="x"),
        result("w", "[Request interrupted by user for tool use]", is_error=True),
        call("e", "Edit", file_path="/ws/a.py", old_string="x", new_string="y"),
        result("e", "not found", is_error=True),
        call("e2", "Edit", file_path="/ws/a.py", old_string="z", new_string="y"),
        result("e2"),  # the retry succeeded: no doubt left about a.py
        call("p", "Bash", command="git push"),
        result("p", "rejected", is_error=True),
    ]

    facts = recovery_facts(messages)[FactCategory.UNCERTAIN_EFFECTS]

    assert labels(facts) == [
        "uncertain effect (no result): Bash rm -rf build",
        "uncertain effect (interrupted): Write /ws/out.txt",
        "uncertain effect (error): Bash git push",
    ]


def test_read_only_tools_are_never_uncertain() -> None:
    messages = [
        call("r", "Read", file_path="/ws/a.py"),
        call("g", "Grep", pattern="x"),
        call("l", "Glob", pattern="*.py"),
        call("s", "LS", path="/ws"),
        call("f", "WebFetch", url="https://example.com"),
        result("f", "timeout", is_error=True),
        call("q", "WebSearch", query="x"),
        call("v", "view", path="/ws/a.py"),
        call("ve", "str_replace_editor", command="view", path="/ws/a.py"),
    ]

    assert recovery_facts(messages)[FactCategory.UNCERTAIN_EFFECTS] == ()


# --- user requests --------------------------------------------------------------------------


def test_user_requests_are_every_real_request_once_in_order() -> None:
    skill = Message(
        role=Role.USER, content=(TextBlock(text="Follow these phases in order."),), meta=True
    )
    flagged = Message(
        role=Role.USER,
        content=(TextBlock(text="Base directory for this skill: /skills/x"),),
        extra={"claude_code": {"record": {"isMeta": True}}},
    )
    messages = [
        user(
            "<command-message>review</command-message>\n<command-name>/review</command-name>\n"
            "<command-args>check the parser for leaks</command-args>"
        ),
        skill,
        flagged,
        user("Fix the lexer"),
        call("c", "Bash", command="make"),
        result("c"),
        user("<system-reminder>be brief</system-reminder>"),
        user("/mcp"),
        user("Fix the lexer"),
        user("/review also the tokenizer"),
    ]

    facts = recovery_facts(messages)

    assert needles(facts[FactCategory.USER_REQUESTS]) == [
        "check the parser for leaks",
        "Fix the lexer",
        "also the tokenizer",
    ]
    assert needles(facts[FactCategory.LATEST_REQUEST]) == ["also the tokenizer"]


def test_a_paraphrased_request_is_recovered_by_its_key_terms() -> None:
    request = (
        "Please migrate the session store from Redis to PostgreSQL and keep the "
        "`SessionCache` interface unchanged"
    )
    facts = recovery_facts([user(request)])
    (fact,) = facts[FactCategory.USER_REQUESTS]

    assert len(fact.terms) == 8
    assert "sessioncache" in fact.terms
    paraphrase = (
        "The user asked to move session storage off Redis onto PostgreSQL, leaving the "
        "SessionCache interface as it is."
    )
    assert presence(facts, paraphrase)[FactCategory.USER_REQUESTS].share == 1.0
    half = "The user asked to move sessions off Redis onto PostgreSQL (SessionCache)."
    assert presence(facts, half)[FactCategory.USER_REQUESTS].share == 0.0  # 4 of 8 terms
    assert presence(facts, paraphrase)[FactCategory.LATEST_REQUEST].share == 1.0
    unrelated = "The user asked to add a dark mode toggle to the settings page."
    assert presence(facts, unrelated)[FactCategory.USER_REQUESTS].share == 0.0


def test_key_terms_scattered_through_a_summary_do_not_recover_a_request() -> None:
    facts = recovery_facts([user("Migrate the session store from Redis to PostgreSQL")])
    filler = " lorem" * 100

    scattered = f"Redis is fast.{filler} PostgreSQL is solid.{filler} A session ended."

    assert presence(facts, scattered)[FactCategory.USER_REQUESTS].share == 0.0


def test_a_request_with_few_key_terms_must_be_kept_as_written() -> None:
    facts = recovery_facts([user("check again")])

    assert facts[FactCategory.USER_REQUESTS][0].terms == ()
    assert presence(facts, "The user said: check again")[FactCategory.USER_REQUESTS].share == 1.0
    assert presence(facts, "The user asked to check")[FactCategory.USER_REQUESTS].share == 0.0


def test_key_terms_skip_stop_words_match_inflections_and_prefer_the_rare() -> None:
    frequencies = term_frequencies("parser " * 50 + "tokenizer lexer")

    terms = key_terms("Please rewrite the parser and the tokenizer before the lexer", frequencies)

    assert terms == ("rewrite", "parser", "tokenizer", "lexer")
    assert key_terms("the parser tokenizer lexer rewrite", frequencies, limit=3) == (
        "tokenizer",
        "lexer",
        "rewrite",
    )
    assert terms_recovered(("persist", "session", "redis"), "Sessions persisted in Redis")
    assert not terms_recovered(("persist", "session", "redis"), "Sessions persisted in memory")


# --- files read -----------------------------------------------------------------------------


def test_files_read_are_successful_reads_of_a_file_not_searches() -> None:
    messages = [
        call("r", "Read", file_path="/ws/src/a.py"),
        result("r", "1 import os"),
        call("m", "Read", file_path="/ws/src/missing.py"),
        result("m", "<tool_use_error>File does not exist.</tool_use_error>", is_error=True),
        call("n", "NotebookRead", notebook_path="/ws/nb.ipynb"),
        result("n"),
        call("v", "str_replace_based_edit_tool", command="view", path="/ws/src/b.py"),
        result("v"),
        call("g", "Grep", pattern="TODO", path="/ws/src"),
        result("g"),
        call("l", "Glob", pattern="**/*.py"),
        result("l"),
        call("u", "Read", file_path="/ws/src/unanswered.py"),
        call("r2", "Read", file_path="/ws/src/a.py", offset=10),
        result("r2"),
    ]

    facts = recovery_facts(messages, workspace="/ws")[FactCategory.FILES_READ]

    assert needles(facts) == ["/ws/src/a.py", "/ws/nb.ipynb", "/ws/src/b.py"]
    assert facts[0].needles == ("/ws/src/a.py", "src/a.py")


# --- errors ---------------------------------------------------------------------------------


def test_errors_are_failed_calls_once_per_target_resolved_ones_kept() -> None:
    messages = [
        call("t1", "Bash", command="pytest -q"),
        result("t1", "Exit code 1\n1 failed", is_error=True),
        call("t2", "Bash", command="pytest -q"),
        result("t2", "3 passed"),
        call("e", "Edit", file_path="/ws/a.py", old_string="x", new_string="y"),
        result("e", "String to replace not found", is_error=True),
        call("e2", "Edit", file_path="/ws/a.py", old_string="x", new_string="y"),
        result("e2", "String to replace not found", is_error=True),
        call("b", "bash", cmd="make lint"),
        result("b", "Exit code: 2\nlint failed"),  # no error flag: the exit code tells
        call("i", "Bash", command="sleep 9"),
        result("i", "[Request interrupted by user for tool use]", is_error=True),
        call("u", "Bash", command="rm -rf build"),  # no result: uncertain, not an error
    ]

    facts = recovery_facts(messages)[FactCategory.ERRORS]

    assert labels(facts) == [
        "error (resolved later): Bash pytest -q",
        "error: Edit /ws/a.py",
        "error: bash make lint",
    ]
    commands = recovery_facts(messages)[FactCategory.COMMANDS]
    assert "command failed: make lint" in labels(commands)


def test_an_error_is_recovered_only_with_an_error_word_near_its_target() -> None:
    facts = recovery_facts(
        [call("e", "Edit", file_path="/ws/a.py"), result("e", "no match", is_error=True)]
    )

    near = "Editing /ws/a.py was rejected: the old text was not found."
    assert presence(facts, near)[FactCategory.ERRORS].share == 1.0
    assert presence(facts, "Edited /ws/a.py.")[FactCategory.ERRORS].share == 0.0


# --- decisions ------------------------------------------------------------------------------


ANSWERS = (
    'User has answered your questions: "Which database should the cache use?"="PostgreSQL", '
    '"Should expired entries be deleted?"="No, keep them archived". You can now continue.'
)


def test_the_users_answers_are_decisions_recovered_by_answer_and_question() -> None:
    messages = [
        call("q", "AskUserQuestion", questions=[]),
        result("q", ANSWERS),
        assistant("Thanks."),
    ]

    facts = recovery_facts(messages)
    decisions = facts[FactCategory.DECISIONS]

    assert labels(decisions) == [
        "decision (the user's answer): Which database should the cache use? PostgreSQL",
        "decision (the user's answer): Should expired entries be deleted? No, keep them archived",
    ]
    paraphrase = (
        "The user chose PostgreSQL as the cache database; expired entries stay archived, "
        "not deleted."
    )
    assert presence(facts, paraphrase)[FactCategory.DECISIONS].share == 1.0
    assert presence(facts, "PostgreSQL was mentioned.")[FactCategory.DECISIONS].share == 0.0


def test_an_approved_plan_is_a_decision_named_by_its_title() -> None:
    plan = "# Plan: Split the billing service into ledger and invoicing\n\n## Steps\n1. ..."
    by_argument = [
        call("x", "ExitPlanMode", plan=plan),
        result("x", "User has approved your plan."),
    ]
    by_file = [
        call("w", "Write", file_path="/home/u/.claude/plans/billing-plan.md", content=plan),
        result("w"),
        call("x", "ExitPlanMode"),
        result("x", "User has approved exiting plan mode. You can now proceed."),
    ]
    rejected = [call("x", "ExitPlanMode", plan=plan), result("x", "rejected", is_error=True)]

    for messages in (by_argument, by_file):
        (fact,) = recovery_facts(messages)[FactCategory.DECISIONS]
        assert fact.label == (
            "decision (plan approved): Plan: Split the billing service into ledger and invoicing"
        )
    assert recovery_facts(rejected)[FactCategory.DECISIONS] == ()
    facts = recovery_facts(by_argument)
    summary = "Approved plan: the billing service is split into a ledger and an invoicing part."
    assert presence(facts, summary)[FactCategory.DECISIONS].share == 1.0


def test_assistant_sentences_that_state_a_choice_are_decisions() -> None:
    messages = [
        assistant(
            "I read the module. I'll use a bounded queue instead of the unbounded list. "
            "Should I use Redis?\n"
            "- The root cause is a missing index on `orders.customer_id`.\n"
            "Let me know if you prefer another approach.\n"
            "Let me batch the writes to avoid lock contention.\n"
            "```\nrather than this code\n```\n"
            "The tests pass now."
        ),
        assistant("I'll use a bounded queue instead of the unbounded list."),
    ]

    facts = recovery_facts(messages)
    decisions = facts[FactCategory.DECISIONS]

    assert needles(decisions) == [
        "I'll use a bounded queue instead of the unbounded list.",
        "The root cause is a missing index on `orders.customer_id`.",
        "Let me batch the writes to avoid lock contention.",
    ]
    summary = "Root cause: orders.customer_id had no index (missing)."
    report = presence(facts, summary)[FactCategory.DECISIONS]
    assert report.recovered == 1
    assert report.missing[0].startswith("decision: I'll use a bounded queue")


# --- next step ------------------------------------------------------------------------------


def test_the_next_step_is_the_in_progress_todo_first() -> None:
    messages = [
        todo_write("t", ("Write the parser", "completed"), ("Write the lexer", "in_progress")),
        result("t"),
        assistant("Now let me run the tests."),
    ]

    (fact,) = recovery_facts(messages)[FactCategory.NEXT_STEP]

    assert fact.label == "next step (in progress): Write the lexer"


def test_the_next_step_is_the_last_intent_of_the_last_assistant_text() -> None:
    messages = [
        user("Add pagination to the orders endpoint"),
        assistant("Let me read the handler first."),
        call("r", "Read", file_path="/ws/orders.py"),
        result("r"),
        assistant(
            "The handler returns everything. Now let me add `limit` and `offset` parameters "
            "to the orders query. Then I'll update the OpenAPI schema."
        ),
        call("e", "Edit", file_path="/ws/orders.py"),
    ]

    facts = recovery_facts(messages)
    (fact,) = facts[FactCategory.NEXT_STEP]

    assert fact.needles == ("Then I'll update the OpenAPI schema.",)
    paraphrase = "Next: update the OpenAPI schema for the new parameters."
    assert presence(facts, paraphrase)[FactCategory.NEXT_STEP].share == 1.0
    assert presence(facts, "Next: write the docs.")[FactCategory.NEXT_STEP].share == 0.0


def test_no_next_step_after_a_final_report_or_a_new_request() -> None:
    finished = [
        assistant("Let me run the tests."),
        call("b", "Bash", command="pytest"),
        result("b"),
        assistant("All done: 12 tests pass. Let me know if you want more."),
    ]
    asked = [assistant("Let me run the tests."), user("Stop, explain the design first")]

    assert recovery_facts(finished)[FactCategory.NEXT_STEP] == ()
    assert recovery_facts(asked)[FactCategory.NEXT_STEP] == ()


# --- presence -------------------------------------------------------------------------------


def test_presence_ignores_whitespace_differences() -> None:
    facts = recovery_facts([user("Rename   the\n\tmodule  and update imports")])

    report = presence(facts, "Latest request:\n  Rename the module\nand update   imports")

    assert report[FactCategory.LATEST_REQUEST].share == 1.0


def test_presence_is_case_sensitive() -> None:
    facts = recovery_facts([user("Rename the module")])

    assert presence(facts, "rename the module")[FactCategory.LATEST_REQUEST].recovered == 0


def test_a_long_needle_is_matched_by_its_first_200_characters() -> None:
    command = "cat > notes.txt <<'EOF'\n" + "line of generated notes\n" * 20 + "EOF"
    facts = recovery_facts([call("c", "Bash", command=command), result("c")])
    spelled = " ".join(command.split())

    kept_start = spelled[:200] + " [cut]"

    assert presence(facts, kept_start)[FactCategory.COMMANDS].share == 1.0
    assert presence(facts, spelled[:150])[FactCategory.COMMANDS].share == 0.0


def test_a_compacted_transcript_missing_a_fact_reports_its_label() -> None:
    original = [
        user("Add caching"),
        call("w1", "Write", file_path="/ws/cache.py", content="x"),
        result("w1"),
        call("w2", "Write", file_path="/ws/store.py", content="x"),
        result("w2"),
    ]
    compacted = [
        user(f"{SUMMARY_MARKER}\nLatest request: Add caching\nFiles modified: /ws/cache.py"),
        Message(role=Role.ASSISTANT, content=(ThinkingBlock(thinking="I wrote /ws/store.py"),)),
    ]

    report = presence(recovery_facts(original), compacted)

    assert report[FactCategory.LATEST_REQUEST].share == 1.0
    assert report[FactCategory.FILES_MODIFIED].total == 2
    assert report[FactCategory.FILES_MODIFIED].recovered == 1
    assert report[FactCategory.FILES_MODIFIED].share == 0.5
    assert report.missing == ("file modified: /ws/store.py",)
    assert report[FactCategory.UNFINISHED].share is None
    assert not report.meets_target
    assert report.as_dict()["files_modified"]["missing"] == ["file modified: /ws/store.py"]


def test_the_uncompacted_transcript_recovers_every_fact() -> None:
    messages = [
        user("Ship it"),
        todo_write("t", ("Release notes", "pending"), ("Tag the release", "in_progress")),
        result("t"),
        call("r", "Read", file_path="/ws/CHANGELOG.md"),
        result("r", "# Changes"),
        assistant("I'll use semantic versioning rather than dates for the release tag."),
        call("w", "Write", file_path="/ws/a.py", content="x"),
        result("w"),
        call("p", "Bash", command="git push"),
        result("p", "rejected", is_error=True),
    ]

    report = presence(recovery_facts(messages), messages)

    assert report.missing == ()
    assert report.meets_target
    assert {c: e.total for c, e in report.by_category.items()} == {
        FactCategory.LATEST_REQUEST: 1,
        FactCategory.USER_REQUESTS: 1,
        FactCategory.FILES_MODIFIED: 1,
        FactCategory.FILES_READ: 1,
        FactCategory.COMMANDS: 1,
        FactCategory.ERRORS: 1,
        FactCategory.UNFINISHED: 2,
        FactCategory.DECISIONS: 1,
        FactCategory.NEXT_STEP: 1,
        FactCategory.UNCERTAIN_EFFECTS: 1,
    }
    assert set(report.as_dict()) == {category.value for category in FactCategory}


def test_searchable_text_has_raw_tool_arguments_and_results_but_not_thinking() -> None:
    messages = [
        Message(
            role=Role.ASSISTANT,
            content=(
                ThinkingBlock(thinking="secret plan"),
                ToolCall(id="c", name="Bash", input={"command": 'git commit -m "a\nb"'}),
            ),
        ),
        Message(
            role=Role.USER,
            content=(
                ToolResult(call_id="c", content="boom", is_error=True),
                OtherBlock(data={"type": "image"}),
            ),
        ),
    ]

    text = searchable_text(messages)

    assert text == 'Bash command: git commit -m "a b" [error] boom'


# --- Claude Code compaction point -----------------------------------------------------------


def test_the_compaction_point_is_the_continuation_summary_message() -> None:
    messages = [
        user("Do it"),
        call("c", "Bash", command="ls"),
        result("c"),
        user("This session is being continued from a previous conversation. Summary: ..."),
        user("next"),
    ]

    assert claude_code_compaction_point(messages) == 3
    assert claude_code_compaction_point(messages[:3]) is None


def test_the_compaction_cut_follows_the_boundary_logical_parent() -> None:
    records: list[dict[str, Any]] = [
        {"type": "user", "uuid": "a", "cwd": "/ws"},
        {"type": "assistant", "uuid": "b"},
        {"type": "progress", "uuid": "c"},
        {"type": "system", "subtype": "compact_boundary", "uuid": "d", "logicalParentUuid": "b"},
        {"type": "user", "uuid": "e", "isCompactSummary": True},
    ]

    assert claude_code_compaction_cuts(records) == (2,)
    assert claude_code_workspace(records) == "/ws"

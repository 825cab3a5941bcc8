"""Steps the agent announced and never reached are unfinished work; reached ones, steps naming
nothing checkable and steps a tracker already lists are not (example and property tests on
generated sessions, and a hostile session whose cost is counted in work done)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.application.services.compaction.recall.summary_checks import (
    STEP_ITEM,
    check_summary,
    is_reached,
)
from cleveragents.application.services.compaction.summary import announced_steps
from cleveragents.application.services.compaction.summary.announced_steps import (
    MAX_STEPS,
    NOT_REACHED,
    unreached_steps,
)
from cleveragents.application.services.compaction.summary.budget import fit_summary
from cleveragents.application.services.compaction.summary.deterministic_summarizer import (
    DeterministicSummarizer,
)
from cleveragents.application.services.compaction.summary.extract_outcomes import tool_activities
from cleveragents.domain.compaction_summary import SummarySection, render_summary
from cleveragents.domain.transcript import Message, Role, ThinkingBlock
from tests.generated_sessions import (
    assistant,
    bash,
    call,
    edit,
    plan,
    step,
    summarize,
    todo_write,
    user,
)
from tests.summary_samples import count

S = SummarySection
PROPERTY = settings(max_examples=50, deadline=None)
# Ends a message of announcements, so that none of them narrates a call that follows at once.
_PAUSE = "That is all for this message."


def _steps(*messages: Message) -> list[str]:
    """The announced steps the summary lists as unfinished, without their prefix."""
    return [
        item.removeprefix(NOT_REACHED)
        for item in summarize(*messages).items(S.UNFINISHED)
        if item.startswith(NOT_REACHED)
    ]


def test_a_step_reached_by_a_later_edit_is_not_listed_and_one_never_reached_is() -> None:
    listed = _steps(
        user("Build the users feature."),
        assistant(
            "Next, I'll add the migration in db/0003_users.sql. "
            f"Then I will update docs/api.md. {_PAUSE}"
        ),
        *edit("/work/shop/db/0003_users.sql"),  # the path's tail is the step's path
        assistant("Waiting for the review."),
    )
    assert listed == ["Then I will update docs/api.md."]


def test_every_wording_of_an_announcement_is_read() -> None:
    listed = _steps(
        user("Go on."),
        assistant(
            "Next, I'll add `parse_users`. Then I will update docs/api.md. "
            "After that: run `make e2e`. Now let's move to spotter-a0y.3 for the adapter. "
            f"Moving on to the `SessionLive` module. {_PAUSE}"
        ),
        assistant("Paused."),
    )
    # The last one is the work in progress at the cut (current work), not listed twice.
    assert len(listed) == 4
    assert summarize(user("Go on."), assistant("Then I will update docs/api.md.")).items(
        S.NEXT_STEPS
    ) == ("Then I will update docs/api.md.",)


def test_a_later_statement_of_something_done_reaches_a_step_a_negated_one_does_not() -> None:
    opening = [
        user("Go on."),
        assistant(f"Next, I'll update `README.md`. Then I will add `load_config`. {_PAUSE}"),
    ]
    listed = _steps(
        *opening,
        assistant("`README.md` is updated."),
        assistant("`load_config` is not added yet."),
    )
    assert listed == ["Then I will add `load_config`."]


def test_a_numbered_plan_partly_done_lists_only_its_open_items() -> None:
    listed = _steps(
        user("Implement the importer."),
        plan(
            "Add `read_rows` to importer/rows.py",
            "Wire `ImportJob`",
            "Document it in docs/import.md",
        ),
        assistant(_PAUSE),
        *edit("/repo/importer/rows.py", "def read_rows(): ..."),
        *step(call("Write", file_path="/repo/importer/job.py", content="class ImportJob: ...")),
        assistant("Stopping here."),
    )
    assert listed == ["Document it in docs/import.md"]


def test_a_numbered_report_of_work_done_is_not_a_plan() -> None:
    listed = _steps(
        user("What changed?"),
        plan("Added `read_rows` to importer/rows.py", "Fixed docs/import.md", intro="Summary:"),
        plan("Updated `load_config`", "Documented docs/config.md", intro="Here is what I'll list:"),
    )
    assert listed == []


def test_steps_naming_nothing_checkable_are_not_listed() -> None:
    listed = _steps(
        user("Go on."),
        assistant(
            "Next, I'll add the migration for users. Then I will update the docs. "
            f"After that: run the integration tests. Finally, I'll clean up. {_PAUSE}"
        ),
    )
    assert listed == []


def test_an_announcement_narrating_the_call_that_follows_is_reached_by_it() -> None:
    narrated = [
        user("Go on."),
        assistant("Next, I'll update `config_loader`.", call("Read", file_path="/r/other.py")),
    ]
    assert _steps(*narrated) == []
    # The same sentence followed by a call in a message of its own (Claude Code's records).
    separate = [user("Go on."), assistant("Next, I'll update `config_loader`."), *bash("ls")]
    assert _steps(*separate) == []
    # Not the last sentence of its message: the call that follows narrates another one.
    earlier = assistant("Next, I'll update `config_loader`. Let me look around first.")
    # (a request after it, or the announcement would be the work in progress at the cut)
    listed = _steps(user("Go on."), earlier, *bash("ls"), user("Continue."))
    assert listed == ["Next, I'll update `config_loader`."]


def test_a_step_naming_a_tracked_task_is_left_to_the_tracker() -> None:
    summary = summarize(
        user("Work through the epic."),
        *bash("bd create 'Tail adapter' --status open", "Created issue: spotter-a0y.3"),
        assistant(f"Now let's move to spotter-a0y.3 for the adapter. {_PAUSE}"),
        assistant("Paused."),
    )
    unfinished = summary.items(S.UNFINISHED)
    assert unfinished == ("spotter-a0y.3 (bd): Tail adapter",)


def test_a_task_id_is_reached_by_a_command_naming_it() -> None:
    listed = _steps(
        user("Go on."),
        assistant(f"Next, I'll take #12. Then I will take gqc.4. {_PAUSE}"),
        *bash("gh issue comment 12 --body 'on it'"),
        *bash("bd show spotter-gqc.4"),
        assistant("Paused."),
    )
    assert listed == []


def test_a_later_compaction_drops_a_step_it_reached() -> None:
    first = [
        user("Go on."),
        assistant(f"Then I will update docs/api.md. {_PAUSE}"),
        assistant("Paused."),
    ]
    earlier = summarize(*first)
    assert earlier.items(S.UNFINISHED) == (NOT_REACHED + "Then I will update docs/api.md.",)
    later = DeterministicSummarizer().summarize(
        [*edit("/w/docs/api.md"), assistant("Done.")], earlier
    )
    assert later.items(S.UNFINISHED) == ()


def test_open_tasks_and_failing_tests_outrank_announced_steps_in_the_budget() -> None:
    announcements = " ".join(f"Then I will write `module_{i}.py`." for i in range(30))
    summary = summarize(
        user("Go on."),
        *bash("bd create 'Parser' --status open", "Created issue: shop-7"),
        assistant(f"{announcements} {_PAUSE}"),
        *bash("pytest -q", "1 failed", failed=True),
        assistant("Paused."),
    )
    unfinished = summary.items(S.UNFINISHED)
    steps = [item for item in unfinished if item.startswith(NOT_REACHED)]
    assert len(steps) == MAX_STEPS
    assert steps[-1] == NOT_REACHED + "Then I will write `module_29.py`."  # the newest kept
    whole = count(render_summary(summary))
    fitted = fit_summary(summary, whole // 2, count)
    assert count(render_summary(fitted)) <= whole // 2
    kept = fitted.items(S.UNFINISHED)
    assert "shop-7 (bd): Parser" in kept
    assert any(item.startswith("failing at the cut") for item in kept)


# Properties -----------------------------------------------------------------------------------

_WORDS = st.sampled_from(["the", "parser", "users", "docs", "cache", "tests", "config", "API"])


@PROPERTY
@given(
    reached=st.lists(st.booleans(), min_size=1, max_size=14),
    by_statement=st.lists(st.booleans(), min_size=14, max_size=14),
    as_plan=st.booleans(),
)
def test_a_step_is_listed_exactly_when_nothing_later_names_it(
    reached: list[bool], by_statement: list[bool], as_plan: bool
) -> None:
    names = [f"module_{i}.py" for i in range(len(reached))]
    if as_plan:
        opening = plan(*(f"Write `{name}`" for name in names))
    else:
        opening = assistant(" ".join(f"Then I will write `{name}`." for name in names) + _PAUSE)
    later: list[Message] = []
    for name, done, said in zip(names, reached, by_statement, strict=False):
        if done and said:
            later.append(assistant(f"`{name}` is written."))
        elif done:
            later.extend(edit(f"/repo/src/{name}"))
    listed = _steps(user("Go on."), opening, assistant(_PAUSE), *later, assistant("Paused."))
    open_names = [name for name, done in zip(names, reached, strict=True) if not done]
    expected = open_names[-MAX_STEPS:]
    assert [next(n for n in names if f"`{n}`" in item) for item in listed] == expected


@PROPERTY
@given(st.lists(st.lists(_WORDS, min_size=1, max_size=5).map(" ".join), min_size=1, max_size=8))
def test_a_step_naming_nothing_identifiable_is_never_listed(objects: list[str]) -> None:
    text = " ".join(f"Then I will update {obj}." for obj in objects)
    plain = plan(*(f"Update {obj}" for obj in objects))
    assert _steps(user("Go on."), assistant(f"{text} {_PAUSE}"), plain, assistant("Ok.")) == []


# A hostile session -----------------------------------------------------------------------------


def test_ten_thousand_announcements_cost_one_pass_over_the_evidence(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    size = 10_000
    messages: list[Message] = [user("Go on.")]
    for i in range(size):
        messages.append(assistant(f"Then I will write `module_{i}.py`. {_PAUSE}"))
    for i in range(0, size, 2):  # every other step is reached, after all of them were announced
        messages.extend(edit(f"/repo/module_{i}.py"))
    messages.append(assistant("Paused."))
    read = 0
    words = announced_steps._words

    def counting(text: str) -> list[str]:
        nonlocal read
        read += 1
        return words(text)

    # Every text is split into words through this one function: steps, calls and statements.
    monkeypatch.setattr(announced_steps, "_words", counting)
    activities = tool_activities(messages)
    listed = unreached_steps(messages, activities, [])
    # Each announcement, call argument and statement is read once or twice: a pass per
    # announcement over the later messages would read 10,000 times as many.
    assert read <= 4 * (len(activities) + len(messages))
    assert len(listed) == MAX_STEPS
    assert all(int(item.split("module_")[1].split(".")[0]) % 2 == 1 for item in listed)


def test_the_benchmarks_check_flags_a_listed_step_a_later_call_named() -> None:
    messages = [
        user("Go on."),
        assistant(f"Then I will update docs/api.md. Then I will add `load_config`. {_PAUSE}"),
        *edit("/w/docs/api.md"),
    ]
    assert is_reached(STEP_ITEM + "Then I will update docs/api.md.", messages)
    assert not is_reached(STEP_ITEM + "Then I will add `load_config`.", messages)
    # The summary lists only the one not reached, so the check finds nothing to flag.
    text = render_summary(summarize(*messages, assistant("Paused.")))
    checks = check_summary(messages, text)
    assert (checks.steps_open, checks.steps_reached) == (1, ())


def test_a_message_of_thinking_alone_between_an_announcement_and_its_call_is_passed_over() -> None:
    thinking = Message(role=Role.ASSISTANT, content=(ThinkingBlock(thinking="hmm"),))
    narrated = [user("Go on."), assistant("Next, I'll update `config_loader`."), thinking]
    assert _steps(*narrated, *bash("ls")) == []


def test_a_step_a_todo_list_holds_is_listed_once_from_the_list() -> None:
    summary = summarize(
        user("Go on."),
        *step(todo_write(("Update docs/api.md", "pending"), ("Add `load_config`", "completed"))),
        assistant(f"Then I will update docs/api.md. Next, I'll add `load_config`. {_PAUSE}"),
        assistant("Paused."),
    )
    assert summary.items(S.UNFINISHED) == ("Update docs/api.md",)
